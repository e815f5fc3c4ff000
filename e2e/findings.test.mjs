// The Findings view: the page opens on it, sets the reference study's conclusion beside the
// bundled counts and answers the five questions in the browser's language, flags the implausible
// 15202 values, recomputes every sentence when another file is uploaded, answers on the study's
// period on request, and offers a printable report.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, openPage, outsideRequests, injectAxe, ROOT } from './harness.mjs';
import { flagValue, assertImrWrites, BUNDLED_PATH, sinimAsPublished } from './views.mjs';
import { openView, FindingsPage, DataPage, InequalityPage } from './pages/index.mjs';

const QUESTIONS = ['rates', 'inequality', 'health-income', 'models', 'where'];
const ANSWERS = ['study', ...QUESTIONS];

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
  assert.deepEqual(ids, ANSWERS);
  const texts = {};
  for (const q of ANSWERS) texts[q] = await view.headlineText(q);
  // The study's conclusion beside INE's counts (imr findings --format json: the adjusted Gini's
  // 2001–2011 slope −0.0070 per year, interval below zero; the median's too).
  assert.match(texts.study, /^Probablemente no, aunque por poco: con las defunciones publicadas por el INE, la desigualdad entre comunas bajó entre 2001 y 2011/);
  assert.match(texts.rates, /^Sí, baja: entre 2001 y 2021, la tasa nacional \(todas las comunas con datos\) bajó .* En 2021 fue \d+,\d\d por 1\.000 nacidos vivos \(IC 95%: \d+,\d\d a \d+,\d\d\)/);
  assert.match(texts.inequality, /Gini/);
  assert.match(texts['health-income'], /correlación/);
  assert.match(texts.models, /modelos de panel/);
  assert.match(texts.where, /comunas tienen una tasa claramente sobre/);
  // Every answer (the study's too) has a chart and a link to its detailed view.
  assert.equal(await view.charts().count(), 6);
  assert.match(await view.flaggedNote().textContent(), /inverosímiles/);
  // Answers first: the first answer is above the fold of a 390×844 phone, and what was left out,
  // the options, the report and its command come after the answers.
  for (const part of [view.headline('study')]) {
    const box = await part.boundingBox();
    assert.ok(box.y + box.height <= 844, `below the fold: ${JSON.stringify(box)}`);
  }
  assert.ok(await view.optionsFollowAnswers());
  // On the bundled data the inequality answer says what its counts are and what that means.
  assert.match(await view.question('inequality').textContent(),
    /Sobre los datos incluidos: las defunciones de 2001–2015 son las publicadas por el INE/);
  await injectAxe(page);
  const axe = await page.evaluate(async () => window.axe.run(document.querySelector('main'), { resultTypes: ['violations'] }));
  assert.deepEqual(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), []);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.openDetail('models');
  assert.equal(await view.tab('models').getAttribute('aria-selected'), 'true');
});

test('General Lagos 2004 and 2021 (1 death among 4 births, among 1) are flagged in the Data view', async () => {
  const view = DataPage.attach(await openPage(browser, server.origin + '/'));
  await view.waitForRowCount('read', 7245);
  assert.match(await view.flaggedSummary().textContent(), /rate above 200 ‰: 15202 General Lagos 2004, 15202 General Lagos 2021/);
  await view.search('15202');
  const flagged = view.rateRow('15202', 2004);
  await flagged.waitFor();
  assert.equal(await flagged.getAttribute('data-flagged'), 'true');
  await view.search('01101');
  const plain = view.rateRow('01101', 2005);
  await plain.waitFor();
  assert.equal(await plain.getAttribute('data-flagged'), null);
});

/** The bundled CSV with 2021's infant deaths tripled; and the pooled 2021 rate the page must
 * state, computed here independently: rows flagged by the rule (rate > 200 per 1,000) left out. */
function modifiedBundled() {
  const lines = fs.readFileSync(path.join(ROOT, 'public/data/chile_imr_2001_2021.csv'), 'utf8').trim().split('\n');
  const header = lines[0].split(',');
  const at = (c) => header.indexOf(c);
  const [iYear, iDeaths, iBirths] = [at('anio'), at('defunciones_infantiles'), at('nacidos_vivos')];
  const counts = ['defunciones_infantiles', 'defunciones_min', 'defunciones_max'].map(at);
  let deaths = 0, births = 0;
  const out = [lines[0]];
  for (const line of lines.slice(1)) {
    const f = line.split(',');
    if (f[iYear] === '2021') {
      for (const i of counts) if (f[i] !== '') f[i] = String(Number(f[i]) * 3);
      if (f[iDeaths] !== '' && f[iBirths] !== '') {
        const [d, b] = [Number(f[iDeaths]), Number(f[iBirths])];
        if (b > 0 && 1000 * d / b <= 200) { deaths += d; births += b; }
      }
    }
    out.push(f.join(','));
  }
  const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'imr-findings-')), 'modificado.csv');
  fs.writeFileSync(file, out.join('\n') + '\n');
  return { file, rate2021: (1000 * deaths / births).toFixed(2).replace('.', ',') };
}

test('uploading a modified file changes every sentence computed from it', async () => {
  const opened = await openPage(browser, server.origin + '/', { locale: 'es-CL', firstView: true });
  const [view, data] = [FindingsPage.attach(opened), DataPage.attach(opened)];
  await view.headline('where').waitFor({ timeout: 30000 });
  const before = {};
  for (const q of ANSWERS) before[q] = await view.headlineText(q);
  const { file, rate2021 } = modifiedBundled();
  await view.openTab('data');
  await data.upload(file);
  await data.waitForRowCount('read', 7245);
  await data.openTab('findings');
  await view.waitForHeadlineOtherThan('rates', before.rates);
  const after = await view.headlineText('rates');
  assert.match(after, new RegExp(`En 2021 fue ${rate2021} por 1\\.000`));
  // Every answer computed from 2021 is recomputed: inequality (its last year) and where (the
  // pooled rates); the study's answer names the data, no longer INE's counts.
  for (const q of ['inequality', 'where', 'study']) {
    assert.notEqual(await view.headlineText(q), before[q], q);
  }
});

test('the findings download as a printable HTML report in the page language', async () => {
  const view = FindingsPage.attach(await openPage(browser, server.origin + '/', { locale: 'es-CL', firstView: true }));
  await view.headline('where').waitFor({ timeout: 30000 });
  const { name, text: html } = await view.downloadReport();
  assert.equal(name, 'hallazgos_imr.html');
  assert.match(html, /^<!DOCTYPE html>\n<html lang="es">/);
  for (const q of ANSWERS) assert.ok(html.includes(`data-question="${q}"`), q);
  assert.match(html, /@media print/);
  assert.ok(!html.includes('<script'));
  assert.match(html, /Fuente: chile_imr_2001_2021\.csv|chile_imr_2001_2021\.csv/);
});

// The command the view shows writes its report: `imr findings` on the same files and columns,
// byte for byte, in Spanish with the flagged rows left out and in English with them included.
for (const [lang, include] of [['es', false], ['en', true]]) {
  test(`the shown imr findings command writes the page's report (${lang}, include flagged ${include})`, async () => {
    const view = await openView(browser, server.origin, 'findings', { lang });
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
  assert.equal(name, 'imr-atlas_pregunta-1_baja-la-mortalidad-infantil.html');
  assert.match(snippet, /\(CC-BY\)/);
  assert.doesNotMatch(snippet, /chilemapas|GPL/);
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
  // One row per year with deaths: 2001–2021 without 2016 and 2020.
  assert.equal(await blank.locator('figure table tbody tr').count(), 19);
  assert.match(await blank.locator('figcaption').textContent(), /tasa nacional/);
  // Its numbers rounded for reading (the newcomer saw "7,073504"): no cell with four decimals.
  const cells = await blank.locator('figure table tbody td').allTextContents();
  assert.ok(cells.length > 0 && cells.every((c) => !/\d[.,]\d{4}/.test(c)), cells.join(' | '));
  assert.deepEqual(requests.filter((u) => !u.startsWith('data:') && u !== 'about:blank'), []);
  await context.close();
});

// One births-ratio setting: the range set in the Inequality view (in the link as
// ineq-births-ratio) is the range of the Findings' inequality answer too. Its sentence names it,
// the shown command carries --births-ratio, and that command writes the page's report byte for
// byte; back to 70–100 %, the option leaves the command.
test('the births-ratio range set in the Inequality view is the Findings\' range, and their command writes the report', async () => {
  // Published rates (deaths derived): the range over the births ratio applies.
  const { file: rates, rows } = sinimAsPublished();
  const data = await openView(browser, server.origin, 'data', { lang: 'en' });
  await data.upload(rates);
  await data.waitForRowCount('read', rows);
  await data.tab('inequality').click();
  const inequality = InequalityPage.attach(data);
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
  assertImrWrites(words, [[report, report.name]], [rates]);

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

// The study's period: two buttons above the answers; the study's one answers every year's
// trends either way, the five answers cover 2001–2011, the link and the shown command say so,
// and that command writes the page's report byte for byte.
test('the answers on the study\'s period: buttons, link, command and report', async () => {
  const view = await openView(browser, server.origin, 'findings', { lang: 'es' });
  const page = FindingsPage.attach(view);
  const study = await page.headlineText('study');
  assert.match(study, /entre 2001 y 2011/);
  assert.match(await page.periodButton('all').textContent(), /Todos los años \(2001–2021\)/);
  assert.equal(await page.periodButton('all').getAttribute('aria-pressed'), 'true');
  const before = await page.headlineText('rates');
  await page.periodButton('study').click();
  await page.waitForHeadlineOtherThan('rates', before);
  assert.match(await page.headlineText('rates'), /En 2011 fue \d+,\d\d por 1\.000/);
  assert.equal(await page.periodButton('study').getAttribute('aria-pressed'), 'true');
  assert.equal(await page.headlineText('study'), study);
  assert.match(view.page.url(), /findings-years=2001-2011/);
  await view.commandLine().filter({ hasText: '--years 2001-2011' }).waitFor();
  const words = await view.commandWords();
  assert.equal(flagValue(words, '--years'), '2001-2011');
  const report = await view.downloadReport();
  assert.match(report.text, /Respuestas sobre 2001–2011/);
  assertImrWrites(words, [[report, report.name]]);
  // A link with the period opens on it.
  const again = FindingsPage.attach(await openPage(browser, `${server.origin}/#view=findings&lang=es&findings-years=2001-2011`));
  await again.headline('where').waitFor({ timeout: 30000 });
  assert.match(await again.headlineText('rates'), /En 2011 fue/);
  assert.deepEqual(outsideRequests(view.requests, server.origin), []);
  assert.deepEqual(view.errors, []);
  await view.close();
});
