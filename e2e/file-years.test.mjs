// A year per file (issue 45): yearly files without a year column (defunciones_2022.csv,
// defunciones_2023.csv) take the year of their name, as `imr` does, shown on each file with
// where it comes from; the two make a panel of two years, and the shown `imr rates` command
// writes the page's CSV byte for byte. A file's year changed moves its rows (in a saved
// analysis too, as imr reads it, and after a reload); a file whose name has no year is given one. No request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, launch, outsideRequests, cargoBinary, exportDate, imrEnv } from './harness.mjs';
import { assertSameBytes, dataPart } from './views.mjs';
import { openView, DataPage } from './pages/index.mjs';

let server, browser, dir;
before(async () => {
  server = await startServer();
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-file-years-'));
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

const file = (name, text) => ({ name, mimeType: 'text/csv', buffer: Buffer.from(text) });
const Y2022 = file('defunciones_2022.csv', 'comuna;nacimientos;defunciones\n01101;1400;7\n05101;800;2\n');
const Y2023 = file('defunciones_2023.csv', 'comuna;nacimientos;defunciones\n01101;1500;6\n05101;900;3\n');
const NO_YEAR = file('defunciones.csv', 'comuna;nacimientos;defunciones\n13101;2000;4\n');

test('two yearly files without a year column make a two-year panel; a file\'s year changed moves its rows', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'en' });
  const { page, requests, errors } = view;
  await view.upload([Y2022, Y2023]);
  await view.waitForNationalYears([2022, 2023]);
  await view.waitForRowCount('used', 4);
  for (const [f, year] of [[Y2022, '2022'], [Y2023, '2023']]) {
    assert.equal(await view.fileYear(f.name).inputValue(), year);
    assert.equal(await view.fileYearSource(f.name), "taken from the file's name");
  }
  // 7 / 1,400 × 1,000 = 5.00 in 2022.
  assert.equal((await view.rateCell('01101', 2022, 'rate').textContent()).trim(), '5.00');

  // The shown command reads the years from the same names: the page's CSV byte for byte.
  const words = await view.ratesCommand();
  assert.ok(!words.includes('--time-value'), words.join(' '));
  for (const f of [Y2022, Y2023]) fs.writeFileSync(path.join(dir, f.name), f.buffer);
  const csv = await view.downloadRates(dir);
  const imr = cargoBinary('imr-cli', 'imr');
  assertSameBytes(csv.bytes, execFileSync(imr, words.slice(1), { cwd: dir, env: imrEnv(exportDate(csv.text)) }), 'rates CSV');

  // Not a year: refused, nothing moves.
  await view.giveFileYear(Y2022.name, '20.5');
  await view.fileYearInvalid(Y2022.name).waitFor();
  assert.equal(await view.fileYear(Y2022.name).getAttribute('aria-invalid'), 'true');
  // The first file's rows moved to 2021.
  await view.giveFileYear(Y2022.name, '2021');
  await view.waitForNationalYears([2021, 2023]);
  assert.equal(await view.fileYearInvalid(Y2022.name).count(), 0);
  assert.equal(await view.fileYearSource(Y2022.name), 'given here');
  assert.equal((await view.rateCell('01101', 2021, 'rate').textContent()).trim(), '5.00');
  assert.equal(await view.rateRow('01101', 2022).count(), 0);
  // The field kept the reader's focus (it was not built again).
  assert.equal(await view.focused(), 'file-year');
  // A saved analysis keeps the year given: imr reads it so.
  const saved = await view.saveAnalysis(dir);
  const moved = await view.downloadRates(dir);
  const fromSaved = execFileSync(imr, ['rates', saved.path, '--format', 'csv'],
    { cwd: dir, env: imrEnv(exportDate(moved.text)), encoding: 'utf8' });
  assert.equal(dataPart(fromSaved), dataPart(moved.text));

  // Kept on reload with the year given.
  await page.reload();
  const restored = DataPage.attach(view);
  await restored.waitForNationalYears([2021, 2023]);
  assert.equal(await restored.fileYear(Y2022.name).inputValue(), '2021');
  // Emptied: the year of the name again.
  await restored.giveFileYear(Y2022.name, '');
  await restored.waitForNationalYears([2022, 2023]);
  assert.equal(await restored.fileYearSource(Y2022.name), "taken from the file's name");
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});

test('a file whose name holds no year is given one on the file (Spanish page)', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { requests, errors } = view;
  await view.upload([Y2023, NO_YEAR]);
  await view.waitForFileNames([Y2023.name, NO_YEAR.name]);
  await view.panelError().waitFor();
  assert.equal(await view.fileYear(NO_YEAR.name).inputValue(), '');
  assert.equal(await view.fileYearSource(NO_YEAR.name), 'sin año: escriba el año de sus filas');
  await view.giveFileYear(NO_YEAR.name, '2020');
  await view.waitForNationalYears([2020, 2023]);
  assert.equal(await view.panelError().count(), 0);
  assert.equal(await view.fileYearSource(NO_YEAR.name), 'indicado aquí');
  // 4 / 2.000 × 1.000 = 2,00 in 2020.
  assert.equal((await view.rateCell('13101', 2020, 'rate').textContent()).trim(), '2,00');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});
