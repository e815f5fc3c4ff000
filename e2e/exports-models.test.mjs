// The page and `imr` write the same bytes for the same
// request. The Models view's downloads (R and Stata code, Markdown and LaTeX tables byte for
// byte; the coefficient CSV too) are compared with what `imr fit` prints when run with the
// command the page shows (on the downloaded analysis data, and on the bundled file with the
// page's roles; on the Spanish page the tables are Spanish, with the decimal comma, and its
// commands name `--lang es`), and the Data view's rates CSV with what its shown `imr rates` command prints,
// byte for byte. The microdata
// breakdowns live in the URL fragment: a shared link reopens them and the job uses them.
// No request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, launch, openPage, outsideRequests, cargoBinary, fixture, exportDate, imrEnv, ROOT } from './harness.mjs';
import { shellWords } from './views.mjs';
import { DataPage, MicrodataPage, ModelsPage } from './pages/index.mjs';
import { decimalPoints, englishWords } from './spanish.mjs';

const BUNDLED = 'chile_imr_2001_2021.csv';
const REGRESSORS = ['pobreza', 'ingreso_salud_pc', 'ruralidad', 'sapu'];

// Asserts that a CSV of the page equals imr's, byte for byte (the first differing line is
// shown). Every number is the same bits: `imr` computes with the page's floating-point functions
// (crates/imr-cli/src/same_math.rs), also where statrs' special functions give interval limits
// and p-values.
function assertSameCsv(page, cli, what) {
  if (page === cli) return;
  const [a, b] = [page.split('\n'), cli.split('\n')];
  const line = a.findIndex((l, i) => l !== b[i]);
  assert.fail(`${what}: the page and imr differ at line ${line + 1}:\n page: ${a[line]}\n imr:  ${b[line]}`);
}

// `imr` run in `dir` with these words (after `imr`), its standard output; with `datedLike`, a
// download of the page, its exports dated as that download is (see imrEnv).
const imr = (dir, words, datedLike = null) => execFileSync(cargoBinary('imr-cli', 'imr'), words,
  { cwd: dir, encoding: 'utf8', env: datedLike === null ? process.env : imrEnv(exportDate(datedLike)) });

let server, browser, dir;
before(async () => {
  server = await startServer();
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-e2e-exports-'));
  // Where the page's commands name the bundled file (public/data/…, as in a checkout).
  fs.mkdirSync(path.join(dir, 'public', 'data'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, 'public', 'data', BUNDLED), path.join(dir, 'public', 'data', BUNDLED));
  fs.copyFileSync(path.join(ROOT, 'public', 'data', BUNDLED), path.join(dir, BUNDLED));
});
after(async () => {
  await browser?.close();
  await server?.close();
  fs.rmSync(dir, { recursive: true, force: true });
});

// A download (a page object's download, saved into `dir` under its suggested name): [name, text].
async function save(download) {
  const file = await download;
  return [file.name, file.text];
}

// The Data view's `imr rates` command: the page's input (files and roles) is its words between
// `rates` and `--format`; `--format csv` ends it, then `--csv-lang es` on the Spanish page.
async function ratesCommand(data) {
  const words = await data.ratesCommand();
  assert.deepEqual(words.slice(0, 2), ['imr', 'rates']);
  const format = words.indexOf('--format');
  assert.deepEqual(words.slice(format, format + 2), ['--format', 'csv']);
  const after = words.slice(format + 2);
  assert.ok(after.length === 0 || (after.length === 2 && after[0] === '--csv-lang'), words.join(' '));
  return words;
}

// The page's input in a rates command: its words between `rates` and `--format`.
const inputOf = (words) => words.slice(2, words.indexOf('--format'));

// Opens the Models view (its page object) with these models, standard errors and regressors,
// and waits for every model's column; `input` is the page's input (files and roles), from the
// Data view's command. With `lang` 'es', the Spanish page (a browser in es-CL).
async function openModels(models, vcov, { lang = 'en' } = {}) {
  const opened = lang === 'es'
    ? await openPage(browser, `${server.origin}/#view=data&lang=es`, { locale: 'es-CL' })
    : await openPage(browser, server.origin + '/');
  const data = DataPage.attach(opened);
  await data.waitForRowCount('read', 7245);
  const view = ModelsPage.attach(opened);
  view.input = inputOf(await ratesCommand(data));
  await view.openTab('models');
  await view.coefTable().waitFor({ timeout: 60_000 });
  await view.choose({ models, vcov, regressors: REGRESSORS });
  await view.waitForModelCount(models.length);
  return view;
}

// The shown `imr fit` commands, split into words; each reads the analysis data and ends with
// `--format json`.
async function fitCommands(view) {
  const commands = await view.commands().allTextContents();
  return commands.map((text) => {
    const words = shellWords(text);
    assert.deepEqual(words.slice(0, 3), ['imr', 'fit', 'imr_modelos_datos.csv']);
    assert.deepEqual(words.slice(-2), ['--format', 'json']);
    return words;
  });
}

// The request part of a fit command (from --y to before --format).
const requestWords = (words) => words.slice(words.indexOf('--y'), -2);
// A CSV's data part, after its provenance (#) lines.
const body = (csv) => csv.replace(/^(#[^\n]*\n)+/, '');

test('one model: every Models download is what imr fit prints for the shown command', async () => {
  const view = await openModels(['fe'], 'cluster');
  const { requests, errors, input } = view;
  const [data] = await save(view.downloadTo('data', dir));
  assert.equal(data, 'imr_modelos_datos.csv');
  const [command] = await fitCommands(view);
  const onData = (format) => imr(dir, [...command.slice(1, -2), '--format', format]);
  for (const format of ['r', 'stata', 'markdown', 'latex']) {
    const [name, text] = await save(view.downloadTo(format, dir));
    assert.equal(text, onData(format), `${name} differs from imr fit --format ${format}`);
  }
  // The coefficient CSV names the page's input as its source: the same request on the bundled
  // file, read with the page's roles, prints it byte for byte; on the downloaded data the same
  // table after the provenance lines (the analysis data reproduce the fit bit for bit).
  const [, coefficients] = await save(view.downloadTo('coef-csv', dir));
  assert.deepEqual(input, [`public/data/${BUNDLED}`, '--entity', 'codigo_comuna', '--time', 'anio', '--births', 'nacidos_vivos', '--deaths', 'defunciones_infantiles', '--rate', 'tmi_sinim']);
  const onBundled = imr(dir, ['fit', ...input, ...requestWords(command), '--format', 'csv'], coefficients);
  assertSameCsv(coefficients, onBundled, 'coefficient CSV vs imr fit --format csv');
  assert.match(coefficients, new RegExp(`^# Source: ${BUNDLED}\n`));
  assertSameCsv(body(coefficients), body(onData('csv')), 'coefficient CSV vs imr fit on the analysis data');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('the Spanish page: its tables have the decimal comma and Spanish words, and its command (with --lang es) prints them', async () => {
  const view = await openModels(['re', 'pooled'], 'cluster', { lang: 'es' });
  const { requests, errors } = view;
  await save(view.downloadTo('data', dir));
  const commands = await fitCommands(view);
  for (const words of commands) assert.deepEqual(words.slice(-4), ['--lang', 'es', '--format', 'json']);
  const onData = (words, format) => imr(dir, [...words.slice(1, -2), '--format', format]);
  const [, markdown] = await save(view.downloadTo('markdown', dir));
  const [, latex] = await save(view.downloadTo('latex', dir));
  // Each column is its command's table: with one model the page's file is imr's, byte for byte.
  const single = await openModels(['re'], 'cluster', { lang: 'es' });
  await save(single.downloadTo('data', dir));
  const [command] = await fitCommands(single);
  for (const format of ['markdown', 'latex']) {
    const [name, text] = await save(single.downloadTo(format, dir));
    assert.equal(text, onData(command, format), `${name} differs from imr fit --lang es --format ${format}`);
  }
  // The coefficient CSV is the spreadsheet's (`--csv-lang es`, in the shown command), the same
  // rows as imr fit writes on the analysis data.
  assert.ok(command.includes('--csv-lang'), command.join(' '));
  const [, coefficients] = await save(single.downloadTo('coef-csv', dir));
  const spanishBody = (t) => t.replace(/^\uFEFF/, '').replace(/^(#[^\n]*\n)+/, '');
  assert.match(coefficients, /^\uFEFF# Fuente: /);
  assert.match(spanishBody(coefficients), /^modelo;tipo_ee;termino;coeficiente;ee;/);
  assertSameCsv(spanishBody(coefficients), spanishBody(onData(command, 'csv')), 'Spanish coefficient CSV vs imr fit --csv-lang es');
  // The model by its Spanish name, as the table's column head (issue 42: "re", "fe").
  assert.match(spanishBody(coefficients), /\nEfectos aleatorios \(Swamy–Arora\);conglomerado;/);
  // Decimal commas (braced in LaTeX math), no decimal point, no English word of the lists.
  assert.match(markdown, /\| [-−]?\d+,\d+\**\s\|/, markdown);
  assert.match(latex, /\$-?\d+\{,\}\d+(\^\{\*+\})?\$/, latex);
  for (const [name, text] of [['markdown', markdown], ['latex', latex]]) {
    assert.deepEqual(decimalPoints(text), [], `${name}: ${text}`);
    // Code is code: LaTeX's \texttt{-{}-model pooled} as Markdown's `--model pooled`.
    const prose = text.replace(/\\texttt\{(?:[^{}]|\{\})*\}/g, '');
    assert.deepEqual(englishWords(prose), [], `${name}: ${text}`);
  }
  // The page's model order (the estimators' own), each headed by its Spanish name.
  assert.match(markdown, /^\| \| \(1\) MCO agrupado \| \(2\) Efectos aleatorios \(Swamy–Arora\) \|\n/);
  // The `--model` keys as the command's option and the clustered errors in the page's words
  // (issue 42: "Modelo | `cre`", "Agrupados por entidad").
  assert.match(markdown, /\n\| Modelo \(imr\) \| `--model pooled` \| `--model re` \|\n/);
  assert.match(markdown, /\n\| Errores estándar \| Agrupados por comuna \| Agrupados por comuna \|\n/);
  assert.match(markdown, /\n\| Observaciones \|/);
  assert.match(markdown, /\nErrores estándar entre paréntesis\. \* p < 0,05/);
  // The CSV and the code are the machine-readable files of the English page.
  const [, rCode] = await save(view.downloadTo('r', dir));
  const english = commands.map((w) => w.filter((_, i) => !(w[i] === '--lang' || w[i - 1] === '--lang')));
  assert.equal(rCode, english.map((w) => onData(w, 'r')).join('\n'));
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  assert.deepEqual(single.errors, []);
});

test('several models: the coefficient CSV and the code are each shown command\'s output in turn', async () => {
  const view = await openModels(['pooled', 're'], 'iid');
  const { requests, errors, input } = view;
  await save(view.downloadTo('data', dir));
  const commands = await fitCommands(view);
  assert.deepEqual(commands.map((w) => w[w.indexOf('--model') + 1]), ['pooled', 're']);
  const csvs = commands.map((w) => imr(dir, ['fit', ...input, ...requestWords(w), '--format', 'csv']));
  const [, coefficients] = await save(view.downloadTo('coef-csv', dir));
  // One header, then each model's rows in the order of the commands.
  const [header, ...firstRows] = body(csvs[0]).trimEnd().split('\n');
  const rows = [...firstRows, ...csvs.slice(1).flatMap((c) => body(c).trimEnd().split('\n').slice(1))];
  assertSameCsv(body(coefficients), [header, ...rows].join('\n') + '\n', 'coefficient CSV of two models');
  assert.equal(coefficients.split('\n')[0], csvs[0].split('\n')[0], 'same source line');
  for (const format of ['r', 'stata']) {
    const [name, text] = await save(view.downloadTo(format, dir));
    const expected = commands.map((w) => imr(dir, [...w.slice(1, -2), '--format', format])).join('\n');
    assert.equal(text, expected, `${name} differs from the commands' --format ${format}`);
  }
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('the rates CSV is what the shown imr rates command prints, for the bundled data and an upload with a changed role', async () => {
  const data = DataPage.attach(await openPage(browser, server.origin + '/'));
  const { requests, errors } = data;
  await data.waitForRowCount('read', 7245);
  const [name, csv] = await save(data.downloadRates(dir));
  assert.equal(name, 'tasas_imr.csv');
  assertSameCsv(csv, imr(dir, (await ratesCommand(data)).slice(1), csv), 'rates CSV');

  fs.copyFileSync(fixture('good_latin1.csv'), path.join(dir, 'good_latin1.csv'));
  await data.upload(fixture('good_latin1.csv'));
  await data.waitForRowCount('read', 4);
  await data.chooseRole('deaths', { label: 'Pobreza' });
  await data.ratesCommandLine().filter({ hasText: '--deaths Pobreza' }).waitFor();
  const words = await ratesCommand(data);
  assert.equal(words[2], 'good_latin1.csv');
  const [, uploaded] = await save(data.downloadRates(dir));
  assertSameCsv(uploaded, imr(dir, words.slice(1), uploaded), 'rates CSV of the upload');
  assert.match(uploaded, /^# Source: good_latin1\.csv\n/);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('the Spanish page\'s rates CSV is what its shown command, with --csv-lang es, prints', async () => {
  const opened = await openPage(browser, `${server.origin}/#view=data&lang=es`, { locale: 'es-CL' });
  const data = DataPage.attach(opened);
  const { requests, errors } = data;
  await data.waitForRowCount('read', 7245);
  const words = await data.ratesCommand();
  assert.deepEqual(words.slice(0, 2), ['imr', 'rates']);
  assert.deepEqual(words.slice(-4), ['--format', 'csv', '--csv-lang', 'es']);
  const [name, csv] = await save(data.downloadRates(dir));
  assert.equal(name, 'tasas_imr.csv');
  assertSameCsv(csv, imr(dir, words.slice(1), csv), 'Spanish rates CSV');
  // The spreadsheet's form: byte-order mark, Spanish provenance and names, `;`, decimal comma.
  assert.match(csv, /^\uFEFF# Fuente: INE, DEIS–MINSAL y SINIM–SUBDERE \(chile_imr_2001_2021\.csv\)\n# motor imr-atlas /);
  assert.match(csv, /\ncodigo_comuna;anio;nacimientos;defunciones;tasa_por_1000;ic_inf;ic_sup;copia_de_anio;defunciones_reconstruidas;marcada_inverosimil\n01101;2001;4434;42;9,47\d*;/);
  // Without the option, imr writes the English page's machine CSV.
  const machine = imr(dir, words.slice(1, -2), csv);
  assert.match(machine, /^# Source: chile_imr_2001_2021\.csv\n/);
  assert.match(machine, /\nentity,time,births,deaths,rate_per_1000,ci_low,ci_high,copy_of_year,deaths_reconstructed,flagged_implausible\n01101,2001,4434,42,9\.47/);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('the microdata breakdowns are in the link, and a shared link runs the job with them', async () => {
  const deaths = path.join(dir, 'defunciones.csv');
  execFileSync(cargoBinary('imr-microdata', 'imr-gen-deaths'),
    ['--out', deaths, '--expected', deaths + '.expected', '--rows', '5000', '--seed', '11', '--years', '2015-2016'], { stdio: 'pipe' });
  const microdata = MicrodataPage.attach(await openPage(browser, server.origin + '/'));
  const { page, errors } = microdata;
  await microdata.breakdown('neonatal').check();
  await page.waitForFunction(() => /[#&]md-neonatal=true(&|$)/.test(location.hash));
  assert.match(page.url(), /[#&]md-cause=false(&|$)/);
  const link = page.url();

  const shared = MicrodataPage.attach(await openPage(browser, link));
  assert.equal(await shared.breakdown('neonatal').isChecked(), true);
  assert.equal(await shared.breakdown('cause').isChecked(), false);
  await shared.breakdown('cause').check();
  await shared.page.waitForFunction(() => /[#&]md-cause=true(&|$)/.test(location.hash));
  await shared.chooseDeaths(deaths);
  await shared.deathsChosen().filter({ hasText: 'recognised as deaths microdata' }).waitFor();
  await shared.start();
  await shared.result().waitFor({ timeout: 60_000 });
  assert.match(await shared.commandText(), /--breakdown neonatal --breakdown cause/);
  assert.deepEqual(errors, []);
  assert.deepEqual(shared.errors, []);
});
