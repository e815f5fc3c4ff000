// INE's yearly sheets in the commune codes of their year on the page (issue 45): the page
// recodes them as `imr` does (DEIS's historical table), shows each year so read and each code
// recoded in both languages, lists a commune not yet created in its year as an excluded row, and
// its rates equal `imr rates`' byte for byte. A chosen sheet survives a reload and a saved
// analysis, which the page opens again and `imr` reads. The workbook is
// e2e/fixtures/ine_codigos_2003_2010.xlsx (2003 in DEIS's "desde 2000" codes, 2010 in 2010's;
// written and checked by crates/imr-cli/tests/sheet_codes.rs), the births
// nacidos_2003_2010.csv. No request leaves 127.0.0.1.
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
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-sheet-codes-'));
  for (const name of [BOOK, BIRTHS]) fs.copyFileSync(fixture(name), path.join(dir, name));
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const BOOK = 'ine_codigos_2003_2010.xlsx';
const BIRTHS = 'nacidos_2003_2010.csv';
const upload = (name, mimeType) => ({ name, mimeType, buffer: fs.readFileSync(fixture(name)) });
const workbook = () => upload(BOOK, 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet');
const births = () => upload(BIRTHS, 'text/csv');
const imr = () => cargoBinary('imr-cli', 'imr');

/** What the rates table shows: every row's cells. */
const shownRates = (view) => view.page.$$eval('[data-testid="rates-table"] tbody tr[data-entity]',
  (rows) => rows.map((r) => [...r.querySelectorAll('[data-field]')].map((c) => `${c.dataset.field}=${c.textContent.trim()}`).join(' ')));

/** `imr` run in the test's folder: its output, dated as `download`. */
const imrOut = (args, download) => execFileSync(imr(), args,
  { cwd: dir, env: imrEnv(exportDate(download.text)), stdio: ['ignore', 'pipe', 'pipe'] });

/** The births, then the workbook's sheets as `choose` reads them (the sheets join the births). */
async function load(view, choose) {
  await view.upload(births());
  await view.waitForFileNames([BIRTHS]);
  await view.upload(workbook());
  await view.sheetPicker(BOOK).waitFor();
  await choose();
}

test('sheets in the codes of their year are recoded as imr recodes them, each recoding shown', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { requests, errors } = view;
  await load(view, () => view.readAllSheets(BOOK));
  await view.waitForFileNames([BIRTHS, `${BOOK} [2010]`, `${BOOK} [2003]`]);
  const json = JSON.parse(execFileSync(imr(), ['rates', BOOK, '--sheets', 'all', BIRTHS], { cwd: dir, encoding: 'utf8' }));
  const input = json.input;
  await view.waitForRowCount('used', input.rows_used);
  assert.equal(Number(await view.rowCountText('excluded')), input.rows_excluded);
  // 2003 read in "desde 2000": Arica's 1201 is 15101 (27 / 3.130 × 1.000 = 8,63).
  assert.equal((await view.rateCell('15101', 2003, 'rate').textContent()).trim(), '8,63');
  assert.equal(await view.rateRow('01107', 2003).count(), 0);
  assert.deepEqual(await view.codeSystems().evaluateAll((li) => li.map((l) => l.dataset.time)),
    input.code_systems.map((s) => String(s.time)));
  assert.deepEqual(
    await view.historicalRecodings().evaluateAll((li) => li.map((l) => `${l.dataset.time} ${l.dataset.code}→${l.getAttribute('data-code-2018')}`)),
    input.historical_recodings.map((r) => `${r.time} ${r.code}→${r.code_2018}`));
  assert.equal(input.historical_recodings.length, 4);
  const recodings = (await view.historicalRecodings().allTextContents()).join('\n');
  assert.match(recodings, /\[2003\], 2003: el código 1201 \(«desde 2000»\) es Arica, hoy 15101 \(1 fila\)/);
  assert.match(await view.historicalCodesSummary(), /^Códigos de comuna de su año: 1 año leído .*, 4 códigos recodificados/);
  const excluded = (await view.excludedItems().allTextContents()).join('\n');
  assert.match(excluded, /\[2003\], línea 7: el código 1107 \(sistema DEIS «desde 2000», el de 2003\) es de Alto Hospicio \(01107\), creada en 2004/);
  // The same account in English.
  await view.switchLanguage();
  await view.page.waitForFunction(() => document.querySelector('[data-testid="historical-codes"] summary')
    ?.textContent.startsWith('Commune codes'));
  assert.match((await view.historicalRecodings().allTextContents()).join('\n'),
    /\[2003\], 2003: code 1201 \("desde 2000"\) is Arica, 15101 today \(1 row\)/);
  assert.match(await view.historicalCodesSummary(), /^Commune codes of their year: 1 year read .*, 4 codes recoded/);
  assert.match((await view.excludedItems().allTextContents()).join('\n'),
    /code 1107 \(DEIS system "desde 2000", that of 2003\) is Alto Hospicio \(01107\), created in 2004/);
  // The page's rates are imr's: the shown command writes the downloaded CSV byte for byte.
  const words = await view.ratesCommand();
  assert.ok(words.includes(BOOK) && words.includes(BIRTHS), words.join(' '));
  assert.deepEqual(words.slice(words.indexOf(BOOK), words.indexOf(BOOK) + 3), [BOOK, '--sheets', 'all'], words.join(' '));
  const csv = await view.downloadRates(dir);
  assertSameBytes(csv.bytes, imrOut(words.slice(1), csv), 'rates CSV');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});

test('a chosen sheet survives a reload and a saved analysis, which imr reads too', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'en' });
  const { page, requests, errors } = view;
  const names = [BIRTHS, `${BOOK} [2003]`];
  await load(view, () => view.readSheet(BOOK, '2003'));
  await view.waitForFileNames(names);
  await view.waitForRateText('15101', 2003, 'rate', '8.63');
  const shown = await shownRates(view);
  const words = await view.ratesCommand();
  assert.deepEqual(words.slice(words.indexOf(BOOK), words.indexOf(BOOK) + 3), [BOOK, '--sheet', '2003'], words.join(' '));
  const csv = await view.downloadRates(dir);

  // Kept in the browser: the one sheet comes back after a reload, recoded again.
  await page.reload();
  const restored = DataPage.attach(view);
  await restored.waitForFileNames(names);
  await restored.waitForRateText('15101', 2003, 'rate', '8.63');
  assert.deepEqual(await shownRates(restored), shown);
  assert.equal(await restored.codeSystems().count(), 1);

  // Saved: the workbook's bytes and the sheet, not the workbook read as a CSV file.
  const saved = await restored.saveAnalysis(dir);
  const analysis = JSON.parse(saved.text);
  assert.deepEqual(analysis.files.map((f) => [f.name, f.sheet ?? null]),
    [[BIRTHS, null], [`${BOOK} [2003]`, { workbook: BOOK, sheet: '2003', all: false }]]);
  assert.deepEqual(Buffer.from(analysis.files[1].bytes_base64, 'base64'), fs.readFileSync(fixture(BOOK)));
  // imr reads the saved analysis to the page's rates.
  assert.equal(dataPart(imrOut(['rates', saved.path, '--format', 'csv'], csv).toString()), dataPart(csv.text));

  // Opened again on the page (after the bundled data): the same files, rates and command.
  await page.getByTestId('load-bundled').click();
  await restored.bundledNote().waitFor();
  await restored.upload({ name: 'imr-atlas-analysis.json', mimeType: 'application/json', buffer: Buffer.from(saved.text) });
  await restored.waitForFileNames(names);
  await restored.waitForRateText('15101', 2003, 'rate', '8.63');
  assert.deepEqual(await shownRates(restored), shown);
  const again = await restored.ratesCommand();
  assert.deepEqual(again.slice(again.indexOf(BOOK), again.indexOf(BOOK) + 3), [BOOK, '--sheet', '2003'], again.join(' '));
  assert.equal(dataPart((await restored.downloadRates(dir)).text), dataPart(csv.text));
  // And it is kept like an upload: a reload brings the sheet back once more (after the store's
  // write, which sets the hint the bundled data removed).
  await page.waitForFunction(() => localStorage.getItem('imr-atlas-kept') === '1');
  await page.reload();
  const kept = DataPage.attach(view);
  await kept.waitForFileNames(names);
  await kept.waitForRateText('15101', 2003, 'rate', '8.63');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});
