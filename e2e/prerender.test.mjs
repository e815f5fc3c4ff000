// The answers before the engine (issue 43): dist/index.html carries the bundled data's Findings
// as the app renders them, in Spanish and English (scripts/prerender.mjs); a reader sees them
// before the wasm arrives, the app then takes their place without moving anything, and what
// the copy prints is what the engine prints.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { DIST, startServer, launch, openPage, appShown, outsideRequests } from './harness.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PHONE = { width: 390, height: 844 };
const QUESTIONS = ['study', 'rates', 'inequality', 'health-income', 'models', 'where'];

// A page whose wasm never arrives (the request is held until `release()` is called): what a
// reader on a slow network sees until the engine is there.
async function openWithoutEngine(url, locale) {
  const context = await browser.newContext({ locale, viewport: PHONE });
  const held = [];
  await context.route(/_bg\.wasm$/, (route) => new Promise((resolve) => held.push(() => resolve(route.continue()))));
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  const release = async () => { while (held.length === 0) await page.waitForTimeout(20); held.splice(0).forEach((go) => go()); };
  return { page, context, requests, errors, release };
}

// The text of every Findings answer, by question.
const answers = (page) => page.locator('[data-testid="findings"] [data-question]').evaluateAll(
  (els) => Object.fromEntries(els.map((e) => [e.dataset.question, e.innerText])));

// Where each element with a test id on the first screen is drawn.
const boxes = (page) => page.evaluate(() => {
  const out = {};
  for (const el of document.querySelectorAll('[data-testid]')) {
    const r = el.getBoundingClientRect();
    if (r.bottom <= 0 || r.top >= innerHeight || r.width === 0) continue;
    const key = el.dataset.testid + (el.closest('[data-question]')?.dataset.question ?? '');
    out[key] = [r.x, r.y, r.width, r.height].map((v) => Math.round(v * 10) / 10);
  }
  return out;
});

for (const [lang, locale, heading] of [['es', 'es-CL', 'Hallazgos'], ['en', 'en-US', 'Findings']]) {
  test(`${lang}: the Findings are read before the wasm arrives, and the app prints the same bytes in the same places`, async () => {
    const early = await openWithoutEngine(server.origin + '/', locale);
    const copy = early.page.locator('#prerendered');
    await copy.locator('[data-question="where"] [data-testid="finding-headline"]').waitFor({ timeout: 30_000 });
    assert.equal(await early.page.locator('#app').count(), 0, 'no app yet');
    assert.equal(await early.page.evaluate(() => document.documentElement.lang), lang);
    assert.equal(await copy.locator('[data-testid="findings"] h2').first().textContent(), heading);
    const before = await answers(early.page);
    assert.deepEqual(Object.keys(before), QUESTIONS);
    const shotBefore = await early.page.screenshot();
    const boxesBefore = await boxes(early.page);
    // The engine arrives: the app takes the copy's place.
    await early.release();
    await appShown(early.page);
    assert.deepEqual(await answers(early.page), before, 'the app prints what the copy printed');
    assert.deepEqual(await boxes(early.page), boxesBefore, 'nothing on the first screen moved');
    assert.ok((await early.page.screenshot()).equals(shotBefore), 'the first screen is the same picture');
    assert.deepEqual(outsideRequests(early.requests, server.origin), []);
    assert.deepEqual(early.errors, []);
    await early.context.close();
  });
}

// Each view's first screen on the bundled data is written beside the page (dist/prerendered/):
// a tab chosen on the copy shows it before the wasm arrives, with the results the app then
// prints in the same places; the app takes its place once it shows the same.
const FIRST = {
  data: '[data-testid="rates-table"]',
  inequality: '[data-testid="ineq-answer"]',
  models: '[data-testid="coef-table"]',
  map: '[data-testid="map-legend"]',
};
for (const [view, selector] of Object.entries(FIRST)) {
  test(`a tab chosen on the copy shows the ${view} view before the engine, and the app takes over showing the same`, async () => {
    const early = await openWithoutEngine(server.origin + '/', 'es-CL');
    const copy = early.page.locator('#prerendered');
    await copy.getByTestId(`tab-${view}`).click();
    assert.equal(await copy.getByTestId(`tab-${view}`).getAttribute('aria-selected'), 'true');
    assert.match(early.page.url(), new RegExp(`#view=${view}$`));
    // The view's results, from the file make dist wrote, while the wasm is still held back.
    await copy.locator(`#view-panel ${selector}`).waitFor({ timeout: 30_000 });
    assert.equal(await early.page.locator('#app').count(), 0, 'no app yet');
    const before = (await copy.locator(`#view-panel ${selector}`).innerText()).trim();
    assert.ok(before.length > 0);
    await early.release();
    await appShown(early.page);
    await early.page.locator(`#app #view-panel ${selector}`).waitFor({ timeout: 60_000 });
    assert.equal((await early.page.locator(`#app #view-panel ${selector}`).innerText()).trim(), before,
      'the app prints what the copy printed');
    assert.equal(await early.page.getByTestId(`tab-${view}`).getAttribute('aria-selected'), 'true');
    assert.deepEqual(outsideRequests(early.requests, server.origin), []);
    assert.deepEqual(early.errors, []);
    await early.context.close();
  });
}

test('going back to the Findings on the copy shows them again; a view without its file says it is opening', async () => {
  const early = await openWithoutEngine(server.origin + '/', 'es-CL');
  const copy = early.page.locator('#prerendered');
  await early.context.route(/prerendered\/models-es\.html$/, (route) => route.abort());
  await copy.getByTestId('tab-models').click();
  await copy.locator('#view-panel').filter({ hasText: 'Abriendo la vista' }).waitFor();
  await copy.getByTestId('tab-findings').click();
  await copy.locator('#view-panel [data-question="where"] [data-testid="finding-headline"]').waitFor();
  await early.release();
  await appShown(early.page);
  await early.page.locator('#app [data-question="where"] [data-testid="finding-headline"]').waitFor({ timeout: 60_000 });
  assert.deepEqual(early.errors, []);
  await early.context.close();
});

// Before the app: the language switch shows the other language's copy (and its views), and any
// other control is held with a word at the bottom of the screen instead of doing nothing; the
// app then takes over in the language chosen.
test('on the copy the language switch works and other controls say they wait for the page', async () => {
  const early = await openWithoutEngine(server.origin + '/', 'es-CL');
  const copy = early.page.locator('#prerendered');
  await copy.locator('[data-question="where"] [data-testid="finding-headline"]').waitFor({ timeout: 30_000 });
  // A checkbox and a button of the Findings: held, said, nothing moved or changed (where each
  // element is on the page, wherever the clicks scrolled to).
  const onPage = () => early.page.evaluate(() => Object.fromEntries([...document.querySelectorAll('[data-testid]')]
    .filter((el) => el.dataset.testid !== 'prerendered-held' && el.getBoundingClientRect().width > 0)
    .map((el) => { const r = el.getBoundingClientRect(); return [el.dataset.testid + (el.closest('[data-question]')?.dataset.question ?? ''), [r.x + scrollX, r.y + scrollY, r.width, r.height].map((v) => Math.round(v))]; })));
  const boxesBefore = await onPage();
  await copy.getByTestId('include-flagged').click();
  assert.equal(await copy.getByTestId('include-flagged').isChecked(), false);
  await copy.getByTestId('findings-report').click();
  const held = copy.getByTestId('prerendered-held');
  assert.match(await held.innerText(), /funciona cuando la página termine de cargarse/);
  assert.deepEqual(await onPage(), boxesBefore, 'the word on hold moves nothing');
  // The language switch: English copy, English address, English views.
  await copy.getByTestId('lang-switch').click();
  assert.equal(await early.page.evaluate(() => document.documentElement.lang), 'en');
  assert.equal(await copy.locator('[data-testid="findings"] h2').first().textContent(), 'Findings');
  assert.match(early.page.url(), /lang=en/);
  assert.equal(await copy.getByTestId('prerendered-held').count(), 0, 'the word went with the Spanish copy');
  // The tabs answer the arrow keys as the app's do.
  await copy.getByTestId('tab-findings').focus();
  await early.page.keyboard.press('ArrowRight');
  await copy.locator('#view-panel [data-testid="rates-table"]').waitFor({ timeout: 30_000 });
  assert.equal(await copy.getByTestId('tab-data').getAttribute('aria-selected'), 'true');
  assert.equal(await copy.getByTestId('tab-data').getAttribute('tabindex'), '0');
  assert.equal(await early.page.evaluate(() => document.activeElement.dataset.testid), 'tab-data');
  const englishPanel = await copy.locator('#view-panel').innerText();
  assert.doesNotMatch(englishPanel, /Comuna/);
  // Back to Spanish on the Data view: the Spanish Data copy.
  await copy.getByTestId('lang-switch').click();
  await copy.locator('#view-panel [data-testid="rates-table"]').waitFor({ timeout: 30_000 });
  assert.match(await copy.locator('#view-panel').innerText(), /Comuna/);
  assert.equal(await copy.getByTestId('tab-data').getAttribute('aria-selected'), 'true');
  await copy.getByTestId('lang-switch').click();
  await copy.locator('#view-panel [data-testid="rates-table"]').waitFor({ timeout: 30_000 });
  // The engine arrives: the app takes over in English, on the Data view.
  await early.release();
  await appShown(early.page);
  assert.equal(await early.page.evaluate(() => document.documentElement.lang), 'en');
  await early.page.locator('#app #view-panel [data-testid="rates-table"]').waitFor({ timeout: 60_000 });
  assert.equal(await early.page.getByTestId('tab-data').getAttribute('aria-selected'), 'true');
  assert.equal(await early.page.getByTestId('prerendered-held').count(), 0);
  assert.deepEqual(outsideRequests(early.requests, server.origin), []);
  assert.deepEqual(early.errors, []);
  await early.context.close();
});

test('the copy is shown only on the bundled data\'s Findings', async () => {
  for (const hash of ['#view=data', '#view=map&lang=en', '#view=findings&flagged=true']) {
    const early = await openWithoutEngine(server.origin + '/' + hash, 'es-CL');
    await early.page.waitForLoadState('domcontentloaded');
    assert.equal(await early.page.locator('#prerendered').count(), 0, hash);
    await early.context.close();
  }
  // Files kept in this browser come back instead of the bundled data: no copy of the bundled
  // Findings in the meantime (src/components/kept.rs's hint).
  const context = await browser.newContext({ locale: 'es-CL', viewport: PHONE });
  await context.addInitScript(() => localStorage.setItem('imr-atlas-kept', '1'));
  await context.route(/_bg\.wasm$/, () => {});
  const page = await context.newPage();
  await page.goto(server.origin + '/');
  await page.waitForLoadState('domcontentloaded');
  assert.equal(await page.locator('#prerendered').count(), 0);
  await context.close();
  // The address's language wins over the browser's.
  const english = await openWithoutEngine(server.origin + '/#lang=en', 'es-CL');
  await english.page.locator('#prerendered [data-question="where"]').waitFor();
  assert.equal(await english.page.evaluate(() => document.documentElement.lang), 'en');
  await english.context.close();
});

test('the single file from disk shows the copy too and the app takes over', async () => {
  const file = 'file://' + path.join(DIST, 'imr-atlas.html');
  const { page, context, errors } = await openPage(browser, file, { locale: 'es-CL', firstView: true, viewport: PHONE, awaitApp: false });
  await page.locator('[data-question="where"] [data-testid="finding-headline"]').first().waitFor({ timeout: 30_000 });
  await appShown(page);
  assert.equal(await page.locator('#app [data-question="where"]').count(), 1);
  assert.deepEqual(errors, []);
  await context.close();
});

test('index.html carries both copies and no script but its own, allowed by hash; each view has its copy', () => {
  for (const view of Object.keys(FIRST)) {
    for (const lang of ['es', 'en']) {
      const panel = fs.readFileSync(path.join(DIST, 'prerendered', `${view}-${lang}.html`), 'utf8');
      assert.ok(panel.length > 1000, `${view}-${lang}`);
      assert.doesNotMatch(panel, /<script/i);
    }
  }
  const html = fs.readFileSync(path.join(DIST, 'index.html'), 'utf8');
  for (const lang of ['es', 'en']) assert.match(html, new RegExp(`<template id="prerendered-${lang}">`));
  const csp = html.match(/script-src ([^;]*);/)[1];
  assert.doesNotMatch(csp, /unsafe-inline/);
  const inline = [...html.matchAll(/<script>([\s\S]*?)<\/script>/g)];
  assert.equal(inline.length, 1, 'one inline classic script: the copy\'s');
});
