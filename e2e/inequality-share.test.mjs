// The Inequality view's options live in the URL fragment: a shared link reopens the
// same controls and numbers; and every download of the view is byte for byte the file that the
// `imr inequality` command shown beside it writes, on the bundled data.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startServer, launch, openPage, cargoBinary, exportDate, imrEnv, ROOT } from './harness.mjs';
import { InequalityPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a shared link reopens the Inequality view with every option and the same numbers', async () => {
  const view = InequalityPage.attach(await openPage(browser, server.origin + '/#view=inequality'));
  const { page, errors } = view;
  await view.measureCell(2019, 'theil_between').waitFor({ timeout: 60_000 });
  await view.correlation().waitFor({ timeout: 60_000 });
  // The selects offer what can be what they say (imr_core::model_columns): groupings of the
  // communes, measurements, non-negative weights; not the communes' names, notes, codes, years
  // or the rate (a newcomer was offered "Comuna" as groups and the rate as a weight).
  const offered = (id) => view.testid(id).locator('option').evaluateAll((os) => os.map((o) => o.value));
  const [groups, ranks] = [await offered('ineq-group'), await offered('ineq-rank')];
  assert.ok(groups.includes('region') && !groups.includes('comuna') && !groups.includes('nota'), groups.join());
  for (const other of ['codigo_region', 'anio_sinim', 'defunciones_min']) assert.ok(!ranks.includes(other), `${other} in ${ranks}`);
  // Non-default choices in every control.
  await view.choose({ group: '', rank: 'ruralidad', replicates: 60, seed: 7 });
  await view.waitForCommand(/--rank ruralidad --bootstrap 60 --seed 7 --format json$/);
  await view.measureCells('theil_between').first().waitFor({ state: 'detached' });
  const weights = await offered('ineq-weight');
  assert.equal(weights[0], 'births');
  for (const other of ['rate', 'deaths', 'codigo_region', 'anio_sinim']) assert.ok(!weights.includes(other), `${other} in ${weights}`);
  await view.choose({ measure: 'theil_t', lorenz: { 2001: false, 2019: true }, of: 'aporte_municipal_salud_pc',
    weight: 'ruralidad', panelMeasure: 'cov' });
  // The column in the codebook's words, as the page's sentences name it.
  await view.waitForChartTitle('panel', /municipal contribution to health per inhabitant/);
  await page.waitForFunction(() => location.hash.includes('ineq-panel-measure=cov'));
  const link = page.url();
  for (const pair of ['ineq-group=-', 'ineq-rank=ruralidad', 'ineq-replicates=60', 'ineq-seed=7',
    'ineq-measure=theil_t', 'ineq-lorenz=2019,2021', 'ineq-of=aporte_municipal_salud_pc',
    'ineq-weight=ruralidad', 'ineq-panel-measure=cov']) {
    assert.ok(link.includes(pair), `${link} lacks ${pair}`);
  }
  const before = { controls: await view.controls(), shown: await view.shown() };
  assert.equal(before.controls['ineq-group'], '');
  assert.equal(before.controls['ineq-lorenz-2001'], false);
  assert.equal(before.controls['ineq-lorenz-2019'], true);
  assert.match(before.shown.line, /Theil/);

  // A fresh browser context (no state but the link).
  const other = InequalityPage.attach(await openPage(browser, link));
  await other.measureCell(2019, 'gini').waitFor({ timeout: 60_000 });
  await other.waitForChartTitle('panel', /municipal contribution to health per inhabitant/, { timeout: 60_000 });
  assert.deepEqual(await other.controls(), before.controls);
  assert.deepEqual(await other.shown(), before.shown);
  // Switching views and back keeps the options.
  await other.openTab('data');
  await other.openTab('inequality');
  await other.row(2021).waitFor({ timeout: 5_000 });
  assert.deepEqual(await other.controls(), before.controls);
  // The link's options are all still there (a visited view may add its own keys, e.g. the Data
  // view's md-* defaults).
  const params = (url) => new URLSearchParams(new URL(url).hash.slice(1));
  const now = params(other.page.url());
  for (const [key, value] of params(link)) assert.equal(now.get(key), value, key);
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
});

// Every download of the view: [its button's name, the name of the command beside it] (the
// table and trend buttons are named by their table, their commands by the file).
const DOWNLOADS = [
  ['inequality-table-csv', 'desigualdad_por_anio-csv'],
  ['inequality-trend-csv', 'desigualdad_tendencia-csv'],
  ...['desigualdad_medida_por_anio-svg', 'desigualdad_medida_por_anio-csv', 'desigualdad_lorenz-svg',
    'desigualdad_lorenz-csv', 'tasas_comunales_caja-svg', 'tasas_comunales_caja-csv', 'tasas_comunales_atipicos-csv',
    'desigualdad_tmi_vs_segunda_serie-svg', 'desigualdad_tmi_vs_segunda_serie-csv'].map((name) => [name, name]),
];

for (const [name, fragment, locale] of [
  ['the default options in English', '#view=inequality', 'en-US'],
  ['other options in Spanish', '#view=inequality&lang=es&ineq-replicates=50&ineq-seed=11&ineq-measure=theil_t'
    + '&ineq-lorenz=2010,2015&ineq-panel-measure=cov&ineq-rank=-&include-flagged=true', 'es-CL'],
]) {
  test(`every download of the view is what its imr command writes (${name})`, async () => {
    const view = InequalityPage.attach(await openPage(browser, server.origin + '/' + fragment, { locale }));
    const { errors } = view;
    await view.measureCell(2019, 'gini').waitFor({ timeout: 60_000 });
    await view.chart('panel').locator('svg').waitFor({ timeout: 60_000 });
    const imr = cargoBinary('imr-cli', 'imr');
    for (const [button, commandId] of DOWNLOADS) {
      const download = await view.downloadChart(button);
      const bytes = download.bytes;
      const command = await view.exportCommand(commandId);
      const match = command.match(/^imr inequality (.*) > (\S+)$/);
      assert.ok(match, `${commandId}: ${command}`);
      assert.equal(match[2], download.name, `${commandId} writes the file the button downloads`);
      // imr's exports dated as the page's download (a run crossing midnight UTC compares too).
      const out = execFileSync(imr, ['inequality', ...match[1].split(/\s+/)], { cwd: ROOT, maxBuffer: 64 << 20, env: imrEnv(exportDate(download.text)) });
      assert.ok(bytes.length > 100, `${button}: ${bytes.length} bytes`);
      // IMR_E2E_DIFF_DIR keeps both files of a difference for a closer look.
      if (!out.equals(bytes) && process.env.IMR_E2E_DIFF_DIR) {
        fs.writeFileSync(`${process.env.IMR_E2E_DIFF_DIR}/${button}.page`, bytes);
        fs.writeFileSync(`${process.env.IMR_E2E_DIFF_DIR}/${button}.imr`, out);
      }
      assert.ok(out.equals(bytes), `${button} differs from \`${command}\`:\n page: ${bytes.toString('utf8').slice(0, 400)}\n imr:  ${out.toString('utf8').slice(0, 400)}`);
    }
    if (fragment.includes('include-flagged=true')) {
      assert.match(await view.exportCommand('tasas_comunales_caja-svg'), /--include-flagged/);
      assert.match(await view.exportCommand('desigualdad_lorenz-svg'), /--years 2010,2015 /);
      assert.match(await view.exportCommand('desigualdad_medida_por_anio-svg'), /--measure theil_t --lang es /);
    }
    assert.deepEqual(errors, []);
  });
}
