// The page objects' base, `ViewPage` (one class per view extends it in pages/, which imports
// this file and not the reverse): how a view is opened, when its results are on screen, its downloads, and the `imr` command it shows — run
// here, in a folder holding the bundled data, to check that the command writes what the page
// offers, byte for byte.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { openPage, cargoBinary, exportDate, imrEnv, ROOT } from './harness.mjs';

// For each view, the elements that say its results are on screen: the first one the answer,
// the others the parts drawn after it.
export const READY = {
  findings: ['[data-question="where"] [data-testid="finding-headline"]', '[data-testid="findings-flagged-note"]'],
  data: ['[data-testid="rates-table"]', '[data-testid="flagged-summary"]'],
  inequality: ['[data-testid="ineq-answer"]', '[data-testid="inequality-table"]', '[data-testid="ineq-adjusted"]'],
  models: ['[data-testid="coef-table"]', '[data-testid="diagnostics"]'],
  map: ['svg[data-testid="choropleth"]', '[data-testid="map-legend"] [data-legend-class="0"]'],
};

export const BUNDLED_CSV = 'chile_imr_2001_2021.csv';
// The bundled file as the page's commands name it.
export const BUNDLED_PATH = `public/data/${BUNDLED_CSV}`;

export class ViewPage {
  constructor(view, opened) {
    this.view = view;
    Object.assign(this, opened); // page, context, requests, errors
  }

  /** Opens `view` by its link (`lang`, more `fragment` options) in a new context, waits for its results; returns it as an instance of this class (`openView` in pages/index.mjs picks the view's class). */
  static async open(browser, origin, view, { lang = 'en', fragment = '', ...options } = {}) {
    const locale = lang === 'es' ? 'es-CL' : 'en-US';
    const url = `${origin}/#view=${view}&lang=${lang}${fragment ? `&${fragment}` : ''}`;
    const opened = new this(view, await openPage(browser, url, { locale, ...options }));
    await opened.ready();
    return opened;
  }

  /** This view's page object over a page opened otherwise (`openPage`), waiting for nothing. */
  static attach(opened) { return new this(this.VIEW, opened); }

  /** The element with this test id (the page objects' one way to reach one). */
  testid(id) { return this.page.getByTestId(id); }

  /** Clicks the language switch (English ⇄ Spanish). */
  async switchLanguage() { await this.testid('lang-switch').click(); }

  /** The line above every view naming the reader's own files (empty on the bundled data). */
  yourData() { return this.testid('your-data'); }

  /** The names of the reader's files in that line. */
  yourDataFiles() { return this.testid('your-data-files'); }

  /** What that line says of the kept data (restoring, removed, not kept), if anything. */
  yourDataStatus() { return this.testid('your-data-status'); }

  /** Clicks "remove my data". */
  async removeMyData() { await this.testid('remove-my-data').click(); }

  /** The sources footer. */
  dataSources() { return this.testid('data-sources'); }

  /** The sources footer's line naming the reader's files. */
  userDataSource() { return this.testid('user-data-source'); }

  /** Every download button of the view (its files, charts, code and figures). */
  downloadButtons() {
    return this.page.locator('main button[data-testid*="download"], main button[data-testid^="finding-embed-"], main button[data-testid="findings-report"]');
  }

  /** The view tabs that are tab stops (their test ids). */
  tabStops() {
    return this.page.$$eval('[role=tab]', (tabs) => tabs.filter((t) => t.tabIndex >= 0).map((t) => t.dataset.testid));
  }

  /** The test id of the tab that labels the tab panel (the view shown). */
  tabPanelLabel() {
    return this.page.evaluate(() => document.getElementById(document.querySelector('[role=tabpanel]').getAttribute('aria-labelledby'))?.dataset.testid);
  }

  /** The test id of the element that has the keyboard focus (its tag name without one). */
  focused() { return this.page.evaluate(() => document.activeElement?.dataset.testid ?? document.activeElement?.tagName); }

  /** Presses `key` on the keyboard (where the focus is). */
  async press(key) { await this.page.keyboard.press(key); }

  /** The width of the page's content and of the window: a page no wider than the screen has
   * `content <= window`. */
  widths() {
    return this.page.evaluate(() => ({ content: document.scrollingElement.scrollWidth, window: window.innerWidth }));
  }

  /** The boxes (viewport coordinates) of the header and of each tab. */
  headerBoxes() {
    return this.page.evaluate(() => ({
      header: document.querySelector('header.top').getBoundingClientRect().toJSON(),
      tabs: [...document.querySelectorAll('[role=tab]')].map((t) => t.getBoundingClientRect().toJSON()),
    }));
  }

  /** Every chart's SVG text that runs past its own chart (its title cut at an edge), as
   * "testid: text". */
  clippedChartTexts() {
    return this.page.evaluate(() => {
      const out = [];
      for (const svg of document.querySelectorAll('main .chart svg')) {
        const box = svg.getBoundingClientRect();
        for (const t of svg.querySelectorAll('text')) {
          const b = t.getBoundingClientRect();
          if (b.width === 0) continue;
          if (b.left < box.left - 1 || b.right > box.right + 1) {
            out.push(`${svg.closest('[data-testid]')?.dataset.testid}: ${t.textContent}`);
          }
        }
      }
      return out;
    });
  }

  /** Table cells with a word cut across lines (one character per line), as "testid: text":
   * a text node laid out on more lines than it has words (a hyphen may end a line). */
  squeezedCells() {
    return this.page.evaluate(() => {
      const out = [];
      const range = document.createRange();
      for (const cell of document.querySelectorAll('main table td, main table th')) {
        if (cell.getClientRects().length === 0) continue;
        const walker = document.createTreeWalker(cell, NodeFilter.SHOW_TEXT);
        for (let node = walker.nextNode(); node; node = walker.nextNode()) {
          const words = node.textContent.split(/[\s\-–]+/).filter(Boolean).length;
          if (words === 0) continue;
          range.selectNodeContents(node);
          const lines = new Set([...range.getClientRects()].filter((r) => r.width > 0).map((r) => Math.round(r.top)));
          if (lines.size > words) {
            out.push(`${cell.closest('[data-testid]')?.dataset.testid}: ${node.textContent.trim().slice(0, 40)} (${lines.size} lines)`);
          }
        }
      }
      return out;
    });
  }

  /** The tab of `view` (findings, data, inequality, models, map). */
  tab(view) { return this.testid(`tab-${view}`); }

  /** Waits until the tab of `view` reads `text` (trimmed). */
  async waitForTabText(view, text) {
    await this.page.waitForFunction(([selector, text]) => document.querySelector(selector).textContent.trim() === text,
      [`[data-testid="tab-${view}"]`, text]);
  }

  /** Waits until the tab of `view` is the selected one. */
  async waitForTabSelected(view) { await this.tab(view).and(this.page.locator('[aria-selected="true"]')).waitFor(); }

  /** Clicks the tab of `view`. */
  async openTab(view) { await this.tab(view).click(); }

  /** Waits until the view's results are on screen (the elements of `READY`). */
  async ready() {
    for (const selector of READY[this.view]) await this.page.locator(selector).first().waitFor({ timeout: 60000 });
  }

  /** The file a download button gives (see [`downloadFile`]), kept in `saveIn` when given. */
  download(testid, saveIn = null) { return downloadFile(this.page, testid, saveIn); }

  /** The words of a shown `imr` command, as a shell splits them. */
  async command(testid) {
    const text = (await this.page.getByTestId(testid).first().textContent()).trim();
    const words = shellWords(text);
    assert.equal(words[0], 'imr', text);
    return words;
  }

  async close() { await this.context.close(); }
}

/** The file a download button gives: its suggested name, bytes, text and path. `target` is the
 * button's test id (the first button with it) or a Playwright locator (clicked as strictly as the
 * locator says). With `saveIn`, a folder, the file is also written there under its suggested
 * name (as a user keeps it, for the page or `imr` to read again) and `path` is that copy.
 * Every e2e download goes through here, so that when no download comes the error says whether
 * the page clicked a download link (the browser then dropped the download) or not (the click
 * never reached the button or the button did nothing): a download once went missing in CI and
 * could not be reproduced. */
export async function downloadFile(page, target, saveIn = null) {
  const button = typeof target === 'string' ? page.getByTestId(target).first() : target;
  const label = typeof target === 'string' ? target : String(target);
  // Every `<a download>` the page clicks (the page's downloads all go through one), recorded in
  // the capture phase, before the link is removed; `before` is how many came before this one.
  const before = await page.evaluate(() => {
    if (!window.__e2eDownloadLinks) {
      window.__e2eDownloadLinks = [];
      document.addEventListener('click', (e) => {
        if (e.target instanceof HTMLAnchorElement && e.target.hasAttribute('download')) {
          window.__e2eDownloadLinks.push(e.target.download);
        }
      }, true);
    }
    return window.__e2eDownloadLinks.length;
  });
  let file;
  try {
    [file] = await Promise.all([page.waitForEvent('download'), button.click()]);
  } catch (error) {
    const links = await page.evaluate(() => window.__e2eDownloadLinks).catch(() => null);
    const made = links ? links.slice(before) : [];
    const what = made.length > 0
      ? `the page clicked a download link for ${made.join(', ')}, so the browser dropped the download; ${await browserDownloads(page)}`
      : 'the page clicked no download link: the click did not reach the button, or the button did nothing';
    throw new Error(`${label}: no download (${error.message.split('\n')[0]}); ${what}`);
  }
  const name = file.suggestedFilename();
  let filePath = await file.path();
  const bytes = fs.readFileSync(filePath);
  if (saveIn !== null) {
    filePath = path.join(saveIn, name);
    fs.writeFileSync(filePath, bytes);
  }
  return { name, bytes, text: bytes.toString('utf8'), path: filePath };
}

/** What the browser's own download manager (chrome://downloads of the page's context) holds:
 * each download's file, state, interrupt reason and danger type, as Chromium reports them. A
 * dropped download that is not there was refused before it began (a download limiter or
 * policy); one that is there says why it stopped, and one listed as complete reached the
 * browser's disk but never reached Playwright (its `Browser.downloadWillBegin` named no frame of
 * the page). Then the browser's own counters (chrome://histograms): how many downloads it was
 * asked for, started, interrupted and why, and whether a blob broke on the way. */
async function browserDownloads(page) {
  const manager = await page.context().newPage();
  try {
    await manager.goto('chrome://downloads');
    const items = await manager.evaluate(async () => {
      const list = () => document.querySelector('downloads-manager')?.shadowRoot?.querySelectorAll('downloads-item') ?? [];
      for (let i = 0; i < 20 && list().length === 0; i++) await new Promise((r) => setTimeout(r, 100));
      return [...list()].map((item) => item.data).map((d) => ({
        file: d?.fileName, state: d?.state, reason: d?.lastReasonText, danger: d?.dangerType, url: d?.url?.slice(0, 60),
      }));
    });
    return `chrome://downloads lists ${items.length}: ${JSON.stringify(items)}; ${await browserCounters(manager)}`;
  } catch (error) {
    return `chrome://downloads could not be read (${error.message.split('\n')[0]})`;
  } finally {
    await manager.close();
  }
}

/** The browser process's histograms whose names start with Download or Blob (or Storage.Blob),
 * each as `name: n [bucket×count …]`, leaving out the sizes, speeds and timings that cannot say
 * why a download stopped; the buckets are the values of Chromium's enums (Download.Counts:
 * DownloadCountTypes in components/download/public/common/download_stats.h). One successful
 * blob download on Chromium 156 reads `Download.Counts: 7 [5×1 6×1 8×1 19×1 25×1 26×1 28×1]`. */
const UNINFORMATIVE_HISTOGRAM = /Bandwidth|Memory|History|WebUi|Database|NetworkConnectionType|PerProfileType|DownloadSize|HttpResponseCode|ContentType|OpenDownloads/;
async function browserCounters(manager) {
  const lines = [];
  for (const prefix of ['Download', 'Blob', 'Storage.Blob']) {
    await manager.goto(`chrome://histograms/${prefix}`);
    const text = await manager.evaluate(() => document.body.innerText);
    for (const block of text.split(/\n(?=- Histogram: )/).slice(1)) {
      const head = block.match(/^- Histogram: (\S+) recorded (\d+) samples/);
      if (!head || !head[1].startsWith(prefix) || UNINFORMATIVE_HISTOGRAM.test(head[1])) continue;
      const buckets = [...block.matchAll(/^(\d+)\s+-?O\s+\((\d+) = /gm)].filter((m) => m[2] !== '0').map((m) => `${m[1]}×${m[2]}`);
      lines.push(`${head[1]}: ${head[2]} [${buckets.slice(0, 12).join(' ')}]`);
    }
  }
  return `chrome://histograms: ${lines.join('; ') || 'no Download or Blob histogram'}`;
}

/** The words of a command as a POSIX shell splits them (the page quotes with single quotes and
 * writes a quote inside one as '\''). */
export function shellWords(text) {
  const words = [];
  let word = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === "'") {
      const end = text.indexOf("'", i + 1);
      assert.ok(end > i, `unclosed quote in ${text}`);
      word = (word ?? '') + text.slice(i + 1, end);
      i = end;
    } else if (c === '\\') {
      word = (word ?? '') + text[++i];
    } else if (/\s/.test(c)) {
      if (word !== null) words.push(word);
      word = null;
    } else {
      word = (word ?? '') + c;
    }
  }
  if (word !== null) words.push(word);
  return words;
}

/** The Models view's choices: tick exactly these models and regressors, pick the standard
 * errors. */
export async function chooseModels(page, { models, vcov, regressors }) {
  const tick = async (group, wanted) => {
    for (const box of await page.locator(`[data-testid="${group}"] input[type="checkbox"]`).all()) {
      const on = wanted.includes(await box.getAttribute('value'));
      if ((await box.isChecked()) !== on) await box.setChecked(on);
    }
  };
  await tick('model-choices', models);
  await page.getByTestId('model-vcov').selectOption(vcov);
  await tick('regressor-choices', regressors);
}

/** Runs the command words (`imr …`) in a fresh folder holding the bundled data file where the
 * page's commands name it (`public/data/…`, as in a checkout) and the `uploaded` files (paths,
 * copied by their base name, as the page names an uploaded file), and returns a reader of the
 * files it wrote (and its stdout). `datedLike`, a download of the page, dates imr's exports as
 * that download is dated (see [`imrEnv`]), for a comparison byte for byte. */
export function runInBundledFolder(words, datedLike = null, uploaded = []) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-e2e-'));
  fs.mkdirSync(path.join(dir, 'public', 'data'), { recursive: true });
  fs.copyFileSync(path.join(ROOT, BUNDLED_PATH), path.join(dir, BUNDLED_PATH));
  for (const file of uploaded) fs.copyFileSync(file, path.join(dir, path.basename(file)));
  const env = datedLike ? imrEnv(exportDate(datedLike.text)) : process.env;
  const stdout = execFileSync(cargoBinary('imr-cli', 'imr'), words.slice(1), { cwd: dir, env, stdio: ['ignore', 'pipe', 'pipe'] });
  return {
    stdout,
    file: (name) => fs.readFileSync(path.join(dir, name)),
    remove: () => fs.rmSync(dir, { recursive: true, force: true }),
  };
}

/** The value after `flag` in command words. */
export const flagValue = (words, flag) => {
  const at = words.indexOf(flag);
  assert.ok(at >= 0 && at + 1 < words.length, `${flag} in ${words.join(' ')}`);
  return words[at + 1];
};

/** A CSV's text without its byte-order mark (the Spanish page's CSVs open with one) and its
 * provenance (#) lines: the data part two exports of one table share. */
export const dataPart = (text) => text.replace(/^\uFEFF/, '').split('\n').filter((l) => !l.startsWith('#')).join('\n');

/** The rows of a CSV download as cells, header first: the machine CSV (`,`) of the English page
 * or the spreadsheet CSV (byte-order mark, `;`) of the Spanish page. */
export const csvCells = (text) => {
  const separator = text.startsWith('\uFEFF') ? ';' : ',';
  return dataPart(text).trim().split('\n').map((line) => line.split(separator));
};

/** Asserts that the page's download and imr's file are the same bytes (the first differing
 * line is shown when not). */
export function assertSameBytes(ours, theirs, what) {
  if (Buffer.compare(ours, theirs) === 0) return;
  const [a, b] = [ours.toString('utf8').split('\n'), theirs.toString('utf8').split('\n')];
  const line = a.findIndex((l, i) => l !== b[i]);
  assert.fail(`${what}: the page and imr differ at line ${line + 1}:\n page: ${a[line]}\n imr:  ${b[line]}`);
}

/** Asserts that the command words (`imr …`, run as [`runInBundledFolder`] runs them) write each
 * download byte for byte: `files` pairs a download of the page with the name of imr's file.
 * imr's exports are dated as each download is, one run per date: the page dates a chart when it
 * draws it and a CSV when it is clicked, so a midnight UTC may fall between two downloads. */
export function assertImrWrites(words, files, uploaded = []) {
  const byDate = new Map();
  for (const [download, name] of files) {
    const date = exportDate(download.text);
    byDate.set(date, [...(byDate.get(date) ?? []), [download, name]]);
  }
  for (const same of byDate.values()) {
    const imr = runInBundledFolder(words, same[0][0], uploaded);
    try {
      for (const [download, name] of same) assertSameBytes(download.bytes, imr.file(name), download.name);
    } finally {
      imr.remove();
    }
  }
}

/** SINIM's integer rates as published (data/raw/sinim, v839 labelled 2019–2023) on INE's births of
 * the same labelled year (data/raw/ine), written to a temporary `tasas_sinim.csv`: a file of
 * published rates (deaths derived), the kind whose births ratio the Inequality view offers. */
export function sinimAsPublished() {
  const read = (file) => fs.readFileSync(path.join(ROOT, 'data/raw', file), 'utf8').trim().split('\n').slice(1);
  const births = new Map(read('ine/nacidos_vivos_comuna_residencia_2010_2023.csv').map((l) => {
    const [code, year, b] = l.split(',');
    return [`${code},${year}`, b];
  }));
  const out = ['codigo_comuna,anio,tmi,nacidos_vivos'];
  for (const line of read('sinim/sinim_2019_2023_extract.csv')) {
    const f = line.split(',');
    const b = births.get(`${f[0]},${f[2]}`);
    if (b !== undefined && f[3] !== '') out.push(`${f[0]},${f[2]},${f[3]},${b}`);
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imr-sinim-')), 'tasas_sinim.csv');
  fs.writeFileSync(file, out.join('\n') + '\n');
  return { file, rows: out.length - 1 };
}
