// A Spanish page a journalist can publish from (issue 42, item 5): every view opened in es-CL,
// and every figure it downloads, writes its numbers with the decimal comma and thousands point
// ("9,0 – 111,0", "p = 0,1050", "1.725") and shows no English word of the engines' labels,
// units and names ("(persons)", "(km (great-circle))", "Pesos (pooled…)", "EE cluster",
// "(Intercept)", "rate" in a select list, "▸ Data"). The words and the number rule are the
// engines' (e2e/spanish.mjs reads crates/imr-lang's lists). The CSVs are a Chilean
// spreadsheet's (`;`, decimal comma, byte-order mark, Spanish column names and provenance: what
// `imr --csv-lang es` writes), all but the Models' analysis data, the input of the R, Stata and
// `imr fit` code downloaded beside it, which stays the machine CSV on both pages.
// The English page keeps its own words and decimal points (a phone and a desktop window) and
// downloads machine CSVs.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, outsideRequests } from './harness.mjs';
import { READY } from './views.mjs';
import { openView, MapPage } from './pages/index.mjs';
import { pageTexts, problem, markupTexts, decimalPoints, spanishCsvProblems, isMachineCsv } from './spanish.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 1000 };

/** Each of the page's texts that a Spanish reader would call English or a decimal point. */
async function spanishProblems(opened, view) {
  return (await pageTexts(opened.page))
    .map(({ where, text }) => ({ where, text, found: problem(text) }))
    .filter((t) => t.found)
    .map((t) => `${view} · ${t.where}: “${t.text.slice(0, 120)}” (${t.found})`);
}

test('the check finds a decimal point and an English label but not Spanish numbers or names', () => {
  assert.equal(problem('9.0 – 111.0'), '9.0, 111.0');
  assert.equal(problem('z = -1,12, p = 0.1050'), '0.1050');
  assert.match(problem('Pesos (pooled, fe, twfe)'), /pooled/);
  assert.match(problem('(km (great-circle))'), /great-circle/);
  assert.match(problem('▸ Data'), /data/);
  // An English word an identifier ends in (cre's commune mean, issue 42), not a name's own parts.
  assert.match(problem('gasto\\_salud\\_pc\\_mean'), /mean/);
  assert.equal(problem('gasto_salud_pc (media de la comuna) · tasa_por_1000 · `x_mean`'), null);
  assert.equal(problem('Se muestran 400 de 1.725 filas · 1.480,97 · p = 0,1050'), null);
  assert.equal(problem('San Pedro de la Paz (08108) · chile_imr_2019_2023.csv · imr-atlas 0.1.0'), null);
});

for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]]) {
  test(`every view in Spanish on a ${size} writes decimal commas and no English label`, async () => {
    const problems = [];
    let checked = 0;
    for (const view of Object.keys(READY)) {
      const opened = await openView(browser, server.origin, view, { lang: 'es', viewport });
      if (view === 'map') {
        // The LISA clusters' legend and Moran's I are part of the view too.
        const map = MapPage.attach(opened);
        await map.lisaToggle().check();
        await map.legendRow('1').waitFor();
        await map.moran().waitFor({ timeout: 60000 });
      }
      const texts = await pageTexts(opened.page);
      checked += texts.length;
      problems.push(...await spanishProblems(opened, view));
      assert.deepEqual(opened.errors, [], view);
      await opened.close();
    }
    assert.ok(checked > 500, `only ${checked} texts read: the selectors no longer match the page`);
    assert.deepEqual(problems, []);
  });
}

// The Models' analysis data: the file the R, Stata and `imr fit` code beside it read, by its
// machine column names and in the machine CSV's form, on both pages.
const CODE_INPUT = 'imr_modelos_datos.csv';

/** Every download of every view but the Findings (whose report and embeds: the test below) in
 * `lang`, each handed to `check(view, file)`; the names of the files. */
async function everyDownload(lang, check) {
  const names = [];
  for (const view of Object.keys(READY).filter((v) => v !== 'findings')) {
    let opened = null;
    let n = Infinity;
    // A page's downloads in batches (Chromium stops starting a page's downloads after about
    // ten: the view is opened again for the next batch).
    for (let i = 0; i < n; i++) {
      if (i % 8 === 0) {
        if (opened) {
          assert.deepEqual(outsideRequests(opened.requests, server.origin), [], view);
          await opened.close();
        }
        opened = await openView(browser, server.origin, view, { lang, viewport: DESKTOP });
        n = await opened.downloadButtons().count();
        assert.ok(n > 0, `${view}: no download button`);
      }
      const file = await opened.download(opened.downloadButtons().nth(i));
      names.push(file.name);
      check(view, file);
    }
    assert.deepEqual(outsideRequests(opened.requests, server.origin), [], view);
    await opened.close();
  }
  return names;
}

// Every figure the views download in Spanish: SVG charts and maps, the HTML report and
// embeds (their text and accessible names; not coordinates or metadata), the PNG map (drawn
// from the Spanish SVG: checked to be a PNG) and the CSVs (every cell, the header's column
// names and the provenance lines). Code (R, Stata, LaTeX, Markdown) and saved analyses are not
// prose.
test('every download of every view in Spanish writes decimal commas and no English label', async () => {
  const problems = [];
  const csvs = [];
  const names = await everyDownload('es', (view, file) => {
    if (/\.(svg|html)$/.test(file.name)) {
      for (const text of markupTexts(file.text)) {
        const found = problem(text);
        if (found) problems.push(`${view} · ${file.name}: “${text.slice(0, 120)}” (${found})`);
      }
    } else if (file.name.endsWith('.png')) {
      assert.equal(file.bytes.subarray(1, 4).toString('latin1'), 'PNG', file.name);
    } else if (file.name === CODE_INPUT) {
      assert.ok(isMachineCsv(file.text), `${file.name}: ${file.text.slice(0, 300)}`);
    } else if (file.name.endsWith('.csv')) {
      csvs.push(file.name);
      const rows = file.text.split('\n').filter((l) => l && !/^\uFEFF?#/.test(l));
      assert.ok(rows.length > 1, file.name);
      for (const found of spanishCsvProblems(file.text)) problems.push(`${view} · ${file.name}: ${found}`);
    }
  });
  console.log(`spanish downloads: ${names.length} files: ${names.join(', ')}`);
  assert.ok(names.some((n) => n.endsWith('.svg')) && names.some((n) => n.endsWith('.png')), names.join(', '));
  // The CSVs of every view: rates, inequality, coefficients and map.
  for (const csv of ['tasas_imr.csv', 'imr_modelos_coeficientes.csv']) assert.ok(csvs.includes(csv), csvs.join(', '));
  assert.ok(csvs.length >= 6 && csvs.some((n) => n.startsWith('mapa_')), csvs.join(', '));
  assert.deepEqual(problems, []);
});

test('every CSV the English page downloads is the machine CSV', async () => {
  const csvs = [];
  await everyDownload('en', (view, file) => {
    if (!file.name.endsWith('.csv')) return;
    csvs.push(file.name);
    assert.ok(isMachineCsv(file.text), `${view} · ${file.name}: ${file.text.slice(0, 300)}`);
  });
  assert.ok(csvs.length >= 6 && csvs.includes('tasas_imr.csv'), csvs.join(', '));
});

test('the Findings\' report and embeddable figures are in Spanish too', async () => {
  const opened = await openView(browser, server.origin, 'findings', { lang: 'es', viewport: DESKTOP });
  const problems = [];
  const n = await opened.downloadButtons().count();
  for (let i = 0; i < n; i++) {
    const file = await opened.download(opened.downloadButtons().nth(i));
    problems.push(...markupTexts(file.text).filter((t) => problem(t)).map((t) => `${file.name}: ${t}`));
  }
  await opened.close();
  assert.deepEqual(problems, []);
});

// The English page keeps its decimal point and its words: the Spanish wording is per language.
for (const [size, viewport] of [['phone', PHONE], ['desktop', DESKTOP]]) {
  test(`the English map on a ${size} writes its legend and Moran's I with decimal points`, async () => {
    const map = await openView(browser, server.origin, 'map', { lang: 'en', viewport });
    await map.moran().waitFor({ timeout: 60000 });
    const legend = (await map.legend().textContent());
    assert.ok(decimalPoints(legend).length > 0, legend);
    assert.match(await map.moran().textContent(), /p = \d\.\d{4}/);
    const svg = await map.downloadSvg();
    assert.ok(markupTexts(svg.text).some((t) => decimalPoints(t).length > 0), 'the English SVG has decimal points');
    assert.deepEqual(map.errors, []);
    await map.close();
  });
}
