// The answers before the engine (issue 43): writes into dist/index.html the page as the app
// renders it on the bundled data's Findings, in Spanish and in English, so that a reader sees
// the five answers while the wasm is still on its way. Run by `make dist` after `trunk build`
// (the single file, built next, keeps them).
//
// How: dist/ is served, the built page is opened in headless Chromium (the e2e tests' browser)
// once per language at a phone's width, and when its fifth Findings answer is in place the
// app's root (`#app`) is copied as it is: the same engine, the same data, the same markup, so
// the printed numbers are the engine's bytes. Each copy goes into a <template>; an inline script
// (allowed by its SHA-256 hash in the CSP) shows the reader's language when the page opens on
// the bundled data's Findings, and src/prerender.rs puts the app in its place once it shows
// the same. A click on one of the copy's tabs asks the app, by the address, for that view.
//   node scripts/prerender.mjs [dist]
import fs from 'node:fs';
import path from 'node:path';
import { serve } from './serve.mjs';
import { launch } from '../e2e/harness.mjs';
import { READY } from '../e2e/views.mjs';
import { withScriptHashes } from './csp-hashes.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.resolve(root, process.argv[2] || 'dist');
const indexPath = path.join(dist, 'index.html');
const BEGIN = '<!-- prerendered: begin -->';
const END = '<!-- prerendered: end -->';
const ANSWERED = '[data-question="where"] [data-testid="finding-headline"]';

// A rebuilt index.html has no copies; a second run replaces the first run's.
let html = fs.readFileSync(indexPath, 'utf8');
const begin = html.indexOf(BEGIN);
if (begin >= 0) html = html.slice(0, begin) + html.slice(html.indexOf(END) + END.length);
fs.writeFileSync(indexPath, html);

const server = await serve(dist);
const browser = await launch();
const copies = {};
// The views besides the Findings whose first screen on the bundled data is written too.
const VIEWS = ['data', 'inequality', 'models', 'map'];
const views = {};
/** The app's markup inside `root` once every selector of `ready` is in it, at a phone's width,
 * the page at `hash` in `locale`; throws if the page logged an error or the copy holds a script. */
async function rendered(hash, locale, ready, root, what) {
  const context = await browser.newContext({ locale, viewport: { width: 390, height: 844 } });
  const page = await context.newPage();
  const errors = [];
  page.on('pageerror', (e) => errors.push(String(e)));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  await page.goto(`${server.origin}/${hash}`);
  for (const selector of ready) await page.locator(`#${root} ${selector}`).first().waitFor({ timeout: 180_000 });
  // Two frames: whatever the app does after its results are in place is done.
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
  if (errors.length) throw new Error(`prerender (${what}): the page logged errors: ${errors.join('; ')}`);
  const html = await page.evaluate((id) => document.getElementById(id).innerHTML, root);
  if (/<script/i.test(html)) throw new Error(`prerender (${what}): a script in the copy`);
  await context.close();
  return html;
}

try {
  for (const [lang, locale] of [['es', 'es-CL'], ['en', 'en-US']]) {
    copies[lang] = await rendered('', locale, [ANSWERED], 'app', lang);
    if (!copies[lang].includes('data-question="where"')) throw new Error(`prerender (${lang}): no Findings in the copy`);
  }
  // The other views as the app renders them on the bundled data (their panel only: the header
  // and tabs are the Findings copy's), one file per view and language, fetched by the copy when
  // the reader picks the view's tab before the wasm has arrived.
  fs.rmSync(path.join(dist, 'prerendered'), { recursive: true, force: true });
  fs.mkdirSync(path.join(dist, 'prerendered'));
  for (const view of VIEWS) {
    for (const [lang, locale] of [['es', 'es-CL'], ['en', 'en-US']]) {
      const panel = await rendered(`#view=${view}&lang=${lang}`, locale, READY[view], 'view-panel', `${view}, ${lang}`);
      fs.writeFileSync(path.join(dist, 'prerendered', `${view}-${lang}.html`), panel);
      views[`${view}-${lang}`] = panel;
    }
  }
} finally {
  await browser.close();
  await server.close();
}

// Shown at once, before the body's end is parsed: the reader's language (the address's `lang`,
// else the browser's, as src/i18n.rs decides), only on the bundled data's Findings (no other
// view or option in the address, no files kept in this browser: src/components/kept.rs).
// While the app is on its way the copy answers what it can: its tabs (each view's copy, fetched),
// its language switch (the other language's copy, and `lang` in the address for the app) and its
// folds; any other control (an option, a download, a checkbox) is held and a note at the bottom of
// the screen says it works once the page has loaded, instead of a click that does nothing.
const show = `
(function () {
  var params = new URLSearchParams(location.hash.slice(1));
  var view = params.get('view');
  var asked = params.get('lang');
  var lang = asked === 'en' || asked === 'es' ? asked
    : ((navigator.language || '').toLowerCase().indexOf('en') === 0 ? 'en' : 'es');
  var kept = false;
  try { kept = localStorage.getItem('imr-atlas-kept') !== null; } catch (e) { kept = false; }
  var others = Array.from(params.keys()).some(function (k) { return k !== 'lang' && k !== 'view'; });
  if (kept || others || (view && view !== 'findings')) return;
  if (!document.getElementById('prerendered-' + lang)) return;
  var WORDS = {
    es: { opening: 'Abriendo la vista: la página termina de cargarse…',
          held: 'Esta opción funciona cuando la página termine de cargarse (unos segundos); mientras tanto puede leer los resultados y cambiar de vista.' },
    en: { opening: 'Opening the view: the page is still loading…',
          held: 'This option works once the page has finished loading (a few seconds); meanwhile you can read the results and switch views.' }
  };
  var copy = document.createElement('div');
  copy.id = 'prerendered';
  copy.style.display = 'contents';
  var findings = null;
  var shown = 'findings';
  var note = null;
  // The copy of the Findings in language l, then the view shown before, in that language.
  function fill(l) {
    lang = l;
    copy.replaceChildren(document.getElementById('prerendered-' + l).content.cloneNode(true));
    document.documentElement.lang = l;
    findings = document.createDocumentFragment();
    Array.from(copy.querySelector('#view-panel').childNodes).forEach(function (n) { findings.appendChild(n.cloneNode(true)); });
    note = null;
    open(shown);
  }
  function open(v) {
    shown = v;
    copy.querySelectorAll('[role="tab"]').forEach(function (t) {
      t.setAttribute('aria-selected', String(t.id === 'tab-' + v));
      t.setAttribute('tabindex', t.id === 'tab-' + v ? '0' : '-1');
    });
    var panel = copy.querySelector('#view-panel');
    if (!panel) return;
    panel.setAttribute('aria-labelledby', 'tab-' + v);
    copy.removeAttribute('data-prerendered-view');
    if (v === 'findings') {
      panel.replaceChildren(findings.cloneNode(true));
      copy.setAttribute('data-prerendered-view', 'findings');
      return;
    }
    var opening = document.createElement('p');
    opening.className = 'note';
    opening.setAttribute('role', 'status');
    opening.textContent = WORDS[lang].opening;
    panel.replaceChildren(opening);
    // The view as the app renders it on these data (written by make dist); from a file on disk
    // there is nothing to fetch and the note stays until the app is there.
    var l = lang;
    fetch('prerendered/' + v + '-' + l + '.html').then(function (r) {
      return r.ok ? r.text() : Promise.reject(r.status);
    }).then(function (html) {
      if (shown !== v || lang !== l || !copy.isConnected) return;
      panel.innerHTML = html;
      copy.setAttribute('data-prerendered-view', v);
    }).catch(function () {});
  }
  function hold() {
    if (!note) {
      note = document.createElement('p');
      note.className = 'note held-note';
      note.setAttribute('role', 'status');
      note.setAttribute('data-testid', 'prerendered-held');
      copy.appendChild(note);
    }
    note.textContent = WORDS[lang].held;
  }
  copy.addEventListener('click', function (event) {
    var tab = event.target.closest('[role="tab"]');
    if (tab && tab.id && tab.id.indexOf('tab-') === 0) {
      open(tab.id.slice(4));
      params.set('view', shown);
      location.hash = params.toString();
      return;
    }
    if (event.target.closest('[data-testid="lang-switch"]')) {
      event.preventDefault();
      fill(lang === 'es' ? 'en' : 'es');
      params.set('lang', lang);
      location.hash = params.toString();
      return;
    }
    if (event.target.closest('button, input, select, textarea, label')) {
      event.preventDefault();
      event.stopPropagation();
      hold();
    }
  }, true);
  // Tabs with the arrow keys, Home and End, as the app's (src/app.rs).
  copy.addEventListener('keydown', function (event) {
    var tab = event.target.closest('[role="tab"]');
    if (!tab) return;
    var tabs = Array.from(copy.querySelectorAll('[role="tab"]'));
    var i = tabs.indexOf(tab);
    var next = { ArrowRight: i + 1, ArrowLeft: i - 1, Home: 0, End: tabs.length - 1 }[event.key];
    if (next === undefined) return;
    event.preventDefault();
    var to = tabs[(next + tabs.length) % tabs.length];
    to.focus();
    to.click();
  }, true);
  // A list opens on the press, before any click; a value changed from the keyboard goes back.
  copy.addEventListener('mousedown', function (event) {
    if (event.target.closest('select')) { event.preventDefault(); hold(); }
  }, true);
  copy.addEventListener('change', function (event) {
    var t = event.target;
    if (t.options) Array.from(t.options).forEach(function (o) { o.selected = o.defaultSelected; });
    if ('defaultChecked' in t) t.checked = t.defaultChecked;
    if ('defaultValue' in t && t.type !== 'file') t.value = t.defaultValue;
    hold();
  }, true);
  document.body.insertBefore(copy, document.body.firstChild);
  fill(lang);
})();
`;
const block = `${BEGIN}
<template id="prerendered-es">${copies.es}</template>
<template id="prerendered-en">${copies.en}</template>
<script>${show}</script>
${END}`;
html = fs.readFileSync(indexPath, 'utf8');
html = html.replace(/<body>/, () => `<body>\n${block}`);
fs.writeFileSync(indexPath, withScriptHashes(html));
const kb = (s) => `${(Buffer.byteLength(s) / 1024).toFixed(0)} KB`;
console.log(`prerender: ${path.relative(root, indexPath)} with the Findings in Spanish (${kb(copies.es)}) and English (${kb(copies.en)})`);
console.log(`prerender: dist/prerendered/ with ${Object.entries(views).map(([k, v]) => `${k} ${kb(v)}`).join(', ')}`);
