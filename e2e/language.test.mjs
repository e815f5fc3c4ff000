// One language per page: every view, opened in Spanish, shows no English sentence — neither the
// page's own words nor an engine's (notes, reasons, hypotheses, diagnostics, chart titles and
// descriptions) — and opened in English shows no Spanish one.
//
// A "sentence" is the text of one block of the page (a paragraph, list item, heading, caption,
// label, button, option, table cell, SVG title, desc or text) or one of its accessible names
// (aria-label, title, alt, placeholder). It is in the wrong language when it holds three or more
// distinct words that only the other language uses (FUNCTION_WORDS below). Proper names do not
// trip it: the lists leave out words that occur in Chilean place names (de, la, los, las, el,
// del, y, san). Code is exempt: shown `imr` commands, R and Stata code, and anything inside
// pre/code/kbd/samp/textarea, which stay in their own syntax.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, launch, openPage, ROOT } from './harness.mjs';
import { READY } from './views.mjs';
import { openView, DataPage, InequalityPage, MapPage, MicrodataPage, ModelsPage } from './pages/index.mjs';

const FUNCTION_WORDS = {
  // English words that Spanish text does not use.
  en: ['the', 'of', 'and', 'with', 'is', 'are', 'from', 'to', 'by', 'for', 'not', 'this', 'that',
    'be', 'was', 'were', 'has', 'have', 'which', 'or', 'on', 'than', 'each', 'its', 'their', 'it',
    'when', 'where', 'how', 'what', 'rate', 'rates', 'year', 'years', 'births', 'deaths', 'areas',
    'communes', 'data', 'missing', 'because', 'only', 'more', 'less', 'between', 'within'],
  // Spanish words that English text does not use.
  es: ['una', 'con', 'por', 'para', 'que', 'se', 'es', 'son', 'en', 'sin', 'más', 'entre', 'cada',
    'año', 'años', 'tasa', 'tasas', 'comunas', 'datos', 'muertes', 'nacimientos', 'está', 'están',
    'cuando', 'como', 'sobre', 'esta', 'este', 'estos', 'según', 'también', 'hay', 'puede',
    'pueden', 'qué', 'dónde', 'menos', 'solo', 'falta', 'faltan', 'porque'],
};

/** Every sentence of the page with where it is: block texts and accessible names. */
async function sentences(page) {
  return page.evaluate(() => {
    const BLOCKS = 'p,li,h1,h2,h3,h4,h5,h6,caption,figcaption,summary,label,button,option,th,td,dt,dd,legend,title,desc,text';
    const EXEMPT = 'pre,code,kbd,samp,textarea,script,style,[data-testid$="command"],[data-testid="imr-commands"]';
    const out = [];
    const where = (el) => {
      const id = el.closest('[data-testid]')?.dataset.testid;
      return `${el.tagName.toLowerCase()}${id ? ` in ${id}` : ''}`;
    };
    for (const el of document.querySelectorAll(BLOCKS)) {
      if (el.closest(EXEMPT) || el.closest('head')) continue;
      // The innermost blocks only: an outer block's text is its inner blocks' again.
      if (el.querySelector(BLOCKS)) continue;
      // Code inside a sentence (a shown command) is left out of it.
      let text = el.textContent || '';
      if (el.querySelector(EXEMPT)) {
        const copy = el.cloneNode(true);
        for (const code of copy.querySelectorAll(EXEMPT)) code.remove();
        text = copy.textContent || '';
      }
      text = text.replace(/\s+/g, ' ').trim();
      if (text) out.push({ where: where(el), text });
    }
    for (const el of document.querySelectorAll('[aria-label],[title],[alt],[placeholder]')) {
      if (el.closest(EXEMPT)) continue;
      for (const attr of ['aria-label', 'title', 'alt', 'placeholder']) {
        const text = el.getAttribute(attr);
        if (text) out.push({ where: `${where(el)} @${attr}`, text });
      }
    }
    return out;
  });
}

/** The words of `text` that only `other` uses (distinct, lower case); identifiers such as
 * `rate_per_1000`, file names and numbers are not words. */
function foreignWords(text, other) {
  const words = new Set();
  for (const token of text.split(/\s+/)) {
    if (/[_\d/=.@:]/.test(token.replace(/[.,;:!?)]+$/, ''))) continue;
    const word = token.toLowerCase().replace(/^[^\p{L}]+|[^\p{L}]+$/gu, '');
    if (FUNCTION_WORDS[other].includes(word)) words.add(word);
  }
  return [...words];
}

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

for (const [lang, other] of [['es', 'en'], ['en', 'es']]) {
  test(`every view in ${lang} shows no sentence in ${other}`, async () => {
    const problems = [];
    let checked = 0;
    for (const view of Object.keys(READY)) {
      const opened = await openView(browser, server.origin, view, { lang });
      assert.equal(await opened.page.locator('html').getAttribute('lang'), lang, `${view}: html lang`);
      for (const { where, text } of await sentences(opened.page)) {
        checked++;
        const words = foreignWords(text, other);
        if (words.length >= 3) problems.push(`${view} · ${where}: “${text.slice(0, 160)}” (${words.join(', ')})`);
      }
      assert.deepEqual(opened.errors, [], view);
      await opened.close();
    }
    console.log(`${lang}: ${checked} sentences checked over ${Object.keys(READY).length} views`);
    assert.ok(checked > 200, `only ${checked} sentences found: the selectors no longer match the page`);
    assert.deepEqual(problems, []);
  });
}

// The check itself: it must catch a sentence of the other language and leave names and code alone.
test('the language check flags a foreign sentence and not place names or identifiers', () => {
  assert.deepEqual(foreignWords('The rate of the commune is missing', 'en').sort(), ['is', 'missing', 'of', 'rate', 'the']);
  assert.equal(foreignWords('San Pedro de la Paz, Los Ángeles, Aysén del General Carlos Ibáñez del Campo', 'es').length, 0);
  assert.equal(foreignWords('rate_per_1000 deaths_2019 chile_imr_2001_2021.csv', 'en').length, 0);
  assert.ok(foreignWords('La tasa de mortalidad infantil por comuna y año, con intervalos', 'es').length >= 3);
});

// Errors about the user's own files are the engine's values worded by the page: in Spanish on
// the Spanish page, and again in English when the language is switched (no English sentence
// from the reader, the validation, the background worker or the microdata reader).
test('errors about uploaded files are worded in the page language, also from the worker', async () => {
  const data = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { page } = data;
  const shown = async (locator, name) => {
    const el = locator.filter({ hasText: name }).first();
    await el.waitFor({ timeout: 60000 });
    return (await el.textContent()).trim();
  };
  const cases = [
    ['file', { name: 'vacio.csv', mimeType: 'text/csv', buffer: Buffer.from('') }, /vacio\.csv: el archivo está vacío/],
    ['file', { name: 'planilla.xlsx', mimeType: 'application/octet-stream', buffer: Buffer.from([0x50, 0x4b, 0x03, 0x00, 0x14]) }, /parece un archivo binario/],
    ['panel', { name: 'negativos.csv', mimeType: 'text/csv', buffer: Buffer.from('codigo_comuna,anio,nacimientos,defunciones\n13101,2020,-5,1\n') },
      /ninguna fila utilizable: se excluyeron todas las filas leídas \(1\) \(la primera: línea 2, columna «nacimientos»: conteo negativo -5\)/],
    ['panel', { name: 'xy.csv', mimeType: 'text/csv', buffer: Buffer.from('x,y\n1,2\n') }, /ninguna columna para código de comuna \(entidad\)/],
    // Above the worker's threshold (4 MiB): parsed in the background, refused there.
    ['upload', { name: 'grande.bin', mimeType: 'application/octet-stream', buffer: Buffer.alloc(5 * 1024 * 1024, 0) }, /grande\.bin: parece un archivo binario/],
  ];
  for (const [kind, file, expected] of cases) {
    await data.upload(file);
    const text = await shown(data.error(kind), file.name);
    assert.match(text, expected, text);
    assert.deepEqual(foreignWords(text, 'en'), [], text);
  }
  // The microdata reader's refusal comes from its worker, as a value too.
  const microdata = MicrodataPage.attach(data);
  await microdata.chooseDeaths({ name: 'otro.csv', mimeType: 'text/csv', buffer: Buffer.from('x;y\n1;2\n') });
  await microdata.start();
  const refusal = await shown(microdata.error(), 'otro.csv');
  assert.match(refusal, /otro\.csv: línea 1: no son los microdatos de defunciones del Ministerio de Salud: se esperaba un encabezado/, refusal);
  assert.deepEqual(foreignWords(refusal, 'en'), [], refusal);
  // The errors follow a switch of language: they are values, not sentences kept as written.
  await data.switchLanguage();
  await page.locator('html[lang=en]').waitFor();
  const english = await shown(data.error('upload'), 'grande.bin');
  assert.match(english, /grande\.bin: this looks like a binary file, not text \(a zero byte at offset 0\)/, english);
  assert.deepEqual(foreignWords(english, 'es'), [], english);
  assert.match(await shown(microdata.error(), 'otro.csv'), /otro\.csv: line 1: this is not the health ministry's deaths microdata/);
  assert.deepEqual(data.errors, []);
  await data.close();
});

// The Map view's errors are values too: unreadable custom breaks from a shared link, in
// Spanish, then in English after the switch.
test('a map error is worded in the page language and follows a switch', async () => {
  const map = MapPage.attach(await openPage(browser, `${server.origin}/#view=map&lang=es&scheme=custom&breaks=cuatro`, { locale: 'es-CL' }));
  const error = map.error();
  await error.filter({ hasText: 'cuatro' }).waitFor({ timeout: 60000 });
  const spanish = (await error.textContent()).trim();
  assert.match(spanish, /^Cortes propios: escriba números crecientes separados por comas, p\. ej\. 4,6,8; se leyó «cuatro»$/, spanish);
  assert.deepEqual(foreignWords(spanish, 'en'), [], spanish);
  await map.switchLanguage();
  await error.filter({ hasText: 'read «cuatro»' }).waitFor();
  const english = (await error.textContent()).trim();
  assert.deepEqual(foreignWords(english, 'es'), [], english);
  assert.deepEqual(map.errors, []);
  await map.close();
});

// A boundary file the map cannot use: its error is a value, in Spanish and then in English.
test('a boundary file error is worded in the page language and follows a switch', async () => {
  const map = await openView(browser, server.origin, 'map', { lang: 'es' });
  await map.uploadBoundaries({ name: 'limites.json', mimeType: 'application/json', buffer: Buffer.from('{"type":"FeatureCollection","features":[]}') });
  const status = map.boundaryStatus();
  await status.filter({ hasText: 'limites.json' }).waitFor({ timeout: 60000 });
  const spanish = (await status.textContent()).trim();
  assert.equal(spanish, 'limites.json: el archivo de límites no tiene polígonos');
  await map.switchLanguage();
  await status.filter({ hasText: 'polygon' }).waitFor();
  assert.equal((await status.textContent()).trim(), 'limites.json: the boundary file has no polygon features');
  assert.deepEqual(map.errors, []);
  await map.close();
});

// A model the engine cannot fit says why in the page's language: first differences on one year.
test('a model that cannot be fitted is explained in the page language and follows a switch', async () => {
  const data = await openView(browser, server.origin, 'data', { lang: 'es', fragment: 'models=fd&x=pobreza' });
  const models = ModelsPage.attach(data);
  await data.upload({
    name: 'un_anio.csv', mimeType: 'text/csv',
    buffer: Buffer.from('codigo_comuna,anio,nacimientos,defunciones,pobreza\n13101,2020,100,1,10\n13102,2020,200,3,12\n13103,2020,150,2,9\n13104,2020,120,1,14\n'),
  });
  await data.waitForRowCount('used', 4);
  await models.openTab('models');
  const failure = models.fitError('fd');
  await failure.waitFor({ timeout: 60000 });
  const spanish = (await failure.textContent()).trim();
  // The model by its name in words (as the Models view names every model), then the reason.
  assert.equal(spanish, 'Primeras diferencias: ninguna entidad tiene dos períodos consecutivos, así que no hay primera diferencia');
  assert.deepEqual(foreignWords(spanish, 'en'), [], spanish);
  await models.switchLanguage();
  await failure.filter({ hasText: 'consecutive' }).waitFor();
  assert.equal((await failure.textContent()).trim(), 'First differences: no entity has two consecutive periods, so there is no first difference');
  assert.deepEqual(data.errors, []);
  await data.close();
});

// The engines' reasons for leaving rows and entities out are values worded by the page: a
// Spanish page shows none of their English sentences. The fixture has a row without `pobreza`,
// a zero weight, a commune with no death in any year (poisson-fe drops it), a commune with one
// row and a rate flagged as implausible (and a row without deaths, which the reader excludes). These are the English wordings
// of imr_models::ExclusionReason, ValueProblem, EntityDropReason, Diagnostic::HausmanUnavailable,
// imr_inequality::panel_input::NotMeasuredReason, words::Quantity and words::Unit, and the
// English estimator labels (Estimator::label_in).
const ENGINE_ENGLISH = [
  'missing value in', 'missing fixed effect', 'missing cluster', 'weights must be positive',
  'a count cannot be negative', 'its logarithm, the offset, is not defined', 'an exposure must be positive',
  'in every period (dropped from poisson-fe)', 'has a single row (dropped from poisson-fe)',
  'singleton: the only observation', 'is zero in every row of its level of fixed effect',
  'flagged as implausible', 'is zero in every period: with entity effects',
  "a single row: the entity's effect fits it exactly", 'the Hausman test is not available',
  'deaths are missing', 'births are missing', 'is missing',
  'infant mortality rate', 'live births', 'ratio, no unit',
  'Pooled OLS', 'Fixed effects (within)', 'Poisson fixed effects', 'entities dropped',
  // the page's English of the same values (imr_models::Reader)
  'no value of', 'no level of the fixed effect', 'left out of the Poisson model',
  'the only observation of its level', 'the Poisson model converged', 'excluded rows',
];

const EXCLUSIONS_CSV = {
  name: 'exclusiones.csv', mimeType: 'text/csv',
  buffer: fs.readFileSync(path.join(ROOT, 'e2e', 'fixtures', 'exclusions.csv')),
};

/** The English engine sentences in the text of the whole page (closed `<details>` included). */
async function engineEnglish(page) {
  const text = (await page.evaluate(() => document.body.textContent)).replace(/\s+/g, ' ');
  return ENGINE_ENGLISH.filter((phrase) => text.includes(phrase));
}

/** Opens the Data view in Spanish with the Models options `fragment`, loads the fixture and
 * opens the Models view once its diagnostics name `waitFor`. */
async function modelsOnFixture(fragment, waitFor) {
  const data = await openView(browser, server.origin, 'data', { lang: 'es', fragment });
  await data.upload(EXCLUSIONS_CSV);
  // the fixture's 19 rows replace the bundled data
  await data.waitForRowCount('read', 19, { timeout: 60000 });
  const models = ModelsPage.attach(data);
  await models.openTab('models');
  await models.diagnostics().filter({ hasText: waitFor }).waitFor({ timeout: 60000 });
  return models;
}

test('the engines\' reasons for leaving rows out are in Spanish on the Spanish page', async () => {
  // no rank column: the fixture's row without `pobreza` would stop the concentration index
  const models = await modelsOnFixture('models=pooled,poisson-fe&x=pobreza&weights=peso&vcov=hc1&ineq-rank=-', '13103');
  const { page } = models;
  const diagnostics = (await models.diagnostics().textContent()).replace(/\s+/g, ' ');
  for (const spanish of [
    'falta el valor de «Pobreza', 'el peso «peso» es 0 (los pesos deben ser positivos)',
    'la entidad 13103 tiene «Defunciones de menores de 1 año» = 0 en todos los períodos (excluida del modelo de Poisson)',
    'la entidad 13105 tiene una sola fila (excluida del modelo de Poisson)', 'marcada como inverosímil',
    'MCO agrupado', 'Poisson con efectos fijos',
  ]) assert.ok(diagnostics.includes(spanish), `${spanish} not in: ${diagnostics.slice(0, 600)}`);
  assert.deepEqual(await engineEnglish(page), [], 'Models');

  for (const [tab, ready] of [['inequality', InequalityPage.attach(models).table()], ['data', DataPage.attach(models).ratesTable()]]) {
    await models.openTab(tab);
    await ready.waitFor({ timeout: 60000 });
    assert.deepEqual(await engineEnglish(page), [], tab);
  }
  // Values, not sentences kept as written: the same reasons turn English on a switch.
  await models.openTab('models');
  await models.switchLanguage();
  await models.diagnostics().filter({ hasText: 'weights must be positive' }).waitFor();
  const english = (await models.diagnostics().textContent()).replace(/\s+/g, ' ');
  assert.ok(english.includes('entity 13105 has a single row (left out of the Poisson model)'), english.slice(0, 600));
  assert.deepEqual(models.errors, []);
  await models.close();

  // Absorbed effects: the rows alone in their level and the levels without a death.
  const absorbed = await modelsOnFixture('models=poisson-fe&x=pobreza&fe=entity', 'fixest');
  const text = (await absorbed.diagnostics().textContent()).replace(/\s+/g, ' ');
  assert.ok(text.includes('observación única de su nivel del efecto fijo «Entidad»'), text.slice(0, 600));
  assert.ok(text.includes('es cero en todas las filas de su nivel del efecto fijo «Entidad»'), text.slice(0, 600));
  assert.ok(!text.includes('`'), `an engine name in back-ticks: ${text.slice(0, 600)}`);
  assert.deepEqual(await engineEnglish(absorbed.page), [], 'Models with absorbed effects');
  assert.deepEqual(absorbed.errors, []);
  await absorbed.close();
});
