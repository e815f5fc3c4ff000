// The Map view: the choropleth's communes and legend, the controls (year, smoothing, contiguity,
// classes, region, LISA, flagged rows), the tooltip, the funnel plot, the table, the methods'
// disclosure, the downloads and the shown `imr map` command.
import { ViewPage } from '../views.mjs';

const PATHS = 'svg[data-testid="choropleth"] path[data-code]';
const LEGEND_ROWS = '[data-testid="map-legend"] [data-legend-class]';

export class MapPage extends ViewPage {
  static VIEW = 'map';

  /** The view's error (unreadable custom breaks…). */
  error() { return this.testid('map-error'); }

  /** Uploads a boundary file (a path or a Playwright file payload). */
  async uploadBoundaries(file) { await this.testid('geometry-input').setInputFiles(file); }

  /** Names the boundary layer's property that holds the area code (GeoDa too asks for the key). */
  async setCodeProperty(name) {
    await this.testid('geometry-code-property').fill(name);
    await this.testid('geometry-code-property').dispatchEvent('change');
  }

  /** Waits until `count` areas are drawn on the choropleth. */
  async waitForCommuneCount(count) {
    await this.page.waitForFunction(([selector, n]) => document.querySelectorAll(selector).length === n, [PATHS, count]);
  }

  /** The note that the page chose the code property itself (the typed one matched nothing). */
  codePropertyChosen() { return this.testid('geometry-code-chosen'); }

  /** The code property field's value. */
  codeProperty() { return this.testid('geometry-code-property').inputValue(); }

  /** What the view says of the boundary file (read, or why not). */
  boundaryStatus() { return this.testid('geometry-status'); }

  /** The path of the commune `code` on the choropleth. */
  commune(code) { return this.page.locator(`svg[data-testid="choropleth"] path[data-code="${code}"]`); }

  /** The choropleth (its viewBox is the zoom). */
  choropleth() { return this.testid('choropleth'); }

  /** The choropleth's SVG element. */
  choroplethSvg() { return this.page.locator('svg[data-testid="choropleth"]'); }

  /** The choropleth's commune paths. */
  communes() { return this.page.locator(PATHS); }

  /** Each commune path as `code=value`, in document order. */
  values() { return this.page.$$eval(PATHS, (ps) => ps.map((p) => `${p.dataset.code}=${p.dataset.value}`)); }

  /** Each commune path's class (a number, "none" or "flagged"), in document order. */
  classes() { return this.page.$$eval(PATHS, (ps) => ps.map((p) => p.dataset.class)); }

  /** Waits until some commune's `code=value` differs from `before` (a `values()` result). */
  async waitForValuesOtherThan(before) {
    await this.page.waitForFunction(([selector, b]) => [...document.querySelectorAll(selector)]
      .some((p, i) => `${p.dataset.code}=${p.dataset.value}` !== b[i]), [PATHS, before]);
  }

  /** The legend. */
  legend() { return this.testid('map-legend'); }

  /** The legend's row of class `name` (a number, "none" or "flagged"). */
  legendRow(name) { return this.legend().locator(`[data-legend-class="${name}"]`); }

  /** The legend's rows. */
  legendRows() { return this.legend().locator('[data-legend-class]'); }

  /** Waits until the legend has `count` rows besides the flagged one. */
  async waitForLegendRowsBesidesFlagged(count) {
    await this.page.waitForFunction(([selector, count]) => document.querySelectorAll(selector).length === count,
      [`${LEGEND_ROWS}:not([data-legend-class="flagged"])`, count]);
  }

  /** Waits until the legend's text matches `pattern` (or, with `matches` false, no longer does). */
  async waitForLegendText(pattern, matches = true) {
    await this.page.waitForFunction(([selector, source, flags, matches]) => new RegExp(source, flags).test(
      [...document.querySelectorAll(selector)].map((l) => l.textContent).join(' ')) === matches,
    [LEGEND_ROWS, pattern.source, pattern.flags, matches]);
  }

  /** The tooltip of the hovered or focused commune. */
  tooltip() { return this.testid('map-tooltip'); }

  /** The year choice's options. */
  yearOptions() { return this.testid('year-select').locator('option'); }

  /** Waits until the year choice's value is `year`. */
  async waitForYear(year) {
    await this.page.waitForFunction((year) => document.querySelector('[data-testid="year-select"]')?.value === year, year);
  }

  /** Chooses the year shown. */
  async chooseYear(year) { await this.testid('year-select').selectOption(year); }

  /** The year written on the map. */
  yearLabel() { return this.testid('map-year-label'); }

  /** The time the last year switch took. */
  switchTime() { return this.testid('switch-time'); }

  /** Chooses the smoothing (raw, global-eb, spatial-eb). */
  async chooseSmoothing(value) { await this.testid('smooth-select').selectOption(value); }

  /** Chooses the neighbours of spatial smoothing (queen, rook). */
  async chooseContiguity(value) { await this.testid('contiguity-select').selectOption(value); }

  /** Chooses the classification (quantile, box…). */
  async chooseClassification(value) { await this.testid('classify-select').selectOption(value); }

  /** Zooms to a region by its code. */
  async chooseRegion(code) { await this.testid('region-select').selectOption(code); }

  /** Clicks the zoom reset. */
  async resetZoom() { await this.testid('zoom-reset').click(); }

  /** The LISA cluster map's checkbox. */
  lisaToggle() { return this.testid('lisa-toggle'); }

  /** The checkbox that includes the flagged rows. */
  includeFlagged() { return this.testid('include-flagged'); }

  /** The note on the flagged rows. */
  flaggedNote() { return this.testid('map-flagged-note'); }

  /** The list of the flagged communes left out. */
  flaggedList() { return this.testid('map-flagged-list'); }

  /** The checkbox that computes Moran's I. */
  moranToggle() { return this.page.locator('#map-moran'); }

  /** Moran's I. */
  moran() { return this.testid('moran'); }

  /** Waits until Moran's I's text differs from `before`. */
  async waitForMoranOtherThan(before) {
    await this.page.waitForFunction((before) => document.querySelector('[data-testid="moran"]')?.textContent !== before, before);
  }

  /** The funnel plot's point of commune `code`. */
  funnelPoint(code) { return this.page.locator(`[data-testid="funnel-box"] circle[data-code="${code}"]`); }

  /** Waits until the funnel plot's point of `code` has the radius `radius` (a CSS length). */
  async waitForFunnelRadius(code, radius) {
    await this.page.waitForFunction(([selector, radius]) => getComputedStyle(document.querySelector(selector)).r === radius,
      [`[data-testid="funnel-box"] circle[data-code="${code}"]`, radius]);
  }

  /** The sentence naming the selected commune. */
  selection() { return this.testid('map-selection'); }

  /** Clears the selected commune (the selection sentence's button). */
  async clearSelection() { await this.selection().getByRole('button').click(); }

  /** The `d` of the selected commune's outline (read at once, no wait). */
  selectedOutlinePath() { return this.page.$eval('[data-testid="map-selected"]', (p) => p.getAttribute('d')); }

  /** Opens (or closes) the table of rates. */
  async toggleTable() { await this.testid('map-table-toggle').click(); }

  /** The table's row of commune `code`. */
  tableRow(code) { return this.page.locator(`[data-testid="map-table"] tr[data-code="${code}"]`); }

  /** The table's body rows. */
  tableRows() { return this.page.locator('[data-testid="map-table"] tbody tr'); }

  /** The "How was it computed?" disclosure. */
  method() { return this.testid('map-method'); }

  /** The shown `imr map` command. */
  commandLine() { return this.testid('map-command'); }

  /** The words of the shown `imr map` command. */
  commandWords() { return this.command('map-command'); }

  /** The file of the SVG download. */
  downloadSvg() { return this.download('download-svg'); }

  /** The map's title on screen, trimmed. */
  async titleText() { return (await this.testid('map-title').textContent()).trim(); }

  /** The file of the PNG download. */
  downloadPng() { return this.download('download-png'); }

  /** The file of the CSV download. */
  downloadCsv() { return this.download('download-csv'); }

  /** The file of the funnel plot's download. */
  downloadFunnel() { return this.download('download-funnel'); }

  /** The boxes (viewport coordinates) of the map and of its legend. */
  mapAndLegendBoxes() {
    return this.page.evaluate(() => ({
      map: document.querySelector('svg[data-testid="choropleth"]').getBoundingClientRect().toJSON(),
      legend: document.querySelector('[data-testid="map-legend"]').getBoundingClientRect().toJSON(),
      legendRows: [...document.querySelectorAll('[data-testid="map-legend"] [data-legend-class]')].map((r) => r.getBoundingClientRect().toJSON()),
      window: { width: window.innerWidth, height: window.innerHeight },
    }));
  }

  /** The codes of the communes with a value whose box (viewport coordinates) meets the legend's,
   * and whether the legend is on the map or under it. */
  legendCovers() {
    return this.page.evaluate(() => {
      const svg = document.querySelector('svg[data-testid="choropleth"]');
      const m = svg.getBoundingClientRect();
      const l = document.querySelector('[data-testid="map-legend"]').getBoundingClientRect();
      const meets = (a, b) => a.left < b.right && b.left < a.right && a.top < b.bottom && b.top < a.bottom;
      const covered = [...svg.querySelectorAll('path[data-code]')]
        .filter((p) => p.getAttribute('data-value') && meets(p.getBoundingClientRect(), l))
        .map((p) => p.getAttribute('data-code'));
      return { covered, onMap: l.top < m.bottom - 1 };
    });
  }

  /** The insets' labels drawn (their text and box) and the map's box, in viewport coordinates. */
  insetLabels() {
    return this.page.evaluate(() => {
      const svg = document.querySelector('svg[data-testid="choropleth"]');
      const labels = [...svg.querySelectorAll(':scope > text')].filter((t) => t.textContent)
        .map((t) => ({ text: t.textContent, box: t.getBoundingClientRect().toJSON() }));
      return { labels, map: svg.getBoundingClientRect().toJSON() };
    });
  }

  /** The tooltip's box (viewport coordinates) and the window's size. */
  tooltipBox() {
    return this.page.evaluate(() => ({
      tooltip: document.querySelector('[data-testid="map-tooltip"]').getBoundingClientRect().toJSON(),
      window: { width: document.documentElement.clientWidth, height: document.documentElement.clientHeight },
    }));
  }

  /** Chooses a commune in the commune search (as picked from its list: "Santiago (13101)",
   * or a name or code typed). */
  async findCommune(text) {
    await this.testid('commune-search').fill(text);
    await this.testid('commune-search').dispatchEvent('change');
  }

  /** The commune search's field. */
  communeSearch() { return this.testid('commune-search'); }

  /** The choices the commune search offers. */
  communeChoices() { return this.page.locator('#map-find-list option').evaluateAll((os) => os.map((o) => o.value)); }

  /** What the search says when no commune has the name typed. */
  communeNotFound() { return this.testid('commune-not-found'); }

  /** Taps the commune `code` with one finger (a touch through the DevTools protocol, as a
   * touchscreen's: the page sees pointer events of type "touch"), at a point inside its path;
   * the map must have been opened with `hasTouch`. */
  async tapCommune(code) {
    await this.commune(code).scrollIntoViewIfNeeded();
    const point = await this.commune(code).evaluate((path) => {
      const r = path.getBoundingClientRect();
      for (let i = 1; i < 12; i++) for (let j = 1; j < 12; j++) {
        const [x, y] = [r.left + (r.width * i) / 12, r.top + (r.height * j) / 12];
        if (document.elementFromPoint(x, y) === path) return { x, y };
      }
      return null;
    });
    if (!point) throw new Error(`no visible point inside ${code}`);
    this.cdp ??= await this.context.newCDPSession(this.page);
    await this.cdp.send('Input.dispatchTouchEvent', { type: 'touchStart', touchPoints: [{ ...point, id: 1 }] });
    await this.cdp.send('Input.dispatchTouchEvent', { type: 'touchEnd', touchPoints: [] });
  }

  /** The code of the commune with a value drawn furthest right on the map (its right edge). */
  rightmostCommune() {
    return this.communes().evaluateAll((ps) => ps.filter((p) => p.dataset.value)
      .map((p) => [p.dataset.code, p.getBoundingClientRect()])
      // Big enough for a finger (a smaller one is zoomed to by a tap: src/pages/map/pan_zoom.rs).
      .filter(([, r]) => Math.max(r.width, r.height) >= 24)
      .sort((a, b) => b[1].right - a[1].right)[0][0]);
  }

  /** The box of the commune `code` on screen. */
  communeBox(code) { return this.commune(code).evaluate((p) => p.getBoundingClientRect().toJSON()); }

  /** The link that skips the communes' tab stops. */
  skipLink() { return this.testid('skip-map'); }

  /** The panel of the map's options. */
  optionsPanel() { return this.testid('map-options'); }
}
