// The Map view on the bundled data: 345 communes drawn, a class legend, the tooltip names the
// commune, a new year recolours, downloads (SVG as `imr map`, PNG, CSV) and the funnel plot linked
// to the map; no request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, openPage, outsideRequests, exportDate, datesSince, todayUtc } from './harness.mjs';
import { flagValue, assertImrWrites } from './views.mjs';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { openView, MapPage } from './pages/index.mjs';

let server, browser;
// The day this file started: a download made since carries it, or today's date past midnight UTC.
const startedOn = todayUtc();
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function openMap({ url = '', ...options } = {}) {
  const view = MapPage.attach(await openPage(browser, server.origin + '/' + url, options));
  if (!url) await view.openTab('map');
  await view.communes().first().waitFor();
  // The classes are in place once the legend is drawn.
  await view.legendRow(0).waitFor();
  return view;
}

test('the map draws every commune with a class legend, and the tooltip names the commune', async () => {
  const view = await openMap();
  const { page, requests, errors } = view;
  assert.equal(await view.communes().count(), 345);
  // Every commune has a class (0 = lowest), "none", or "flagged" (its 2021 row flagged as
  // implausible and left out: General Lagos, one death among one birth).
  const classes = await view.classes();
  assert.ok(classes.every((c) => c === 'none' || c === 'flagged' || /^\d+$/.test(c)));
  assert.equal(classes.filter((c) => c === 'flagged').length, 1);
  const distinct = new Set(classes.filter((c) => c !== 'none' && c !== 'flagged'));
  // Five quantiles asked; tied rates (many communes with zero deaths) merge coinciding breaks.
  assert.ok(distinct.size >= 3 && distinct.size <= 5, `quantile classes: ${[...distinct]}`);
  // Legend: one row per class with its count, the hatched no-data entry and the flagged one.
  assert.equal(await view.legendRows().count(), distinct.size + 2);
  assert.match(await view.legendRow('none').textContent(), /no data|sin datos/i);
  assert.match(await view.legendRow('flagged').textContent(), /Flagged, left out \(1\)/);
  const counts = (await view.legendRows().allTextContents())
    .map((t) => Number(t.match(/\((\d+)\)\s*$/)[1]));
  assert.equal(counts.reduce((a, b) => a + b, 0), 345);

  // Hover: Santiago (13101), with its rate, interval, births and deaths.
  await page.locator('path[data-code="13101"]').hover();
  const tooltip = view.tooltip();
  await tooltip.waitFor();
  assert.match(await tooltip.locator('[data-field="name"]').textContent(), /Santiago \(13101\)/);
  assert.match(await tooltip.textContent(), /95%/);
  assert.match(await tooltip.locator('[data-field="births"]').textContent(), /\d/);
  assert.match(await tooltip.locator('[data-field="deaths"]').textContent(), /\d/);
  // Keyboard: focusing a commune shows its tooltip too.
  await page.locator('path[data-code="13114"]').focus();
  await view.tooltip().filter({ hasText: 'Las Condes (13114)' }).waitFor();

  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('changing the year recolours without redrawing the paths, and the switch is timed', async () => {
  const view = await openMap();
  const { page, requests } = view;
  const before = await view.values();
  const dBefore = await page.$eval('path[data-code="13101"]', (p) => p.getAttribute('d'));
  const years = await view.yearOptions().allTextContents();
  // Every year from 2001 to 2021; 2016 and 2020 (no commune figures published) are listed as
  // gaps that cannot be chosen.
  assert.deepEqual(years.map((y) => y.trim()),
    Array.from({ length: 21 }, (_, k) => 2001 + k).map((y) => (y === 2016 || y === 2020 ? `${y} — no data` : String(y))));
  const disabled = await view.yearOptions().evaluateAll((os) => os.filter((o) => o.disabled).map((o) => o.value));
  assert.deepEqual(disabled, ['2016', '2020']);
  // Mark a path element: recolouring must keep the same element (no re-render).
  await page.$eval('path[data-code="13101"]', (p) => { p.__kept = true; });
  await view.chooseYear('2019');
  await view.waitForValuesOtherThan(before);
  const after = await view.values();
  assert.equal(after.length, 345);
  assert.ok(after.filter((v, i) => v !== before[i]).length > 100, 'most communes change value');
  assert.equal(await page.$eval('path[data-code="13101"]', (p) => p.__kept === true), true);
  assert.equal(await page.$eval('path[data-code="13101"]', (p) => p.getAttribute('d')), dBefore);
  const timing = view.switchTime();
  await timing.filter({ hasText: 'ms' }).waitFor();
  console.log(`year switch: ${(await timing.textContent()).trim()}`);
  assert.match(await view.yearLabel().textContent(), /2019/);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
});

test('the SVG, PNG and CSV downloads hold every commune, made in the page', async () => {
  const view = await openMap();
  const { page, requests, errors } = view;
  const svg = await view.downloadSvg();
  assert.match(svg.name, /^mapa_tmi_2021\.svg$/);
  const text = svg.bytes.toString('utf8');
  assert.equal((text.match(/<path data-code="/g) || []).length, 345);
  assert.match(text, /data-testid="choropleth"/);
  assert.match(text, />2021<\/text>/);
  assert.match(text, /Data: INE, DEIS–MINSAL and SINIM–SUBDERE \(chile_imr_2001_2021\.csv\)\. Boundaries: chilemapas/);
  // Engine with its version and date in <metadata>; the tool and date on the source line.
  const today = exportDate(text);
  assert.ok(datesSince(startedOn).includes(today), `${today}: the day the test ran`);
  assert.match(text, new RegExp(`<metadata>[^<]*imr-atlas [^<]* · ${today}</metadata>`));
  assert.match(text, new RegExp(`data-testid="map-source"[^>]*>imr-atlas · ${today}</text>`));
  // The SVG's values are the page's values.
  const onPage = await page.$eval('path[data-code="13101"]', (p) => p.dataset.value);
  assert.ok(text.includes(`data-code="13101" data-class="`) && text.includes(`data-value="${onPage}"`));

  const png = await view.downloadPng();
  assert.match(png.name, /\.png$/);
  assert.deepEqual([...png.bytes.subarray(0, 4)], [0x89, 0x50, 0x4e, 0x47]);
  // 640 × 1200 drawn at twice the size.
  assert.equal(png.bytes.readUInt32BE(16), 1280);
  assert.equal(png.bytes.readUInt32BE(20), 2400);

  const csvText = (await view.downloadCsv()).bytes.toString('utf8');
  assert.match(csvText, /^# Source: chile_imr_2001_2021\.csv\n# imr-atlas engine .*\n# Generated: \d{4}-\d{2}-\d{2}\n/);
  // The data part: the lines after the provenance comments.
  const csv = csvText.trim().split('\n').filter((l) => !l.startsWith('#'));
  assert.equal(csv.length, 346);
  assert.match(csv[0], /^code,name,year,births,deaths,rate_per_1000,ci95_low,ci95_high,eb_global,eb_spatial,excess_risk,value,class,copy_of_year,deaths_reconstructed$/);
  assert.ok(csv.some((l) => l.startsWith('13101,Santiago,2021,')));

  assert.match(await view.commandLine().textContent(), /^imr map public\/data\/chile_imr_2001_2021\.csv .*--year 2021 .*--scheme quantile --classes 5/);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

test('selecting a commune in the funnel plot outlines it on the map; smoothing, classes, zoom and the table follow', async () => {
  const view = await openMap();
  const { page, requests } = view;
  await view.funnelPoint('13101').click({ force: true });
  await view.selection().filter({ hasText: 'Santiago (13101)' }).waitFor();
  assert.equal(await page.$eval('path[data-code="13101"]', (p) => p.getAttribute('aria-pressed')), 'true');
  const outline = await view.selectedOutlinePath();
  assert.equal(outline, await page.$eval('path[data-code="13101"]', (p) => p.getAttribute('d')));
  // And from the map to the funnel: the selected point is drawn larger.
  await page.locator('path[data-code="13114"]').click();
  await view.waitForFunnelRadius('13114', '7px');

  // Spatial EB pulls small communes towards their neighbours: values change.
  const raw = await view.values();
  await view.chooseSmoothing('spatial-eb');
  await view.waitForValuesOtherThan(raw);
  // Queen neighbours (a border or a corner) are the default; rook (a border only) changes the
  // spatial EB rate of the communes with corner-only neighbours, and the choice is
  // kept in the link and in the shown command.
  const queen = await view.values();
  await view.chooseContiguity('rook');
  await view.waitForValuesOtherThan(queen);
  await page.waitForFunction(() => location.hash.includes('contiguity=rook'));
  assert.match(await view.commandLine().textContent(), / --contiguity rook /);
  // A box map has six classes (then no data, and the flagged communes left out).
  await view.chooseClassification('box');
  await view.waitForLegendRowsBesidesFlagged(7);
  assert.equal(await view.legendRow('flagged').count(), 1);

  // Zoom to the Santiago Metropolitan Region changes the view box.
  const full = await view.choropleth().getAttribute('viewBox');
  await view.chooseRegion('13');
  assert.notEqual(await view.choropleth().getAttribute('viewBox'), full);
  await view.resetZoom();
  assert.equal(await view.choropleth().getAttribute('viewBox'), full);

  // The table shows raw and smoothed rates side by side.
  await view.toggleTable();
  const row = view.tableRow('13101');
  assert.match(await row.locator('[data-field="raw"]').textContent(), /\d/);
  assert.match(await row.locator('[data-field="seb"]').textContent(), /\d/);
  assert.equal(await view.tableRows().count(), 345);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
});

// The page's command writes, with `imr map`, the SVG and the CSV the page downloads: for the
// classes and for the LISA cluster map (same permutations and seed), byte for byte, in English and
// in Spanish.
for (const lang of ['en', 'es']) {
  test(`the shown imr map command writes the same SVG and CSV as the page, for classes and for LISA clusters (${lang})`, async () => {
    const view = await openView(browser, server.origin, 'map', { lang });
    for (const lisa of [false, true]) {
      if (lisa) {
        await view.lisaToggle().check();
        await view.commandLine().filter({ hasText: '--lisa' }).waitFor();
      }
      const words = await view.commandWords();
      assert.equal(words[1], 'map');
      assert.equal(words.includes('--lang'), lang === 'es');
      const [svg, csv] = [await view.downloadSvg(), await view.downloadCsv()];
      assert.equal(flagValue(words, '--out'), svg.name);
      assert.equal(flagValue(words, '--csv'), csv.name);
      assertImrWrites(words, [[svg, svg.name], [csv, csv.name]]);
      if (lisa) assert.ok(svg.bytes.toString('utf8').includes(lang === 'es' ? '>Alto-Alto' : '>High-High'), 'LISA legend in the page language');
    }
    assert.deepEqual(outsideRequests(view.requests, server.origin), []);
    assert.deepEqual(view.errors, []);
    await view.close();
  });
}

// Plausibility flags: on the bundled data General Lagos (15202) had, in 2021, one infant death
// among one birth: 1000 per 1,000. As in the other views it is left out by default — of the classes, the smoothing, Moran's I and the
// funnel plot — drawn as "flagged, left out" (not as no data), counted in the legend and named
// under it; the shown command writes the same SVG and CSV. One click on the include toggle brings
// them back everywhere, and the command (with --include-flagged) still writes the page's files.
test('flagged rows are left out of the map by default and named; the include toggle brings them back, and the command follows', async () => {
  const view = await openView(browser, server.origin, 'map', { lang: 'en' });
  const { page } = view;
  await view.legendRow(0).waitFor();
  assert.equal(await view.yearLabel().textContent(), '2021');
  const legend = view.legend();
  const topLabel = async () => {
    const rows = await legend.locator('[data-legend-class]:not([data-legend-class="none"]):not([data-legend-class="flagged"])').evaluateAll(
      (ls) => ls.map((l) => [Number(l.dataset.legendClass), l.textContent]));
    rows.sort((a, b) => b[0] - a[0]);
    return rows[0];
  };
  const lagos = page.locator('path[data-code="15202"]');
  const funnelLagos = view.funnelPoint('15202');
  await view.funnelPoint('13101').waitFor();
  assert.doesNotMatch((await topLabel())[1], /1000/);
  assert.equal(await lagos.getAttribute('data-class'), 'flagged');
  assert.equal(await lagos.getAttribute('data-value'), '');
  assert.equal(await lagos.getAttribute('data-flagged'), 'true');
  assert.equal(await lagos.getAttribute('fill'), 'url(#flagged)');
  assert.equal(await funnelLagos.count(), 0, 'left out of the funnel plot');
  assert.match(await view.legendRow('flagged').textContent(), /Flagged, left out \(1\)/);
  // No deaths in 2021 for 4 communes (no rate published by SINIM, or no births).
  assert.match(await view.legendRow('none').textContent(), /\(4\)/);
  assert.match(await view.flaggedNote().textContent(), /^1 implausible row left out of the map figures$/);
  const list = view.flaggedList();
  assert.match(await list.textContent(), /Left out as implausible \(1\):/);
  assert.equal(await list.locator('li').count(), 1);
  assert.match(await list.locator('li[data-code="15202"]').textContent(), /General Lagos \(15202\)/);
  assert.match(await list.locator('li[data-code="15202"]').getAttribute('title'), /rate above 200 per 1,000/);
  await lagos.hover();
  assert.match(await view.tooltip().locator('[data-field="flagged"]').textContent(), /left out of the map: rate above 200/);
  assert.doesNotMatch(await view.commandLine().textContent(), /--include-flagged/);
  const moranLeftOut = await view.moran().textContent();

  // The shown command writes the page's SVG and CSV, with and without the flagged rows.
  const sameAsCommand = async () => {
    const words = await view.commandWords();
    const [svg, csv] = [await view.downloadSvg(), await view.downloadCsv()];
    assertImrWrites(words, [[svg, flagValue(words, '--out')], [csv, flagValue(words, '--csv')]]);
    return [words, svg.bytes.toString('utf8'), csv.bytes.toString('utf8')];
  };
  let [words, svg, csv] = await sameAsCommand();
  assert.ok(!words.includes('--include-flagged'));
  assert.equal((svg.match(/data-class="flagged"/g) || []).length, 1);
  assert.match(svg, /Flagged, left out <tspan[^>]*>\(1\)/);
  // class `flagged`, no copy, deaths reconstructed from SINIM's 2021 rate
  assert.match(csv, /\n15202,General Lagos,2021,1,1,1000,[^\n]*,,,,,flagged,,true\n/);

  await view.includeFlagged().check();
  await view.commandLine().filter({ hasText: '--include-flagged' }).waitFor();
  await view.waitForLegendText(/1000/);
  assert.match((await topLabel())[1], /1000\.0/);
  assert.match(await lagos.getAttribute('data-class'), /^\d+$/);
  assert.equal(await lagos.getAttribute('data-value'), '1000');
  assert.equal(await lagos.getAttribute('data-flagged'), 'true');
  assert.equal(await view.legendRow('flagged').count(), 0);
  assert.equal(await view.flaggedList().count(), 0);
  assert.match(await view.flaggedNote().textContent(), /1 flagged value\(s\) included in the class breaks/);
  await funnelLagos.waitFor();
  await view.waitForMoranOtherThan(moranLeftOut);
  [words, svg, csv] = await sameAsCommand();
  assert.ok(words.includes('--include-flagged'));
  assert.doesNotMatch(svg, /data-class="flagged"/);
  assert.match(svg, /1 flagged value\(s\) included in the class breaks/);
  assert.doesNotMatch(csv, /,flagged\n/);
  assert.deepEqual(outsideRequests(view.requests, server.origin), []);
  assert.deepEqual(view.errors, []);
  await view.close();
});

// The include toggle lives in the URL fragment (`include-flagged`), like the map's other options:
// a link with it set opens with the toggle on and 15202/2021's 1000 per 1,000 inside the top
// class's breaks; toggling rewrites the fragment.
test('include-flagged=true in the link includes the flagged values, and toggling updates the link', async () => {
  const view = await openMap({ url: '#view=map&include-flagged=true' });
  const { page, requests, errors } = view;
  const toggle = view.includeFlagged();
  assert.equal(await toggle.isChecked(), true);
  const topLabel = async () => {
    const rows = await view.legend().locator('[data-legend-class]:not([data-legend-class="none"])').evaluateAll(
      (ls) => ls.map((l) => [Number(l.dataset.legendClass), l.textContent]));
    return rows.sort((a, b) => b[0] - a[0])[0][1];
  };
  assert.match(await topLabel(), /1000\.0/);
  assert.match(await view.commandLine().textContent(), /--include-flagged/);
  assert.match(await page.evaluate(() => location.hash), /(^#|&)include-flagged=true(&|$)/);

  await toggle.uncheck();
  await page.waitForFunction(() => /(^#|&)include-flagged=false(&|$)/.test(location.hash));
  await view.waitForLegendText(/1000/, false);
  assert.doesNotMatch(await topLabel(), /1000/);
  await toggle.check();
  await page.waitForFunction(() => /(^#|&)include-flagged=true(&|$)/.test(location.hash));
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
});

// Answer first: the map's methods sit behind the views' shared "How this is
// calculated" disclosure, closed by default, in the page's language.
for (const [locale, summary, funnel] of [['en-US', 'How was it computed?', /99\.8% control limits/], ['es-CL', '¿Cómo se calculó?', /99,8%/]]) {
  test(`the map's methods are behind "${summary}"`, async () => {
    const view = await openMap({ locale });
    const { page } = view;
    const how = view.method();
    assert.equal(await how.evaluate((d) => d.tagName + (d.open ? ' open' : '')), 'DETAILS');
    assert.equal((await how.locator('summary').textContent()).trim(), summary);
    assert.equal(await how.locator('[data-method="smoothing"]').isVisible(), false);
    await how.locator('summary').click();
    const topics = await how.locator('[data-method]').evaluateAll((ps) => ps.map((p) => p.dataset.method));
    assert.deepEqual(topics, ['rate', 'smoothing', 'classes', 'flagged', 'funnel', 'moran']);
    assert.ok(await how.locator('[data-method="smoothing"]').isVisible());
    assert.match(await how.locator('[data-method="funnel"]').textContent(), funnel);
    assert.match(await how.locator('[data-method="flagged"]').textContent(), /200/);
    // The funnel plot's own note is now only how to use it.
    assert.doesNotMatch(await page.locator('section[aria-labelledby="funnel-h"] p.note').first().textContent(), /Poisson/);
  });
}

// A file of five communes of Concepción's province opens the map on them, not on the whole
// country where they would be a few pixels (issue 42.10); "Whole country" shows all of it and
// "Communes with data" returns. The bundled data (every commune) open on the whole country.
test('an upload of a few communes opens the map on them', async () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-few-'));
  const file = path.join(dir, 'concepcion.csv');
  const rows = [['08101', 31], ['08102', 4], ['08103', 12], ['08108', 9], ['08110', 15]];
  fs.writeFileSync(file, 'codigo,anio,nacidos_vivos,defunciones\n'
    + rows.map(([code, d]) => `${code},2021,${d * 150},${d}`).join('\n') + '\n');
  const data = await openView(browser, server.origin, 'data', { lang: 'en' });
  await data.upload(file);
  await data.waitForRowCount('read', rows.length);
  await data.openTab('map');
  const view = MapPage.attach(data);
  await view.communes().first().waitFor();
  await view.testid('zoom-data').waitFor({ timeout: 60_000 });
  const box = async () => (await view.choropleth().getAttribute('viewBox')).split(' ').map(Number);
  const zoomed = await box();
  await view.resetZoom();
  const full = await box();
  assert.ok(zoomed[2] * zoomed[3] < 0.1 * full[2] * full[3], `${zoomed} within ${full}`);
  // Each commune with data is inside the view it opened on.
  for (const [code] of rows) {
    const b = await view.page.locator(`svg[data-testid="choropleth"] path[data-code="${code}"]`).evaluate((p) => {
      const r = p.getBBox();
      return [r.x, r.y, r.x + r.width, r.y + r.height];
    });
    assert.ok(b[0] >= zoomed[0] && b[1] >= zoomed[1] && b[2] <= zoomed[0] + zoomed[2] && b[3] <= zoomed[1] + zoomed[3], `${code}: ${b}`);
  }
  await view.testid('zoom-data').click();
  assert.deepEqual(await box(), zoomed);
  // The exported map is of those communes alone, and says so (the engine's rule, as imr map's).
  const svg = (await view.downloadSvg()).bytes.toString('utf8');
  // …with the two communes without data that lie among them (San Pedro de la Paz, Hualpén) as
  // no data, counted: not white holes beside "no data (0)".
  const drawn = [...svg.matchAll(/<path data-code="(\d+)"/g)].map((m) => m[1]).sort();
  assert.deepEqual(drawn, [...rows.map(([code]) => code), '08107', '08112'].sort());
  assert.match(svg, /Only the 5 communes with data are shown \(of 345\) with the 2 communes without data between them\./);
  assert.match(svg, /data-legend-class="none">[^]*?\(2\)<\/tspan>/);
  assert.deepEqual(view.errors, []);
  await view.close();
  const bundled = await openMap();
  assert.equal(await bundled.testid('zoom-data').count(), 0);
  await bundled.close();
});
