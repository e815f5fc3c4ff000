// The Findings view: the five questions' headlines and charts, the flagged note, the options,
// the links to the detailed views, the report and figure downloads and the shown command.
import { ViewPage, downloadFile } from '../views.mjs';

export class FindingsPage extends ViewPage {
  static VIEW = 'findings';

  /** The Findings section (its heading, its questions). */
  section() { return this.testid('findings'); }

  /** The answers, one per question, in document order. */
  questions() { return this.page.locator('[data-testid="findings"] [data-question]'); }

  /** The answer to question `q` (study, rates, inequality, health-income, models, where). */
  question(q) { return this.page.locator(`[data-testid="findings"] [data-question="${q}"]`); }

  /** The "How was it computed?" fold under the answer to `q`. */
  method(q) { return this.page.locator(`[data-testid="findings"] [data-question="${q}"] [data-testid="finding-method"]`); }

  /** The text of the answer to `q` a reader reads without opening its "How was it computed?". */
  answerOutsideMethod(q) {
    return this.question(q).evaluate((article) => {
      const copy = article.cloneNode(true);
      copy.querySelectorAll('[data-testid="finding-method"], svg').forEach((e) => e.remove());
      return copy.textContent.replace(/\s+/g, ' ').trim();
    });
  }

  /** The headline sentence of question `q`. */
  headline(q) { return this.page.locator(`[data-testid="findings"] [data-question="${q}"] [data-testid="finding-headline"]`); }

  /** The headline of question `q`, trimmed. */
  async headlineText(q) { return (await this.headline(q).textContent()).trim(); }

  /** Waits until the headline of question `q` exists and differs from `before`. */
  async waitForHeadlineOtherThan(q, before) {
    await this.page.waitForFunction(([selector, t]) => {
      const el = document.querySelector(selector);
      return el && el.textContent.trim() !== t;
    }, [`[data-question="${q}"] [data-testid="finding-headline"]`, before]);
  }

  /** The period button: `all` (every year of the data) or `study` (the reference study's). */
  periodButton(which) { return this.testid(`findings-period-${which}`); }

  /** The answers' charts. */
  charts() { return this.page.locator('[data-testid="findings"] [data-question] svg'); }

  /** The note on the flagged rows left out. */
  flaggedNote() { return this.testid('findings-flagged-note'); }

  /** Whether the options come after the last answer ("where") in the document. */
  optionsFollowAnswers() {
    return this.page.evaluate(() => Boolean(document.querySelector('[data-question="where"]')
      .compareDocumentPosition(document.querySelector('[data-testid="findings-options"]')) & Node.DOCUMENT_POSITION_FOLLOWING));
  }

  /** Clicks the link of question `q` to its detailed view. */
  async openDetail(q) { await this.testid(`finding-link-${q}`).click(); }

  /** The checkbox that includes the flagged rows (the first one). */
  includeFlagged() { return this.testid('include-flagged').first(); }

  /** The shown `imr findings` command. */
  commandLine() { return this.testid('findings-command'); }

  /** The words of the shown `imr findings` command. */
  commandWords() { return this.command('findings-command'); }

  /** The file of the report download (strictly one button). */
  downloadReport() { return downloadFile(this.page, this.testid('findings-report')); }

  /** The file of question `q`'s embeddable figure (strictly one button). */
  downloadEmbed(q) { return downloadFile(this.page, this.testid(`finding-embed-${q}`)); }
}
