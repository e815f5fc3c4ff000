// Measures the page's wasm memory around a big CSV upload (README, "Big files"): not a test, run
// by hand after `make dist`:
//   node e2e/measure-big-upload.mjs 20      # a 20 MB generated panel CSV
// Prints the page's wasm memory (the WebAssembly.Memory buffer, which only grows: so its size
// is the peak so far) after the bundled data, after the upload's counts appear, and after each of
// three cycles of role changes (deaths unset, then set again: two panel recomputes each), and
// the time from the upload to the counts.
// IMR_DIST=<folder> measures another build.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { launch, startServer } from './harness.mjs';
import { DataPage } from './pages/index.mjs';
import { writePanelCsv } from './big-csv.mjs';

const megabytes = Number(process.argv[2] || 20);
const covariates = Number(process.argv[3] || 24);
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-big-'));
const file = path.join(dir, `panel_${megabytes}mb.csv`);
const { rows, bytes } = writePanelCsv(file, { targetBytes: megabytes * 1e6, covariates });
const server = await startServer();
const browser = await launch();
try {
  const context = await browser.newContext();
  // The page's wasm exports arrive with trunk's start event; keep their memory for reading.
  await context.addInitScript(() => {
    addEventListener('TrunkApplicationStarted', (e) => { window.__imrMemory = e.detail.wasm.memory; });
  });
  const page = await context.newPage();
  const errors = [];
  page.setDefaultTimeout(600_000);
  page.on('crash', () => errors.push('the page crashed'));
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  const data = DataPage.attach({ page, context, requests: [], errors });
  await page.goto(`${server.origin}/#view=data`);
  await data.rowCount('read').waitFor();
  const memory = () => page.evaluate(() => (window.__imrMemory ? window.__imrMemory.buffer.byteLength : null));
  const mib = (b) => (b / 1048576).toFixed(0);
  const bundled = await memory();
  const started = Date.now();
  await data.upload(file);
  // The counts of the upload, or the file's error (a file too big for the browser's memory), or
  // the upload's (the worker out of memory, the table refused).
  const counted = data.rowCount('read').filter({ hasText: new RegExp(`^\\s*${rows}\\s*$`) });
  const refusal = data.error('file').or(data.error('upload'));
  await counted.or(refusal).first().waitFor({ timeout: 1_200_000 });
  const seconds = (Date.now() - started) / 1000;
  const loaded = await memory();
  const failed = await refusal.count();
  if (failed) {
    console.log(JSON.stringify({ file_mb: +(bytes / 1e6).toFixed(1), rows, seconds_to_message: seconds,
      wasm_mib_after_upload: +mib(loaded), message: (await refusal.first().textContent()).trim(), errors }));
  } else {
    console.error(`counts after ${seconds} s; wasm ${mib(loaded)} MiB`);
    const deaths = data.roleSelect('deaths');
    const chosen = await deaths.inputValue();
    const afterRoles = [];
    for (let i = 0; i < 3; i++) {
      await deaths.selectOption('');
      await deaths.selectOption(chosen);
      await counted.waitFor();
      afterRoles.push(+mib(await memory()));
    }
    console.log(JSON.stringify({
      file_mb: +(bytes / 1e6).toFixed(1), rows, covariates, seconds_to_counts: seconds,
      wasm_mib_bundled: +mib(bundled), wasm_mib_after_upload: +mib(loaded), wasm_mib_after_each_role_cycle: afterRoles,
      rows_used: await data.rowCountText('used'),
      // Worker: read + parse + encode; decode: the table turned back into Rust on the page's thread.
      ...(await data.uploadTimings()),
      errors,
    }));
  }
} finally {
  await browser.close();
  await server.close();
  fs.rmSync(dir, { recursive: true, force: true });
}
