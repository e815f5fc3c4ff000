// Data that are not Chile's: a generated panel of 22 areas with text codes (r0c0 … island) over
// four years, and a GeoJSON of the same areas (the esda golden layer of crates/imr-map/tests/data/
// esda). Uploaded on the Data tab and the Map tab, every view works on them: the map draws every
// area, the inequality view answers, and the models view fits with the area's own covariate.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, openPage, outsideRequests, ROOT } from './harness.mjs';
import { DataPage, InequalityPage, MapPage, ModelsPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const LAYER = path.join(ROOT, 'crates/imr-map/tests/data/esda/grid.geojson');

/** The panel: the esda layer's births and deaths scaled by year, an income that varies within
 * areas, and a zone per row of the grid. Deterministic. */
function foreignPanel() {
  const counts = fs.readFileSync(path.join(path.dirname(LAYER), 'counts.csv'), 'utf8').trim().split('\n').slice(1);
  const rows = ['area,year,births,deaths,income,zone'];
  for (const [y, year] of [2015, 2016, 2017, 2018].entries()) {
    counts.forEach((line, i) => {
      const [code, births, deaths] = line.split(',');
      const b = Math.round(Number(births) * (1 + 0.05 * y));
      const d = Math.max(0, Number(deaths) + ((i + y) % 3) - 1);
      const income = (100 + 7 * i + 3 * y + ((i * y) % 5)).toFixed(1);
      rows.push([code, year, b, d, income, code.slice(0, 2)].join(','));
    });
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-foreign-'));
  const file = path.join(dir, 'areas_panel.csv');
  fs.writeFileSync(file, rows.join('\n') + '\n');
  return { file, rows: rows.length - 1, areas: counts.length };
}

test('a panel and boundaries of another place: data, map, inequality and models all work', async () => {
  const { file, rows, areas } = foreignPanel();
  const opened = await openPage(browser, server.origin + '/');
  const { requests, errors } = opened;
  const [data, map, inequality, models] = [DataPage, MapPage, InequalityPage, ModelsPage].map((P) => P.attach(opened));
  await data.upload(file);
  // `area` is not a name the page guesses as the area code: the user picks it.
  await data.chooseRole('entity', { label: 'area' });
  await data.waitForRowCount('read', rows);
  assert.equal(await data.rowCountText('used'), String(rows));

  await map.openTab('map');
  // The layer's code property is `code` (GeoDa too asks which property is the key).
  await map.setCodeProperty('code');
  await map.uploadBoundaries(LAYER);
  await map.waitForCommuneCount(areas);
  assert.equal(await map.communes().count(), areas);
  await map.legendRow('0').waitFor();

  await inequality.openTab('inequality');
  await inequality.answer().waitFor({ timeout: 60_000 });
  await inequality.row(2015).waitFor();

  await models.openTab('models');
  await models.choose({ models: ['fe'], vcov: 'cluster', regressors: ['income'] });
  const estimate = models.coefCell('income', 'estimate', 'fe');
  await estimate.waitFor({ timeout: 60_000 });
  assert.ok(Number.isFinite(Number(await estimate.getAttribute('data-value'))));

  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});

// The reader does not know the layer's key: with the default code property (which the GeoJSON
// lacks) the page finds the property holding the data's codes, says so, fills the field and
// names it in the shown `imr map` command.
test('boundaries whose code property is not the one typed are matched by the property that holds the codes', async () => {
  const { file, rows, areas } = foreignPanel();
  const opened = await openPage(browser, server.origin + '/');
  const [data, map] = [DataPage.attach(opened), MapPage.attach(opened)];
  await data.upload(file);
  await data.chooseRole('entity', { label: 'area' });
  await data.waitForRowCount('read', rows);
  await map.openTab('map');
  await map.uploadBoundaries(LAYER);
  await map.waitForCommuneCount(areas);
  assert.match(await map.codePropertyChosen().textContent(), new RegExp(`«code», which holds ${areas} of the data's ${areas} codes`));
  assert.equal(await map.codeProperty(), 'code');
  assert.match(await map.commandLine().textContent(), / --code-property code /);
  assert.deepEqual(opened.errors, []);
  fs.rmSync(path.dirname(file), { recursive: true, force: true });
});
