// Big CSV uploads: a file above the page's threshold (4 MiB,
// WORKER_THRESHOLD_BYTES in src/components/csv_upload/mod.rs) is parsed in the Web Worker with a
// progress bar and a Cancel button; the Data view then accounts for every row and line. Cancel
// leaves the previous data loaded and the page usable. A small file keeps the synchronous path.
// The files are generated here (e2e/big-csv.mjs): the bundled communes × years, births, deaths,
// covariates partly in scientific notation, every 1000th row without births (excluded).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, outsideRequests, testidText, fixture } from './harness.mjs';
import { ViewPage } from './views.mjs';
import { writePanelCsv } from './big-csv.mjs';

const THRESHOLD_BYTES = 4 * 1024 * 1024;

let server, browser, dir;
before(async () => {
  server = await startServer();
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-big-upload-'));
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

// Records in the page whether the upload's progress bar was ever shown (a fast parse may show it
// only briefly, so the test does not have to catch it on screen).
async function watchProgress(page) {
  await page.evaluate(() => {
    window.__progressSeen = false;
    const seen = () => { if (document.querySelector('[data-testid=upload-progress]')) window.__progressSeen = true; };
    new MutationObserver(seen).observe(document.body, { childList: true, subtree: true });
    seen();
  });
}

const waitText = (page, id, text) => page.waitForFunction(
  ([id, text]) => document.querySelector(`[data-testid=${id}]`)?.textContent.trim() === text, [id, text]);

test('a 6 MB panel is parsed in the worker, with progress, and every row and line is accounted for', async () => {
  const file = path.join(dir, 'panel_6mb.csv');
  const { rows, excluded, bytes } = writePanelCsv(file, { targetBytes: 6e6 });
  assert.ok(bytes > THRESHOLD_BYTES, `${bytes} bytes`);
  const { page, requests, errors } = await ViewPage.open(browser, server.origin, 'data');
  await page.getByTestId('rows-read').waitFor();
  await watchProgress(page);
  await page.getByTestId('file-input').setInputFiles(file);
  await waitText(page, 'rows-read', String(rows));
  assert.equal(await page.evaluate(() => window.__progressSeen), true, 'the progress bar was shown');
  // The done note says the file was read in the background; the progress bar is gone.
  await page.getByTestId('upload-done').waitFor();
  assert.match(await testidText(page, 'upload-done'), /panel_6mb\.csv .* was read in the background/);
  assert.equal(await page.getByTestId('upload-running').count(), 0);
  const used = Number(await testidText(page, 'rows-used'));
  const excludedShown = Number(await testidText(page, 'rows-excluded'));
  assert.equal(excludedShown, excluded, 'the rows without births are excluded');
  assert.equal(used + excludedShown, rows);
  // Lines: one header + every row; nothing else in this file.
  assert.equal(await testidText(page, 'physical-lines'), String(rows + 1));
  const item = page.getByTestId('line-accounting').locator('li[data-file="panel_6mb.csv"]');
  assert.equal(await item.getAttribute('data-lines'), String(rows + 1));
  assert.equal(await item.getAttribute('data-other-lines'), '0');
  assert.match(await item.textContent(), new RegExp(`${rows.toLocaleString('en-US')} rows read`));
  // Roles were guessed from the table the worker sent.
  assert.equal(await page.getByTestId('role-births').first().locator('option:checked').textContent(), 'nacimientos');
  assert.deepEqual(errors, []);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  await page.context().close();
});

test('Cancel during a big upload keeps the previous data and the page usable', async () => {
  const file = path.join(dir, 'panel_60mb.csv');
  writePanelCsv(file, { targetBytes: 60e6 });
  const { page, requests, errors } = await ViewPage.open(browser, server.origin, 'data');
  await page.getByTestId('rows-read').waitFor();
  const before = await testidText(page, 'rows-read');
  await page.getByTestId('file-input').setInputFiles(file);
  await page.getByTestId('upload-progress').waitFor();
  await page.getByTestId('upload-cancel').click();
  await page.getByTestId('upload-cancelled').waitFor();
  assert.match(await testidText(page, 'upload-cancelled'), /panel_60mb\.csv was cancelled; the previous data are still loaded/);
  assert.equal(await page.getByTestId('upload-running').count(), 0);
  assert.equal(await testidText(page, 'rows-read'), before);
  await page.getByTestId('bundled-note').waitFor();
  // Still usable: a small file is read (on the page's thread: no progress bar) and shown.
  await watchProgress(page);
  await page.getByTestId('file-input').setInputFiles(fixture('good_latin1.csv'));
  await page.getByTestId('bundled-note').waitFor({ state: 'detached' });
  await page.waitForFunction((b) => document.querySelector('[data-testid=rows-read]')?.textContent.trim() !== b, before);
  assert.equal(await page.evaluate(() => window.__progressSeen), false, 'a small file is not sent to the worker');
  assert.deepEqual(errors, []);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  await page.context().close();
});

test('the line accounting shows the lines an unterminated quote swallowed', async () => {
  // Six physical lines: the header, one good row, and a row whose `"` is never closed, so it
  // runs to the end of the file (lines 3–6): read 2, used 1, excluded 1, 3 lines inside it.
  const hostile = path.join(path.dirname(fixture('x')), '..', '..', 'crates', 'imr-core', 'tests', 'data', 'hostile', 'unterminated_quote.csv');
  const { page, errors } = await ViewPage.open(browser, server.origin, 'data');
  await page.getByTestId('file-input').setInputFiles(hostile);
  await page.getByTestId('rows-excluded').filter({ hasText: '1' }).waitFor();
  assert.equal(await testidText(page, 'physical-lines'), '6');
  const item = page.getByTestId('line-accounting').locator('li[data-file="unterminated_quote.csv"]');
  assert.equal(await item.textContent(),
    'unterminated_quote.csv: 6 lines = 1 header + 0 metadata (#) + 2 rows read (1 used, 1 excluded) + 3 blank or inside quoted fields');
  assert.deepEqual(errors, []);
  await page.context().close();
});
