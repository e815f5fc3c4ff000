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
import { startServer, launch, outsideRequests, fixture } from './harness.mjs';
import { openView } from './pages/index.mjs';
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

test('a 6 MB panel is parsed in the worker, with progress, and every row and line is accounted for', async () => {
  const file = path.join(dir, 'panel_6mb.csv');
  const { rows, excluded, bytes } = writePanelCsv(file, { targetBytes: 6e6 });
  assert.ok(bytes > THRESHOLD_BYTES, `${bytes} bytes`);
  const data = await openView(browser, server.origin, 'data');
  const { requests, errors } = data;
  await data.rowCount('read').waitFor();
  await data.watchUploadProgress();
  await data.upload(file);
  await data.waitForRowCountText('read', String(rows));
  assert.equal(await data.uploadProgressSeen(), true, 'the progress bar was shown');
  // The done note says the file was read in the background; the progress bar is gone.
  await data.uploadStatus('done').waitFor();
  assert.match(await data.uploadStatusText('done'), /panel_6mb\.csv .* was read in the background/);
  assert.equal(await data.uploadStatus('running').count(), 0);
  const used = Number(await data.rowCountText('used'));
  const excludedShown = Number(await data.rowCountText('excluded'));
  assert.equal(excludedShown, excluded, 'the rows without births are excluded');
  assert.equal(used + excludedShown, rows);
  // Lines: one header + every row; nothing else in this file.
  assert.equal(await data.physicalLinesText(), String(rows + 1));
  const item = data.lineAccounting('panel_6mb.csv');
  assert.equal(await item.getAttribute('data-lines'), String(rows + 1));
  assert.equal(await item.getAttribute('data-other-lines'), '0');
  assert.match(await item.textContent(), new RegExp(`${rows.toLocaleString('en-US')} rows read`));
  // Roles were guessed from the table the worker sent.
  assert.equal(await data.roleChosen('births'), 'nacimientos');
  assert.deepEqual(errors, []);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  await data.close();
});

test('Cancel during a big upload keeps the previous data and the page usable', async () => {
  const file = path.join(dir, 'panel_60mb.csv');
  writePanelCsv(file, { targetBytes: 60e6 });
  const data = await openView(browser, server.origin, 'data');
  const { requests, errors } = data;
  await data.rowCount('read').waitFor();
  const before = await data.rowCountText('read');
  await data.upload(file);
  await data.uploadStatus('progress').waitFor();
  await data.cancelUpload();
  await data.uploadStatus('cancelled').waitFor();
  assert.match(await data.uploadStatusText('cancelled'), /panel_60mb\.csv was cancelled; the previous data are still loaded/);
  assert.equal(await data.uploadStatus('running').count(), 0);
  assert.equal(await data.rowCountText('read'), before);
  await data.bundledNote().waitFor();
  // Still usable: a small file is read (on the page's thread: no progress bar) and shown.
  await data.watchUploadProgress();
  await data.upload(fixture('good_latin1.csv'));
  await data.bundledNote().waitFor({ state: 'detached' });
  await data.waitForRowCountText('read', before, false);
  assert.equal(await data.uploadProgressSeen(), false, 'a small file is not sent to the worker');
  assert.deepEqual(errors, []);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  await data.close();
});

test('the line accounting shows the lines an unterminated quote swallowed', async () => {
  // Six physical lines: the header, one good row, and a row whose `"` is never closed, so it
  // runs to the end of the file (lines 3–6): read 2, used 1, excluded 1, 3 lines inside it.
  const hostile = path.join(path.dirname(fixture('x')), '..', '..', 'crates', 'imr-core', 'tests', 'data', 'hostile', 'unterminated_quote.csv');
  const data = await openView(browser, server.origin, 'data');
  const { errors } = data;
  await data.upload(hostile);
  await data.waitForRowCount('excluded', 1);
  assert.equal(await data.physicalLinesText(), '6');
  const item = data.lineAccounting('unterminated_quote.csv');
  assert.equal(await item.textContent(),
    'unterminated_quote.csv: 6 lines = 1 header + 0 metadata (#) + 2 rows read (1 used, 1 excluded) + 3 blank or inside quoted fields');
  assert.deepEqual(errors, []);
  await data.close();
});
