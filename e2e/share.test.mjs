// Sharing and reproducing: the view lives in the URL fragment; a saved analysis reopens the
// same data and numbers in the page and in the `imr` command.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { ROOT, startServer, launch, openPage, outsideRequests, fixture, cargoBinary } from './harness.mjs';
import { DataPage, InequalityPage, ModelsPage, MapPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('a shared link reopens the same view and language', async () => {
  const data = DataPage.attach(await openPage(browser, server.origin + '/'));
  const { page } = data;
  await data.waitForRowCount('read', 7245);
  await data.openTab('inequality');
  await page.waitForFunction(() => location.hash.includes('view=inequality'));
  const link = page.url();
  assert.match(link, /#.*lang=en/);
  const other = InequalityPage.attach(await openPage(browser, link, { locale: 'es-CL' }));
  await other.waitForTabSelected('inequality');
  assert.equal((await other.tab('data').textContent()).trim(), 'Data');
});

test('a saved analysis reopens with the same table, in the page and in imr', async () => {
  const view = DataPage.attach(await openPage(browser, server.origin + '/'));
  const { requests } = view;
  await view.upload(fixture('good_latin1.csv'));
  await view.waitForRowCount('read', 4);
  // A non-default choice that must survive: deaths from the "Pobreza" column.
  await view.chooseRole('deaths', { label: 'Pobreza' });
  await view.waitForRateText('01101', 2019, 'rate', '3.50');
  // Chillán's "n/a" poverty is now a missing death count: that row is excluded.
  assert.equal(await view.rowCountText('used'), '3');
  const download = await view.saveAnalysis(fs.mkdtempSync(path.join(os.tmpdir(), 'imr-')));
  assert.match(download.name, /\.json$/);
  const saved = download.path;
  const doc = JSON.parse(download.text);
  assert.equal(doc.format, 'imr-atlas-analysis/1');
  assert.equal(doc.files[0].roles.deaths, 'Pobreza');

  const again = DataPage.attach(await openPage(browser, server.origin + '/'));
  await again.waitForRowCount('read', 7245);
  await again.upload(saved);
  await again.waitForRowCount('read', 4);
  await again.waitForRateText('01101', 2019, 'rate', '3.50');
  assert.equal(await again.rowCountText('used'), '3');
  assert.match((await again.excludedList().textContent()), /line 4: column `Pobreza`: missing value/);

  // The command line reads the same file and prints the same rate.
  const out = JSON.parse(execFileSync(cargoBinary('imr-cli', 'imr'), ['rates', saved, '--format', 'json']));
  const row = out.rows.find((r) => r.entity === '01101' && r.time === 2019);
  assert.equal(row.rate.toFixed(2), '3.50');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
});

// Every option of a view is in its link, the display choices too: the Data view's search and
// sort, the Models view's interval columns and the Map view's Moran's I.
test('a shared link keeps the rates search and sort, the models CI columns and the map Moran toggle', async () => {
  const data = DataPage.attach(await openPage(browser, `${server.origin}/#view=data&lang=en&rates-q=2021&rates-sort=-rate_per_1000`));
  await data.entityRows().first().waitFor({ timeout: 60000 });
  assert.equal(await data.searchField().inputValue(), '2021');
  const shown = await data.entityRows().evaluateAll((trs) => trs.map((tr) => ({
    time: tr.dataset.time,
    rate: Number(tr.querySelector('[data-field="rate"]').textContent.trim().replace(/,/g, '')),
  })));
  assert.ok(shown.length > 10, `${shown.length} rows`);
  assert.ok(shown.every((r) => r.time === '2021'), 'only 2021 rows');
  const rates = shown.map((r) => r.rate).filter((x) => !Number.isNaN(x));
  assert.deepEqual(rates, [...rates].sort((a, b) => b - a), 'highest rate first');
  // Sorting by births writes the new sort into the link.
  await data.sortTableBy('Births');
  await data.page.waitForFunction(() => location.hash.includes('rates-sort=births'));
  await data.context.close();

  const models = ModelsPage.attach(await openPage(browser, `${server.origin}/#view=models&lang=en&ci=false`));
  await models.coefTable().waitFor({ timeout: 60000 });
  assert.equal(await models.showCi().isChecked(), false);
  await models.context.close();

  const map = MapPage.attach(await openPage(browser, `${server.origin}/#view=map&lang=en&moran=false`));
  await map.choroplethSvg().waitFor({ timeout: 60000 });
  assert.equal(await map.moranToggle().isChecked(), false);
  assert.equal(await map.moran().count(), 0, "Moran's I is not computed");
  await map.moranToggle().check();
  await map.moran().waitFor({ timeout: 60000 });
  await map.page.waitForFunction(() => location.hash.includes('moran=true'));
  await map.context.close();
});

// The commune picked on the map is in the link by its code: the shared link opens with it
// outlined and named, a click elsewhere rewrites it, and clearing the selection removes it.
test('a shared link keeps the selected commune of the map', async () => {
  const view = MapPage.attach(await openPage(browser, `${server.origin}/#view=map&lang=en&year=2021&commune=13201`));
  const { page, requests } = view;
  await view.selection().filter({ hasText: 'Puente Alto (13201)' }).waitFor({ timeout: 60000 });
  assert.equal(await page.$eval('path[data-code="13201"]', (p) => p.getAttribute('aria-pressed')), 'true');
  assert.equal(
    await view.selectedOutlinePath(),
    await page.$eval('path[data-code="13201"]', (p) => p.getAttribute('d')),
  );
  await page.locator('path[data-code="08101"]').click();
  await view.selection().filter({ hasText: '(08101)' }).waitFor();
  await page.waitForFunction(() => location.hash.includes('commune=08101'));
  await view.clearSelection();
  await page.waitForFunction(() => !/commune=\d/.test(location.hash));
  assert.equal(await view.selection().count(), 0);
  assert.equal(await page.$eval('path[data-code="08101"]', (p) => p.getAttribute('aria-pressed')), 'false');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
});

// A link to a year without data opens the latest year and says so above the map (it showed
// 2021 under a link to 2030 without a word); choosing a year ends the note.
test('a link to a year without data says which year the map shows instead', async () => {
  const view = MapPage.attach(await openPage(browser, `${server.origin}/#view=map&lang=es&year=2030`));
  const { page, errors } = view;
  const note = view.testid('map-year-moved');
  await note.waitFor({ timeout: 60000 });
  assert.equal((await note.textContent()).trim(),
    'No hay datos de 2030: el mapa muestra 2021, el último año con datos.');
  await view.waitForYear('2021');
  await page.waitForFunction(() => location.hash.includes('year=2021'));
  await view.chooseYear('2015');
  await view.waitForYear('2015');
  await note.waitFor({ state: 'detached' });
  // A link to a year of the data says nothing of the kind.
  const plain = MapPage.attach(await openPage(browser, `${server.origin}/#view=map&lang=en&year=2019`));
  await plain.waitForYear('2019');
  assert.equal(await plain.testid('map-year-moved').count(), 0);
  assert.deepEqual([...errors, ...plain.errors], []);
  await Promise.all([view.context.close(), plain.context.close()]);
});

// The address is the state both ways: a view switch is a history entry, Back/Forward restore the
// view, and a link pasted into the open tab (only the fragment differs) moves to its view and
// options, all without a reload: the uploaded file stays loaded.
test('Back, Forward and a pasted link move between views with the uploaded data kept', async () => {
  const opened = await openPage(browser, server.origin + '/');
  const [data, map] = [DataPage.attach(opened), MapPage.attach(opened)];
  const { page, errors } = opened;
  const selected = (view) => data.waitForTabSelected(view);
  await data.upload(fixture('good_latin1.csv'));
  await data.waitForRowCount('read', 4);
  await data.openTab('findings');
  await page.waitForFunction(() => location.hash.includes('view=findings'));
  await data.openTab('inequality');
  await page.waitForFunction(() => location.hash.includes('view=inequality'));

  await page.goBack();
  await selected('findings');
  assert.match(page.url(), /view=findings/);
  await page.goBack();
  await selected('data');
  assert.equal(await data.rowCountText('read'), '4', 'the upload survives Back');
  await page.goForward();
  await selected('findings');

  // A shared link pasted into the same tab: the map of 2020 on the data already loaded.
  await page.goto(`${server.origin}/#view=map&lang=en&year=2020`);
  await selected('map');
  await map.waitForYear('2020');
  await map.openTab('data');
  assert.equal(await data.rowCountText('read'), '4', 'the upload survives a pasted link');
  await page.goBack();
  await selected('map');
  assert.deepEqual(errors, []);
});
