// The page and `imr` write the same bytes for the same
// request. The Models view's downloads (R and Stata code, Markdown and LaTeX tables byte for
// byte; the coefficient CSV too) are compared with what `imr fit` prints when run with the
// command the page shows (on the downloaded analysis data, and on the bundled file with the
// page's roles), and the Data view's rates CSV with what its shown `imr rates` command prints,
// byte for byte. The microdata
// breakdowns live in the URL fragment: a shared link reopens them and the job uses them.
// No request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, launch, openPage, outsideRequests, cargoBinary, fixture, ROOT } from './harness.mjs';
import { shellWords, chooseModels, downloadFile } from './views.mjs';

const BUNDLED = 'chile_imr_2019_2023.csv';
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

// `imr` run in `dir` with these words (after `imr`), its standard output.
const imr = (dir, words) => execFileSync(cargoBinary('imr-cli', 'imr'), words, { cwd: dir, encoding: 'utf8' });

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

// A download saved into `dir` under its suggested name: [name, text].
async function save(page, testid) {
  const download = await downloadFile(page, page.getByTestId(testid), dir);
  return [download.name, download.text];
}

// The Data view's `imr rates` command: the page's input (files and roles) is its words between
// `rates` and `--format`.
async function ratesCommand(page) {
  const words = shellWords(await page.getByTestId('rates-command').textContent());
  assert.deepEqual(words.slice(0, 2), ['imr', 'rates']);
  assert.deepEqual(words.slice(-2), ['--format', 'csv']);
  return words;
}

// Opens the Models view with these models, standard errors and regressors, and waits for every
// model's column.
async function openModels(models, vcov) {
  const opened = await openPage(browser, server.origin + '/');
  const { page } = opened;
  await page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
  // The page's input (files and roles), from the Data view's command.
  opened.input = (await ratesCommand(page)).slice(2, -2);
  await page.getByTestId('tab-models').click();
  await page.getByTestId('coef-table').waitFor({ timeout: 60_000 });
  await chooseModels(page, { models, vcov, regressors: REGRESSORS });
  await page.waitForFunction((n) => document.querySelectorAll('[data-testid="imr-commands"] [data-command]').length === n
    && document.querySelectorAll('[data-testid="coef-table"] thead th[data-model]').length === n, models.length);
  return opened;
}

// The shown `imr fit` commands, split into words; each reads the analysis data and ends with
// `--format json`.
async function fitCommands(page) {
  const commands = await page.locator('[data-testid="imr-commands"] [data-command]').allTextContents();
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
  const { page, requests, errors, input } = await openModels(['fe'], 'cluster');
  const [data] = await save(page, 'download-data');
  assert.equal(data, 'imr_modelos_datos.csv');
  const [command] = await fitCommands(page);
  const onData = (format) => imr(dir, [...command.slice(1, -2), '--format', format]);
  for (const [testid, format] of [['download-r', 'r'], ['download-stata', 'stata'],
    ['download-markdown', 'markdown'], ['download-latex', 'latex']]) {
    const [name, text] = await save(page, testid);
    assert.equal(text, onData(format), `${name} differs from imr fit --format ${format}`);
  }
  // The coefficient CSV names the page's input as its source: the same request on the bundled
  // file, read with the page's roles, prints it byte for byte; on the downloaded data the same
  // table after the provenance lines (the analysis data reproduce the fit bit for bit).
  const [, coefficients] = await save(page, 'download-coef-csv');
  assert.deepEqual(input, [`public/data/${BUNDLED}`, '--entity', 'codigo_comuna', '--time', 'anio', '--births', 'nacidos_vivos_est', '--rate', 'tmi']);
  const onBundled = imr(dir, ['fit', ...input, ...requestWords(command), '--format', 'csv']);
  assertSameCsv(coefficients, onBundled, 'coefficient CSV vs imr fit --format csv');
  assert.match(coefficients, new RegExp(`^# Source: ${BUNDLED}\n`));
  assertSameCsv(body(coefficients), body(onData('csv')), 'coefficient CSV vs imr fit on the analysis data');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('several models: the coefficient CSV and the code are each shown command\'s output in turn', async () => {
  const { page, requests, errors, input } = await openModels(['pooled', 're'], 'iid');
  await save(page, 'download-data');
  const commands = await fitCommands(page);
  assert.deepEqual(commands.map((w) => w[w.indexOf('--model') + 1]), ['pooled', 're']);
  const csvs = commands.map((w) => imr(dir, ['fit', ...input, ...requestWords(w), '--format', 'csv']));
  const [, coefficients] = await save(page, 'download-coef-csv');
  // One header, then each model's rows in the order of the commands.
  const [header, ...firstRows] = body(csvs[0]).trimEnd().split('\n');
  const rows = [...firstRows, ...csvs.slice(1).flatMap((c) => body(c).trimEnd().split('\n').slice(1))];
  assertSameCsv(body(coefficients), [header, ...rows].join('\n') + '\n', 'coefficient CSV of two models');
  assert.equal(coefficients.split('\n')[0], csvs[0].split('\n')[0], 'same source line');
  for (const [testid, format] of [['download-r', 'r'], ['download-stata', 'stata']]) {
    const [name, text] = await save(page, testid);
    const expected = commands.map((w) => imr(dir, [...w.slice(1, -2), '--format', format])).join('\n');
    assert.equal(text, expected, `${name} differs from the commands' --format ${format}`);
  }
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('the rates CSV is what the shown imr rates command prints, for the bundled data and an upload with a changed role', async () => {
  const { page, requests, errors } = await openPage(browser, server.origin + '/');
  await page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
  const [name, csv] = await save(page, 'rates-csv-download');
  assert.equal(name, 'tasas_imr.csv');
  assertSameCsv(csv, imr(dir, (await ratesCommand(page)).slice(1)), 'rates CSV');

  fs.copyFileSync(fixture('good_latin1.csv'), path.join(dir, 'good_latin1.csv'));
  await page.getByTestId('file-input').setInputFiles(fixture('good_latin1.csv'));
  await page.getByTestId('rows-read').filter({ hasText: /^4$/ }).waitFor();
  await page.getByTestId('role-deaths').selectOption({ label: 'Pobreza' });
  await page.getByTestId('rates-command').filter({ hasText: '--deaths Pobreza' }).waitFor();
  const words = await ratesCommand(page);
  assert.equal(words[2], 'good_latin1.csv');
  const [, uploaded] = await save(page, 'rates-csv-download');
  assertSameCsv(uploaded, imr(dir, words.slice(1)), 'rates CSV of the upload');
  assert.match(uploaded, /^# Source: good_latin1\.csv\n/);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('the microdata breakdowns are in the link, and a shared link runs the job with them', async () => {
  const deaths = path.join(dir, 'defunciones.csv');
  execFileSync(cargoBinary('imr-microdata', 'imr-gen-deaths'),
    ['--out', deaths, '--expected', deaths + '.expected', '--rows', '5000', '--seed', '11', '--years', '2015-2016'], { stdio: 'pipe' });
  const { page, errors } = await openPage(browser, server.origin + '/');
  await page.getByTestId('microdata-neonatal').check();
  await page.waitForFunction(() => /[#&]md-neonatal=true(&|$)/.test(location.hash));
  assert.match(page.url(), /[#&]md-cause=false(&|$)/);
  const link = page.url();

  const shared = await openPage(browser, link);
  assert.equal(await shared.page.getByTestId('microdata-neonatal').isChecked(), true);
  assert.equal(await shared.page.getByTestId('microdata-cause').isChecked(), false);
  await shared.page.getByTestId('microdata-cause').check();
  await shared.page.waitForFunction(() => /[#&]md-cause=true(&|$)/.test(location.hash));
  await shared.page.getByTestId('microdata-deaths-file').setInputFiles(deaths);
  await shared.page.getByTestId('microdata-deaths-chosen').filter({ hasText: 'recognised as deaths microdata' }).waitFor();
  await shared.page.getByTestId('microdata-start').click();
  await shared.page.getByTestId('microdata-result').waitFor({ timeout: 60_000 });
  assert.match(await shared.page.getByTestId('microdata-command').textContent(),
    /--breakdown neonatal --breakdown cause/);
  assert.deepEqual(errors, []);
  assert.deepEqual(shared.errors, []);
});
