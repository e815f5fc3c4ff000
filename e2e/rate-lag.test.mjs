// Rates published late (SINIM's infant mortality rate of year Y is that of Y−2): on the Data
// view, the engine's sentence says which year's births the uploaded rates fit, in the page's
// language; taking the lag found moves each rate to the row of the year it describes (the rows
// left without one listed as excluded, naming the lag), the shown `imr rates` command carries
// --rate-lag 2 and writes the page's CSV byte for byte, and a saved analysis brings the lag to
// imr. Births the same every year give no verdict (every lag fits alike), and data with counted
// deaths no control. No request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, launch, outsideRequests, fixture, cargoBinary, exportDate, imrEnv, injectAxe, ROOT } from './harness.mjs';
import { assertSameBytes, flagValue, dataPart } from './views.mjs';
import { openView } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const NAME = 'sinim_tmi_ine_nacimientos_2017_2023.csv';
const SINIM = path.join(ROOT, 'crates', 'imr-core', 'tests', 'data', 'lag', NAME);

const FOUND_EN = 'The rates of year Y fit the births of year Y−2 in 496 of 508 testable area-years '
  + '(chance alone: about 19%; next best, Y−1: 199 of 510): they describe year Y−2. '
  + "Left out: 2022, whose rates repeat 2021's.";

test('SINIM rates are found to describe two years before; taking the lag moves them, as imr --rate-lag 2 does', async () => {
  const view = await openView(browser, server.origin, 'data');
  const { requests, errors } = view;
  await view.upload(SINIM);
  await view.waitForRowCount('read', 2422);
  // Read as published: the rows of 2017–2018 have no rate.
  assert.equal(await view.rowCountText('used'), '1725');
  assert.equal(await view.rowCountText('excluded'), '697');
  assert.equal((await view.rateLagTest().textContent()).trim(), FOUND_EN);
  assert.match(await view.rateLagYearsText(), /^By rate year, the births they fit: 2019: the births of 2017 \(126 of 127\); 2020: the births of 2018 \(118 of 125\);/);
  assert.equal(await view.rateLag().inputValue(), '0');
  assert.equal(await view.rateLagChosen(), 'the same');
  assert.equal((await view.rateLagAccept().textContent()).trim(), 'Use the lag found: 2 years before');
  assert.ok(!(await view.ratesCommand()).includes('--rate-lag'));
  // The control and its texts pass axe-core (labelled, described).
  await injectAxe(view.page);
  const axe = await view.page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  assert.deepEqual(axe.violations.filter((v) => v.impact === 'serious' || v.impact === 'critical').map((v) => v.id), []);

  await view.rateLagAccept().click();
  await view.rateLagApplied().waitFor();
  assert.equal((await view.rateLagApplied().textContent()).trim(),
    `The rates of ${NAME} are paired with the births of the year they describe (2 years before).`);
  assert.equal(await view.rateLagAccept().count(), 0);
  assert.equal(await view.rateLagChosen(), '2 years before');
  // Iquique 2017: SINIM's 7 ‰ labelled 2019, on the births of 2017. 2022–2023 and Antártica
  // have no rate two years later: excluded, naming the lag.
  await view.waitForRateText('01101', 2017, 'rate', '7.00');
  assert.equal(await view.rateRow('01101', 2022).count(), 0);
  assert.equal(await view.rowCountText('used'), '1725');
  assert.equal(await view.rowCountText('excluded'), '697');
  assert.match(await view.excludedLine(7).textContent(),
    /no rate: with a lag of 2 years the rate of 2022 is published in the row of 2024, which the data do not have/);
  assert.match(view.page.url(), /[#&]rate-lag=2(&|$)/);
  // The sentence reads the rates as published: unchanged by the lag.
  assert.equal((await view.rateLagTest().textContent()).trim(), FOUND_EN);

  // The shown command carries the lag and writes the page's CSV byte for byte; a saved
  // analysis keeps the lag, and imr reads it without the flag.
  const words = await view.ratesCommand();
  assert.equal(flagValue(words, '--rate-lag'), '2');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-rate-lag-'));
  try {
    fs.copyFileSync(SINIM, path.join(dir, NAME));
    const csv = await view.downloadRates(dir);
    const env = imrEnv(exportDate(csv.text));
    const imr = cargoBinary('imr-cli', 'imr');
    assertSameBytes(csv.bytes, execFileSync(imr, words.slice(1), { cwd: dir, env }), 'rates CSV');
    assert.match(csv.text, /\n01101,2017,2811,19\.677,/);
    const saved = await view.saveAnalysis(dir);
    const fromSaved = execFileSync(imr, ['rates', saved.path, '--format', 'csv'], { cwd: dir, env, encoding: 'utf8' });
    assert.equal(dataPart(fromSaved), dataPart(csv.text));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }

  // Back to "the same": the rates keep their labelled years again.
  await view.chooseRateLag(0);
  await view.rateLagAccept().waitFor();
  await view.rateRow('01101', 2017).waitFor({ state: 'detached' });
  await view.rateRow('01101', 2023).waitFor();
  assert.equal(await view.rateLagApplied().count(), 0);
  assert.ok(!(await view.ratesCommand()).includes('--rate-lag'));
  assert.doesNotMatch(view.page.url(), /rate-lag=2/);
  // New files start as published, whatever lag was chosen before.
  await view.chooseRateLag(2);
  await view.rateLagApplied().waitFor();
  await view.upload(SINIM);
  await view.rateLagAccept().waitFor();
  assert.equal(await view.rateLag().inputValue(), '0');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});

test('in Spanish the sentence, the choice, the note and the reasons are Spanish, and follow the language switch', async () => {
  const view = await openView(browser, server.origin, 'data', { lang: 'es' });
  await view.upload(SINIM);
  await view.waitForRowCount('read', 2422);
  const sentence = (await view.rateLagTest().textContent()).trim();
  assert.equal(sentence, 'Las tasas del año A calzan con los nacimientos del año A−2 en 496 de 508 pares '
    + 'comuna-año comprobables (por azar, cerca de un 19%; la siguiente, A−1: 199 de 510): describen '
    + 'el año A−2. Se deja fuera: 2022, cuyas tasas repiten las de 2021.');
  assert.match(await view.rateLagYearsText(), /^Por año de la tasa, los nacimientos con que calzan: 2019: los nacimientos de 2017 \(126 de 127\);/);
  assert.equal(await view.rateLagChosen(), 'el mismo');
  assert.equal((await view.rateLagAccept().textContent()).trim(), 'Usar el desfase encontrado: 2 años antes');
  await view.rateLagAccept().click();
  await view.rateLagApplied().waitFor();
  assert.equal((await view.rateLagApplied().textContent()).trim(),
    `Las tasas de ${NAME} se emparejan con los nacimientos del año que describen (2 años antes).`);
  assert.equal(await view.rateLagChosen(), '2 años antes');
  await view.waitForRateText('01101', 2017, 'rate', '7,00');
  assert.match(await view.excludedLine(7).textContent(),
    /sin tasa: con un desfase de 2 años, la tasa de 2022 se publica en la fila de 2024, que los datos no tienen/);
  assert.equal(await view.rowCountText('used'), '1725');
  assert.equal(flagValue(await view.ratesCommand(), '--rate-lag'), '2');
  await view.switchLanguage();
  await view.rateLagTest().filter({ hasText: FOUND_EN }).waitFor();
  assert.equal(await view.rateLagChosen(), '2 years before');
  assert.match(await view.excludedLine(7).textContent(), /no rate: with a lag of 2 years/);
  await view.close();
});

test('births the same every year give no verdict, and data with counted deaths no lag to choose', async () => {
  const view = await openView(browser, server.origin, 'data');
  // 40 areas whose births do not change over 2016–2020: every lag fits every testable rate.
  await view.upload(fixture('tasas_nacimientos_fijos.csv'));
  await view.waitForRowCount('read', 200);
  assert.equal((await view.rateLagTest().textContent()).trim(),
    'Which year the rates describe cannot be told: no lag from 0 to 3 years fits at least 90% of '
    + 'its testable area-years and clearly more than every other (best, Y: 82 of 82; next, Y−1: 82 of 82).');
  assert.equal(await view.rateLagAccept().count(), 0);
  assert.equal(await view.rateLag().inputValue(), '0');
  assert.ok(!(await view.ratesCommand()).includes('--rate-lag'));
  await view.upload(fixture('good_latin1.csv'));
  await view.waitForRowCount('read', 4);
  assert.equal(await view.rateLag().count(), 0);
  assert.equal(await view.rateLagTest().count(), 0);
  await view.close();
});
