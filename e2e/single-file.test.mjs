// The single-file build works when opened from disk (file://) and makes no request of its own.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { DIST, launch, openPage, outsideRequests, fixture } from './harness.mjs';
import { DataPage } from './pages/index.mjs';

let browser;
before(async () => { browser = await launch(); });
after(async () => { await browser?.close(); });

test('the single HTML file opens from file:// on the bundled data and reads an upload', async () => {
  const url = pathToFileURL(path.join(DIST, 'imr-atlas.html')).href;
  const data = DataPage.attach(await openPage(browser, url));
  const { requests, errors } = data;
  await data.waitForRowCount('read', 7245);
  await data.upload(fixture('good_latin1.csv'));
  await data.waitForRowCount('read', 4);
  assert.equal(await data.rowCountText('used'), '4');
  // Only the file itself was loaded: no fetch of wasm, scripts, styles or data.
  assert.deepEqual(requests.filter((u) => u !== url && !u.startsWith('data:') && !u.startsWith('blob:')), []);
  assert.deepEqual(outsideRequests(requests, 'file://'), []);
  assert.deepEqual(errors, []);
});
