// The Models view: the choices (models, standard errors, regressors, absorbed effects, cluster),
// the coefficient table and plot, the diagnostics, the shown `imr fit` commands and the downloads.
import { ViewPage, chooseModels, downloadFile } from '../views.mjs';

const TABLE = '[data-testid="coef-table"]';
const COMMANDS = '[data-testid="imr-commands"] [data-command]';

export class ModelsPage extends ViewPage {
  static VIEW = 'models';

  /** Ticks exactly these models and regressors and picks the standard errors (see `chooseModels`). */
  async choose({ models, vcov, regressors }) { await chooseModels(this.page, { models, vcov, regressors }); }

  /** Ticks the checkbox of one model (twfe, re…). */
  async checkModel(model) { await this.testid(`model-${model}`).check(); }

  /** Unticks the checkbox of one model. */
  async uncheckModel(model) { await this.testid(`model-${model}`).uncheck(); }

  /** How many fits the view has computed since the page opened (the table's `data-fits-run`). */
  async fitsRun() { return Number(await this.coefTable().getAttribute('data-fits-run')); }

  /** Types the absorbed fixed effects (`codigo_comuna,region^anio`) and leaves the field. */
  async absorb(effects) {
    const field = this.testid('model-absorb');
    await field.fill(effects);
    await field.press('Enter');
    await field.blur();
  }

  /** Chooses the column the standard errors cluster by. */
  async chooseCluster(column) { await this.testid('model-cluster').selectOption(column); }

  /** The checkbox that shows the intervals' columns. */
  showCi() { return this.testid('show-ci'); }

  /** The coefficient table. */
  coefTable() { return this.testid('coef-table'); }

  /** The table's cell of `field` (estimate, std_error, conf_int) for `term` in `model`'s column. */
  coefCell(term, field, model) { return this.page.locator(`${TABLE} tr[data-term="${term}"] td[data-field="${field}"][data-model="${model}"]`); }

  /** The table's column heading of `model`. */
  modelHeading(model) { return this.page.locator(`${TABLE} th[data-model="${model}"]`); }

  /** The table's row heading of `term` (its words). */
  termHeading(term) { return this.page.locator(`${TABLE} tr[data-term="${term}"] th`); }

  /** The table's column headings, one per model. */
  modelHeadings() { return this.page.locator(`${TABLE} thead th[data-model]`); }

  /** The table's body rows, one per term. */
  coefRows() { return this.page.locator(`${TABLE} tbody tr`); }

  /** Waits until `term`'s estimate cell carries its value. */
  async waitForEstimate(term) {
    await this.page.waitForFunction((selector) => document.querySelector(selector)?.dataset.value,
      `${TABLE} tr[data-term="${term}"] td[data-field="estimate"]`);
  }

  /** Waits until a cell of `field` exists in `model`'s column. */
  async waitForColumn(field, model) {
    await this.page.waitForFunction((selector) => document.querySelector(selector),
      `${TABLE} td[data-field="${field}"][data-model="${model}"]`);
  }

  /** The diagnostics; with `model`, that model's article. */
  diagnostics(model) {
    return model === undefined ? this.testid('diagnostics') : this.page.locator(`[data-testid="diagnostics"] article[data-model="${model}"]`);
  }

  /** Waits until `count` models each have a column in the table and a shown command. */
  async waitForModelCount(count) {
    await this.page.waitForFunction(([n, commands, headings]) => document.querySelectorAll(commands).length === n
      && document.querySelectorAll(headings).length === n, [count, COMMANDS, `${TABLE} thead th[data-model]`]);
  }

  /** Opens the closed "How was it computed?" disclosure of the diagnostics, as a reader would. */
  async openMethod() { await this.testid('diagnostics-method').locator(':scope > summary').click(); }

  /** Why `model` could not be fitted (its item in the list of fits that failed). */
  fitError(model) { return this.page.locator(`[data-testid="fit-errors"] li[data-model="${model}"]`); }

  /** The coefficient plot. */
  coefPlot() { return this.testid('coef-plot'); }

  /** The plot's mark of `term` in `model`. */
  plotMark(term, model) { return this.page.locator(`[data-testid="coef-plot"] g[data-term="${term}"][data-model="${model}"]`); }

  /** The regressor checkboxes with their labels. */
  regressorChoices() { return this.testid('regressor-choices'); }

  /** The shown `imr fit` commands, one per model. */
  commands() { return this.page.locator(COMMANDS); }

  /** Waits until the first shown command includes `text`. */
  async waitForFirstCommandIncluding(text) {
    await this.page.waitForFunction(([selector, text]) => document.querySelector(selector)?.textContent.includes(text), [COMMANDS, text]);
  }

  /** Waits until every shown command includes `text`. */
  async waitForEveryCommandIncluding(text) {
    await this.page.waitForFunction(([selector, text]) => [...document.querySelectorAll(selector)]
      .every((c) => c.textContent.includes(text)), [COMMANDS, text]);
  }

  /** The file of download `name` (data, r, stata, latex, markdown, coef-csv; one button), kept in `saveIn`. */
  downloadTo(name, saveIn) { return downloadFile(this.page, this.testid(`download-${name}`), saveIn); }
}
