// The Inequality view on a journalist's own file (issue 42 retest): 21 communes of Santiago, one
// year (2021), Latin-1 with `;`, opened in es-CL. Its adjusted Gini is 0 with an interval reaching
// 0,115 (`imr inequality` on the same file), which the table wrote "0,000 / 0,000 – 0,115": said in
// words now; one year gives no trend, said once, with no empty trend tables; the median and the
// count of communes with zero deaths carry no bootstrap "corrected" value nor ⚠.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { execFileSync } from 'node:child_process';
import { startServer, launch, outsideRequests, fixture, cargoBinary } from './harness.mjs';
import { openView, InequalityPage, FindingsPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const FILE = 'santiago_21_latin1.csv';

test('her one-year file: an adjusted Gini of zero in words, no empty trend table, no corrected median', async () => {
  const imr = cargoBinary('imr-cli', 'imr');
  const json = JSON.parse(execFileSync(imr, ['inequality', fixture(FILE), '--bootstrap', '0', '--format', 'json'], { encoding: 'utf8' }));
  const [year] = json.years;
  assert.equal(year.time, 2021);
  assert.equal(year.adjusted.gini, 0);
  const upper = year.adjusted_ci.gini[1];
  const upperEs = upper.toFixed(3).replace('.', ',');

  const data = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { requests, errors } = data;
  await data.upload(fixture(FILE));
  await data.waitForRowCount('read', 21);
  // Her file of whole counts has no decimal mark to report (it read "decimal «.»" beside a
  // Spanish file, as if misread).
  assert.match(await data.fileSummary().textContent(), /separador «;» · sin decimales · /);
  await data.openTab('inequality');
  const view = InequalityPage.attach(data);
  const cell = view.adjustedCell(2021, 'gini');
  await cell.waitFor({ timeout: 60_000 });
  assert.equal(Number(await cell.getAttribute('data-value')), 0);
  assert.equal((await cell.locator('.value').textContent()).trim(), 'indistinguible de cero');
  assert.equal((await cell.locator('.ci').textContent()).trim(), `podría llegar a ${upperEs}`);
  assert.doesNotMatch(await view.adjustedSection().textContent(), /0,000 – /);
  // The column asks "¿Variación más allá del azar?": answered, the likelihood ratio in its title.
  const test = view.excessVariationCell(2021);
  assert.match((await test.textContent()).trim(), /^No se distingue \(p = \d,\d{3}\)$/);
  assert.match(await test.getAttribute('title'), /^Razón de verosimilitudes = \d+,\d\d /);

  // One year: the note says there is no trend; no table header stands empty.
  await view.table().waitFor();
  assert.equal(await view.trendTable().count(), 0);
  assert.equal(await view.adjustedSection().locator('[data-testid="adjusted-trend"]').count(), 0);
  assert.match(await view.page.locator('#ineq-trend-h + p.note').textContent(), /^Con un solo año no hay tendencia que medir\.$/);

  for (const key of ['median', 'zero_death_areas']) {
    const other = view.measureCell(2021, key);
    assert.equal(await other.locator('.bias-corrected').count(), 0, key);
    assert.equal(await other.locator('[data-testid="ineq-bias-flag"]').count(), 0, key);
  }
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});

// Two years (2019 and 2021) of 12 communes: the adjusted measures' line has an interval (each year's
// uncertainty), the Findings say two years are too few for a trend; the view's note says why
// both hold — the line is the change between the two years, not a trend (a newcomer read the
// Inequality view's trend as contradicting the Findings' "muy pocos años").
test('two years: the adjusted line is called the change between them, as the Findings call them too few', async () => {
  let csv = 'codigo;anio;nacimientos;defunciones\n';
  for (let k = 0; k < 12; k++) {
    const code = `13${String(101 + k).padStart(3, '0')}`;
    csv += `${code};2019;${900 + 40 * k};${2 + (k % 6)}\n${code};2021;${880 + 40 * k};${1 + ((k * 5) % 7)}\n`;
  }
  const data = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { errors } = data;
  await data.upload({ name: 'dos_anios.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') });
  await data.waitForRowCount('read', 24);
  await data.openTab('inequality');
  const view = InequalityPage.attach(data);
  const note = view.adjustedSection().locator('[data-testid="adjusted-trend-note"]');
  await note.waitFor({ timeout: 60_000 });
  assert.match(await note.textContent(), /^Con 2 años, esta recta es el cambio entre ellos por año, .*no basta para hablar de una tendencia, que necesita al menos 3 años/);
  // 2019 and 2021 alone: 2020 is drawn as a year without data, not bridged by the line (two
  // years show no rhythm of every other year).
  await view.adjustedChart().locator('svg').waitFor();
  assert.equal(await view.adjustedChart().locator('svg rect.gap').count(), 1);
  await data.openTab('findings');
  const findings = FindingsPage.attach(data);
  await findings.headline('inequality').waitFor({ timeout: 60_000 });
  assert.match(await findings.question('inequality').textContent(), /muy pocos años/);
  assert.deepEqual(errors, []);
  await view.close();
});

// An adjusted Gini above zero whose interval reaches zero (0,125, IC 0,000–0,252 by `imr
// inequality` on the same 21 communes): the table says it in words as the answer does, not
// "0,125 / 0,000 – 0,252" beside an answer saying "indistinguible de cero" (issue 42 retest).
test('an estimate above zero whose interval reaches zero is said in words in the table, as in the answer', async () => {
  const counts = [[868, 8], [999, 8], [1132, 17], [1122, 15], [924, 12], [815, 5], [1057, 8], [937, 11], [986, 6],
    [1113, 4], [846, 6], [807, 4], [881, 6], [812, 3], [1173, 16], [815, 6], [824, 3], [881, 7], [1199, 11], [1113, 6], [909, 10]];
  const csv = 'codigo_comuna;anio;nacimientos;defunciones\n'
    + counts.map(([births, deaths], k) => `131${String(k + 1).padStart(2, '0')};2021;${births};${deaths}\n`).join('');
  const file = { name: 'casi_iguales.csv', mimeType: 'text/csv', buffer: Buffer.from(csv, 'utf8') };
  const path = `${process.env.TMPDIR || '/tmp'}/imr-e2e-casi-iguales-${process.pid}.csv`;
  fs.writeFileSync(path, csv);
  const imr = cargoBinary('imr-cli', 'imr');
  const [year] = JSON.parse(execFileSync(imr, ['inequality', path, '--bootstrap', '0', '--format', 'json'], { encoding: 'utf8' })).years;
  fs.rmSync(path);
  assert.ok(year.adjusted.gini > 0.1 && year.adjusted_ci.gini[0] === 0, JSON.stringify(year.adjusted_ci));
  const upperEs = year.adjusted_ci.gini[1].toFixed(3).replace('.', ',');

  const data = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { errors } = data;
  await data.upload(file);
  await data.waitForRowCount('read', 21);
  await data.openTab('inequality');
  const view = InequalityPage.attach(data);
  const cell = view.adjustedCell(2021, 'gini');
  await cell.waitFor({ timeout: 60_000 });
  // The estimate stays in the cell's data (and the CSV); its text is the answer's words.
  assert.ok(Math.abs(Number(await cell.getAttribute('data-value')) - year.adjusted.gini) < 1e-9);
  assert.equal((await cell.locator('.value').textContent()).trim(), 'indistinguible de cero');
  assert.equal((await cell.locator('.ci').textContent()).trim(), `podría llegar a ${upperEs}`);
  assert.match(await view.answer().textContent(), /indistinguible de cero/);
  // The P90/P10 ratio of the same year, 1 without inequality, says so too (it kept
  // "1,73 / 1,00 – 3,21" beside cells in words).
  const ratio = view.adjustedCell(2021, 'p90_p10');
  assert.equal((await ratio.locator('.value').textContent()).trim(), 'indistinguible de 1');
  assert.match((await ratio.locator('.ci').textContent()).trim(), /^podría llegar a \d+,\d\d$/);
  assert.deepEqual(errors, []);
  await view.close();
});
