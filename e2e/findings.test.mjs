// The Findings view: the page opens on it, answers the five questions on the bundled
// data in the browser's language, flags the implausible 15202/2023 value, recomputes every
// sentence when another file is uploaded, and offers a printable report.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, openPage, outsideRequests, injectAxe, ROOT } from './harness.mjs';
import { ViewPage, flagValue, assertImrWrites, BUNDLED_PATH } from './views.mjs';
import { FindingsPage, DataPage } from './pages/index.mjs';

const QUESTIONS = ['rates', 'inequality', 'health-income', 'models', 'where'];

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

test('in Spanish at 390×844 the page opens on Findings and answers the five questions', async () => {
  const view = FindingsPage.attach(await openPage(browser, server.origin + '/',
    { locale: 'es-CL', firstView: true, viewport: { width: 390, height: 844 } }));
  const { page, requests, errors } = view;
  await view.headline('where').waitFor({ timeout: 30000 });
  // Time from navigation start until the fifth answer is on screen (wasm load included).
  const readyMs = await page.evaluate(() => performance.now());
  console.log(`findings ready ${Math.round(readyMs)} ms after navigation start`);
  assert.equal(await view.tab('findings').getAttribute('aria-selected'), 'true');
  assert.equal(await view.section().locator('h2').textContent(), 'Hallazgos');
  const ids = await view.questions().evaluateAll((els) => els.map((e) => e.dataset.question));
  assert.deepEqual(ids, QUESTIONS);
  const texts = {};
  for (const q of QUESTIONS) texts[q] = await view.headlineText(q);
  assert.match(texts.rates, /^En 2023, la tasa nacional agrupada fue \d+,\d\d por 1\.000 nacidos vivos \(IC 95%: \d+,\d\d a \d+,\d\d\)/);
  assert.match(texts.inequality, /Gini/);
  assert.match(texts['health-income'], /correlación/);
  assert.match(texts.models, /modelos de panel/);
  assert.match(texts.where, /las tasas más altas están en/);
  // Every question has a chart and a link to its detailed view.
  assert.equal(await view.charts().count(), 5);
  assert.match(await view.flaggedNote().textContent(), /inverosímiles/);
  // Answers first: the first sentence and its chart are above the fold of a 390×844 phone, and
  // what was left out, the options, the report and its command come after the five answers.
  for (const part of [view.headline('rates'), view.question('rates').locator('.finding-chart svg')]) {
    const box = await part.boundingBox();
    assert.ok(box.y + box.height <= 844, `below the fold: ${JSON.stringify(box)}`);
  }
  assert.ok(await view.optionsFollowAnswers());
  // On the bundled data the inequality answer says what its births are and what that means.
  assert.match(await view.question('inequality').textContent(),
    /Sobre los datos incluidos: los nacimientos de cada comuna son una estimación/);
  await injectAxe(page);
  const axe = await page.evaluate(async () => window.axe.run(document.querySelector('main'), { resultTypes: ['violations'] }));
  assert.deepEqual(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), []);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.openDetail('models');
  assert.equal(await view.tab('models').getAttribute('aria-selected'), 'true');
});

test('General Lagos 2023 (1000 per 1,000 on 9 children) is flagged in the Data view', async () => {
  const view = DataPage.attach(await openPage(browser, server.origin + '/'));
  await view.waitForRowCount('read', 1725);
  assert.match(await view.flaggedSummary().textContent(), /rate above 200 ‰: 15202 General Lagos 2023/);
  await view.search('15202');
  const flagged = view.rateRow('15202', 2023);
  await flagged.waitFor();
  assert.equal(await flagged.getAttribute('data-flagged'), 'true');
  await view.search('01101');
  const plain = view.rateRow('01101', 2023);
  await plain.waitFor();
  assert.equal(await plain.getAttribute('data-flagged'), null);
});

/** The bundled CSV with 2023's rates tripled, births named so they are guessed, derived deaths
 * dropped (they would be guessed as deaths); and the pooled 2023 rate the page must state,
 * computed here independently: rows flagged by the rules (rate > 200, < 10 births) left out. */
function modifiedBundled() {
  const lines = fs.readFileSync(path.join(ROOT, 'public/data/chile_imr_2001_2021.csv'), 'utf8').trim().split('\n');
  const header = lines[0].split(',');
  const [iYear, iTmi, iPop, iDer] = ['anio', 'tmi', 'nacidos_vivos_est', 'defunciones_derivadas'].map((c) => header.indexOf(c));
  let deaths = 0, births = 0;
  const out = [header.map((c) => (c === 'nacidos_vivos_est' ? 'nacimientos' : c)).filter((_, i) => i !== iDer).join(',')];
  for (const line of lines.slice(1)) {
    const f = line.split(',');
    if (f[iYear] === '2023') {
      f[iTmi] = String(Number(f[iTmi]) * 3);
      const [rate, pop] = [Number(f[iTmi]), Number(f[iPop])];
      if (pop >= 10 && rate <= 200) { deaths += rate * pop / 1000; births += pop; }
    }
    out.push(f.filter((_, i) => i !== iDer).join(','));
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imr-findings-')), 'modificado.csv');
  fs.writeFileSync(file, out.join('\n') + '\n');
  return { file, rate2023: (1000 * deaths / births).toFixed(2).replace('.', ',') };
}

test('uploading a modified file changes every sentence computed from it', async () => {
  const opened = await openPage(browser, server.origin + '/', { locale: 'es-CL', firstView: true });
  const [view, data] = [FindingsPage.attach(opened), DataPage.attach(opened)];
  await view.headline('where').waitFor({ timeout: 30000 });
  const before = {};
  for (const q of QUESTIONS) before[q] = await view.headlineText(q);
  const { file, rate2023 } = modifiedBundled();
  await view.openTab('data');
  await data.upload(file);
  await data.waitForRowCount('read', 1725);
  await data.openTab('findings');
  await view.waitForHeadlineOtherThan('rates', before.rates);
  const after = await view.headlineText('rates');
  assert.match(after, new RegExp(`^En 2023, la tasa nacional agrupada fue ${rate2023} por 1\\.000`));
  // Every answer is recomputed: each of the other four headlines changes with the data too.
  for (const q of ['inequality', 'health-income', 'models', 'where']) {
    assert.notEqual(await view.headlineText(q), before[q], q);
  }
});

test('the findings download as a printable HTML report in the page language', async () => {
  const view = FindingsPage.attach(await openPage(browser, server.origin + '/', { locale: 'es-CL', firstView: true }));
  await view.headline('where').waitFor({ timeout: 30000 });
  const { name, text: html } = await view.downloadReport();
  assert.equal(name, 'hallazgos_imr.html');
  assert.match(html, /^<!DOCTYPE html>\n<html lang="es">/);
  for (const q of QUESTIONS) assert.ok(html.includes(`data-question="${q}"`), q);
  assert.match(html, /@media print/);
  assert.ok(!html.includes('<script'));
  assert.match(html, /Fuente: chile_imr_2001_2021\.csv|chile_imr_2001_2021\.csv/);
});

// The command the view shows writes its report: `imr findings` on the same files and columns,
// byte for byte, in Spanish with the flagged rows left out and in English with them included.
for (const [lang, include] of [['es', false], ['en', true]]) {
  test(`the shown imr findings command writes the page's report (${lang}, include flagged ${include})`, async () => {
    const view = await ViewPage.open(browser, server.origin, 'findings', { lang });
    if (include) {
      await view.includeFlagged().check();
      await view.commandLine().filter({ hasText: '--include-flagged' }).waitFor();
    }
    const words = await view.commandWords();
    assert.deepEqual(words.slice(1, 3), ['findings', BUNDLED_PATH]);
    assert.equal(words.includes('--include-flagged'), include);
    const report = await view.downloadReport();
    assert.equal(flagValue(words, '--out'), report.name);
    assertImrWrites(words, [[report, report.name]]);
    assert.deepEqual(view.errors, []);
    await view.close();
  });
}

test('one figure embeds as a snippet that renders offline in a blank HTML page', async () => {
  const view = FindingsPage.attach(await openPage(browser, server.origin + '/', { locale: 'es-CL', firstView: true }));
  await view.headline('where').waitFor({ timeout: 30000 });
  const { name, text: snippet } = await view.downloadEmbed('rates');
  assert.equal(name, 'figura_rates.html');
  assert.match(snippet, /GPL-3/);
  assert.match(snippet, /chile_imr_2001_2021\.csv/);
  // A blank page with no network at all: the figure, its data and its credits are all there.
  const context = await browser.newContext({ offline: true });
  const blank = await context.newPage();
  const requests = [];
  blank.on('request', (r) => requests.push(r.url()));
  await blank.setContent(`<!DOCTYPE html><html><head><meta charset="utf-8"><title>Artículo</title></head><body><p>Texto.</p>${snippet}</body></html>`);
  const svg = blank.locator('figure svg');
  assert.equal(await svg.count(), 1);
  const box = await svg.boundingBox();
  assert.ok(box.width > 200 && box.height > 100, JSON.stringify(box));
  assert.equal(await blank.locator('figure table tbody tr').count(), 5);
  assert.match(await blank.locator('figcaption').textContent(), /tasa nacional agrupada/);
  assert.deepEqual(requests.filter((u) => !u.startsWith('data:') && u !== 'about:blank'), []);
  await context.close();
});

// One births-ratio setting: the range set in the Inequality view (in the link as
// ineq-births-ratio) is the range of the Findings' inequality answer too. Its sentence names it,
// the shown command carries --births-ratio, and that command writes the page's report byte for
// byte; back to 70–100 %, the option leaves the command.
test('the births-ratio range set in the Inequality view is the Findings\' range, and their command writes the report', async () => {
  const inequality = await ViewPage.open(browser, server.origin, 'inequality', { lang: 'en' });
  await inequality.setBirthsRatio('low', 90);
  await inequality.setBirthsRatio('high', 110);
  await inequality.waitForCommand(/--births-ratio 0\.9,1\.1 /);
  await inequality.tab('findings').click();
  const view = FindingsPage.attach(inequality);
  await view.commandLine().filter({ hasText: '--births-ratio 0.9,1.1' }).waitFor();
  await view.section().filter({ hasText: 'from 90% to 110% of the births given' }).waitFor();
  const words = await view.commandWords();
  assert.equal(flagValue(words, '--births-ratio'), '0.9,1.1');
  const report = await view.downloadReport();
  assert.match(report.text, /from 90% to 110% of the births given/);
  assertImrWrites(words, [[report, report.name]]);

  await view.tab('inequality').click();
  await inequality.setBirthsRatio('low', 70);
  await inequality.setBirthsRatio('high', 100);
  await inequality.waitForCommand(/--births-ratio/, false);
  await view.tab('findings').click();
  await view.section().filter({ hasText: 'from 70% to 100% of the births given' }).waitFor();
  assert.doesNotMatch(await view.commandLine().textContent(), /--births-ratio/);
  assert.deepEqual(outsideRequests(view.requests, server.origin), []);
  assert.deepEqual(view.errors, []);
  await view.close();
});
