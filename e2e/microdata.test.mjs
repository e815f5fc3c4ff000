// The health ministry's microdata in the page: a synthetic deaths file in the official layout
// (written by the repo's generator `imr-gen-deaths`, with its known answer) and a one-row-per-
// birth file are aggregated by the page's Web Worker, read in chunks with a progress bar; the
// counts are the known ones, they join the loaded files (rates on screen), Cancel stops a run
// and loads nothing, a deaths file dropped on the main upload goes to the worker instead of
// being read whole, and the single file does all this from file://. No request leaves the page.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { execFileSync } from 'node:child_process';
import { startServer, launch, openPage, outsideRequests, testidText, cargoBinary, DIST } from './harness.mjs';
import { ViewPage, downloadFile } from './views.mjs';

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-e2e-microdata-'));

const generator = () => cargoBinary('imr-microdata', 'imr-gen-deaths');

// Writes a deaths file of `rows` rows and returns its path and the expected counts CSV.
function deathsFile(name, args) {
  const out = path.join(tmp, name);
  const expected = path.join(tmp, name + '.expected.csv');
  execFileSync(generator(), ['--out', out, '--expected', expected, ...args], { stdio: 'pipe' });
  return { path: out, expected: fs.readFileSync(expected, 'utf8') };
}

// A one-row-per-birth file, headerless `anio;codigo_comuna`: BIRTHS births in every commune-year
// of the expected deaths table, plus 3 rows of an unknown commune (excluded and reported).
const BIRTHS = 40;
function birthsFile(expectedCsv) {
  const lines = [];
  for (const row of expectedCsv.trim().split('\n').slice(1)) {
    const [code, year] = row.split(',');
    for (let i = 0; i < BIRTHS; i++) lines.push(`${year};${code}`);
  }
  lines.push('2012;99999', '2013;99999', '2014;');
  const file = path.join(tmp, 'nacimientos.csv');
  fs.writeFileSync(file, lines.join('\n') + '\n');
  return file;
}

let server, browser, small, births;
before(async () => {
  small = deathsFile('defunciones.csv', ['--rows', '200000', '--seed', '7', '--years', '2010-2014']);
  births = birthsFile(small.expected);
  server = await startServer();
  browser = await launch();
});
after(async () => { await browser?.close(); await server?.close(); fs.rmSync(tmp, { recursive: true, force: true }); });

// Every request of the page and of its worker.
function recordAll(context) {
  const requests = [];
  context.on('request', (r) => requests.push(r.url()));
  return requests;
}

// Records every value the progress bar takes (it may be on screen only briefly).
async function watchProgress(page) {
  await page.evaluate(() => {
    window.__progress = [];
    new MutationObserver(() => {
      const bar = document.querySelector('[data-testid=microdata-progress]');
      if (bar) window.__progress.push([Number(bar.value), Number(bar.max)]);
    }).observe(document.body, { subtree: true, childList: true, attributes: true });
  });
}

async function aggregate(page, { deaths, births: birthsPath }) {
  await page.getByTestId('microdata-deaths-file').setInputFiles(deaths);
  await page.getByTestId('microdata-deaths-chosen').filter({ hasText: 'recognised as deaths microdata' }).waitFor();
  if (birthsPath) {
    await page.getByTestId('microdata-births-file').setInputFiles(birthsPath);
    await page.getByTestId('microdata-births-columns').waitFor();
  }
  await watchProgress(page);
  await page.getByTestId('microdata-start').click();
  const result = page.getByTestId('microdata-result');
  await result.waitFor({ timeout: 120_000 });
  return result;
}

test('deaths and births microdata are aggregated in a worker to the known counts, with progress, and join the data', async () => {
  const { page, context, requests: pageRequests, errors } = await ViewPage.open(browser, server.origin, 'data');
  const requests = recordAll(context);
  await page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
  const result = await aggregate(page, { deaths: small.path, births });

  // Every row accounted for, as the generator tallied them.
  const deathsSummary = page.getByTestId('microdata-summary-deaths');
  const expectedDeaths = small.expected.trim().split('\n').slice(1)
    .reduce((sum, row) => sum + Number(row.split(',')[2]), 0);
  assert.equal(await deathsSummary.getAttribute('data-rows-read'), '200000');
  assert.equal(Number(await deathsSummary.getAttribute('data-rows-counted')), expectedDeaths);
  const sum = ['data-rows-counted', 'data-rows-not-infant', 'data-rows-excluded']
    .map(async (a) => Number(await deathsSummary.getAttribute(a)));
  assert.equal((await Promise.all(sum)).reduce((a, b) => a + b), 200000);
  const birthsSummary = page.getByTestId('microdata-summary-births');
  assert.equal(await birthsSummary.getAttribute('data-rows-excluded'), '3');
  assert.equal(await birthsSummary.locator('li[data-reason=unknown_commune]').getAttribute('data-count'), '3');
  assert.match(await testidText(page, 'microdata-command'),
    /^imr microdata deaths defunciones\.csv --births nacimientos\.csv --births-year 1 --births-commune 2 --out conteos_microdatos\.csv$/);

  // The downloaded counts are the generator's known answer, with the births column joined.
  const counts = (await downloadFile(page, page.getByTestId('microdata-download'))).text.replace(/^#.*\n/gm, '');
  const expectedRows = small.expected.trim().split('\n').slice(1)
    .map((row) => { const [code, year, deaths] = row.split(','); return `${code},${year},${BIRTHS},${deaths}`; });
  assert.deepEqual(counts.trim().split('\n'), ['codigo_comuna,anio,nacimientos,defunciones', ...expectedRows]);

  // The progress bar moved forward chunk by chunk up to the whole size.
  const progress = await page.evaluate(() => window.__progress);
  const total = fs.statSync(small.path).size + fs.statSync(births).size;
  assert.ok(progress.length >= 2, `progress seen ${progress.length} times`);
  for (let i = 1; i < progress.length; i++) assert.ok(progress[i][0] >= progress[i - 1][0], 'progress never goes back');
  assert.equal(progress.at(-1)[1], total);
  assert.equal(Number(await result.getAttribute('data-bytes')), total);
  const ms = Number(await result.getAttribute('data-elapsed-ms'));
  console.log(`# microdata worker: ${(total / 1e6).toFixed(1)} MB in ${ms} ms`);

  // The counts replaced the bundled data: 345 communes × 5 years, rates = deaths / 40 × 1,000.
  await page.getByTestId('rows-read').filter({ hasText: String(expectedRows.length) }).waitFor();
  const [code, year, , deaths] = expectedRows.find((r) => Number(r.split(',')[3]) > 0).split(',');
  const rate = page.locator(`[data-testid="rates-table"] tr[data-entity="${code}"][data-time="${year}"] [data-field="rate"]`);
  assert.equal((await rate.textContent()).trim(), (Number(deaths) / BIRTHS * 1000).toFixed(2));
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(outsideRequests(pageRequests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('Cancel stops the worker part-way and loads nothing', async () => {
  // 600 MB: a headerless 100 MB file written six times over (still valid rows), large enough
  // that Cancel lands part-way however fast the machine reads.
  const part = deathsFile('parte.csv', ['--mb', '100', '--seed', '3', '--no-header']);
  const big = { path: path.join(tmp, 'grande.csv') };
  const bytes = fs.readFileSync(part.path);
  for (let i = 0; i < 6; i++) fs.appendFileSync(big.path, bytes);
  fs.rmSync(part.path);
  const { page, context, errors } = await ViewPage.open(browser, server.origin, 'data');
  const requests = recordAll(context);
  await page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
  await page.getByTestId('microdata-deaths-file').setInputFiles(big.path);
  await page.getByTestId('microdata-start').click();
  await page.getByTestId('microdata-progress').waitFor();
  await page.getByTestId('microdata-cancel').click();
  const cancelled = page.getByTestId('microdata-cancelled');
  await cancelled.waitFor();
  const [read, of] = (await cancelled.textContent()).match(/[\d.,]+/g);
  assert.ok(Number(read.replace(/,/g, '')) < Number(of.replace(/,/g, '')), `cancelled at ${read} of ${of} MB`);
  // Nothing arrives after the cancel: the worker was terminated.
  await page.waitForTimeout(1500);
  assert.equal(await page.getByTestId('microdata-result').count(), 0);
  assert.equal(await testidText(page, 'rows-read'), '1725');
  assert.equal(await page.getByTestId('microdata-start').isEnabled(), true);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  fs.rmSync(big.path);
});

test('a deaths file given to the main upload goes to the worker, and its counts join an aggregated births table', async () => {
  // An aggregated births table (`;`, as agencies write them) chosen together with the microdata.
  const birthsTable = path.join(tmp, 'nacimientos_comuna.csv');
  const rows = small.expected.trim().split('\n').slice(1).map((r) => r.split(','));
  fs.writeFileSync(birthsTable, 'codigo_comuna;anio;nacimientos\n' + rows.map(([c, y]) => `${c};${y};${BIRTHS}`).join('\n') + '\n');
  const { page, errors } = await ViewPage.open(browser, server.origin, 'data', { lang: 'es' });
  await page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
  await page.getByTestId('file-input').setInputFiles([small.path, birthsTable]);
  await page.getByTestId('microdata-deaths-chosen').filter({ hasText: 'reconocido como microdatos de defunciones' }).waitFor();
  // The births table is loaded; the raw deaths file was not parsed as a table.
  await page.getByTestId('rows-read').filter({ hasText: String(rows.length) }).waitFor();
  assert.equal(await page.getByTestId('file-error').count(), 0);
  await page.getByTestId('microdata-start').click();
  await page.getByTestId('microdata-summary-deaths').waitFor({ timeout: 120_000 });
  assert.match(await testidText(page, 'microdata-result'), /MB\/s/);
  // Both tables: every row used, the counts joined to the births by commune and year.
  await page.getByTestId('rows-read').filter({ hasText: String(2 * rows.length) }).waitFor();
  assert.equal(await testidText(page, 'rows-excluded'), '0');
  await page.getByTestId('merged-note').filter({ hasText: new RegExp(`^${rows.length.toLocaleString('es-CL')} filas de un archivo se unieron`) }).waitFor();
  const [code, year, deaths] = rows.find((r) => Number(r[2]) > 0);
  const rate = page.locator(`[data-testid="rates-table"] tr[data-entity="${code}"][data-time="${year}"] [data-field="rate"]`);
  assert.equal((await rate.textContent()).trim(), (Number(deaths) / BIRTHS * 1000).toFixed(2).replace('.', ','));
  assert.deepEqual(errors, []);
});

test('the single file from file:// renders and exports the bundled map, fits a model and aggregates microdata', async () => {
  const url = pathToFileURL(path.join(DIST, 'imr-atlas.html')).href;
  const { page, context, errors } = await openPage(browser, url);
  const requests = recordAll(context);
  await page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
  // The bundled map.
  await page.getByTestId('tab-map').click();
  await page.locator('svg[data-testid="choropleth"] path[data-code]').first().waitFor({ timeout: 60_000 });
  assert.equal(await page.locator('svg[data-testid="choropleth"] path[data-code]').count(), 345);
  // Exporting the map (SVG and PNG) makes no request either.
  for (const testid of ['download-svg', 'download-png']) {
    const file = await downloadFile(page, page.getByTestId(testid));
    assert.ok(file.bytes.length > 10_000, `${testid} has content`);
  }
  // A model (fixed effects on the bundled data, fitted when the view opens).
  await page.getByTestId('tab-models').click();
  await page.locator('[data-testid="coef-table"] td[data-field="estimate"]').first().waitFor({ timeout: 60_000 });
  assert.ok(Number.isFinite(Number(await page.locator('[data-testid="coef-table"] td[data-field="estimate"]').first().getAttribute('data-value'))));
  // The worker from embedded assets (no fetch is possible from file://).
  await page.getByTestId('tab-data').click();
  await aggregate(page, { deaths: small.path, births });
  assert.equal(await page.getByTestId('microdata-summary-births').getAttribute('data-rows-counted'),
    String((small.expected.trim().split('\n').length - 1) * BIRTHS));
  assert.deepEqual(requests.filter((u) => u !== url && !u.startsWith(url + '#') && !u.startsWith('data:') && !u.startsWith('blob:')), []);
  assert.deepEqual(errors, []);
});
