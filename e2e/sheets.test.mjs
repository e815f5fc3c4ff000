// Spreadsheets on the page (issue 45): a workbook chosen on the Data tab is read by the worker
// as `imr` reads it. Its sheets are offered; one sheet, or every sheet named by a year (each
// sheet's name the year of its rows), becomes a loaded file named `file [sheet]`, every row used
// or excluded naming sheet and row; the numbers on screen equal the same table uploaded as CSV,
// and the shown command (`--sheet 2022`, `--sheets all`) writes the page's rates CSV byte for
// byte. A broken workbook is a message naming it, and nothing else changes. The workbook is
// e2e/fixtures/defunciones_hojas.xlsx (written and checked by imr-core's
// ingest/sheet/read_tests.rs). No request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, launch, outsideRequests, fixture, cargoBinary, exportDate, imrEnv } from './harness.mjs';
import { assertSameBytes, dataPart } from './views.mjs';
import { openView, DataPage } from './pages/index.mjs';

let server, browser, dir;
before(async () => {
  server = await startServer();
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-sheets-'));
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const BOOK = 'defunciones_hojas.xlsx';
const BYTES = fs.readFileSync(fixture(BOOK));
const workbook = (name = BOOK, buffer = BYTES) => ({
  name, mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet', buffer,
});
const csv = (name, text) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
/** The workbook's sheets as CSV files without a year column, the year in their names. */
const Y2022 = csv('defunciones_2022.csv', 'Comuna;Nombre;Nacimientos;Defunciones\n'
  + '1101;Iquique;1400;7\n5101;Valparaíso;800;2\n13101;Santiago;1900;5\n13120;Ñuñoa;1100;1\n');
const Y2023 = csv('defunciones_2023.csv', 'Comuna;Nombre;Nacimientos;Defunciones\n'
  + '1101;Iquique;1500;6\n5101;Valparaíso;900;3\n13101;Santiago;2000;4\n13120;Ñuñoa;1200;0\n');

/** What the rates table shows: every row's cells. */
const shownRates = (view) => view.page.$$eval('[data-testid="rates-table"] tbody tr[data-entity]',
  (rows) => rows.map((r) => [...r.querySelectorAll('[data-field]')].map((c) => `${c.dataset.field}=${c.textContent.trim()}`).join(' ')));

/** Runs the shown `imr rates` command where the workbook is and checks it writes `download`. */
function sameAsImr(words, download) {
  fs.writeFileSync(path.join(dir, BOOK), BYTES);
  const imr = cargoBinary('imr-cli', 'imr');
  const out = execFileSync(imr, words.slice(1), { cwd: dir, env: imrEnv(exportDate(download.text)), stdio: ['ignore', 'pipe', 'pipe'] });
  assertSameBytes(download.bytes, out, 'rates CSV');
}

test('one sheet chosen reads as `imr --sheet`, equal to the same table uploaded as CSV', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { requests, errors } = view;
  await view.upload(workbook());
  await view.sheetPicker(BOOK).waitFor();
  assert.deepEqual(await view.sheetOptions(BOOK), ['2022', '2023', 'Notas']);
  await view.readSheet(BOOK, '2022');
  await view.waitForFileNames([`${BOOK} [2022]`]);
  assert.equal(await view.sheetPicker(BOOK).count(), 0, 'the picker goes once the sheet is read');
  // Five rows under the header: four communes and "Total País"; the source note excluded too.
  await view.waitForRowCount('used', 4);
  assert.equal(await view.rowCountText('excluded'), '2');
  const excluded = (await view.excludedItems().allTextContents()).join('\n');
  assert.match(excluded, /defunciones_hojas\.xlsx \[2022\]/);
  assert.match(excluded, /Total País/);
  // The sheet's name is the year of its rows: 7 / 1.400 × 1.000 = 5,00 in 2022.
  assert.equal((await view.rateCell('01101', 2022, 'rate').textContent()).trim(), '5,00');
  const words = await view.ratesCommand();
  assert.deepEqual(words.slice(2, 5), [BOOK, '--sheet', '2022'], words.join(' '));
  const sheet = { shown: await shownRates(view), csv: await view.downloadRates(dir) };
  sameAsImr(words, sheet.csv);

  // The same table as a CSV file: the same rates on screen and in the CSV.
  await view.upload(Y2022);
  await view.waitForFileNames([Y2022.name]);
  await view.waitForRowCount('used', 4);
  assert.deepEqual(await shownRates(view), sheet.shown);
  assert.equal(dataPart((await view.downloadRates(dir)).text), dataPart(sheet.csv.text));
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});

test('every sheet reads as `imr --sheets all`, each sheet\'s name its year, and is kept on reload', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'en' });
  const { page, requests, errors } = view;
  const names = [`${BOOK} [2022]`, `${BOOK} [2023]`];
  await view.upload(workbook());
  await view.readAllSheets(BOOK);
  await view.waitForFileNames(names);
  await view.waitForNationalYears([2022, 2023]);
  await view.waitForRowCount('used', 8);
  assert.match(await view.sheetsLeftOut().textContent(), /sheet "Notas" left out/);
  const words = await view.ratesCommand();
  assert.deepEqual(words.slice(2, 5), [BOOK, '--sheets', 'all'], words.join(' '));
  assert.ok(!words.includes('--time-value'), words.join(' '));
  const sheets = { shown: await shownRates(view), csv: await view.downloadRates(dir) };
  sameAsImr(words, sheets.csv);

  // The two yearly CSV files: the same panel.
  await view.upload([Y2022, Y2023]);
  await view.waitForFileNames([Y2022.name, Y2023.name]);
  await view.waitForRowCount('used', 8);
  assert.deepEqual(await shownRates(view), sheets.shown);
  assert.equal(dataPart((await view.downloadRates(dir)).text), dataPart(sheets.csv.text));

  // Kept in the browser: the sheets come back after a reload, read again by the worker. (Sheets
  // chosen in the picker join the loaded files: the bundled data first, to start afresh.)
  await page.getByTestId('load-bundled').click();
  await view.bundledNote().waitFor();
  await view.upload(workbook());
  await view.readAllSheets(BOOK);
  await view.waitForFileNames(names);
  // The bundled data emptied the store (and its hint); the sheets' workbook is written to it
  // before the hint is set again: reloading earlier would find nothing kept.
  await page.waitForFunction(() => localStorage.getItem('imr-atlas-kept') === '1');
  await page.reload();
  const restored = DataPage.attach(view);
  await restored.waitForFileNames(names);
  await restored.waitForRowCount('used', 8);
  assert.deepEqual(await shownRates(restored), sheets.shown);
  // One sheet removed: the command names the other, no longer every sheet.
  await restored.removeFile(names[0]);
  await restored.waitForFileNames([names[1]]);
  const left = await restored.ratesCommand();
  assert.deepEqual(left.slice(2, 5), [BOOK, '--sheet', '2023'], left.join(' '));
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});

test('a broken workbook is a message naming it; the data loaded stay', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { requests, errors } = view;
  await view.upload(Y2023);
  await view.waitForFileNames([Y2023.name]);
  await view.upload(workbook('rota.xlsx', BYTES.subarray(0, Math.floor(BYTES.length / 2))));
  const message = (await view.uploadStatusText('error'));
  assert.match(message, /^rota\.xlsx: no se puede leer el libro/, message);
  await view.waitForFileNames([Y2023.name]);
  assert.equal(await view.sheetPicker('rota.xlsx').count(), 0);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});
