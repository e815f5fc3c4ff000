// The Data view: upload files, read rates on screen, see excluded rows, no request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, openPage, outsideRequests, fixture } from './harness.mjs';
import { openView, DataPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('uploading a Latin-1 semicolon file shows its rates with exact intervals', async () => {
  const view = await openView(browser, server.origin, 'data');
  const { requests, errors } = view;
  await view.upload(fixture('good_latin1.csv'));
  await view.waitForRowCount('read', 4);
  assert.equal(await view.rowCountText('used'), '4');
  assert.equal(await view.rowCountText('excluded'), '0');
  const row = view.rateRow('01101', 2019);
  // 21 deaths / 3,000 births ("3.000" in a decimal-comma file) = 7.00 per 1,000; Garwood 95%
  // interval 4.33–10.70 (SciPy 1.17.1 chi2.ppf, see crates/imr-cli/tests/rates.rs).
  assert.equal((await row.locator('[data-field="rate"]').textContent()).trim(), '7.00');
  assert.equal((await row.locator('[data-field="ci_low"]').textContent()).trim(), '4.33');
  assert.equal((await row.locator('[data-field="ci_high"]').textContent()).trim(), '10.70');
  assert.equal((await row.locator('[data-field="births"]').textContent()).trim(), '3,000');
  // The Ñuble code 8401 was mapped to 16101.
  assert.equal(await view.rateRow('16101').count(), 1);
  const national = view.nationalRate(2019);
  assert.equal((await national.textContent()).trim(), '6.27'); // 42 / 6,700 × 1,000
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('a broken file lists every excluded line with its reason', async () => {
  const view = await openView(browser, server.origin, 'data');
  const { requests } = view;
  await view.upload(fixture('broken.csv'));
  await view.waitForRowCount('excluded', 8);
  assert.equal(await view.rowCountText('read'), '10');
  assert.equal(await view.rowCountText('used'), '2');
  const items = view.excludedItems();
  assert.equal(await items.count(), 8);
  const texts = await items.allTextContents();
  for (const [i, line] of [3, 4, 5, 6, 7, 8, 9, 10].entries()) {
    assert.match(texts[i], new RegExp(`line ${line}\\b`));
  }
  assert.match(texts[0], /expected a number, found "abc"/);
  assert.match(texts[6], /unknown commune code "99999"/);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
});

test('changing a column role recomputes the rates', async () => {
  const view = await openView(browser, server.origin, 'data');
  await view.upload(fixture('good_latin1.csv'));
  await view.waitForRowCount('read', 4);
  // Use "Pobreza" as the deaths column: 10,5 deaths in 3,000 births = 3.50 per 1,000.
  await view.chooseRole('deaths', { label: 'Pobreza' });
  const rate = view.rateCell('01101', 2019, 'rate');
  await view.waitForRateText('01101', 2019, 'rate', '3.50');
  assert.equal((await rate.textContent()).trim(), '3.50');
});

test('the page opens on the bundled Chilean dataset with counted deaths and exact intervals', async () => {
  const view = await openView(browser, server.origin, 'data');
  const { requests, errors } = view;
  // 345 communes × 2001–2021; 712 rows without deaths or births (2016, 2020, the communes
  // created in 2004 before it, rates SINIM did not publish) are excluded with their reason.
  await view.waitForRowCount('read', 7245);
  assert.equal(await view.rowCountText('used'), '6533');
  assert.equal(await view.rowCountText('excluded'), '712');
  assert.equal(await view.bundledNote().count(), 1);
  assert.equal(await view.approximateNote().count(), 0);
  // The deaths reconstructed from SINIM's rounded rate with several (or no) whole numbers
  // fitting carry their range into the intervals, and the method note says so.
  assert.match(await view.rangeNote().textContent(), /In 215 rows the deaths are known only within a range of whole numbers \(defunciones_min to defunciones_max/);
  // 2001–2021 without 2016 and 2020, which have rows saying they have no data, and the
  // reconstructed years marked ◆ in both tables, said in words (issue 42: they looked like
  // published counts, and the missing years were skipped without a word).
  assert.equal(await view.nationalRows().count(), 19);
  assert.deepEqual(await view.missingYearRows().evaluateAll((rows) => rows.map((r) => [r.dataset.time, r.textContent.trim()])),
    [['2016', '2016no data'], ['2020', '2020no data']]);
  const marked = await view.page.locator('[data-testid="national-rate"] td[data-reconstructed]').evaluateAll((cells) => cells.map((c) => c.textContent.trim()));
  assert.deepEqual(marked, ['2017 ◆', '2018 ◆', '2019 ◆', '2021 ◆']);
  assert.equal((await view.testid('national-years-note').textContent()).trim(),
    '◆ 2017–2019 and 2021: deaths reconstructed from the published rate, not published counts. 2016 and 2020: no data in these files.');
  assert.equal((await view.rateRow('01101', 2019).locator('td[data-reconstructed]').textContent()).trim(), '2019 ◆');
  assert.equal(await view.rateRow('01101', 2015).locator('td[data-reconstructed]').count(), 0);
  // Iquique 2019: 16 deaths (the whole number nearest SINIM 2021's rate 6 × 2,620 / 1,000) among
  // INE's 2,620 births → 6.11 per 1,000.
  const row = view.rateRow('01101', 2019);
  assert.equal((await row.locator('[data-field="rate"]').textContent()).trim(), '6.11');
  assert.equal((await row.locator('[data-field="births"]').textContent()).trim(), '2,620');
  assert.match(await view.sourcesText(), /SINIM/);
  assert.match(await view.sourcesText(), /INE/);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('a characteristics file joins by code, and the rates table searches and sorts', async () => {
  const view = await openView(browser, server.origin, 'data');
  await view.upload([fixture('good_latin1.csv'), fixture('characteristics.csv')]);
  // 4 rows of rates + 2 of characteristics; 13101 has no rates row, so it is excluded (not joined).
  await view.waitForRowCount('read', 6);
  assert.equal(await view.rowCountText('used'), '5');
  assert.equal(await view.rowCountText('excluded'), '1');
  assert.match((await view.excludedItems().first().textContent()), /characteristics\.csv, line 3: no row of the main data for 13101/);
  await view.search('16101');
  await view.waitForRateRowCount(1);
  await view.search('');
  await view.sortBy('Rate ‰'); // ascending by rate
  await view.sortBy('Rate ‰'); // descending
  const first = view.rateRows().first();
  assert.equal(await first.getAttribute('data-entity'), '01101'); // 7.00 is the highest rate
  assert.equal(await first.getAttribute('data-time'), '2019');
});

test('the interface follows the browser language and switches, with numbers per language', async () => {
  // Opened without a language in the link: the page takes the browser's.
  const view = DataPage.attach(await openPage(browser, server.origin + '/', { locale: 'es-CL' }));
  const { page } = view;
  await view.waitForRowCount('read', 7245);
  const rate = view.rateCell('01101', 2019, 'rate');
  const births = view.rateCell('01101', 2019, 'births');
  assert.equal((await rate.textContent()).trim(), '6,11');
  // Iquique 2019: INE's 2,620 registered births.
  assert.equal((await births.textContent()).trim(), '2.620');
  assert.equal(await page.getAttribute('html', 'lang'), 'es');
  assert.equal((await view.tab('data').textContent()).trim(), 'Datos');
  await view.switchLanguage();
  await view.waitForTabText('data', 'Data');
  assert.equal((await rate.textContent()).trim(), '6.11');
  assert.equal((await births.textContent()).trim(), '2,620');
  assert.equal(await page.getAttribute('html', 'lang'), 'en');
});

test('excluded rows give their reasons in the page language', async () => {
  const view = DataPage.attach(await openPage(browser, server.origin + '/', { locale: 'es-CL' }));
  await view.upload(fixture('broken.csv'));
  await view.waitForRowCount('excluded', 8);
  const first = view.excludedLine(3);
  assert.match(await first.textContent(), /^broken\.csv, línea 3: columna «.+»: se esperaba un número y dice/);
  await view.switchLanguage();
  await first.filter({ hasText: /^broken\.csv, line 3: column `.+`: expected a number, found/ }).waitFor();
});

// A covariate on which a births file and a deaths file disagree is not dropped unseen:
// the Data view lists the cell with both files and lines (the first file's value is used).
test('a conflicting covariate between joined files is listed with both places', async () => {
  const view = await openView(browser, server.origin, 'data');
  const { requests, errors } = view;
  await view.upload([
    { name: 'births.csv', mimeType: 'text/csv', buffer: Buffer.from('code,year,births,region\n01101,2019,100,Tarapaca\n01107,2019,200,Tarapaca\n') },
    { name: 'deaths.csv', mimeType: 'text/csv', buffer: Buffer.from('code,year,deaths,region\n01101,2019,1,Tarapaca\n01107,2019,2,Antofagasta\n') },
  ]);
  const conflicts = view.conflicts();
  await conflicts.waitFor({ timeout: 60_000 });
  assert.match(await conflicts.locator('summary').textContent(), /^1 cells differ between joined files/);
  await conflicts.locator('summary').click();
  assert.equal((await conflicts.locator('li').textContent()).trim(),
    '01107 2019, `region`: Tarapaca (births.csv, line 3) / Antofagasta (deaths.csv, line 3)');
  assert.equal(await view.rowCountText('read'), '4');
  assert.equal(await view.rowCountText('used'), '4');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('five-yearly data have no missing years between them; a lacking fifth year has its row', async () => {
  const view = await openView(browser, server.origin, 'data');
  const { requests, errors } = view;
  // Years 2002, 2007 and 2017 on a five-year step: 2012 is missing, and no year between the
  // steps (the charts' rule, imr_stats::years::missing_years). The table's own every-year rule
  // listed 2003–2006 and 2008–2016 as "no data".
  const rows = ['codigo_comuna;anio;nacimientos;defunciones'];
  for (const year of [2002, 2007, 2017]) rows.push(`01101;${year};3000;21`, `01107;${year};1000;5`);
  await view.upload({ name: 'quinquenal.csv', mimeType: 'text/csv', buffer: Buffer.from(rows.join('\n') + '\n') });
  await view.waitForRowCount('read', 6);
  assert.equal(await view.nationalRows().count(), 3);
  assert.deepEqual(await view.missingYearRows().evaluateAll((rows) => rows.map((r) => r.dataset.time)), ['2012']);
  assert.match(await view.testid('national-years-note').textContent(), /2012: no data in these files\./);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});
