// The map on a phone: in a touch-enabled context at 390×844, a tap on a commune shows
// the tooltip a mouse hover shows (name, rate with its interval) and selects the commune, a tap
// elsewhere hides it, and a two-finger pinch zooms the map (its viewBox shrinks about the
// fingers). Touches go through the DevTools protocol (Input.dispatchTouchEvent), as a real
// touchscreen's would: the page sees pointer events of type "touch".
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, outsideRequests } from './harness.mjs';
import { openView } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** The map view (its page object) on a touch phone, in Spanish, with every request and error
 * recorded and a DevTools session for the touches (`cdp`). */
async function openTouchMap() {
  const map = await openView(browser, server.origin, 'map',
    { lang: 'es', viewport: { width: 390, height: 844 }, hasTouch: true });
  map.cdp = await map.context.newCDPSession(map.page);
  return map;
}

/** A point inside the commune's path (not only in its bounding box), in CSS pixels of the page,
 * found by asking the page what is drawn there; the map is scrolled into view first. */
async function pointInside(map, code) {
  await map.commune(code).scrollIntoViewIfNeeded();
  const point = await map.commune(code).evaluate((path) => {
    const r = path.getBoundingClientRect();
    for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) {
      const [x, y] = [r.left + (r.width * i) / 12, r.top + (r.height * j) / 12];
      if (document.elementFromPoint(x, y) === path) return { x, y };
    }
    return null;
  });
  assert.ok(point, `no visible point inside ${code}`);
  return point;
}

/** One finger down and up at (x, y): a tap. */
async function tap(cdp, { x, y }) {
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ x, y, id: 1 }] });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
}

/** The two largest communes with a value on the map (easiest to hit with a finger). */
async function largestCommunes(map) {
  return map.communes().evaluateAll((ps) => ps.filter((p) => p.dataset.value)
    .map((p) => { const r = p.getBoundingClientRect(); return [p.dataset.code, r.width * r.height]; })
    .sort((a, b) => b[1] - a[1]).slice(0, 2).map((c) => c[0]));
}

test('a tap on a commune shows its tooltip with name and rate and selects it; a tap elsewhere hides it', async () => {
  const map = await openTouchMap();
  const { page, cdp, requests, errors } = map;
  // Chromium follows a tap with emulated mouse events (mouseenter, click), which alone would
  // show the hover tooltip; not every touch browser sends them, so they are stopped here and
  // the tap must work from its pointer events.
  await page.evaluate(() => {
    for (const type of ['mouseover', 'mouseenter', 'mousemove', 'mousedown', 'mouseup', 'mouseleave', 'mouseout', 'click']) {
      window.addEventListener(type, (e) => e.stopImmediatePropagation(), true);
    }
  });
  const [code, other] = await largestCommunes(map);
  const name = (await map.commune(code).getAttribute('aria-label')).split(' (')[0];
  await tap(cdp, await pointInside(map, code));
  const tooltip = map.tooltip();
  await tooltip.waitFor();
  assert.equal((await tooltip.locator('[data-field="name"]').textContent()).trim(), `${name} (${code})`);
  assert.match(await tooltip.locator('[data-field="rate"]').textContent(), /^Tasa: [\d.,]+ ‰ \(IC 95% [\d.,]+–[\d.,]+\)$/);
  assert.equal(await map.commune(code).getAttribute('aria-pressed'), 'true');
  await map.selection().filter({ hasText: `(${code})` }).waitFor();

  // A second tap on another commune moves the tooltip there.
  await tap(cdp, await pointInside(map, other));
  await tooltip.locator('[data-field="name"]').filter({ hasText: `(${other})` }).waitFor();
  assert.equal(await tooltip.count(), 1);

  assert.equal(await map.commune(other).getAttribute('aria-pressed'), 'true');

  // A tap outside any commune (the map's top-left corner, over the sea) hides it.
  const box = await map.choropleth().boundingBox();
  const corner = { x: box.x + 4, y: box.y + 4 };
  assert.equal(await page.evaluate(({ x, y }) => document.elementFromPoint(x, y).closest('path[data-code]'), corner), null);
  await tap(cdp, corner);
  await tooltip.waitFor({ state: 'detached' });
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await map.close();
});

test('a two-finger pinch zooms the map in about the fingers, and pinching back zooms out', async () => {
  const map = await openTouchMap();
  const { cdp, errors } = map;
  const svg = map.choropleth();
  await svg.scrollIntoViewIfNeeded();
  const viewBox = async () => (await svg.getAttribute('viewBox')).split(' ').map(Number);
  const full = await viewBox();
  const box = await svg.boundingBox();
  const [cx, cy] = [box.x + box.width / 2, box.y + Math.min(box.height, 844 - box.y) / 2];
  const fingers = (spread) => [{ x: cx - spread, y: cy, id: 1 }, { x: cx + spread, y: cy, id: 2 }];
  // Fingers from 30 px to 90 px apart: the view box is a third as wide.
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(15) });
  for (const spread of [20, 25, 35, 45]) {
    await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(spread) });
  }
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  const zoomed = await viewBox();
  assert.ok(Math.abs(zoomed[2] - full[2] / 3) < 1, `width ${zoomed[2]} after a 3× pinch of ${full[2]}`);
  assert.ok(Math.abs(zoomed[3] / zoomed[2] - full[3] / full[2]) < 1e-6, 'aspect kept');
  // The map point under the fingers' midpoint stays under it.
  const fx = (cx - box.x) / box.width;
  const before = full[0] + fx * full[2];
  const after = zoomed[0] + fx * zoomed[2];
  assert.ok(Math.abs(before - after) < 1, `midpoint moved from ${before} to ${after}`);
  // No tooltip from a pinch (it is not a tap).
  assert.equal(await map.tooltip().count(), 0);

  // Pinching in again zooms back out.
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: fingers(45) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(30) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchMove', touchPoints: fingers(15) });
  await cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  assert.ok((await viewBox())[2] > zoomed[2] * 2, 'zoomed out');
  assert.deepEqual(errors, []);
  await map.close();
});

// A commune too small for a finger (Santiago, a few pixels in the Metropolitan Region's inset on
// a phone) is zoomed to by a tap, about the finger, with no tooltip yet; once it is big enough,
// a tap selects it (issue 42.7; WCAG 2.2's 24 px target size).
test('a tap on a commune too small for a finger zooms to it first, and the next tap selects it', async () => {
  const map = await openTouchMap();
  const { cdp, errors } = map;
  const viewBox = async () => (await map.choropleth().getAttribute('viewBox')).split(' ').map(Number);
  const full = await viewBox();
  const small = await map.communeBox('13101');
  assert.ok(Math.max(small.width, small.height) < 24, `Santiago is ${small.width}×${small.height} px`);
  await tap(cdp, await pointInside(map, '13101'));
  await map.page.waitForFunction((w) => Number(document.querySelector('svg[data-testid="choropleth"]')
    .getAttribute('viewBox').split(' ')[2]) < w, full[2]);
  assert.equal(await map.tooltip().count(), 0, 'no tooltip on the zooming tap');
  assert.notEqual(await map.commune('13101').getAttribute('aria-pressed'), 'true');
  const big = await map.communeBox('13101');
  assert.ok(Math.max(big.width, big.height) >= 24, `Santiago is ${big.width}×${big.height} px after the tap`);
  assert.ok((await viewBox())[2] < full[2] / 2);
  await tap(cdp, await pointInside(map, '13101'));
  await map.tooltip().locator('[data-field="name"]').filter({ hasText: '(13101)' }).waitFor();
  assert.equal(await map.commune('13101').getAttribute('aria-pressed'), 'true');
  assert.deepEqual(errors, []);
  await map.close();
});
