// What a newcomer's second pass over the page still found (issue 42), each seen on screen:
// the Data view's "national rate" counted the flagged rows the Findings leave out and kept the
// word "national" for a reader's 5 communes; an upload with `código;comuna` took the names as
// ids; a 5-commune file got "No hay años que medir" beside a chart of two years and a trend
// "con 0 años"; jargon sat in the answers ("Swamy–Arora", "EE agrupados", "posterior gamma",
// "muy poca potencia") with "IC 95%" never explained; Question 4 explained its model by a Hausman
// test that did not reject; "2387 observaciones" lacked its thousands point. Phone and desktop,
// Spanish and English.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { startServer, launch, outsideRequests, cargoBinary, ROOT } from './harness.mjs';
import { BUNDLED_PATH } from './views.mjs';
import { openView, FindingsPage, DataPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 1000 };
const QUESTIONS = ['rates', 'inequality', 'health-income', 'models', 'where'];

/** `imr findings --format json` on the bundled file: the numbers the page's sentences state. */
const findingsJson = () => JSON.parse(execFileSync(cargoBinary('imr-cli', 'imr'),
  ['findings', BUNDLED_PATH, '--format', 'json'], { cwd: ROOT, encoding: 'utf8' }));

/** Five communes of two years, with a column of codes named `código` before a column of names. */
const FIVE = 'código;comuna;año;nacimientos;defunciones\n'
  + '13101;Santiago;2020;1234;9\n13101;Santiago;2021;1180;7\n05101;Valparaíso;2020;2377;14\n05101;Valparaíso;2021;2200;12\n'
  + '08101;Concepción;2020;3000;20\n08101;Concepción;2021;2900;18\n09101;Temuco;2020;3100;25\n09101;Temuco;2021;3000;21\n'
  + '13114;Las Condes;2020;4000;15\n13114;Las Condes;2021;3900;14\n';

test('the Data view\'s national rate is the Findings\' one: flagged rows left out, said so, same value', async () => {
  const doc = findingsJson();
  const last = doc.rates.years[doc.rates.years.length - 1];
  const data = await openView(browser, server.origin, 'data', { lang: 'es', viewport: PHONE });
  assert.equal((await data.nationalHeading().textContent()).trim(), 'Tasa nacional por año');
  // General Lagos 2004 and 2021 are flagged: the table pools without them, as the Findings do.
  assert.match(await data.nationalNote().textContent(), /sin las 2 filas marcadas como dudosas/);
  const row = data.page.locator(`[data-testid="national-rate"] tr[data-time="${last.time}"]`);
  assert.equal((await row.locator('[data-field="rate"]').textContent()).trim(),
    last.pooled_per_1000.toFixed(2).replace('.', ','));
  assert.equal(Number((await row.locator('td').last().textContent()).trim()), last.n_areas);
  // Including them changes the table with the Findings.
  await data.testid('include-flagged').first().check();
  await data.nationalNote().filter({ hasNotText: 'filas marcadas' }).waitFor();
  assert.equal(Number((await row.locator('td').last().textContent()).trim()), last.n_areas + 1);
  assert.deepEqual(data.errors, []);
  await data.close();
});

for (const [lang, viewport] of [['es', PHONE], ['en', DESKTOP]]) {
  test(`a 5-commune file with 'código;comuna' is read by code and answered in words that fit it (${lang})`, async () => {
    const data = await openView(browser, server.origin, 'data', { lang, viewport });
    await data.upload({ name: 'cinco.csv', mimeType: 'text/csv', buffer: Buffer.from(FIVE, 'utf8') });
    await data.waitForRowCount('read', 10);
    // The code column is the id: the rates table lists codes, not names.
    assert.equal((await data.roleChosen('entity')).trim(), 'código');
    await data.rateRow('13101', 2021).waitFor();
    // Not the whole country: the pooled rate is the loaded communes'.
    assert.equal((await data.nationalHeading().textContent()).trim(),
      lang === 'es' ? 'Tasa de las comunas cargadas, por año' : 'Rate of the communes loaded, per year');
    await data.openTab('findings');
    const findings = FindingsPage.attach(data);
    await findings.headline('where').waitFor();
    const inequality = (await findings.headline('inequality').textContent()).trim();
    assert.match(inequality, lang === 'es' ? /^No se puede separar la desigualdad real del azar: ningún año tiene las 10 comunas/
      : /^Real inequality cannot be told from chance: no year has the 10 communes/);
    const all = await findings.section().textContent();
    assert.doesNotMatch(all, /No hay años que medir|no years to measure|Con 0 años|With 0 years/);
    // No commune is clearly above the reference: question 5 names none and draws no chart (an
    // axis alone was drawn, embedded and printed).
    assert.equal(await findings.question('where').locator('svg').count(), 0);
    // …and so does its headline: the years pooled, the communes loaded, never "national".
    const where = (await findings.headline('where').textContent()).trim();
    assert.doesNotMatch(where, /nacional|national/);
    assert.match(where, lang === 'es' ? /la tasa de las comunas cargadas en esos años juntos/ : /the rate of the communes loaded over those years together/);
    // The missing covariates are named in words, without back-ticks.
    const models = (await findings.headline('models').textContent()).trim();
    assert.doesNotMatch(models, /`/);
    assert.match(models, lang === 'es' ? /pobreza por ingresos \(CASEN\) «pobreza»/ : /income poverty \(CASEN\) “pobreza”/);
    assert.deepEqual(outsideRequests(data.requests, server.origin), []);
    assert.deepEqual(data.errors, []);
    await data.close();
  });

  test(`every answer reads without jargon and explains its terms under '¿Cómo se calculó?' (${lang})`, async () => {
    const doc = findingsJson();
    const view = await openView(browser, server.origin, 'findings', { lang, viewport });
    await view.headline('where').waitFor();
    for (const q of QUESTIONS) {
      const outside = await view.answerOutsideMethod(q);
      for (const jargon of ['Swamy', 'agrupados', 'clustered', 'Clayton', 'posterior', 'cuasi', 'quasi', 'potencia', 'power', 'Spearman']) {
        assert.ok(!outside.includes(jargon), `${q}: “${jargon}” outside the fold: ${outside}`);
      }
      const method = view.method(q);
      assert.equal(await method.evaluate((d) => d.tagName), 'DETAILS');
      assert.equal(await method.evaluate((d) => d.open), false, 'folded');
      assert.equal((await method.locator('summary').textContent()).trim(), lang === 'es' ? '¿Cómo se calculó?' : 'How was it computed?');
      // Every answer states an interval, so every fold says what one is.
      assert.ok((await method.locator('dt').allTextContents()).includes(lang === 'es' ? 'IC 95%' : '95% CI'), q);
    }
    // Question 4 says which model answers and what the Hausman test found, as the engine did.
    const models = await view.answerOutsideMethod('models');
    const p = doc.models.hausman_p;
    const verdict = lang === 'es' ? (p < 0.05 ? / rechaza el modelo de efectos aleatorios/ : / no rechaza el modelo de efectos aleatorios/)
      : (p < 0.05 ? / rejects the random-effects model/ : / does not reject the random-effects model/);
    assert.match(models, verdict);
    if (p >= 0.05) assert.doesNotMatch(models, lang === 'es' ? /\) rechaza/ : /\) rejects/);
    assert.equal(models.includes(lang === 'es' ? 'varianza entre comunas igual a cero' : 'variance between communes of zero'),
      doc.models.random_effects_pooled);
    const nobs = String(doc.models.nobs).replace(/\B(?=(\d{3})+(?!\d))/g, lang === 'es' ? '.' : ',');
    assert.ok(models.includes(`(${nobs} ${lang === 'es' ? 'observaciones' : 'observations'}`), models);
    // Opened, the fold explains the models by name.
    await view.method('models').locator('summary').click();
    assert.match(await view.method('models').textContent(), /Swamy/);
    assert.deepEqual(view.errors, []);
    await view.close();
  });
}
