// The Inequality view: the observed measures per year, the adjusted (true-rate) section led by
// the answer sentence, the charts, the correlation with a commune characteristic and the command.
import { ViewPage, downloadFile } from '../views.mjs';

const TABLE = '[data-testid="inequality-table"]';

export class InequalityPage extends ViewPage {
  static VIEW = 'inequality';

  /** The observed table's cell of `measure` (gini, theil_between…) in the row of `time`. */
  measureCell(time, measure) { return this.page.locator(`${TABLE} tr[data-time="${time}"] td[data-measure="${measure}"]`); }

  /** The observed table's cells of `measure`, every year. */
  measureCells(measure) { return this.page.locator(`${TABLE} td[data-measure="${measure}"]`); }

  /** The observed table's row of `time`. */
  row(time) { return this.page.locator(`${TABLE} tr[data-time="${time}"]`); }

  /** The observed table. */
  table() { return this.testid('inequality-table'); }

  /** The table of the trends of every measure. */
  trendTable() { return this.testid('inequality-trend'); }

  /** The observed table's body rows. */
  rows() { return this.page.locator(`${TABLE} tbody tr`); }

  /** Waits until the text of a measure cell's `part` (".value", ".bias-corrected") matches `pattern`. */
  async waitForCellText(time, measure, part, pattern) {
    await this.page.waitForFunction(([selector, source, flags]) => new RegExp(source, flags)
      .test(document.querySelector(selector)?.textContent.trim()),
    [`${TABLE} tr[data-time="${time}"] td[data-measure="${measure}"] ${part}`, pattern.source, pattern.flags]);
  }

  /** The ⚠ flag of an inflated (bias-corrected) measure cell. */
  biasFlag(time, measure) { return this.measureCell(time, measure).getByTestId('ineq-bias-flag'); }

  /** The shown `imr inequality` command, trimmed. */
  async commandText() { return (await this.testid('ineq-command').textContent()).trim(); }

  /** The shown command of the correlation panel (`--against …`), trimmed. */
  async correlationCommandText() { return (await this.testid('ineq-correlation-command').textContent()).trim(); }

  /** The note on the bootstrap (replicates, interval). */
  bootstrapNote() { return this.testid('ineq-bootstrap-note'); }

  /** The fold under the answer: what the answer measures and how its intervals are made. */
  method() { return this.testid('ineq-method'); }

  /** The note that the intervals are approximate. */
  approximateNote() { return this.testid('ineq-approximate'); }

  /** The warning that an observed measure is inflated by random variation. */
  biasWarning() { return this.testid('ineq-bias-warning'); }

  /** Sets one end of the births-ratio range (`low` or `high`), in percent of the births given, as a reader types it. */
  async setBirthsRatio(end, percent) { await this.testid(`ineq-births-ratio-${end}`).fill(String(percent)); await this.testid(`ineq-births-ratio-${end}`).press('Enter'); }

  /** The value an end of the births-ratio range shows (percent). */
  async birthsRatio(end) { return this.testid(`ineq-births-ratio-${end}`).inputValue(); }

  /** The births-ratio field of `end` (`low` or `high`): absent where deaths are counted. */
  birthsRatioField(end) { return this.testid(`ineq-births-ratio-${end}`); }

  /** The note that a births-ratio range was not applied. */
  birthsRatioRefused() { return this.testid('ineq-births-ratio-refused'); }

  /** Waits until the shown command matches `pattern` (with `matches` false: no longer matches). */
  async waitForCommand(pattern, matches = true) {
    await this.page.waitForFunction(([source, matches]) => new RegExp(source).test(document.querySelector('[data-testid="ineq-command"]')?.textContent ?? '') === matches,
      [pattern.source, matches]);
  }

  /** The answer sentence leading the view. */
  answer() { return this.testid('ineq-answer'); }

  /** The adjusted (true-rate) section. */
  adjustedSection() { return this.testid('ineq-adjusted'); }

  /** The adjusted section's chart. */
  adjustedChart() { return this.testid('ineq-adjusted-chart'); }

  /** The note that the adjusted intervals are approximate. */
  adjustedApproximateNote() { return this.testid('ineq-adjusted-approximate'); }

  /** The "How was it computed?" disclosure of the adjusted measures. */
  adjustedMethod() { return this.testid('ineq-adjusted-method'); }

  /** The adjusted table's row of `time`; with `repeatOf`, only if it is marked as a repeat of that year. */
  adjustedRow(time, { repeatOf } = {}) {
    const repeat = repeatOf === undefined ? '' : `[data-repeat-of="${repeatOf}"]`;
    return this.page.locator(`[data-testid="adjusted-table"] tr[data-time="${time}"]${repeat}`);
  }

  /** The adjusted table's cell of `measure` in the row of `time`. */
  adjustedCell(time, measure) { return this.adjustedSection().locator(`[data-testid="adjusted-table"] tr[data-time="${time}"] td[data-adjusted="${measure}"]`); }

  /** The adjusted table's excess-variation test cell in the row of `time`. */
  excessVariationCell(time) { return this.adjustedSection().locator(`[data-testid="adjusted-table"] tr[data-time="${time}"] td[data-field="excess_variation"]`); }

  /** The adjusted trend's row of `measure`. */
  adjustedTrend(measure) { return this.adjustedSection().locator(`[data-testid="adjusted-trend"] tr[data-adjusted="${measure}"]`); }

  /** A chart's box: `name` is line, lorenz, box or panel. */
  chart(name) { return this.testid(`ineq-${name}-chart`); }

  /** Chooses the measure of the line chart (gini, theil_t…). */
  async chooseMeasure(measure) { await this.testid('ineq-measure').selectOption(measure); }

  /** Waits until the line chart's title matches `pattern`. */
  async waitForLineChartTitle(pattern) {
    await this.page.waitForFunction(([source, flags]) => new RegExp(source, flags).test(
      document.querySelector('[data-testid="ineq-line-chart"] svg > title')?.textContent || ''), [pattern.source, pattern.flags]);
  }

  /** The correlation sentence of the panel (observed and adjusted). */
  correlation() { return this.testid('ineq-correlation'); }

  /** The adjusted correlation leading the panel. */
  adjustedCorrelation() { return this.testid('ineq-correlation-adjusted'); }

  /** The observed correlation of the panel. */
  observedCorrelation() { return this.testid('ineq-correlation-observed'); }

  /** The note that the panel has few years. */
  fewYearsNote() { return this.testid('ineq-few-years'); }

  /** Whether part `a` precedes part `b` (answer, replicates, adjusted, correlation, adjustedCorrelation, against). */
  precedes(a, b) {
    const ids = { answer: 'ineq-answer', replicates: 'ineq-replicates', adjusted: 'ineq-adjusted', correlation: 'ineq-correlation',
      adjustedCorrelation: 'ineq-correlation-adjusted', against: 'ineq-of' };
    return this.page.evaluate(([a, b]) => {
      const [x, y] = [a, b].map((id) => document.querySelector(`[data-testid="${id}"]`));
      return Boolean(x.compareDocumentPosition(y) & Node.DOCUMENT_POSITION_FOLLOWING);
    }, [ids[a], ids[b]]);
  }

  /** The text of every note of the view's measures (areas, units, what is not available), one per line. */
  async notesText() { return (await this.testid('ineq-note').allTextContents()).join('\n'); }

  /** The title of a chart's SVG (`name` as in `chart`). */
  async chartTitle(name) { return this.chart(name).locator('svg > title').textContent(); }

  /** The listed rows not measured (flagged as implausible). */
  flaggedRows() { return this.testid('ineq-flagged-row'); }

  /** The note(s) on a repeated year. */
  repeatedNote() { return this.testid('repeated-note'); }

  /** The note that the bundled births are estimates. */
  bundledBirthsNote() { return this.testid('bundled-births-note'); }

  /** The checkbox that keeps repeated years in trends and correlations (the first one). */
  includeRepeatedYears() { return this.testid('include-repeated-years').first(); }

  /** The shown command that writes the file of download `name` (`desigualdad_lorenz-svg`…), trimmed. */
  async exportCommand(name) { return (await this.testid(`${name}-command`).textContent()).trim(); }

  /** Sets the controls given: `group`, `rank`, `measure`, `of`, `weight`, `panelMeasure` (select
   * values), `replicates`, `seed` (numbers, typed as a reader does) and `lorenz` ({year: ticked}). */
  async choose({ group, rank, replicates, seed, measure, lorenz = {}, of, weight, panelMeasure }) {
    const select = async (id, value) => { if (value !== undefined) await this.testid(id).selectOption(value); };
    const type = async (id, value) => {
      if (value === undefined) return;
      await this.testid(id).fill(String(value));
      await this.testid(id).dispatchEvent('change');
    };
    await select('ineq-group', group);
    await select('ineq-rank', rank);
    await type('ineq-replicates', replicates);
    await type('ineq-seed', seed);
    await select('ineq-measure', measure);
    for (const [year, on] of Object.entries(lorenz)) await this.testid(`ineq-lorenz-${year}`).setChecked(on);
    await select('ineq-of', of);
    await select('ineq-weight', weight);
    await select('ineq-panel-measure', panelMeasure);
  }

  /** Every control of the view: selects and number inputs by value, Lorenz checkboxes by state (keyed by test id). */
  controls() {
    return this.page.evaluate(() => {
      const out = {};
      for (const id of ['ineq-group', 'ineq-rank', 'ineq-replicates', 'ineq-seed', 'ineq-measure', 'ineq-of',
        'ineq-weight', 'ineq-panel-measure']) {
        out[id] = document.querySelector(`[data-testid="${id}"]`)?.value;
      }
      for (const box of document.querySelectorAll('input[type="checkbox"][data-testid^="ineq-lorenz-"]')) {
        out[box.dataset.testid] = box.checked;
      }
      return out;
    });
  }

  /** The numbers and texts the view shows for the analysis (values in the attributes, as computed). */
  shown() {
    return this.page.evaluate(() => {
      const text = (id) => document.querySelector(`[data-testid="${id}"]`)?.textContent.trim();
      const values = [...document.querySelectorAll('[data-testid="inequality-table"] td')]
        .map((td) => `${td.closest('tr').dataset.time} ${td.dataset.measure} ${td.dataset.value} ${td.textContent.trim()}`);
      const adjusted = [...document.querySelectorAll('[data-testid="adjusted-table"] td')]
        .map((td) => `${td.dataset.adjusted} ${td.dataset.value} ${td.dataset.ciLow} ${td.dataset.ciHigh}`);
      const chart = (id) => document.querySelector(`[data-testid="${id}"] svg > title`)?.textContent;
      return {
        values, adjusted,
        trend: text('inequality-trend'),
        command: text('ineq-command'),
        correlation: text('ineq-correlation'),
        adjustedCorrelation: document.querySelector('[data-testid="ineq-correlation-adjusted"]')?.dataset.r,
        line: chart('ineq-line-chart'), lorenz: chart('ineq-lorenz-chart'), panel: chart('ineq-panel-chart'),
      };
    });
  }

  /** Waits until the title of chart `name` (line, lorenz, box, panel) matches `pattern`. */
  async waitForChartTitle(name, pattern, options = {}) {
    await this.page.waitForFunction(([selector, source, flags]) => new RegExp(source, flags).test(
      document.querySelector(selector)?.textContent || ''), [`[data-testid="ineq-${name}-chart"] svg > title`, pattern.source, pattern.flags], options);
  }

  /** The file of a chart's download button (`desigualdad_lorenz-csv`…), strictly one button; see `downloadFile`. */
  downloadChart(name) { return downloadFile(this.page, this.testid(`${name}-download`)); }
}
