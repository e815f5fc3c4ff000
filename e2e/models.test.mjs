// The Models view on the bundled data: the coefficients and standard errors on screen are the
// ones `imr fit` prints for the same model (the CLI is run from here, so the test cannot drift),
// several models sit side by side, the coefficient plot draws the table's intervals, the
// downloaded data and the shown command reproduce the table, and no request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, launch, openPage, outsideRequests, cargoBinary, ROOT } from './harness.mjs';
import { ModelsPage, openView } from './pages/index.mjs';
import { csvCells } from './views.mjs';

const DATA = 'public/data/chile_imr_2001_2021.csv';
const INPUT = ['--entity', 'codigo_comuna', '--time', 'anio', '--births', 'nacidos_vivos', '--deaths', 'defunciones_infantiles', '--rate', 'tmi_sinim'];
// Regressors chosen in the tests: two that vary over time, one time-invariant (dropped by fe).
const REGRESSORS = ['pobreza', 'ingreso_salud_pc', 'ruralidad', 'sapu'];

const imrBinary = () => cargoBinary('imr-cli', 'imr');

function imrFit(args) {
  const out = execFileSync(imrBinary(), ['fit', ...args, '--format', 'json'], { cwd: ROOT, encoding: 'utf8' });
  return JSON.parse(out);
}

const cliFit = (model, vcov, x = REGRESSORS) =>
  imrFit([DATA, ...INPUT, '--y', 'rate', '--x', x.join(','), '--model', model, '--vcov', vcov]);

function assertClose(what, actual, expected, rel = 1e-9) {
  assert.ok(Number.isFinite(actual), `${what}: ${actual} on the page`);
  assert.ok(Math.abs(actual - expected) <= rel * Math.max(1, Math.abs(expected)),
    `${what}: page ${actual} vs imr fit ${expected}`);
}

// Opens the Models tab and sets models, standard errors and regressors.
async function openModels(models, vcov, regressors = REGRESSORS) {
  const view = ModelsPage.attach(await openPage(browser, server.origin + '/'));
  await view.openTab('models');
  await view.coefTable().waitFor({ timeout: 60_000 });
  await view.choose({ models, vcov, regressors });
  return view;
}

// Every coefficient of the CLI's fit is on the page with the same estimate and SE.
async function assertTableMatches(view, fit, decimalComma = false) {
  for (const c of fit.coefficients) {
    const estimate = view.coefCell(c.term, 'estimate', fit.model);
    const stdError = view.coefCell(c.term, 'std_error', fit.model);
    assertClose(`${fit.model} ${c.term} estimate`, Number(await estimate.getAttribute('data-value')), c.estimate);
    assertClose(`${fit.model} ${c.term} std_error`, Number(await stdError.getAttribute('data-value')), c.std_error);
    // The rounded text shown is the same number.
    const text = (await estimate.textContent()).trim();
    // The minus sign is U+2212 in either language, as in every table of the page.
    const shown = parseFloat((decimalComma ? text.replace(',', '.') : text).replace('−', '-'));
    assert.ok(Math.abs(shown - c.estimate) <= 5e-4 * Math.max(1, Math.abs(c.estimate)), `${c.term}: shown ${shown}`);
    const interval = view.coefCell(c.term, 'conf_int', fit.model);
    assertClose(`${fit.model} ${c.term} conf_low`, Number(await interval.getAttribute('data-low')), c.conf_low, 1e-7);
    assertClose(`${fit.model} ${c.term} conf_high`, Number(await interval.getAttribute('data-high')), c.conf_high, 1e-7);
  }
}

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('fixed effects with clustered errors on screen are what imr fit prints', async () => {
  const view = await openModels(['fe'], 'cluster');
  const { page, requests, errors } = view;
  await view.modelHeading('fe').waitFor();
  assert.equal(await view.modelHeadings().count(), 1);
  const fit = cliFit('fe', 'cluster');
  assert.deepEqual(fit.coefficients.map((c) => c.term), ['pobreza', 'ingreso_salud_pc', 'ruralidad']);
  await view.waitForEstimate('ruralidad');
  await assertTableMatches(view, fit);
  // sapu does not vary within communes: dropped from fe, with the reason and cre/re suggested.
  assert.match(await view.coefCell('sapu', 'estimate', 'fe').textContent(), /omitida|dropped/);
  const diagnostics = await view.diagnostics('fe').textContent();
  assert.match(diagnostics, /«sapu».*does not vary within entities.*use correlated random effects or random effects/);
  assert.match(diagnostics, new RegExp(`F\\(${fit.tests.f_effects.df1}, ${fit.tests.f_effects.df2}\\)`));
  assert.match(diagnostics, /Hausman FE vs RE/);
  assert.match(diagnostics, /R²: within/);
  // Footer: observations and entities of the fit, in the page's number format (1,725).
  const grouped = (n) => n.toLocaleString('en-US');
  assert.match(await view.coefTable().locator('tfoot').textContent(), new RegExp(`${grouped(fit.nobs)}.*${grouped(fit.n_entities)}`));
  // The coefficient plot draws the table's intervals, a study covariate's per the change its
  // row names (distance per 50 km, as the Findings' question 4; it was drawn at zero per km).
  const svg = view.coefPlot().locator('svg');
  await svg.waitFor();
  const close = (a, b) => Math.abs(a - b) <= 1e-12 * Math.max(1, Math.abs(b));
  for (const c of fit.coefficients) {
    const mark = view.plotMark(c.term, 'fe');
    const interval = view.coefCell(c.term, 'conf_int', 'fe');
    const per = Number((await mark.getAttribute('data-per')) ?? 1);
    for (const [drawn, table] of [['data-conf-low', 'data-low'], ['data-conf-high', 'data-high']]) {
      const [a, b] = [Number(await mark.getAttribute(drawn)), per * Number(await interval.getAttribute(table))];
      assert.ok(close(a, b), `${c.term} ${drawn}: ${a} vs ${b}`);
    }
  }
  assert.equal(await view.plotMark('pobreza', 'fe').getAttribute('data-per'), '10');
  // The other language: same numbers, labels and decimal mark of that language.
  const before = await page.locator('#coef-h').textContent();
  await view.switchLanguage();
  await page.waitForFunction((h) => document.querySelector('#coef-h').textContent !== h, before);
  const spanish = (await page.locator('#coef-h').textContent()) === 'Coeficientes';
  const shown = (await view.coefCell('pobreza', 'estimate', 'fe').textContent()).trim();
  assert.match(shown, spanish ? /^−?\d+,\d+/ : /^−?\d+\.\d+/);
  assert.match(await view.regressorChoices().textContent(),
    spanish ? /Pobreza por ingresos/ : /Income poverty/);
  await assertTableMatches(view, fit, spanish);
  // The words alone, in either language: the code names (`fe`, `pobreza`, `(Intercept)`) are in
  // the shown commands, not beside the words ("Efectos fijos (intragrupos) fe").
  for (const language of [spanish ? 'es' : 'en', spanish ? 'en' : 'es']) {
    if (language !== (spanish ? 'es' : 'en')) {
      const heading = await page.locator('#coef-h').textContent();
      await view.switchLanguage();
      await page.waitForFunction((h) => document.querySelector('#coef-h').textContent !== h, heading);
    }
    assert.equal((await view.modelHeading('fe').textContent()).trim(),
      language === 'es' ? '(1) Efectos fijos (intragrupos)' : '(1) Fixed effects (within)');
    const term = (await view.termHeading('pobreza').textContent()).trim();
    assert.match(term, language === 'es' ? /^Pobreza por ingresos \(CASEN\) \([^)]*\)$/ : /^Income poverty \(CASEN\) \([^)]*\)$/);
    assert.equal(await view.coefTable().locator('code').count(), 0);
    assert.equal(await view.regressorChoices().locator('code').count(), 0);
    assert.equal(await view.testid('model-choices').locator('code').count(), 0);
    assert.doesNotMatch(await view.diagnostics('fe').locator('h4').textContent(), /^fe\b/);
  }
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('several models side by side: first model first, each matching imr fit', async () => {
  const view = await openModels(['pooled', 'fe', 're', 'cre'], 'iid');
  const { requests, errors } = view;
  await view.modelHeading('cre').waitFor();
  const models = await view.modelHeadings()
    .evaluateAll((ths) => ths.map((th) => th.dataset.model));
  assert.deepEqual(models, ['pooled', 'fe', 're', 'cre']);
  await view.waitForColumn('std_error', 'cre');
  // In every row the first model's cells come first.
  const firstCells = await view.coefRows().evaluateAll((rows) =>
    rows.map((r) => [r.querySelector('[data-field="estimate"]').dataset.model, r.querySelector('[data-field="std_error"]').dataset.model]));
  for (const pair of firstCells) assert.deepEqual(pair, ['pooled', 'pooled']);
  for (const model of ['pooled', 'fe', 're', 'cre']) {
    await assertTableMatches(view, cliFit(model, 'iid'));
  }
  // The time-invariant sapu is dropped from fe but estimated by re and cre.
  assert.match(await view.coefCell('sapu', 'estimate', 'fe').textContent(), /omitida|dropped/);
  assert.ok(Number.isFinite(Number(await view.coefCell('sapu', 'estimate', 'cre').getAttribute('data-value'))));
  const diagnostics = await view.diagnostics().textContent();
  assert.match(diagnostics, /Breusch–Pagan/);
  // Flagged rows left out make the panel unbalanced: θ differs by entity.
  assert.match(diagnostics, /θ = |θ_i ranges from/);
  assert.match(diagnostics, /Mundlak/);
  assert.equal(await view.coefPlot().locator('svg g[data-model="cre"]').count() > 0, true);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('the downloaded data and the command shown reproduce the table', async () => {
  const view = await openModels(['fe', 'poisson-fe'], 'cluster');
  const { requests, errors } = view;
  await view.modelHeading('poisson-fe').waitFor();
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-models-e2e-'));
  try {
    const save = async (name) => (await view.downloadTo(name, dir)).path;
    const data = await save('data');
    assert.equal(path.basename(data), 'imr_modelos_datos.csv');
    const commands = await view.commands().allTextContents();
    assert.equal(commands.length, 2);
    for (const command of commands) {
      // e.g. imr fit imr_modelos_datos.csv --entity codigo_comuna --time anio --y rate --x … --format json
      const args = command.trim().split(/\s+/);
      assert.equal(args[0], 'imr');
      assert.equal(args[1], 'fit');
      assert.equal(args[2], 'imr_modelos_datos.csv');
      const fit = JSON.parse(execFileSync(imrBinary(), ['fit', data, ...args.slice(3, -2), '--format', 'json'],
        { cwd: dir, encoding: 'utf8' }));
      await assertTableMatches(view, fit);
    }
    // poisson-fe models the deaths with births as exposure and reports rate ratios.
    assert.match(commands[1], /--y deaths .*--model poisson-fe .*--exposure births/);
    assert.match(await view.diagnostics('poisson-fe').textContent(), /Razón de tasas de incidencia|Incidence-rate ratio/);
    // The code files read the downloaded data.
    const r = fs.readFileSync(await save('r'), 'utf8');
    assert.match(r, /read\.csv\("imr_modelos_datos\.csv", check\.names = FALSE, comment\.char = "#", /);
    assert.match(r, /X <- as\.matrix\(d\[, c\("pobreza", "ingreso_salud_pc", "ruralidad", "sapu"\), drop = FALSE\]\)\n/);
    assert.match(r, /m <- lm\(Y ~ factor\(entity\) \+ X_w\)/);
    assert.match(r, /glm\(Y ~ factor\(entity\) \+ X_w \+ offset\(log\(exposure\)\), family = poisson\(\)/);
    const stata = fs.readFileSync(await save('stata'), 'utf8');
    // The data file starts with three provenance lines: names on row 4, data from row 5.
    assert.match(stata, /import delimited using "imr_modelos_datos\.csv", clear case\(preserve\) varnames\(4\) rowrange\(5\)/);
    assert.match(fs.readFileSync(data, 'utf8'), /^# Source: [^\n]*\n# imr-atlas engine [^\n]*\n# Generated: [^\n]*\n[^#]/);
    assert.match(stata, /xtreg rate pobreza ingreso_salud_pc ruralidad sapu, fe vce\(cluster entity_id\)/);
    assert.match(fs.readFileSync(await save('latex'), 'utf8'), /\\begin\{tabular\}/);
    assert.match(fs.readFileSync(await save('markdown'), 'utf8'), /^\| \| \(1\) fe \| \(2\) poisson-fe \|/);
    // The coefficient CSV: provenance lines, then the table.
    const csv = fs.readFileSync(await save('coef-csv'), 'utf8').split('\n').filter((l) => !l.startsWith('#'));
    assert.equal(csv[0], 'model,vcov,term,estimate,std_error,statistic,p_value,conf_low,conf_high');
    assert.ok(csv.some((l) => l.startsWith('fe,cluster,pobreza,')));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

// Counted, not timed (a slower machine must not fail it): the view's fits computed
// (`data-fits-run`, the cache's count) grow by one when a model is added, and by none when a
// model is taken away and ticked again (its fit is kept). The time is printed, for a reader.
test('adding a model fits only that model, and ticking one again fits nothing', async () => {
  const view = await openModels(['fe'], 'cluster');
  const { errors } = view;
  await view.modelHeading('fe').waitFor();
  const before = await view.fitsRun();
  assert.ok(before >= 1, `${before} fits before`);
  const started = Date.now();
  await view.checkModel('twfe');
  await view.modelHeading('twfe').waitFor();
  console.log(`adding twfe: ${Date.now() - started} ms`);
  assert.equal(await view.fitsRun(), before + 1, 'only twfe was fitted');
  await assertTableMatches(view, cliFit('twfe', 'cluster'));
  await view.uncheckModel('fe');
  await view.modelHeading('fe').waitFor({ state: 'detached' });
  await view.checkModel('fe');
  await view.modelHeading('fe').waitFor();
  assert.equal(await view.fitsRun(), before + 1, 'fe came back from the cache');
  assert.deepEqual(errors, []);
});

// The fe model absorbs the fixed effects typed in the view, as `imr fit --fe`
// does; the shown command carries --fe, runs on the downloaded data (which holds the text
// column region) and gives the table on screen; the effects are in the link (URL fragment).
test('absorbed fixed effects on screen are what imr fit --fe prints, and the command reproduces them', async () => {
  const view = await openModels(['fe', 're'], 'cluster', ['pobreza', 'ingreso_salud_pc']);
  const { page, errors } = view;
  await view.absorb('codigo_comuna,region^anio');
  const command = view.commands().first();
  await view.waitForFirstCommandIncluding('--fe');
  const fe = imrFit([DATA, ...INPUT, '--y', 'rate', '--x', 'pobreza,ingreso_salud_pc', '--fe', 'codigo_comuna,region^anio']);
  assert.deepEqual(fe.fixed_effects.map((f) => f.name), ['codigo_comuna', 'region^anio']);
  await assertTableMatches(view, fe);
  // re does not take absorbed effects: it is fitted as before, without them.
  await assertTableMatches(view, cliFit('re', 'cluster', ['pobreza', 'ingreso_salud_pc']));
  const text = (await command.textContent()).trim();
  assert.match(text, /--model fe --vcov cluster --fe 'codigo_comuna,region\^anio' --format json$/);
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-models-fe-'));
  try {
    const data = (await view.downloadTo('data', dir)).path;
    const header = fs.readFileSync(data, 'utf8').split('\n').find((l) => !l.startsWith('#'));
    assert.ok(header.split(',').includes('region'), header);
    // The shown words, unquoted as a shell would (the only quoted word is the --fe list).
    const words = text.replace(/'([^']*)'/g, '$1').split(/\s+/);
    const again = JSON.parse(execFileSync(imrBinary(), ['fit', data, ...words.slice(3)], { cwd: dir, encoding: 'utf8' }));
    await assertTableMatches(view, again);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.match(page.url(), /[#&]fe=codigo_comuna,region%5Eanio(&|$)/);
  assert.deepEqual(errors, []);
});

// Clusters other than the commune: with absorbed effects the standard errors cluster by the
// column chosen (imr fit --cluster), for fe and for poisson-fe (pyfixest's fepois); the column is
// in the link.
test('a cluster column on screen is what imr fit --fe --cluster prints, for fe and poisson-fe', async () => {
  const view = await openModels(['fe', 'poisson-fe'], 'cluster', ['pobreza', 'ingreso_salud_pc']);
  const { page, errors } = view;
  await view.absorb('codigo_comuna');
  // The selects offer what can be what they say (imr_core::model_columns): sizes as weights
  // (births alone in the bundled data: not SINIM's rate or year, nor the region's code), groups
  // as clusters (the year, the region).
  const offered = async (id) => view.testid(id).locator('option').evaluateAll((os) => os.map((o) => o.value));
  assert.deepEqual(await offered('model-weights'), ['', 'births']);
  const clusters = await offered('model-cluster');
  // (the region once: its code is the same grouping; not the communes' names, a note that
  // changes by year, a measurement)
  assert.deepEqual(clusters.slice(0, 3), ['', 'anio', 'region']);
  for (const other of ['codigo_region', 'comuna', 'nota', 'pobreza', 'dist_hospital_km']) assert.ok(!clusters.includes(other), `${other} in ${clusters}`);
  // Regressors are measurements: not the region's code, SINIM's year or the deaths' bounds.
  for (const other of ['codigo_region', 'anio_sinim', 'defunciones_min']) assert.equal(await view.testid(`x-${other}`).count(), 0, other);
  await view.chooseCluster('region');
  await view.waitForEveryCommandIncluding('--cluster region');
  const x = ['--x', 'pobreza,ingreso_salud_pc', '--fe', 'codigo_comuna', '--cluster', 'region'];
  const fe = imrFit([DATA, ...INPUT, '--y', 'rate', ...x]);
  assert.match(fe.vcov_convention, /^clustered by `region`/);
  await assertTableMatches(view, fe);
  const poisson = imrFit([DATA, ...INPUT, '--y', 'deaths', '--exposure', 'births', ...x, '--model', 'poisson-fe']);
  assert.deepEqual(poisson.fixed_effects.map((f) => f.name), ['codigo_comuna']);
  await assertTableMatches(view, poisson);
  assert.match(page.url(), /[#&]cluster=region(&|$)/);
  // The table's standard-errors row and the plot's legend name the column the errors are
  // clustered by (both said "by commune" of these fits by region).
  const seRow = view.coefTable().locator('tr', { has: page.locator('th', { hasText: /^Standard errors$/ }) });
  const seCells = await seRow.locator('td').allTextContents();
  assert.equal(seCells.length, 2, seCells.join(' | '));
  for (const cell of seCells) assert.match(cell.trim(), /^Clustered by “[^”]+”$/);
  assert.doesNotMatch(seCells.join(' '), /commune/);
  const legend = await view.coefPlot().textContent();
  assert.match(legend, /errors clustered by “region”/);
  assert.doesNotMatch(legend, /clustered by commune/);
  assert.deepEqual(errors, []);
});

// A file with 2020 a copy of 2019: the fits leave it out as the takeaway above them (the
// Findings' question 4) does, and the view says so; its checkbox keeps it in both (a newcomer
// read "42 observaciones" over a table of 63 fitted with the copy, never named).
test('the Models view says its fits leave out a copied year as its takeaway does, and offers to keep it', async () => {
  let csv = 'codigo;anio;nacimientos;defunciones;pobreza_propia\n';
  const communes = ['13101', '13102', '13103', '13104', '13105', '13106', '13107', '13108', '13109', '13110', '13111', '13112'];
  communes.forEach((code, k) => {
    const [births, deaths] = [800 + 50 * k, 3 + (k % 5)];
    csv += `${code};2019;${births};${deaths};${5 + k}\n${code};2020;${births};${deaths};${5 + k}\n${code};2021;${births + 20};${4 + (k % 3)};${6 + k}\n`;
  });
  const data = await openView(browser, server.origin, 'data', { lang: 'es' });
  await data.upload({ name: 'copia.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await data.waitForRowCount('read', 36);
  // The Data view's table of the loaded communes' rate marks the copy as the other views do
  // (its 2020 row showed 2019's rate without a word).
  const year2020 = data.page.locator('[data-testid="national-rate"] tr[data-time="2020"] td').first();
  assert.equal((await year2020.textContent()).replace(/\s+/g, ' ').trim(), '2020 (copia de 2019)');
  assert.equal(await year2020.getAttribute('data-repeat-of'), '2019');
  // Its download says it too: every 2020 row names the year it copies (`copia_de_anio`), no
  // other row does (a spreadsheet read the copy as a measured year).
  const [header, ...rows] = csvCells((await data.downloadRates()).text);
  const copyOf = header.indexOf('copia_de_anio');
  assert.ok(copyOf > 0, header.join(';'));
  assert.equal(rows.length, 36);
  for (const row of rows) assert.equal(row[copyOf], row[1] === '2020' ? '2019' : '', row.join(';'));
  await data.openTab('models');
  const note = data.testid('models-copies-used');
  await note.waitFor({ timeout: 60_000 });
  assert.equal((await note.textContent()).trim(),
    '2020 repite 2019 (una copia de la fuente, no un año de datos): estos modelos lo dejan fuera, como la respuesta de arriba y los Hallazgos; sus filas se listan entre las excluidas.');
  // A model of her own column: 12 communes in 2019 and 2021, 24 observations and 2 periods
  // (the copy's 12 rows listed among the excluded); kept, 36 and 3.
  const view = ModelsPage.attach(data);
  await view.choose({ models: ['fe'], vcov: 'cluster', regressors: ['pobreza_propia'] });
  await view.waitForModelCount(1);
  const stat = (label) => view.coefTable().locator('tfoot tr').filter({ has: view.page.locator(`th:text-is("${label}")`) }).locator('td');
  assert.equal((await stat('Observaciones').textContent()).trim(), '24');
  assert.equal((await stat('Períodos').textContent()).trim(), '2');
  // The checkbox that keeps it is beside the sentence; kept, the sentence goes and the copy
  // is fitted as a year of data.
  await data.testid('include-repeated-years').first().check();
  await note.waitFor({ state: 'detached' });
  await view.page.waitForFunction(() => [...document.querySelectorAll('[data-testid="coef-table"] tfoot td')].some((td) => td.textContent.trim() === '36'));
  assert.equal((await stat('Observaciones').textContent()).trim(), '36');
  assert.equal((await stat('Períodos').textContent()).trim(), '3');
  assert.deepEqual(data.errors, []);
  await data.close();
});

// A file of births and deaths alone has nothing to model: the view says what to load, not
// "Elija al menos una característica" over an empty list (a newcomer's upload).
test('data without characteristics are told what to load, in Spanish', async () => {
  const data = await openView(browser, server.origin, 'data', { lang: 'es' });
  await data.upload({
    name: 'solo_conteos.csv', mimeType: 'text/csv',
    buffer: Buffer.from('codigo_comuna;anio;nacimientos;defunciones\n13101;2020;3000;21\n13102;2020;1000;5\n13101;2021;2900;20\n13102;2021;1100;6\n'),
  });
  await data.waitForRowCount('read', 4);
  const models = ModelsPage.attach(data);
  await models.openTab('models');
  const empty = models.testid('models-empty');
  await empty.waitFor({ timeout: 60_000 });
  assert.match((await empty.textContent()).trim(), /^Sus datos no tienen características de las comunas para los modelos: cargue también/);
  assert.equal(await models.testid('regressor-choices').locator('input').count(), 0);
  assert.deepEqual(data.errors, []);
  await data.close();
});
