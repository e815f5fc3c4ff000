// Data of one year without a year column, whose name holds no year either (a name with one,
// defunciones_2023.csv, gives its rows that year: file-years.test.mjs): the Data view's error
// says how to go on, the field "Year of files without a year column" reads every row as a row
// of that year and names the files that took it, a value that is not a year is refused; the
// shown `imr rates` command (with --time-value) writes the page's CSV byte for byte, and a saved
// analysis brings the year to imr. No request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, launch, outsideRequests, fixture, cargoBinary, exportDate, imrEnv, injectAxe } from './harness.mjs';
import { assertSameBytes, flagValue, dataPart } from './views.mjs';
import { openView } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const FILE = 'defunciones.csv';

test('a file of one year without a year column is read as rows of the year given, as imr reads it', async () => {
  const view = await openView(browser, server.origin, 'data');
  const { requests, errors } = view;
  await view.upload(fixture(FILE));
  // The error names the file and the way on; the field is offered, empty.
  await view.panelError().filter({ hasText: `${FILE}: no column for the year` }).waitFor();
  assert.match(await view.panelError().textContent(), /--time-value 2023; in the Data view, "Year of files without a year column"/);
  assert.equal(await view.timeValue().inputValue(), '');

  // Not a year: refused and said so, nothing applied.
  await view.giveTimeValue('20.5');
  await view.timeValueInvalid().waitFor();
  assert.equal(await view.panelError().count(), 1);
  assert.equal(await view.timeValue().getAttribute('aria-invalid'), 'true');
  // The field and its messages pass axe-core (labelled, described, the error announced).
  await injectAxe(view.page);
  const axe = await view.page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  assert.deepEqual(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), []);

  await view.giveTimeValue('2023');
  await view.waitForRowCount('read', 4);
  assert.equal(await view.timeValueInvalid().count(), 0);
  assert.equal(await view.panelError().count(), 0);
  assert.equal((await view.timeValueApplied().textContent()).trim(), `Rows of 2023: ${FILE}.`);
  // The field was not built again under the reader's keyboard: it keeps the focus.
  assert.equal(await view.page.evaluate(() => document.activeElement?.dataset.testid), 'time-value');
  // 6 deaths / 1,500 births = 4.00 per 1,000, in 2023.
  assert.equal((await view.rateCell('01101', 2023, 'rate').textContent()).trim(), '4.00');
  assert.equal(await view.rateRows().count(), 4);
  assert.match(view.page.url(), /[#&]time-value=2023(&|$)/);

  // The shown command carries the year and writes the page's CSV byte for byte.
  const words = await view.ratesCommand();
  assert.equal(flagValue(words, '--time-value'), '2023');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-one-year-'));
  try {
    fs.copyFileSync(fixture(FILE), path.join(dir, FILE));
    const csv = await view.downloadRates(dir);
    const env = imrEnv(exportDate(csv.text));
    const imr = cargoBinary('imr-cli', 'imr');
    assertSameBytes(csv.bytes, execFileSync(imr, words.slice(1), { cwd: dir, env }), 'rates CSV');
    // A saved analysis keeps the year: imr reads it without the flag.
    const saved = await view.saveAnalysis(dir);
    const fromSaved = execFileSync(imr, ['rates', saved.path, '--format', 'csv'], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(dataPart(fromSaved), dataPart(csv.text));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // Cleared, the year is gone from the rows and the link, and the error is back.
  await view.giveTimeValue('');
  await view.panelError().waitFor();
  assert.doesNotMatch(view.page.url(), /time-value=2/);
  // Files uploaded anew start without a year: one given for other files is never read into
  // them. (The same file chosen again is read again: the browser fires no `change` for an
  // unchanged choice, so the page empties the input once it has taken the files.)
  await view.giveTimeValue('2023');
  await view.timeValueApplied().waitFor();
  await view.upload(fixture(FILE));
  await view.panelError().waitFor();
  assert.equal(await view.timeValue().inputValue(), '');
  assert.equal(await view.timeValueApplied().count(), 0);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});

test('the bundled data, with its year column, do not offer the year field', async () => {
  const view = await openView(browser, server.origin, 'data');
  await view.waitForRowCount('read', 7245);
  assert.equal(await view.timeValue().count(), 0);
  assert.doesNotMatch(await view.ratesCommandLine().textContent(), /--time-value/);
  await view.close();
});
