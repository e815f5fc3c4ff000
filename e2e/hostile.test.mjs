// Hostile files dropped on the page (input side): a column named `<script>…`, an
// unterminated quote, a formula-named column followed by a download. The page stays alive, runs
// nothing from the file, and its ingest report says what it did with each. The files are the
// committed corpus of crates/imr-core/tests/data/hostile (also the fuzzing seeds).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, launch, outsideRequests, ROOT } from './harness.mjs';
import { openView } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const hostile = (name) => path.join(ROOT, 'crates', 'imr-core', 'tests', 'data', 'hostile', name);

// The Data view (its page object) recording any dialog (an executed alert) in `dialogs`.
async function guardedPage() {
  const data = await openView(browser, server.origin, 'data');
  data.dialogs = [];
  data.page.on('dialog', async (d) => { data.dialogs.push(d.message()); await d.dismiss(); });
  return data;
}

test('a <script>-named column is shown as text and runs nothing', async () => {
  const data = await guardedPage();
  const { page, requests, errors, dialogs } = data;
  await data.upload(hostile('script_column.csv'));
  await data.waitForRowCount('read', 2);
  assert.equal(await data.rowCountText('used'), '2');
  // The name is an <option>'s text, not markup.
  const labels = await data.roleOptionTexts('deaths');
  assert.ok(labels.includes('<script>alert(1)</script>'), JSON.stringify(labels));
  assert.equal(await page.locator('script:text("alert(1)")').count(), 0);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
});

test('an unterminated quote is reported with its line and the lines it swallowed', async () => {
  const data = await guardedPage();
  const { errors, dialogs } = data;
  await data.upload(hostile('unterminated_quote.csv'));
  await data.waitForRowCount('excluded', 1);
  assert.equal(await data.rowCountText('read'), '2');
  assert.equal(await data.rowCountText('used'), '1');
  const items = await data.excludedItems().allTextContents();
  assert.equal(items.length, 1);
  assert.match(items[0], /line 3\b/);
  assert.match(items[0], /opened on line 3 is never closed/);
  assert.match(items[0], /4 physical lines/);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
});

test('a formula-named column is read, and the rates download still arrives', async () => {
  const data = await guardedPage();
  const { errors, dialogs } = data;
  await data.upload(hostile('formula_column.csv'));
  await data.waitForRowCount('read', 3);
  assert.equal(await data.rowCountText('used'), '3');
  const labels = await data.roleOptionTexts('deaths');
  assert.ok(labels.includes('=HYPERLINK("http://x";"y")'), JSON.stringify(labels));
  const { text } = await data.downloadRates();
  assert.match(text, /^01101,2019,100,1,/m);
  // Still alive after the download: the report is there and answers.
  assert.equal(await data.rowCountText('read'), '3');
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
});
