// The microdata reader of the Data view: the health ministry's deaths file (and a one-row-per-
// birth file) chosen, read by the page's worker with a progress bar and a Cancel button, the
// rows accounted for by kind, the breakdowns, the counts' download and the shown command.
import { ViewPage, downloadFile } from '../views.mjs';

export class MicrodataPage extends ViewPage {
  static VIEW = 'data';

  /** Sets the deaths file (a path or a Playwright file payload). */
  async chooseDeaths(file) { await this.testid('microdata-deaths-file').setInputFiles(file); }

  /** What the reader says of the chosen deaths file. */
  deathsChosen() { return this.testid('microdata-deaths-chosen'); }

  /** Sets the one-row-per-birth file. */
  async chooseBirths(file) { await this.testid('microdata-births-file').setInputFiles(file); }

  /** The column choices of the births file (shown once it is read). */
  birthsColumns() { return this.testid('microdata-births-columns'); }

  /** A breakdown checkbox (`neonatal`, `cause`). */
  breakdown(name) { return this.testid(`microdata-${name}`); }

  /** The start button. */
  startButton() { return this.testid('microdata-start'); }

  /** Starts the reader on the chosen files. */
  async start() { await this.startButton().click(); }

  /** The progress bar. */
  progress() { return this.testid('microdata-progress'); }

  /** Starts recording every value the progress bar takes (it may be on screen only briefly). */
  async watchProgress() {
    await this.page.evaluate(() => {
      window.__progress = [];
      new MutationObserver(() => {
        const bar = document.querySelector('[data-testid=microdata-progress]');
        if (bar) window.__progress.push([Number(bar.value), Number(bar.max)]);
      }).observe(document.body, { subtree: true, childList: true, attributes: true });
    });
  }

  /** The progress bar's values since `watchProgress`: [value, max] pairs. */
  progressSeen() { return this.page.evaluate(() => window.__progress); }

  /** Cancels a run. */
  async cancel() { await this.testid('microdata-cancel').click(); }

  /** What the page says of a cancelled run. */
  cancelled() { return this.testid('microdata-cancelled'); }

  /** The result (its attributes: bytes, elapsed ms). */
  result() { return this.testid('microdata-result'); }

  /** The rows accounted for in the `kind` file (deaths, births), as data-rows-* attributes and reasons. */
  summary(kind) { return this.testid(`microdata-summary-${kind}`); }

  /** The reader's error. */
  error() { return this.testid('microdata-error'); }

  /** The `imr microdata` command shown. */
  commandLine() { return this.testid('microdata-command'); }

  /** The shown command, trimmed. */
  async commandText() { return (await this.commandLine().textContent()).trim(); }

  /** The file of the counts' download. */
  downloadCounts() { return downloadFile(this.page, this.testid('microdata-download')); }
}
