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

/** The columns of the data the tests load (the bundled panel, its codebook and the CSVs of
 * e2e/fixtures): the user's own names, shown as they are whatever their words. */
function ownColumns() {
  const files = [path.join(ROOT, 'public', 'data'), path.join(ROOT, 'e2e', 'fixtures')]
    .flatMap((dir) => fs.readdirSync(dir).filter((f) => f.endsWith('.csv')).map((f) => path.join(dir, f)));
  const names = new Set();
  for (const file of files) {
    const lines = fs.readFileSync(file, 'utf8').replace(/^\uFEFF/, '').split('\n');
    const header = lines.find((l) => l.trim() && !l.startsWith('#')) ?? '';
    for (const cell of header.split(/[,;]/)) names.add(cell.trim().replace(/^"|"$/g, ''));
    if (file.endsWith('codebook.csv')) for (const l of lines.slice(1)) names.add(l.split(',')[0]);
  }
  return names;
}
export const OWN_COLUMNS = ownColumns();

/** The English word an identifier ends in after its last `_` (an engine's suffix: cre's commune
 * mean `gasto_salud_pc_mean`, written `gasto\_salud\_pc\_mean` in Markdown and LaTeX), or null:
 * a column of the user's own data ([`OWN_COLUMNS`]) is her name, not the engine's English; a last
 * part with a digit or a dot (`tasa_por_1000`, `imr_modelos.csv`) is not a word. */
function englishSuffix(token) {
  const name = token.replace(/\\_/g, '_').replace(/^[^\p{L}\d_]+|[^\p{L}\d_]+$/gu, '');
  if (!name.includes('_') || OWN_COLUMNS.has(name)) return null;
  const last = name.slice(name.lastIndexOf('_') + 1).toLowerCase();
  return /^\p{L}+$/u.test(last) && ENGLISH.has(last) ? last : null;
}

/** The English words of `text` (lower case, in order): identifiers — a word with `_`, a digit
 * or a back-quote — are not words, but an identifier's English last part after `_` is
 * ([`englishSuffix`]: "x_mean"), unless the identifier is a column of the user's own data. */
export function englishWords(text) {
  return text.split(/\s+/)
    .filter((t) => t && !/\u0060/.test(t))
    .map((t) => (/[_\d]/.test(t)
      ? englishSuffix(t)
      : t.replace(/^[^\p{L}-]+|[^\p{L}-]+$/gu, '').replace(/^-+|-+$/g, '').toLowerCase()))
    .filter((w) => w && ENGLISH.has(w));
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

/** The cells of one CSV line split at `delimiter`, quotes honoured (the exports quote a cell
 * holding the delimiter, a quote or a line break, and double its quotes). */
export function csvCells(line, delimiter) {
  const cells = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < line.length; i++) {
    const c = line[i];
    if (quoted) {
      if (c === '"' && line[i + 1] === '"') { cell += '"'; i++; } else if (c === '"') quoted = false; else cell += c;
    } else if (c === '"' && cell === '') quoted = true;
    else if (c === delimiter) { cells.push(cell); cell = ''; } else cell += c;
  }
  cells.push(cell);
  return cells;
}

/** What of a CSV the Spanish page downloads a reader of a spreadsheet in es-CL would not take
 * (issue 42: INE's and DEIS's CSVs are her model): no UTF-8 byte-order mark, a provenance line
 * not in Spanish, a header without `;`, and in any cell (the header's column names read word by
 * word, `tasa_por_1000` as "tasa por 1000") a decimal point or an English word of the lists. */
export function spanishCsvProblems(text) {
  const found = [];
  if (!text.startsWith('\uFEFF')) found.push('no UTF-8 byte-order mark');
  const lines = text.replace(/^\uFEFF/, '').split('\n').filter((l) => l);
  const comments = lines.filter((l) => l.startsWith('#'));
  if (!/^# Fuente: /.test(comments[0] ?? '') || !/^# Generado: /.test(comments[2] ?? '')) {
    found.push(`provenance lines not in Spanish: ${comments.join(' | ')}`);
  }
  const rows = lines.filter((l) => !l.startsWith('#'));
  if (!rows[0]?.includes(';')) found.push(`header without ';': ${rows[0]}`);
  for (const line of comments) {
    const p = problem(line);
    if (p) found.push(`“${line}” (${p})`);
  }
  rows.forEach((line, i) => {
    for (const cell of csvCells(line, ';')) {
      const p = problem(i === 0 ? cell.replace(/_/g, ' ') : cell);
      if (p) found.push(`line ${i + 1}: “${cell.slice(0, 60)}” (${p})`);
    }
  });
  return found;
}

/** Whether `text` is the machine CSV `imr` writes by default: English provenance lines, no
 * byte-order mark, a `,`-separated header. */
export function isMachineCsv(text) {
  const lines = text.split('\n');
  return lines[0].startsWith('# Source: ') && lines[2].startsWith('# Generated: ')
    && !lines[3].startsWith('#') && lines[3].includes(',') && !lines[3].includes(';');
}
