// The map zoomed on an upload of a few communes (issue 42): a newcomer's Latin-1 `;` file of 21
// communes of Santiago (13101–13121, the bundled 2021 counts; La Pintana 13112, which the
// Findings' question 5 names, among them) opens the map on them, and there the legend covers
// none of them (it moves to a free corner of the view, or under the map) and the region inset's
// label is whole inside the map (not "ntiago"), on a 390 px phone and a desktop; the PNG of
// their map (800 × 800) is not stretched to the whole country's 640 × 1200.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, fixture } from './harness.mjs';
import { openView, MapPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const inside = (box, area, slack = 1) => box.left >= area.left - slack && box.right <= area.right + slack
  && box.top >= area.top - slack && box.bottom <= area.bottom + slack;

for (const [size, viewport] of [['phone', { width: 390, height: 844 }], ['desktop', { width: 1280, height: 900 }]]) {
  test(`the legend covers none of 21 Santiago communes and the inset's label is whole (${size})`, async () => {
    const data = await openView(browser, server.origin, 'data', { lang: 'en', viewport });
    await data.upload(fixture('santiago_21_latin1.csv'));
    await data.waitForRowCount('read', 21);
    await data.openTab('map');
    const map = MapPage.attach(data);
    await map.communes().first().waitFor();
    await map.testid('zoom-data').waitFor({ timeout: 60_000 });
    // The legend is placed a frame after the view changes.
    await map.page.waitForFunction(() => document.querySelector('[data-testid="map-legend"]')?.dataset.view
      === document.querySelector('svg[data-testid="choropleth"]').getAttribute('viewBox'));
    const { covered, onMap } = await map.legendCovers();
    assert.deepEqual(covered, [], `the legend (${onMap ? 'on the map' : 'under it'}) covers ${covered}`);
    // On a phone it finds room on her map, in the first screen: a screenshot of the map has it
    // (a row more for the grey rest of the country pushed it under the map, out of that screen).
    if (size === 'phone') {
      const legend = await map.testid('map-legend').boundingBox();
      assert.ok(onMap && legend.y + legend.height <= viewport.height, `legend ${JSON.stringify(legend)}, on the map: ${onMap}`);
    }
    const { labels, map: box } = await map.insetLabels();
    assert.ok(labels.length >= 1, 'the region inset is labelled');
    for (const { text, box: b } of labels) {
      assert.ok(inside(b, box), `${text} ${JSON.stringify(b)} in ${JSON.stringify(box)}`);
      assert.match(text, /Santiago$/);
    }
    if (size === 'desktop') {
      const png = await map.downloadPng();
      assert.deepEqual([png.bytes.readUInt32BE(16), png.bytes.readUInt32BE(20)], [1600, 1600]);
    }
    assert.deepEqual(map.errors, []);
    await map.close();
  });
}
