// A table pasted on the Data view (issue 45): copied from a spreadsheet in Chile it is
// tab-separated with a decimal comma and thousands points, and codes lose their leading zero.
// Pasted, it is read exactly as the same text uploaded as a file: the same rates on screen and
// the same rates CSV. It is named in the file list, joins the reader's files, is kept on reload
// like an upload and removed with its own button. No request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, outsideRequests, fixture } from './harness.mjs';
import { dataPart } from './views.mjs';
import { openView, DataPage } from './pages/index.mjs';

let server, browser, dir;
before(async () => {
  server = await startServer();
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-paste-'));
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** As a spreadsheet set to es-CL copies it: tabs, decimal comma, thousands point, codes as numbers. */
const TABLE = 'Comuna\tNombre\tAño\tNacimientos\tDefunciones\tPobreza\n'
  + '1101\tIquique\t2022\t1.500\t6\t12,5\n'
  + '5101\tValparaíso\t2022\t900\t3\t9,1\n'
  + '13101\tSantiago\t2022\t2.000\t4\t5,0\n'
  + '13120\tÑuñoa\t2022\t1.200\t0\t3,2\n';

/** What the rates table shows: every row's cells. */
const shownRates = (view) => view.page.$$eval('[data-testid="rates-table"] tbody tr[data-entity]',
  (rows) => rows.map((r) => [...r.querySelectorAll('[data-field]')].map((c) => `${c.dataset.field}=${c.textContent.trim()}`).join(' ')));

test('a table pasted from a spreadsheet equals the same table uploaded as a file', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { requests, errors } = view;
  await view.pasteTable(TABLE);
  await view.waitForFileNames(['tabla_pegada.txt']);
  await view.waitForRowCount('read', 4);
  assert.equal(await view.pasteAreaText(), '', 'the area is emptied once read');
  assert.equal(await view.rowCountText('excluded'), '0');
  // Read with the decimal comma and the thousands point: 6 / 1.500 × 1.000 = 4,00; the code
  // 1101 is Iquique's 01101.
  assert.equal((await view.rateCell('01101', 2022, 'rate').textContent()).trim(), '4,00');
  assert.equal((await view.rateCell('01101', 2022, 'births').textContent()).trim(), '1.500');
  const pasted = { shown: await shownRates(view), csv: await view.downloadRates(dir) };

  // The same text uploaded as a file replaces the pasted table, and reads the same.
  await view.upload({ name: 'tabla.txt', mimeType: 'text/plain', buffer: Buffer.from(TABLE) });
  await view.waitForFileNames(['tabla.txt']);
  await view.waitForRowCount('read', 4);
  assert.deepEqual(await shownRates(view), pasted.shown);
  const uploaded = await view.downloadRates(dir);
  assert.equal(dataPart(uploaded.text), dataPart(pasted.csv.text));
  // The thousands point read as such: 1.500 births, 6 deaths, 4 per 1,000 (the Spanish CSV's `;`).
  assert.match(dataPart(uploaded.text), /^01101;2022;1500;6;4;/m);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});

test('a pasted table joins the files, is kept on reload and removed like a file', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'en' });
  const { page, requests, errors } = view;
  // Deaths of 2023 uploaded; their births pasted (a table of another shape, from a web page).
  const deaths = fixture('defunciones_2023.csv');
  await view.upload(deaths);
  await view.waitForFileNames(['defunciones_2023.csv']);
  await view.pasteTable('comuna\tanio\tpobreza\n1101\t2023\t12,5\n5101\t2023\t9,1\n');
  await view.waitForFileNames(['defunciones_2023.csv', 'pasted_table.txt']);
  // 4 deaths rows + 2 characteristics rows.
  await view.waitForRowCount('read', 6);
  await view.yourDataFiles().filter({ hasText: 'pasted_table.txt' }).waitFor();

  await page.reload();
  const restored = DataPage.attach(view);
  await restored.waitForFileNames(['defunciones_2023.csv', 'pasted_table.txt']);
  await restored.waitForRowCount('read', 6);

  // Removed alone: the upload stays.
  await restored.removeFile('pasted_table.txt');
  await restored.waitForFileNames(['defunciones_2023.csv']);
  await restored.waitForRowCount('read', 4);
  await page.reload();
  const again = DataPage.attach(view);
  await again.waitForFileNames(['defunciones_2023.csv']);
  // The last file removed: the bundled data are back.
  await again.removeFile('defunciones_2023.csv');
  await again.bundledNote().waitFor();
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});
