// Layout from 360 to 1440 px: every label sits with its control and no two labelled
// controls (or their labels) overlap; screenshots of the Findings view at phone and desktop
// sizes match committed references within a tolerance. Fonts are pinned and animations off so
// that the screenshots are deterministic; UPDATE_EXPECT=1 rewrites the references.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import { startServer, launch, openPage, ROOT } from './harness.mjs';
import { READY } from './views.mjs';

const SHOTS = path.join(ROOT, 'e2e', 'screenshots');
const PIN = `*, *::before, *::after { font-family: "DejaVu Sans", sans-serif !important;
  animation: none !important; transition: none !important; caret-color: transparent !important; }`;

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

/** Boxes of every visible label[for] and its control; pairs that overlap; labels far from theirs. */
async function layoutProblems(page) {
  return page.evaluate(() => {
    const visible = (el) => { const r = el.getBoundingClientRect(); const s = getComputedStyle(el);
      return r.width > 0 && r.height > 0 && s.visibility !== 'hidden' && s.display !== 'none'; };
    const boxes = [];
    const far = [];
    for (const label of document.querySelectorAll('main label[for]')) {
      const control = document.getElementById(label.htmlFor);
      if (!control || !visible(label) || !visible(control)) continue;
      const [a, b] = [label.getBoundingClientRect(), control.getBoundingClientRect()];
      // An inline label that wraps has one box per line (its bounding box would cover the
      // whole width, control included): compare the boxes actually painted.
      // A label that wraps its control covers it by design: one box for the pair.
      const wraps = label.contains(control);
      for (const r of label.getClientRects()) boxes.push({ name: `label[for=${label.htmlFor}]`, r, id: label.htmlFor });
      for (const r of control.getClientRects()) boxes.push({ name: `#${label.htmlFor}`, r, id: label.htmlFor + (wraps ? '' : '#') });
      // With its control: on the same line within 48 px, or just above/below it.
      const gapX = Math.max(0, Math.max(a.left, b.left) - Math.min(a.right, b.right));
      const gapY = Math.max(0, Math.max(a.top, b.top) - Math.min(a.bottom, b.bottom));
      if (!(gapY === 0 ? gapX <= 48 : gapY <= 16 && gapX <= 48)) far.push(`${label.htmlFor}: gap ${gapX}×${gapY}`);
    }
    const overlaps = [];
    const cut = (p, q) => Math.min(p.right, q.right) - Math.max(p.left, q.left) > 1
      && Math.min(p.bottom, q.bottom) - Math.max(p.top, q.top) > 1;
    for (let i = 0; i < boxes.length; i++) for (let j = i + 1; j < boxes.length; j++) {
      if (boxes[i].id !== boxes[j].id && cut(boxes[i].r, boxes[j].r)) overlaps.push(`${boxes[i].name} × ${boxes[j].name}`);
    }
    const wide = document.documentElement.scrollWidth > window.innerWidth + 1;
    return { overlaps: [...new Set(overlaps)], far, wide, n: new Set(boxes.map((b) => b.id)).size / 2 };
  });
}

// Each view with the element that says its answer is on screen (the first of READY).
const VIEWS = Object.entries(READY).map(([view, parts]) => [view, parts[0]]);

for (const width of [360, 390, 1400]) {
  test(`no two labelled controls overlap and labels sit with their controls at ${width} px`, async () => {
    for (const [view, ready] of VIEWS) {
      const { page, context } = await openPage(browser, `${server.origin}/#view=${view}&lang=es`,
        { locale: 'es-CL', viewport: { width, height: 900 } });
      await page.locator(ready).first().waitFor({ timeout: 60000 });
      const { overlaps, far, wide, n } = await layoutProblems(page);
      assert.deepEqual(overlaps, [], `${view} at ${width}px`);
      assert.deepEqual(far, [], `${view} at ${width}px`);
      if (view !== 'data') assert.equal(wide, false, `${view} scrolls sideways at ${width}px`);
      if (view === 'map') assert.ok(n >= 6, `map labels checked: ${n}`);
      await context.close();
    }
  });
}

/** Fraction of pixels of two same-sized PNGs that differ by more than 48 in some channel,
 * computed in the browser on canvases (no image library needed). */
async function differingShare(page, a, b) {
  return page.evaluate(async ([a, b]) => {
    const load = (src) => new Promise((ok, ko) => { const i = new Image(); i.onload = () => ok(i); i.onerror = ko; i.src = src; });
    const [ia, ib] = await Promise.all([load(a), load(b)]);
    if (ia.width !== ib.width || ia.height !== ib.height) return 1;
    const px = (img) => { const c = document.createElement('canvas'); c.width = img.width; c.height = img.height;
      const g = c.getContext('2d'); g.drawImage(img, 0, 0); return g.getImageData(0, 0, c.width, c.height).data; };
    const [pa, pb] = [px(ia), px(ib)];
    let diff = 0;
    for (let k = 0; k < pa.length; k += 4) {
      if (Math.max(Math.abs(pa[k] - pb[k]), Math.abs(pa[k + 1] - pb[k + 1]), Math.abs(pa[k + 2] - pb[k + 2])) > 48) diff++;
    }
    return diff / (pa.length / 4);
  }, [a, b]);
}

for (const [width, height] of [[390, 844], [1400, 1000]]) {
  test(`the Findings view at ${width}×${height} matches its reference screenshot`, async () => {
    const { page, context } = await openPage(browser, `${server.origin}/#view=findings&lang=es`,
      { locale: 'es-CL', viewport: { width, height } });
    await page.addStyleTag({ content: PIN });
    await page.locator(READY.findings[0]).waitFor({ timeout: 60000 });
    await page.evaluate(() => document.fonts.ready);
    const shot = await page.screenshot({ animations: 'disabled' });
    const file = path.join(SHOTS, `findings-${width}x${height}.png`);
    if (process.env.UPDATE_EXPECT === '1' || !fs.existsSync(file)) {
      fs.writeFileSync(file, shot);
      if (process.env.UPDATE_EXPECT !== '1') assert.fail(`no reference yet: wrote ${file}; check it and commit it`);
    }
    const reference = fs.readFileSync(file);
    const share = await differingShare(page,
      `data:image/png;base64,${shot.toString('base64')}`, `data:image/png;base64,${reference.toString('base64')}`);
    console.log(`findings ${width}×${height}: ${(share * 100).toFixed(3)}% of pixels differ`);
    assert.ok(share <= 0.005, `${(share * 100).toFixed(2)}% of pixels differ from ${file}`);
    await context.close();
  });
}
