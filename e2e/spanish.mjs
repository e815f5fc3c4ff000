// What a Spanish page or export may not hold: a number written with a decimal point (Spanish
// writes 0,25 and 1.480,97) or an English word of the engines' labels and units. The words are
// read from crates/imr-lang/src/lib.rs (ENGLISH_MARKERS and ENGLISH_LABEL_WORDS), the list the
// engines' native tests use, and the rules are those of `imr_lang::decimal_points` and
// `imr_lang::english_label_words`, so the page's test and the engines' tests agree.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness.mjs';

const LIB = fs.readFileSync(path.join(ROOT, 'crates', 'imr-lang', 'src', 'lib.rs'), 'utf8');

/** The string literals of the Rust `const NAME: [&str; N] = [ … ];` in imr-lang. */
function rustList(name) {
  const found = LIB.match(new RegExp(`pub const ${name}: \\[&str; (\\d+)\\] = \\[([^\\]]*)\\]`));
  if (!found) throw new Error(`${name} not found in crates/imr-lang/src/lib.rs`);
  const words = [...found[2].matchAll(/"([^"]*)"/g)].map((m) => m[1]);
  if (words.length !== Number(found[1])) throw new Error(`${name}: read ${words.length} of ${found[1]} words`);
  return words;
}

export const ENGLISH = new Set([...rustList('ENGLISH_MARKERS'), ...rustList('ENGLISH_LABEL_WORDS')]);

/** The English words of `text` (lower case, in order): identifiers — a word with `_`, a digit
 * or a back-quote — are not words. */
export function englishWords(text) {
  return text.split(/\s+/)
    .filter((t) => t && !/[_`\d]/.test(t))
    .map((t) => t.replace(/^[^\p{L}-]+|[^\p{L}-]+$/gu, '').replace(/^-+|-+$/g, '').toLowerCase())
    .filter((w) => ENGLISH.has(w));
}

/** The numbers of `text` written with a decimal point: a `.` between digits that is not a
 * thousands point (groups of three after a first group of one to three digits not starting
 * with 0); a version after "imr-atlas ", "imr-core ", "motor ", "engine " or "v" is not a number. */
export function decimalPoints(text) {
  const found = [];
  for (const m of text.matchAll(/\d+(?:[.,]\d+)*/g)) {
    const number = m[0];
    if (!number.includes('.')) continue;
    const before = text.slice(0, m.index);
    if (/(imr-atlas |imr-core |motor |engine |v)$/.test(before)) continue;
    if (m.index > 0 && /\d/.test(text[m.index - 1])) continue;
    const groups = number.split(',')[0].split('.');
    const thousands = groups[0].length >= 1 && groups[0].length <= 3 && !groups[0].startsWith('0')
      && groups.slice(1).every((g) => g.length === 3);
    if (!thousands) found.push(number);
  }
  return found;
}

/** What of `text` a Spanish reader would call English or a decimal point, or null. */
export function problem(text) {
  const words = englishWords(text);
  const points = decimalPoints(text);
  if (words.length === 0 && points.length === 0) return null;
  return [...words.map((w) => `“${w}”`), ...points.map((p) => `${p}`)].join(', ');
}

/** Every text of the page a reader sees or hears, each with where it is: the innermost blocks'
 * texts (paragraphs, cells, options, labels, SVG texts and titles…), closed disclosures
 * included, and the accessible names (aria-label, title, alt, placeholder). Code is exempt:
 * shown commands, R and Stata code, and pre/code/kbd/samp/textarea; so is the language switch,
 * whose words are the other language's on purpose. */
export async function pageTexts(page) {
  return page.evaluate(() => {
    const EXEMPT = 'pre,code,kbd,samp,textarea,script,style,metadata,[data-testid$="command"],[data-testid="imr-commands"],[data-testid="lang-switch"]';
    const out = [];
    const where = (el) => {
      const id = el.closest('[data-testid]')?.dataset.testid;
      return `${el.tagName.toLowerCase()}${id ? ` in ${id}` : ''}`;
    };
    // Each element's own text (its text nodes, not its children's): what one cell, option,
    // label or SVG text says.
    for (const el of document.body.querySelectorAll('*')) {
      if (el.closest(EXEMPT)) continue;
      let text = '';
      for (const node of el.childNodes) if (node.nodeType === Node.TEXT_NODE) text += node.textContent;
      text = text.replace(/\s+/g, ' ').trim();
      if (text) out.push({ where: where(el), text });
    }
    for (const el of document.body.querySelectorAll('[aria-label],[title],[alt],[placeholder]')) {
      if (el.closest(EXEMPT)) continue;
      for (const attr of ['aria-label', 'title', 'alt', 'placeholder']) {
        const text = el.getAttribute(attr);
        if (text) out.push({ where: `${where(el)} @${attr}`, text });
      }
    }
    return out;
  });
}

/** The texts of an SVG or HTML download a reader sees: the text of its text, tspan, title,
 * desc and HTML elements, and its aria-labels (not its attributes' numbers, coordinates or
 * metadata). */
export function markupTexts(markup) {
  const texts = [];
  const withoutMeta = markup.replace(/<metadata>[\s\S]*?<\/metadata>/g, '').replace(/<style[\s\S]*?<\/style>/g, '');
  for (const m of withoutMeta.matchAll(/>([^<]+)</g)) {
    const text = decode(m[1]).replace(/\s+/g, ' ').trim();
    if (text) texts.push(text);
  }
  for (const m of withoutMeta.matchAll(/\saria-label="([^"]*)"/g)) texts.push(decode(m[1]));
  return texts;
}

const decode = (s) => s.replace(/&lt;/g, '<').replace(/&gt;/g, '>').replace(/&quot;/g, '"').replace(/&#39;/g, "'").replace(/&amp;/g, '&');
