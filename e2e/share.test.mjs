// Sharing and reproducing: the view lives in the URL fragment; a saved analysis reopens the
// same data and numbers in the page and in the `imr` command.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, startServer, launch, openPage, outsideRequests, fixture, testidText, cargoBinary } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a shared link reopens the same view and language', async () => {
  const { page } = await openPage(browser, server.origin + '/');
  await page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
  await page.getByTestId('tab-inequality').click();
  await page.waitForFunction(() => location.hash.includes('view=inequality'));
  const link = page.url();
  assert.match(link, /#.*lang=en/);
  const other = await openPage(browser, link, { locale: 'es-CL' });
  await other.page.getByTestId('tab-inequality').and(other.page.locator('[aria-selected="true"]')).waitFor();
  assert.equal((await other.page.getByTestId('tab-data').textContent()).trim(), 'Data');
});

test('a saved analysis reopens with the same table, in the page and in imr', async () => {
  const { page, requests } = await openPage(browser, server.origin + '/');
  await page.getByTestId('file-input').setInputFiles(fixture('good_latin1.csv'));
  await page.getByTestId('rows-read').filter({ hasText: /^4$/ }).waitFor();
  // A non-default choice that must survive: deaths from the "Pobreza" column.
  await page.getByTestId('role-deaths').selectOption({ label: 'Pobreza' });
  const cell = '[data-testid="rates-table"] tr[data-entity="01101"][data-time="2019"] [data-field="rate"]';
  await page.waitForFunction((sel) => document.querySelector(sel)?.textContent.trim() === '3.50', cell);
  // Chillán's "n/a" poverty is now a missing death count: that row is excluded.
  assert.equal(await testidText(page, 'rows-used'), '3');
  const [download] = await Promise.all([page.waitForEvent('download'), page.getByTestId('save-analysis').click()]);
  const saved = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imr-')), 'analysis.json');
  await download.saveAs(saved);
  const doc = JSON.parse(fs.readFileSync(saved, 'utf8'));
  assert.equal(doc.format, 'imr-atlas-analysis/1');
  assert.equal(doc.files[0].roles.deaths, 'Pobreza');

  const again = await openPage(browser, server.origin + '/');
  await again.page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
  await again.page.getByTestId('file-input').setInputFiles(saved);
  await again.page.getByTestId('rows-read').filter({ hasText: /^4$/ }).waitFor();
  await again.page.waitForFunction((sel) => document.querySelector(sel)?.textContent.trim() === '3.50', cell);
  assert.equal(await testidText(again.page, 'rows-used'), '3');
  assert.match((await again.page.getByTestId('excluded-list').textContent()), /line 4: column `Pobreza`: missing value/);

  // The command line reads the same file and prints the same rate.
  const out = JSON.parse(execFileSync(cargoBinary('imr-cli', 'imr'), ['rates', saved, '--format', 'json']));
  const row = out.rows.find((r) => r.entity === '01101' && r.time === 2019);
  assert.equal(row.rate.toFixed(2), '3.50');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
});
