// The Inequality view's options live in the URL fragment: a shared link reopens the
// same controls and numbers; and every download of the view is byte for byte the file that the
// `imr inequality` command shown beside it writes, on the bundled data.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startServer, launch, openPage, cargoBinary, ROOT } from './harness.mjs';
import { downloadFile } from './views.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const TABLE = '[data-testid="inequality-table"]';

// Every control of the view: selects and number inputs by value, Lorenz checkboxes by state.
async function controls(page) {
  return page.evaluate(() => {
    const out = {};
    for (const id of ['ineq-group', 'ineq-rank', 'ineq-replicates', 'ineq-seed', 'ineq-measure', 'ineq-of',
      'ineq-weight', 'ineq-panel-measure']) {
      out[id] = document.querySelector(`[data-testid="${id}"]`)?.value;
    }
    for (const box of document.querySelectorAll('input[type="checkbox"][data-testid^="ineq-lorenz-"]')) {
      out[box.dataset.testid] = box.checked;
    }
    return out;
  });
}

// The numbers and texts the view shows for the analysis (values in the attributes, as computed).
async function shown(page) {
  return page.evaluate(() => {
    const text = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent.trim();
    const values = [...document.querySelectorAll('[data-testid="inequality-table"] td')]
      .map((td) => `${td.closest('tr').dataset.time} ${td.dataset.measure} ${td.dataset.value} ${td.textContent.trim()}`);
    const adjusted = [...document.querySelectorAll('[data-testid="adjusted-table"] td')]
      .map((td) => `${td.dataset.adjusted} ${td.dataset.value} ${td.dataset.ciLow} ${td.dataset.ciHigh}`);
    const chart = (id) => document.querySelector(`[data-testid="${id}"] svg > title`)?.textContent;
    return {
      values, adjusted,
      trend: text('inequality-trend'),
      command: text('ineq-command'),
      correlation: text('ineq-correlation'),
      adjustedCorrelation: document.querySelector('[data-testid="ineq-correlation-adjusted"]')?.dataset.r,
      line: chart('ineq-line-chart'), lorenz: chart('ineq-lorenz-chart'), panel: chart('ineq-panel-chart'),
    };
  });
}

test('a shared link reopens the Inequality view with every option and the same numbers', async () => {
  const { page, errors } = await openPage(browser, server.origin + '/#view=inequality');
  await page.locator(`${TABLE} tr[data-time="2019"] td[data-measure="theil_between"]`).waitFor({ timeout: 60_000 });
  await page.getByTestId('ineq-correlation').waitFor({ timeout: 60_000 });
  // Non-default choices in every control.
  await page.getByTestId('ineq-group').selectOption('');
  await page.getByTestId('ineq-rank').selectOption('ruralidad');
  await page.getByTestId('ineq-replicates').fill('60');
  await page.getByTestId('ineq-replicates').dispatchEvent('change');
  await page.getByTestId('ineq-seed').fill('7');
  await page.getByTestId('ineq-seed').dispatchEvent('change');
  await page.waitForFunction(() => /--rank ruralidad --bootstrap 60 --seed 7 --format json$/
    .test(document.querySelector('[data-testid="ineq-command"]')?.textContent.trim()));
  await page.locator(`${TABLE} td[data-measure="theil_between"]`).waitFor({ state: 'detached' });
  await page.getByTestId('ineq-measure').selectOption('theil_t');
  await page.getByTestId('ineq-lorenz-2019').uncheck();
  await page.getByTestId('ineq-lorenz-2021').check();
  await page.getByTestId('ineq-of').selectOption('aporte_municipal_salud_pc');
  await page.getByTestId('ineq-weight').selectOption('ruralidad');
  await page.getByTestId('ineq-panel-measure').selectOption('cov');
  await page.waitForFunction(() => /aporte_municipal_salud_pc/.test(
    document.querySelector('[data-testid="ineq-panel-chart"] svg > title')?.textContent || ''));
  await page.waitForFunction(() => location.hash.includes('ineq-panel-measure=cov'));
  const link = page.url();
  for (const pair of ['ineq-group=-', 'ineq-rank=ruralidad', 'ineq-replicates=60', 'ineq-seed=7',
    'ineq-measure=theil_t', 'ineq-lorenz=2021,2023', 'ineq-of=aporte_municipal_salud_pc',
    'ineq-weight=ruralidad', 'ineq-panel-measure=cov']) {
    assert.ok(link.includes(pair), `${link} lacks ${pair}`);
  }
  const before = { controls: await controls(page), shown: await shown(page) };
  assert.equal(before.controls['ineq-group'], '');
  assert.equal(before.controls['ineq-lorenz-2019'], false);
  assert.equal(before.controls['ineq-lorenz-2021'], true);
  assert.match(before.shown.line, /Theil/);

  // A fresh browser context (no state but the link).
  const other = await openPage(browser, link);
  await other.page.locator(`${TABLE} tr[data-time="2019"] td[data-measure="gini"]`).waitFor({ timeout: 60_000 });
  await other.page.waitForFunction(() => /aporte_municipal_salud_pc/.test(
    document.querySelector('[data-testid="ineq-panel-chart"] svg > title')?.textContent || ''), null, { timeout: 60_000 });
  assert.deepEqual(await controls(other.page), before.controls);
  assert.deepEqual(await shown(other.page), before.shown);
  // Switching views and back keeps the options.
  await other.page.getByTestId('tab-data').click();
  await other.page.getByTestId('tab-inequality').click();
  await other.page.locator(`${TABLE} tr[data-time="2023"]`).waitFor({ timeout: 5_000 });
  assert.deepEqual(await controls(other.page), before.controls);
  // The link's options are all still there (a visited view may add its own keys, e.g. the Data
  // view's md-* defaults).
  const params = (url) => new URLSearchParams(new URL(url).hash.slice(1));
  const now = params(other.page.url());
  for (const [key, value] of params(link)) assert.equal(now.get(key), value, key);
  assert.deepEqual(errors, []);
  assert.deepEqual(other.errors, []);
});

// Every download of the view: [button, file name, the test id of its command].
const DOWNLOADS = [
  ['inequality-table-csv-download', 'desigualdad_por_anio-csv-command'],
  ['inequality-trend-csv-download', 'desigualdad_tendencia-csv-command'],
  ['desigualdad_medida_por_anio-svg-download', 'desigualdad_medida_por_anio-svg-command'],
  ['desigualdad_medida_por_anio-csv-download', 'desigualdad_medida_por_anio-csv-command'],
  ['desigualdad_lorenz-svg-download', 'desigualdad_lorenz-svg-command'],
  ['desigualdad_lorenz-csv-download', 'desigualdad_lorenz-csv-command'],
  ['tasas_comunales_caja-svg-download', 'tasas_comunales_caja-svg-command'],
  ['tasas_comunales_caja-csv-download', 'tasas_comunales_caja-csv-command'],
  ['tasas_comunales_atipicos-csv-download', 'tasas_comunales_atipicos-csv-command'],
  ['desigualdad_tmi_vs_ingreso_salud-svg-download', 'desigualdad_tmi_vs_ingreso_salud-svg-command'],
  ['desigualdad_tmi_vs_ingreso_salud-csv-download', 'desigualdad_tmi_vs_ingreso_salud-csv-command'],
];

for (const [name, fragment, locale] of [
  ['the default options in English', '#view=inequality', 'en-US'],
  ['other options in Spanish', '#view=inequality&lang=es&ineq-replicates=50&ineq-seed=11&ineq-measure=theil_t'
    + '&ineq-lorenz=2020,2022&ineq-panel-measure=cov&ineq-rank=-&include-flagged=true', 'es-CL'],
]) {
  test(`every download of the view is what its imr command writes (${name})`, async () => {
    const { page, errors } = await openPage(browser, server.origin + '/' + fragment, { locale });
    await page.locator(`${TABLE} tr[data-time="2019"] td[data-measure="gini"]`).waitFor({ timeout: 60_000 });
    await page.getByTestId('ineq-panel-chart').locator('svg').waitFor({ timeout: 60_000 });
    const imr = cargoBinary('imr-cli', 'imr');
    for (const [button, commandId] of DOWNLOADS) {
      const download = await downloadFile(page, page.getByTestId(button));
      const bytes = download.bytes;
      const command = (await page.getByTestId(commandId).textContent()).trim();
      const match = command.match(/^imr inequality (.*) > (\S+)$/);
      assert.ok(match, `${commandId}: ${command}`);
      assert.equal(match[2], download.name, `${commandId} writes the file the button downloads`);
      const out = execFileSync(imr, ['inequality', ...match[1].split(/\s+/)], { cwd: ROOT, maxBuffer: 64 << 20 });
      assert.ok(bytes.length > 100, `${button}: ${bytes.length} bytes`);
      // IMR_E2E_DIFF_DIR keeps both files of a difference for a closer look.
      if (!out.equals(bytes) && process.env.IMR_E2E_DIFF_DIR) {
        fs.writeFileSync(`${process.env.IMR_E2E_DIFF_DIR}/${button}.page`, bytes);
        fs.writeFileSync(`${process.env.IMR_E2E_DIFF_DIR}/${button}.imr`, out);
      }
      assert.ok(out.equals(bytes), `${button} differs from \`${command}\`:\n page: ${bytes.toString('utf8').slice(0, 400)}\n imr:  ${out.toString('utf8').slice(0, 400)}`);
    }
    if (fragment.includes('include-flagged=true')) {
      assert.match(await page.getByTestId('tasas_comunales_caja-svg-command').textContent(), /--include-flagged/);
      assert.match(await page.getByTestId('desigualdad_lorenz-svg-command').textContent(), /--years 2020,2022 /);
      assert.match(await page.getByTestId('desigualdad_medida_por_anio-svg-command').textContent(), /--measure theil_t --lang es /);
    }
    assert.deepEqual(errors, []);
  });
}
