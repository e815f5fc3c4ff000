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
import { startServer, launch, openPage, outsideRequests, cargoBinary, DIST } from './harness.mjs';
import { openView, DataPage, MapPage, MicrodataPage, ModelsPage } from './pages/index.mjs';

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

// Chooses the files in the reader (a MicrodataPage), starts it and waits for its result.
async function aggregate(microdata, { deaths, births: birthsPath }) {
  await microdata.chooseDeaths(deaths);
  await microdata.deathsChosen().filter({ hasText: 'recognised as deaths microdata' }).waitFor();
  if (birthsPath) {
    await microdata.chooseBirths(birthsPath);
    await microdata.birthsColumns().waitFor();
  }
  await microdata.watchProgress();
  await microdata.start();
  const result = microdata.result();
  await result.waitFor({ timeout: 120_000 });
  return result;
}

test('deaths and births microdata are aggregated in a worker to the known counts, with progress, and join the data', async () => {
  const data = await openView(browser, server.origin, 'data');
  const microdata = MicrodataPage.attach(data);
  const { context, requests: pageRequests, errors } = data;
  const requests = recordAll(context);
  await data.waitForRowCount('read', 7245);
  const result = await aggregate(microdata, { deaths: small.path, births });

  // Every row accounted for, as the generator tallied them.
  const deathsSummary = microdata.summary('deaths');
  const expectedDeaths = small.expected.trim().split('\n').slice(1)
    .reduce((sum, row) => sum + Number(row.split(',')[2]), 0);
  assert.equal(await deathsSummary.getAttribute('data-rows-read'), '200000');
  assert.equal(Number(await deathsSummary.getAttribute('data-rows-counted')), expectedDeaths);
  const sum = ['data-rows-counted', 'data-rows-not-infant', 'data-rows-excluded']
    .map(async (a) => Number(await deathsSummary.getAttribute(a)));
  assert.equal((await Promise.all(sum)).reduce((a, b) => a + b), 200000);
  const birthsSummary = microdata.summary('births');
  assert.equal(await birthsSummary.getAttribute('data-rows-excluded'), '3');
  assert.equal(await birthsSummary.locator('li[data-reason=unknown_commune]').getAttribute('data-count'), '3');
  assert.match(await microdata.commandText(),
    /^imr microdata deaths defunciones\.csv --births nacimientos\.csv --births-year 1 --births-commune 2 --out conteos_microdatos\.csv$/);

  // The downloaded counts are the generator's known answer, with the births column joined.
  const counts = (await microdata.downloadCounts()).text.replace(/^#.*\n/gm, '');
  const expectedRows = small.expected.trim().split('\n').slice(1)
    .map((row) => { const [code, year, deaths] = row.split(','); return `${code},${year},${BIRTHS},${deaths}`; });
  assert.deepEqual(counts.trim().split('\n'), ['codigo_comuna,anio,nacimientos,defunciones', ...expectedRows]);

  // The progress bar moved forward chunk by chunk up to the whole size.
  const progress = await microdata.progressSeen();
  const total = fs.statSync(small.path).size + fs.statSync(births).size;
  assert.ok(progress.length >= 2, `progress seen ${progress.length} times`);
  for (let i = 1; i < progress.length; i++) assert.ok(progress[i][0] >= progress[i - 1][0], 'progress never goes back');
  assert.equal(progress.at(-1)[1], total);
  assert.equal(Number(await result.getAttribute('data-bytes')), total);
  const ms = Number(await result.getAttribute('data-elapsed-ms'));
  console.log(`# microdata worker: ${(total / 1e6).toFixed(1)} MB in ${ms} ms`);

  // The counts replaced the bundled data: 345 communes × 5 years, rates = deaths / 40 × 1,000.
  await data.waitForRowCount('read', expectedRows.length);
  const [code, year, , deaths] = expectedRows.find((r) => Number(r.split(',')[3]) > 0).split(',');
  const rate = data.rateCell(code, year, 'rate');
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
  const data = await openView(browser, server.origin, 'data');
  const microdata = MicrodataPage.attach(data);
  const { page, context, errors } = data;
  const requests = recordAll(context);
  await data.waitForRowCount('read', 7245);
  await microdata.chooseDeaths(big.path);
  await microdata.start();
  await microdata.progress().waitFor();
  await microdata.cancel();
  const cancelled = microdata.cancelled();
  await cancelled.waitFor();
  const [read, of] = (await cancelled.textContent()).match(/[\d.,]+/g);
  assert.ok(Number(read.replace(/,/g, '')) < Number(of.replace(/,/g, '')), `cancelled at ${read} of ${of} MB`);
  // Nothing arrives after the cancel: the worker was terminated.
  await page.waitForTimeout(1500);
  assert.equal(await microdata.result().count(), 0);
  assert.equal(await data.rowCountText('read'), '7245');
  assert.equal(await microdata.startButton().isEnabled(), true);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  fs.rmSync(big.path);
});

test('a deaths file given to the main upload goes to the worker, and its counts join an aggregated births table', async () => {
  // An aggregated births table (`;`, as agencies write them) chosen together with the microdata.
  const birthsTable = path.join(tmp, 'nacimientos_comuna.csv');
  const rows = small.expected.trim().split('\n').slice(1).map((r) => r.split(','));
  fs.writeFileSync(birthsTable, 'codigo_comuna;anio;nacimientos\n' + rows.map(([c, y]) => `${c};${y};${BIRTHS}`).join('\n') + '\n');
  const data = await openView(browser, server.origin, 'data', { lang: 'es' });
  const microdata = MicrodataPage.attach(data);
  const { errors } = data;
  await data.waitForRowCount('read', 7245);
  await data.upload([small.path, birthsTable]);
  await microdata.deathsChosen().filter({ hasText: 'reconocido como microdatos de defunciones' }).waitFor();
  // The births table is loaded; the raw deaths file was not parsed as a table.
  await data.waitForRowCount('read', rows.length);
  assert.equal(await data.error('file').count(), 0);
  await microdata.start();
  await microdata.summary('deaths').waitFor({ timeout: 120_000 });
  assert.match(await microdata.result().textContent(), /MB\/s/);
  // Both tables: every row used, the counts joined to the births by commune and year.
  await data.waitForRowCount('read', 2 * rows.length);
  assert.equal(await data.rowCountText('excluded'), '0');
  await data.mergedNote().filter({ hasText: new RegExp(`^${rows.length.toLocaleString('es-CL')} filas de un archivo se unieron`) }).waitFor();
  const [code, year, deaths] = rows.find((r) => Number(r[2]) > 0);
  const rate = data.rateCell(code, year, 'rate');
  assert.equal((await rate.textContent()).trim(), (Number(deaths) / BIRTHS * 1000).toFixed(2).replace('.', ','));
  assert.deepEqual(errors, []);
});

test('the single file from file:// renders and exports the bundled map, fits a model and aggregates microdata', async () => {
  const url = pathToFileURL(path.join(DIST, 'imr-atlas.html')).href;
  const opened = await openPage(browser, url);
  const [data, map, models, microdata] = [DataPage, MapPage, ModelsPage, MicrodataPage].map((P) => P.attach(opened));
  const { context, errors } = opened;
  const requests = recordAll(context);
  await data.waitForRowCount('read', 7245);
  // The bundled map.
  await map.openTab('map');
  await map.communes().first().waitFor({ timeout: 60_000 });
  assert.equal(await map.communes().count(), 345);
  // Exporting the map (SVG and PNG) makes no request either.
  for (const [format, download] of [['svg', () => map.downloadSvg()], ['png', () => map.downloadPng()]]) {
    assert.ok((await download()).bytes.length > 10_000, `${format} has content`);
  }
  // A model (fixed effects on the bundled data, fitted when the view opens).
  await models.openTab('models');
  const estimate = models.coefTable().locator('td[data-field="estimate"]').first();
  await estimate.waitFor({ timeout: 60_000 });
  assert.ok(Number.isFinite(Number(await estimate.getAttribute('data-value'))));
  // The worker from embedded assets (no fetch is possible from file://).
  await data.openTab('data');
  await aggregate(microdata, { deaths: small.path, births });
  assert.equal(await microdata.summary('births').getAttribute('data-rows-counted'),
    String((small.expected.trim().split('\n').length - 1) * BIRTHS));
  assert.deepEqual(requests.filter((u) => u !== url && !u.startsWith(url + '#') && !u.startsWith('data:') && !u.startsWith('blob:')), []);
  assert.deepEqual(errors, []);
});
