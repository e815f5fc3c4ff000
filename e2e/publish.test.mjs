// The Data view's counts and the page's keyboard use, for a reader who publishes from the page
// (issue 42, item 10): the rates table says how many rows it shows only when it shows them
// ("Se muestran 400 de 1725 filas" under 10 rows), every count is written in the language's one
// number format ("1.725", never "1725" beside it), derived deaths are marked as derived instead
// of shown as "1.480,97", the view tabs follow the ARIA tabs pattern (arrow keys, Home, End; one
// tab stop), a link skips the map's communes (one tab stop each), a column the data do not have
// is named by its label with the columns that can stand in for it, and the sources under the
// reader's own data are her files. Phone (390×844) and desktop, Spanish and English.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch } from './harness.mjs';
import { openView, ModelsPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const CASES = [['es', 'phone', { width: 390, height: 844 }], ['en', 'desktop', { width: 1400, height: 1000 }],
  ['en', 'phone', { width: 390, height: 844 }], ['es', 'desktop', { width: 1400, height: 1000 }]];

/** A whole number as the page writes it in `lang`: 1.725 in Spanish, 1,725 in English. */
const grouped = (lang, n) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'es' ? '.' : ',');

for (const [lang, size, viewport] of CASES) {
  test(`the rates table says how many rows it shows when it shows them, in one number format (${lang}, ${size})`, async () => {
    const data = await openView(browser, server.origin, 'data', { lang, viewport });
    const used = Number(await data.rowCountText('used'));
    // Every count in the language's format, the plain number only as data.
    assert.equal(await data.rowCountShown('used'), grouped(lang, used));
    assert.equal(await data.physicalLinesShown(), grouped(lang, Number(await data.physicalLinesText())));
    // Collapsed: its first rows, and no sentence about 400 of them.
    const shown = await data.visibleRateRows();
    assert.ok(shown > 0 && shown < used, `${shown} rows shown`);
    assert.equal(await data.ratesShownNote().isVisible(), false, 'a note on rows not shown');
    assert.match(await data.ratesToggle().textContent(), new RegExp(`^${grouped(lang, used).replace(/[.,]/g, '\\$&')} `));
    // Open: the rows it says it shows, in the same format.
    await data.ratesToggle().click();
    const open = await data.visibleRateRows();
    assert.ok(open > shown, `${open} rows when open`);
    if (open < used) {
      const note = (await data.ratesShownNote().textContent()).trim();
      assert.ok(note.includes(grouped(lang, open)) && note.includes(grouped(lang, used)), note);
    }
    assert.deepEqual(data.errors, []);
    await data.close();
  });

  test(`deaths derived from a published rate are marked, not shown as a count with decimals (${lang}, ${size})`, async () => {
    const data = await openView(browser, server.origin, 'data', { lang, viewport });
    // Rates without deaths: the deaths are derived (rate × births / 1,000), not whole numbers.
    await data.upload({
      name: 'tasas_publicadas.csv', mimeType: 'text/csv',
      buffer: Buffer.from('codigo_comuna,anio,nacimientos,tasa\n13101,2020,1234,7.3\n13101,2021,1180,6.1\n05101,2020,2377,5.9\n'),
    });
    await data.waitForRowCount('read', 3);
    const cells = await data.deathCells();
    assert.equal(cells.length, 3);
    assert.ok(cells.length > 0);
    for (const { text, title } of cells) {
      assert.match(text, /^≈\d{1,3}([.,]\d{3})*$/, text);
      assert.match(title, lang === 'es' ? /no son un recuento/ : /not a count/);
    }
    assert.match(await data.deathsHeader(), lang === 'es' ? /^Defunciones derivadas$/ : /^Derived deaths$/);
    await data.close();
  });

  test(`the view tabs move with the arrow keys, Home and End, and are one tab stop (${lang}, ${size})`, async () => {
    const page = await openView(browser, server.origin, 'data', { lang, viewport });
    assert.deepEqual(await page.tabStops(), ['tab-data']);
    await page.tab('data').focus();
    await page.press('ArrowRight');
    await page.waitForTabSelected('inequality');
    assert.equal(await page.focused(), 'tab-inequality');
    assert.deepEqual(await page.tabStops(), ['tab-inequality']);
    assert.equal(await page.tabPanelLabel(), 'tab-inequality');
    await page.press('End');
    await page.waitForTabSelected('map');
    assert.equal(await page.focused(), 'tab-map');
    await page.press('ArrowRight');
    await page.waitForTabSelected('findings');
    await page.press('ArrowLeft');
    await page.waitForTabSelected('map');
    await page.press('Home');
    await page.waitForTabSelected('findings');
    assert.equal(await page.focused(), 'tab-findings');
    assert.deepEqual(page.errors, []);
    await page.close();
  });

  test(`a link skips the map's communes to its downloads (${lang}, ${size})`, async () => {
    const map = await openView(browser, server.origin, 'map', { lang, viewport });
    await map.tab('map').focus();
    await map.press('Tab');
    assert.equal(await map.focused(), 'skip-map');
    assert.equal(await map.skipLink().isVisible(), true);
    await map.press('Enter');
    assert.equal(await map.focused(), 'download-svg');
    assert.deepEqual(map.errors, []);
    await map.close();
  });
}

for (const [lang, size, viewport] of CASES.slice(0, 2)) {
  test(`a column the data do not have is named by its label, with the columns to choose instead (${lang}, ${size})`, async () => {
    const data = await openView(browser, server.origin, 'data', { lang, viewport, fragment: 'models=pooled&x=pobreza&weights=ingreso_salud_pc' });
    await data.upload({
      name: 'sin_ingreso.csv', mimeType: 'text/csv',
      buffer: Buffer.from('codigo_comuna,anio,nacimientos,defunciones,pobreza\n13101,2020,100,1,10\n13102,2020,200,3,12\n13101,2021,110,2,9\n13102,2021,190,1,14\n'),
    });
    await data.waitForRowCount('read', 4);
    const models = ModelsPage.attach(data);
    await models.openTab('models');
    const failure = models.fitError('pooled');
    await failure.waitFor({ timeout: 60000 });
    const text = (await failure.textContent()).trim();
    assert.ok(!text.includes('`'), text);
    assert.match(text, lang === 'es'
      ? /Sus datos no tienen «Ingresos municipales de salud por habitante» \(ingreso_salud_pc\)\. Puede elegir en su lugar una columna parecida de sus datos como pesos: «Nacimientos»\./
      : /Your data have no «Municipal health income per inhabitant» \(ingreso_salud_pc\)\. You can choose a similar column of your data as the weights instead: «Births»\./);
    // Only sizes are offered as weights: her poverty is not one (imr_core::model_columns).
    assert.doesNotMatch(text, /Pobreza|poverty/);
    // The sources under her data are her file's, not the bundled data's.
    assert.match(await data.userDataSource().textContent(), /sin_ingreso\.csv/);
    assert.doesNotMatch(await data.dataSources().textContent(), /SINIM/);
    assert.deepEqual(data.errors, []);
    await data.close();
  });
}
