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
import { startServer, launch } from './harness.mjs';
import { ViewPage, READY } from './views.mjs';

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
      const opened = await ViewPage.open(browser, server.origin, view, { lang });
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
  assert.equal(foreignWords('rate_per_1000 deaths_2019 chile_imr_2019_2023.csv', 'en').length, 0);
  assert.ok(foreignWords('La tasa de mortalidad infantil por comuna y año, con intervalos', 'es').length >= 3);
});
