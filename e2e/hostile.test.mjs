// Hostile files dropped on the page (input side): a column named `<script>…`, an
// unterminated quote, a formula-named column followed by a download. The page stays alive, runs
// nothing from the file, and its ingest report says what it did with each. The files are the
// committed corpus of crates/imr-core/tests/data/hostile (also the fuzzing seeds).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { startServer, launch, outsideRequests, testidText, ROOT } from './harness.mjs';
import { ViewPage, downloadFile } from './views.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const hostile = (name) => path.join(ROOT, 'crates', 'imr-core', 'tests', 'data', 'hostile', name);

// A page that records any dialog (an executed alert) and any flag an injected script would set.
async function guardedPage() {
  const opened = await ViewPage.open(browser, server.origin, 'data');
  const dialogs = [];
  opened.page.on('dialog', async (d) => { dialogs.push(d.message()); await d.dismiss(); });
  return { ...opened, dialogs };
}

test('a <script>-named column is shown as text and runs nothing', async () => {
  const { page, requests, errors, dialogs } = await guardedPage();
  await page.getByTestId('file-input').setInputFiles(hostile('script_column.csv'));
  await page.getByTestId('rows-read').filter({ hasText: '2' }).waitFor();
  assert.equal(await testidText(page, 'rows-used'), '2');
  // The name is an <option>'s text, not markup.
  const labels = await page.getByTestId('role-deaths').first().locator('option').allTextContents();
  assert.ok(labels.includes('<script>alert(1)</script>'), JSON.stringify(labels));
  assert.equal(await page.locator('script:text("alert(1)")').count(), 0);
  assert.equal(await page.locator('img[src="x"]').count(), 0);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
});

test('an unterminated quote is reported with its line and the lines it swallowed', async () => {
  const { page, errors, dialogs } = await guardedPage();
  await page.getByTestId('file-input').setInputFiles(hostile('unterminated_quote.csv'));
  await page.getByTestId('rows-excluded').filter({ hasText: '1' }).waitFor();
  assert.equal(await testidText(page, 'rows-read'), '2');
  assert.equal(await testidText(page, 'rows-used'), '1');
  const items = await page.getByTestId('excluded-list').locator('li').allTextContents();
  assert.equal(items.length, 1);
  assert.match(items[0], /line 3\b/);
  assert.match(items[0], /opened on line 3 is never closed/);
  assert.match(items[0], /4 physical lines/);
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
});

test('a formula-named column is read, and the rates download still arrives', async () => {
  const { page, errors, dialogs } = await guardedPage();
  await page.getByTestId('file-input').setInputFiles(hostile('formula_column.csv'));
  await page.getByTestId('rows-read').filter({ hasText: '3' }).waitFor();
  assert.equal(await testidText(page, 'rows-used'), '3');
  const labels = await page.getByTestId('role-deaths').first().locator('option').allTextContents();
  assert.ok(labels.includes('=HYPERLINK("http://x";"y")'), JSON.stringify(labels));
  const { text } = await downloadFile(page, 'rates-csv-download');
  assert.match(text, /^01101,2019,100,1,/m);
  // Still alive after the download: the report is there and answers.
  assert.equal(await testidText(page, 'rows-read'), '3');
  assert.deepEqual(dialogs, []);
  assert.deepEqual(errors, []);
});
