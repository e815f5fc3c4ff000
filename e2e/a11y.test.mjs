// Accessibility: axe-core (from tools/node) scans every view; no serious or critical violation.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { startServer, launch, openPage, injectAxe } from './harness.mjs';

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

for (const [tab, ready] of [
  ['tab-data', '[data-testid="rates-table"]'],
  ['tab-inequality', '[data-testid="inequality-table"]'],
  ['tab-models', '[data-testid="coef-table"]'],
  ['tab-map', 'svg[data-testid="choropleth"]'],
]) {
  test(`the ${tab.slice(4)} view has no serious accessibility violation`, async () => {
    const { page } = await openPage(browser, server.origin + '/');
    await page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
    await page.getByTestId(tab).click();
    await page.locator(ready).first().waitFor({ timeout: 60000 });
    assert.deepEqual(await seriousViolations(page), []);
  });
}

test('every control is reachable by keyboard with a visible focus', async () => {
  const { page } = await openPage(browser, server.origin + '/');
  await page.getByTestId('rows-read').filter({ hasText: '1725' }).waitFor();
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
