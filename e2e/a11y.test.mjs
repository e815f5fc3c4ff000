// Accessibility: axe-core (from tools/node) scans every view; no serious or critical violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, openPage, injectAxe } from './harness.mjs';
import { READY } from './views.mjs';
import { DataPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

async function seriousViolations(page) {
  await injectAxe(page);
  const result = await page.evaluate(async () => window.axe.run(document, { resultTypes: ['violations'] }));
  return result.violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.nodes.slice(0, 3).map((n) => n.target.join(' ')).join(' | ')}`);
}

// Each view reached as a reader does, by its tab from the Data view, once its results are on
// screen (every part of READY).
for (const view of ['data', 'inequality', 'models', 'map']) {
  test(`the ${view} view has no serious accessibility violation`, async () => {
    const data = DataPage.attach(await openPage(browser, server.origin + '/'));
    await data.waitForRowCount('read', 7245);
    await data.openTab(view);
    for (const selector of READY[view]) await data.page.locator(selector).first().waitFor({ timeout: 60000 });
    assert.deepEqual(await seriousViolations(data.page), []);
  });
}

test('every control is reachable by keyboard with a visible focus', async () => {
  const data = DataPage.attach(await openPage(browser, server.origin + '/'));
  const { page } = data;
  await data.waitForRowCount('read', 7245);
  const seen = new Set();
  for (let i = 0; i < 12; i++) {
    await page.keyboard.press('Tab');
    const focused = await page.evaluate(() => {
      const el = document.activeElement;
      const style = getComputedStyle(el);
      return { id: el.getAttribute('data-testid') || el.id || el.tagName, outline: style.outlineStyle };
    });
    seen.add(focused.id);
    assert.notEqual(focused.outline, 'none', `focus on ${focused.id} is not visible`);
  }
  assert.ok(seen.has('tab-data') && seen.has('file-input'), [...seen].join(', '));
});
