// The Map view after a retest (issue 42's leftovers), in es-CL as the journalist reads it:
// on a 1366×768 desktop, after uploading her 21 communes of Santiago, the zoomed map and its
// legend are both in the first screen (the legend had gone under the map, below the screen);
// the page's legend counts as "Sin datos" the communes without data among hers, as the exported
// SVG does and as many as are drawn hatched (the page said 324, the file 10); on a 390 px phone
// the region inset's label is shown at 10 px or more (it was 6.3 px) and the funnel plot is
// drawn at the width shown, its text at 10 px or more, with no sideways scroll; Moran's I has a
// sentence in plain words that agrees with its p-value.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import { startServer, launch, fixture } from './harness.mjs';
import { openView, MapPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const DESKTOP = { width: 1366, height: 768 };
const PHONE = { width: 390, height: 844 };
const inside = (box, area, slack = 1) => box.left >= area.left - slack && box.right <= area.right + slack
  && box.top >= area.top - slack && box.bottom <= area.bottom + slack;

/** Her file's first twelve communes (13101–13112), as an upload. */
function twelveOfHers() {
  const text = fs.readFileSync(fixture('santiago_21_latin1.csv'), 'latin1').split('\n');
  const twelve = [text[0], ...text.slice(1).filter((l) => /^131(0\d|1[0-2]);/.test(l))].join('\n');
  return { name: 'doce.csv', mimeType: 'text/csv', buffer: Buffer.from(`${twelve}\n`, 'latin1') };
}

/** The Map view of an upload of `rows` communes (the 21 of `santiago_21_latin1.csv`), zoomed on
 * them, its legend placed. */
async function santiago(viewport, upload = fixture('santiago_21_latin1.csv'), rows = 21) {
  const data = await openView(browser, server.origin, 'data', { lang: 'es', viewport });
  await data.upload(upload);
  await data.waitForRowCount('read', rows);
  await data.openTab('map');
  const map = MapPage.attach(data);
  await map.communes().first().waitFor();
  await map.testid('zoom-data').waitFor({ timeout: 60_000 });
  await map.page.waitForFunction(() => document.querySelector('[data-testid="map-legend"]')?.dataset.view
    === document.querySelector('svg[data-testid="choropleth"]').getAttribute('viewBox'));
  return map;
}

// On a phone too: her legend found room on the map until a row more (the grey rest of the
// country, now a note under the map) pushed it under the map, out of the first screen. With
// twelve of her communes no corner is free: the legend goes under the map, which is then
// shorter by its height (the legend began at 842 px of an 844 px screen, its classes below).
for (const [name, viewport, twelve] of [['21 communes, 1366×768 desktop', DESKTOP, false],
  ['21 communes, 390×844 phone', PHONE, false], ['12 communes, 390×844 phone', PHONE, true]]) {
  test(`the zoomed map of ${name} and its legend are both in the first screen (es)`, async () => {
    const map = twelve ? await santiago(viewport, twelveOfHers(), 12) : await santiago(viewport);
    await map.page.evaluate(() => window.scrollTo(0, 0));
    const { map: box, legend, legendRows, window } = await map.mapAndLegendBoxes();
    const screen = { left: 0, top: 0, right: window.width, bottom: window.height };
    assert.ok(inside(box, screen), `map ${JSON.stringify(box)} in ${JSON.stringify(screen)}`);
    assert.ok(inside(legend, screen), `legend ${JSON.stringify(legend)} in ${JSON.stringify(screen)}`);
    assert.ok(legendRows.length >= 3, `${legendRows.length} legend rows`);
    // On a desktop there is room beside her map: the legend is not under it (a map column as
    // narrow as the map put it under, past the map's edge, and shrank the map to 205 px).
    if (viewport === DESKTOP) {
      assert.ok(legend.top < box.bottom, `legend ${JSON.stringify(legend)} under the map ${JSON.stringify(box)}`);
      assert.ok(box.right - box.left >= 250, `the map is ${box.right - box.left} px wide`);
    }
    // Nor does it hide any of her communes.
    const { covered } = await map.legendCovers();
    assert.deepEqual(covered, []);
    assert.deepEqual(map.errors, []);
    await map.close();
  });
}

test('the legend counts as "Sin datos" the communes drawn hatched among hers, as the exported map does (es)', async () => {
  const map = await santiago(DESKTOP);
  const shown = (await map.testid('map-legend').locator('[data-legend-class="none"]').textContent()).trim();
  const count = Number(shown.match(/Sin datos\s+\((\d+)\)/)?.[1]);
  assert.ok(Number.isInteger(count), shown);
  // As many communes are drawn with the no-data hatch on the page.
  const hatched = await map.communes().evaluateAll((ps) => ps.filter((p) => p.getAttribute('fill') === 'url(#no-data)').length);
  assert.equal(hatched, count, `legend "${shown}", ${hatched} hatched`);
  assert.ok(count < 324, `"${shown}" counts the whole country`);
  // The rest of the country, drawn plain grey around them, is said under the map: her 21
  // communes, those without data among them and the rest add up to the country's 345.
  const outside = (await map.testid('map-outside-note').textContent()).trim();
  const rest = Number(outside.match(/^Gris claro: las otras (\d+) comunas del país, fuera de los datos cargados\.$/)?.[1]);
  const plain = await map.communes().evaluateAll((ps) => ps.filter((p) => p.getAttribute('fill') === '#eeeeee').length);
  assert.equal(plain, rest, `legend "${outside}", ${plain} drawn plain`);
  assert.equal(21 + count + rest, 345, `21 + ${count} + ${rest}`);
  // Their tooltips tell the two apart: a hatched commune has no data among hers, a grey one is
  // outside her data (both said "sin datos").
  const pointOf = (fill) => map.communes().evaluateAll((ps, fill) => {
    for (const p of ps.filter((p) => p.getAttribute('fill') === fill)) {
      const r = p.getBoundingClientRect();
      for (let i = 1; i < 8; i++) for (let j = 1; j < 8; j++) {
        const [x, y] = [r.left + (r.width * i) / 8, r.top + (r.height * j) / 8];
        if (x > 0 && y > 0 && x < innerWidth && y < innerHeight && document.elementFromPoint(x, y) === p) return { x, y };
      }
    }
    return null;
  }, fill);
  for (const [fill, words] of [['#eeeeee', 'Fuera de los datos cargados'], ['url(#no-data)', 'Tasa: sin datos']]) {
    const at = await pointOf(fill);
    assert.ok(at, `no ${fill} commune in view`);
    await map.page.mouse.move(at.x, at.y);
    await map.page.waitForFunction((w) => document.querySelector('[data-testid="map-tooltip"] [data-field="rate"]')?.textContent.trim() === w, words);
  }
  // The exported map says the same.
  const svg = (await map.downloadSvg()).text;
  const none = svg.split('data-legend-class="none"')[1];
  const exported = Number(none.slice(0, none.indexOf('</g>')).replace(/<[^>]*>/g, ' ').match(/Sin datos\s+\((\d+)\)/)?.[1]);
  assert.equal(exported, count, `page "${shown}", exported ${exported}`);
  assert.deepEqual(map.errors, []);
  await map.close();
});

test('the region inset\'s label is shown at 10 px or more on a 390 px phone (es)', async () => {
  const map = await openView(browser, server.origin, 'map', { lang: 'es', viewport: PHONE });
  await map.communes().first().waitFor();
  await map.page.waitForFunction(() => {
    const svg = document.querySelector('svg[data-testid="choropleth"]');
    return [...svg.querySelectorAll(':scope > text')].some((t) => t.textContent);
  });
  // Measured after the map has settled (the label follows the map's width on screen).
  await map.page.waitForTimeout(300);
  const labels = await map.page.evaluate(() => {
    const svg = document.querySelector('svg[data-testid="choropleth"]');
    const scale = svg.getBoundingClientRect().width / Number(svg.getAttribute('viewBox').split(' ')[2]);
    return [...svg.querySelectorAll(':scope > text')].filter((t) => t.textContent)
      .map((t) => ({ text: t.textContent, px: Number(t.getAttribute('font-size')) * scale, box: t.getBoundingClientRect().toJSON() }));
  });
  const { labels: _, map: box } = await map.insetLabels();
  for (const { text, px, box: b } of labels) {
    assert.ok(px >= 10, `«${text}» shown at ${px.toFixed(1)} px`);
    assert.ok(inside(b, box), `«${text}» ${JSON.stringify(b)} inside the map ${JSON.stringify(box)}`);
  }
  assert.ok(labels.some(({ text }) => /Santiago$/.test(text)), labels.map((l) => l.text).join(', '));
  assert.deepEqual(map.errors, []);
  await map.close();
});

for (const lang of ['es', 'en']) {
  test(`the funnel plot is drawn at the width shown on a 390 px phone, its text 10 px or more, no sideways scroll (${lang})`, async () => {
    const view = await openView(browser, server.origin, 'map', { lang, viewport: PHONE });
    const box = view.testid('funnel-box');
    await box.locator('svg').waitFor({ timeout: 60000 });
    const got = await box.evaluate((b) => {
      const s = b.querySelector('svg');
      const drawn = Number(s.getAttribute('width'));
      const shown = s.getBoundingClientRect().width;
      const sizes = [...s.querySelectorAll('text')].map((t) => parseFloat(getComputedStyle(t).fontSize));
      return { drawn, shown, smallest: Math.min(...sizes) * shown / drawn, scroll: b.scrollWidth - b.clientWidth, right: b.getBoundingClientRect().right };
    });
    assert.ok(got.drawn <= PHONE.width, `drawn ${got.drawn} px wide on a ${PHONE.width} px phone`);
    assert.ok(Math.abs(got.shown - got.drawn) < 1, `drawn ${got.drawn}, shown ${got.shown}`);
    assert.ok(got.smallest >= 10, `smallest text shown at ${got.smallest.toFixed(1)} px`);
    assert.ok(got.scroll <= 0 && got.right <= PHONE.width, `scrolls ${got.scroll} px sideways, ends at ${got.right}`);
    // The file downloaded is the plot at its own 640 px, as `imr map --funnel` writes it.
    const file = await view.download('download-funnel');
    assert.match(file.text, /<svg[^>]* width="640"/);
    assert.deepEqual(view.errors, []);
    await view.close();
  });

  test(`Moran's I is read in plain words that agree with its p-value (${lang})`, async () => {
    const view = await openView(browser, server.origin, 'map', { lang, viewport: DESKTOP });
    const reading = view.testid('moran-reading');
    await reading.waitFor({ timeout: 60000 });
    const text = (await reading.textContent()).trim();
    const pShown = (await view.moran().locator('[data-field="moran-p"]').textContent()).trim();
    const p = Number(pShown.replace(',', '.'));
    const alike = lang === 'es' ? /más parecidos|más distintos/ : /more alike|more unlike/;
    const chance = lang === 'es' ? /no se distingue del azar/ : /cannot be told from chance/;
    assert.match(text, p <= 0.05 ? alike : chance, `p = ${pShown}: ${text}`);
    // The share of shuffles is the p-value in percent, written as the page writes numbers.
    const share = (100 * p).toFixed(1);
    assert.ok(text.includes(lang === 'es' ? `${share.replace('.', ',')} %` : `${share}%`), `${share} in ${text}`);
    if (lang === 'es') assert.doesNotMatch(text, /\d\.\d/);
    assert.deepEqual(view.errors, []);
    await view.close();
  });
}

// The whole country's map is narrow (Chile is long): on a desktop its column is as wide as the
// map and its legend on it, so the notes stand next to the map (they stood after 300 px of white,
// the column's 640 px).
test('on a desktop the notes stand next to the whole country\'s map', async () => {
  const map = await openView(browser, server.origin, 'map', { lang: 'es', viewport: DESKTOP });
  await map.communes().first().waitFor();
  await map.testid('map-legend').waitFor();
  await map.page.waitForFunction(() => document.querySelector('[data-testid="map-legend"]')?.dataset.view);
  const boxes = () => map.page.evaluate(() => ({
    svg: document.querySelector('svg[data-testid="choropleth"]').getBoundingClientRect().toJSON(),
    legend: document.querySelector('[data-testid="map-legend"]').getBoundingClientRect().toJSON(),
    notes: document.querySelector('[data-testid="map-legend-notes"]').getBoundingClientRect().toJSON(),
  }));
  const { svg, legend, notes } = await boxes();
  assert.ok(svg.width < 400, `the whole country is ${svg.width} px wide: not the case this tests`);
  // the legend on the map, the notes beside it within the figure's gap (1rem) and a pixel
  assert.ok(inside(legend, svg), `legend ${JSON.stringify(legend)} off the map ${JSON.stringify(svg)}`);
  assert.ok(notes.top < svg.bottom, `notes ${JSON.stringify(notes)} under the map`);
  assert.ok(notes.left - svg.right <= 20, `${notes.left - svg.right} px between the map and the notes`);
  assert.deepEqual(map.errors, []);
  await map.close();
});
