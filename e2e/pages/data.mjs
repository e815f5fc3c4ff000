// The Data view: the upload, the counts of rows read, used and excluded, the rates table (search,
// sort), the national rates, the column roles, the excluded rows and the conflicts between files.
import { ViewPage, downloadFile } from '../views.mjs';

const RATES = '[data-testid="rates-table"]';

export class DataPage extends ViewPage {
  static VIEW = 'data';

  /** An error about the uploaded files: `kind` file (unreadable), panel (no usable panel) or upload (the background reader's). */
  error(kind) { return this.testid(`${kind}-error`); }

  /** The words of the shown `imr rates` command (see `command`). */
  ratesCommand() { return this.command('rates-command'); }

  /** The shown `imr rates` command's element. */
  ratesCommandLine() { return this.testid('rates-command'); }

  /** The texts of the options of a role's column select (`role` deaths, births…), the first select. */
  roleOptionTexts(role) { return this.testid(`role-${role}`).first().locator('option').allTextContents(); }

  /** Waits until the count of `kind` (read, used, excluded) is exactly `count` (not a number
   * that merely contains it: `2` must not match the bundled data's 1725 before an upload lands).
   * The count is read as a plain number (its `data-count`: the text is in the page's number
   * format, "1.725" or "1,725"). */
  async waitForRowCount(kind, count, options = {}) {
    await this.page.locator(`[data-testid="rows-${kind}"][data-count="${count}"]`).waitFor(options);
  }

  /** Waits until the count of rows `kind` (read, used, excluded) is `text` (a plain number) (with
   * `equal` false: until it is anything else). */
  async waitForRowCountText(kind, text, equal = true) {
    await this.page.waitForFunction(([id, text, equal]) => (document.querySelector(`[data-testid=${id}]`)?.dataset.count === text) === equal,
      [`rows-${kind}`, text, equal]);
  }

  /** Starts recording whether the background upload's progress bar is ever shown (a fast parse may show it only briefly). */
  async watchUploadProgress() {
    await this.page.evaluate(() => {
      window.__progressSeen = false;
      const seen = () => { if (document.querySelector('[data-testid=upload-progress]')) window.__progressSeen = true; };
      new MutationObserver(seen).observe(document.body, { childList: true, subtree: true });
      seen();
    });
  }

  /** Whether the upload's progress bar was shown since `watchUploadProgress`. */
  uploadProgressSeen() { return this.page.evaluate(() => window.__progressSeen); }

  /** The background upload's `state` element: progress, running, done or cancelled. */
  uploadStatus(state) { return this.testid(`upload-${state}`); }

  /** The text of the upload's `state` element, trimmed. */
  async uploadStatusText(state) { return (await this.uploadStatus(state).textContent()).trim(); }

  /** Cancels the background upload. */
  async cancelUpload() { await this.testid('upload-cancel').click(); }

  /** The total of physical lines of the files read, as a plain number. */
  async physicalLinesText() { return this.testid('physical-lines').getAttribute('data-count'); }

  /** The total of physical lines as the page writes it (its number format). */
  async physicalLinesShown() { return (await this.testid('physical-lines').textContent()).trim(); }

  /** The line accounting of one file (its attributes: lines, other lines). */
  lineAccounting(file) { return this.testid('line-accounting').locator(`li[data-file="${file}"]`); }

  /** The label of the column chosen for a role (the first select). */
  roleChosen(role) { return this.testid(`role-${role}`).first().locator('option:checked').textContent(); }

  /** The note on rows of one file joined to another's. */
  mergedNote() { return this.testid('merged-note'); }

  /** The rates table. */
  ratesTable() { return this.testid('rates-table'); }

  /** The summary of the files read (delimiter, encoding, metadata lines skipped). */
  fileSummary() { return this.testid('file-summary'); }

  /** The file of the rates table's CSV download (see `downloadFile`), kept in `saveIn` when given. */
  downloadRates(saveIn = null) { return this.download('rates-csv-download', saveIn); }

  /** How many of the rates table's body rows are on screen (not collapsed). */
  visibleRateRows() {
    return this.page.$$eval(`${RATES} tbody tr`, (rows) => rows.filter((r) => r.getClientRects().length > 0).length);
  }

  /** The note under the open rates table on how many of its rows it shows. */
  ratesShownNote() { return this.testid('rates-shown'); }

  /** The button that opens (or folds) the rates table. */
  ratesToggle() { return this.testid('rates-toggle'); }

  /** The rates table's deaths cells (the first rows'): their text and title. */
  deathCells() {
    return this.page.$$eval(`${RATES} tbody tr td[data-field="deaths"]`, (cells) => cells.slice(0, 50)
      .map((c) => ({ text: c.textContent.trim(), title: c.getAttribute('title') ?? '' })));
  }

  /** The rates table's deaths column header, trimmed. */
  async deathsHeader() {
    return (await this.page.locator(`${RATES} thead th`).nth(4).textContent()).trim();
  }

  /** The note that the bundled data are shown. */
  bundledNote() { return this.testid('bundled-note'); }

  /** From the next load on, the page has no IndexedDB (as a browser that keeps nothing for a
   * page: some browsers for a file opened from disk, private windows). */
  async withoutStorage() {
    await this.context.addInitScript(() => { Object.defineProperty(window, 'indexedDB', { value: undefined }); });
  }

  /** Uploads files (paths or Playwright file payloads) through the file input. */
  async upload(files) { await this.testid('file-input').setInputFiles(files); }

  /** The count of rows `kind` (read, used, excluded). */
  rowCount(kind) { return this.testid(`rows-${kind}`); }

  /** The count of rows `kind` (read, used, excluded) as a plain number ("1725"). */
  async rowCountText(kind) { return this.rowCount(kind).first().getAttribute('data-count'); }

  /** The count of rows `kind` as the page writes it (its number format: "1.725", "1,725"). */
  async rowCountShown(kind) { return (await this.rowCount(kind).first().textContent()).trim(); }

  /** The rates table's row of `entity` in `time` (every year's row without `time`). */
  rateRow(entity, time) { return this.page.locator(`${RATES} tr[data-entity="${entity}"]${time === undefined ? '' : `[data-time="${time}"]`}`); }

  /** The rates table's cell of `field` (rate, ci_low, ci_high, births…) in the row of `entity` in `time`. */
  rateCell(entity, time, field) { return this.page.locator(`${RATES} tr[data-entity="${entity}"][data-time="${time}"] [data-field="${field}"]`); }

  /** The rates table's body rows. */
  rateRows() { return this.page.locator(`${RATES} tbody tr`); }

  /** Waits until the cell of `field` of `entity` in `time` reads `text` (trimmed). */
  async waitForRateText(entity, time, field, text) {
    await this.page.waitForFunction(([selector, text]) => document.querySelector(selector)?.textContent.trim() === text,
      [`${RATES} tr[data-entity="${entity}"][data-time="${time}"] [data-field="${field}"]`, text]);
  }

  /** Waits until the rates table has `count` body rows. */
  async waitForRateRowCount(count) {
    await this.page.waitForFunction(([selector, count]) => document.querySelectorAll(selector).length === count, [`${RATES} tbody tr`, count]);
  }

  /** Types into the rates table's search field. */
  async search(text) { await this.testid('rates-search').fill(text); }

  /** Clicks the rates table's sort button named `label` (e.g. "Rate ‰"). */
  async sortBy(label) { await this.page.getByRole('button', { name: label }).click(); }

  /** The national rate's cell of `time`. */
  nationalRate(time) { return this.page.locator(`[data-testid="national-rate"] tr[data-time="${time}"] [data-field="rate"]`); }

  /** The national rates' rows, one per year with data (a year without data has a row of its own,
   * `data-missing`: [`missingYearRows`]). */
  nationalRows() { return this.page.locator('[data-testid="national-rate"] tr[data-time]:not([data-missing])'); }

  /** The national rates' rows of the years without data between the first and the last. */
  missingYearRows() { return this.page.locator('[data-testid="national-rate"] tr[data-missing]'); }

  /** The national (or loaded communes') rate table's heading and the note of what it pools. */
  nationalHeading() { return this.testid('national-rate-heading'); }
  nationalNote() { return this.testid('national-rate-note'); }

  /** Chooses the column of a role (births, deaths…) by the option `option` (`{ label }` or a value). */
  async chooseRole(role, option) { await this.testid(`role-${role}`).selectOption(option); }

  /** The error of the panel (the files' roles or rows cannot make a panel). */
  panelError() { return this.testid('panel-error'); }

  /** The field "Year of files without a year column". */
  timeValue() { return this.testid('time-value'); }

  /** Types `text` in the year field and commits it (Enter), as a reader does. */
  async giveTimeValue(text) {
    await this.timeValue().fill(text);
    await this.timeValue().press('Enter');
  }

  /** The year field's "not a year" message. */
  timeValueInvalid() { return this.testid('time-value-invalid'); }

  /** The note naming the files read as rows of the year given. */
  timeValueApplied() { return this.testid('time-value-applied'); }

  /** The engine's sentence on which year's births the loaded rates fit. */
  rateLagTest() { return this.testid('rate-lag-test'); }

  /** Each rate year and the births it fits, in the lag test's "How was it computed?" (opened). */
  async rateLagYearsText() {
    await this.testid('rate-lag-method').locator('summary').click();
    return (await this.testid('rate-lag-years').textContent()).trim();
  }

  /** The choice "The rates describe the year" (its value is the lag in years). */
  rateLag() { return this.testid('rate-lag'); }

  /** The text of the chosen option of "The rates describe the year", trimmed. */
  async rateLagChosen() { return (await this.rateLag().locator('option:checked').textContent()).trim(); }

  /** Chooses the rates' lag, in years. */
  async chooseRateLag(years) { await this.rateLag().selectOption(String(years)); }

  /** The button that takes the lag the test found. */
  rateLagAccept() { return this.testid('rate-lag-accept'); }

  /** The note on what the lag applied moved. */
  rateLagApplied() { return this.testid('rate-lag-applied'); }

  /** The select of a column role (the first file's). */
  roleSelect(role) { return this.testid(`role-${role}`).first(); }

  /** The worker's and the decoding's milliseconds of the last upload (read + parse + encode in
   * the worker; the table turned back into Rust on the page's thread), or {} before one. */
  async uploadTimings() {
    const done = this.uploadStatus('done');
    if (await done.count() === 0) return {};
    const ms = async (name) => Number(await done.first().getAttribute(name));
    return { worker_ms: await ms('data-worker-ms'), decode_ms: await ms('data-decode-ms') };
  }

  /** The note that the bundled data is shown. */
  bundledNote() { return this.testid('bundled-note'); }

  /** The note that the intervals are approximate (derived deaths). */
  approximateNote() { return this.testid('approximate-note'); }

  /** The note on counts known within a range (in the rates' "How was it computed?"). */
  rangeNote() { return this.testid('rates-range-note'); }

  /** The text of the data sources, trimmed. */
  async sourcesText() { return (await this.testid('data-sources').first().textContent()).trim(); }

  /** The excluded rows' items. */
  excludedItems() { return this.testid('excluded-list').locator('li'); }

  /** The excluded rows' item of input line `line`. */
  excludedLine(line) { return this.testid('excluded-list').locator(`li[data-line="${line}"]`); }

  /** The disclosure of the cells that differ between joined files. */
  conflicts() { return this.testid('conflicts'); }

  /** The file of the "save analysis" button (the first one), kept in the folder `saveIn`. */
  saveAnalysis(saveIn) { return downloadFile(this.page, 'save-analysis', saveIn); }

  /** The excluded rows' list. */
  excludedList() { return this.testid('excluded-list'); }

  /** The summary of the rows flagged as implausible. */
  flaggedSummary() { return this.testid('flagged-summary'); }

  /** The rates table's body rows that are a commune's (`data-entity`). */
  entityRows() { return this.page.locator(`${RATES} tbody tr[data-entity]`); }

  /** The rates table's search field. */
  searchField() { return this.testid('rates-search'); }

  /** Clicks the rates table's own sort button named exactly `label` (e.g. "Births"). */
  async sortTableBy(label) { await this.testid('rates-table').getByRole('button', { name: label, exact: true }).click(); }

  /** Pastes `text` into the paste area (as the browser's paste does: one input) and reads it. */
  async pasteTable(text) {
    const area = this.testid('paste-area');
    await area.focus();
    await this.page.evaluate((text) => document.execCommand('insertText', false, text), text);
    await this.testid('paste-read').click();
  }

  /** The paste area's text. */
  pasteAreaText() { return this.testid('paste-area').inputValue(); }

  /** The names of the readable files in the list of files and columns. */
  fileNames() { return this.testid('file-name').allTextContents(); }

  /** Waits until the list of files and columns names exactly `names` (in order). */
  async waitForFileNames(names) {
    await this.page.waitForFunction((names) => JSON.stringify([...document.querySelectorAll('[data-testid=file-name]')]
      .map((e) => e.textContent.trim())) === JSON.stringify(names), names);
  }

  /** The item of file `name` in the list of files and columns. */
  fileItem(name) { return this.page.locator(`[data-testid="file"][data-file="${name}"]`); }

  /** Removes file `name` with its own button. */
  async removeFile(name) { await this.fileItem(name).getByTestId('remove-file').click(); }

  /** The field "Year of its rows" of file `name`. */
  fileYear(name) { return this.fileItem(name).getByTestId('file-year'); }

  /** Where the year of file `name` comes from (given, its name, every file's, none), trimmed. */
  async fileYearSource(name) { return (await this.fileItem(name).getByTestId('file-year-source').textContent()).trim(); }

  /** Types `text` in the year of file `name` and commits it (Enter). */
  async giveFileYear(name, text) {
    await this.fileYear(name).fill(text);
    await this.fileYear(name).press('Enter');
  }

  /** The "not a year" message of file `name`'s year. */
  fileYearInvalid(name) { return this.fileItem(name).getByTestId('file-year-invalid'); }

  /** Waits until the national rates have exactly the rows of `years` (in order). */
  async waitForNationalYears(years) {
    await this.page.waitForFunction((years) => JSON.stringify([...document.querySelectorAll('[data-testid="national-rate"] tr[data-time]:not([data-missing])')]
      .map((r) => r.dataset.time)) === JSON.stringify(years.map(String)), years);
  }

  /** The sheet picker of workbook `file` (shown when it has several sheets). */
  sheetPicker(file) { return this.page.locator(`[data-testid="sheet-picker"][data-file="${file}"]`); }

  /** The sheets workbook `file`'s picker offers. */
  sheetOptions(file) { return this.sheetPicker(file).getByTestId('sheet-select').locator('option').allTextContents(); }

  /** Reads sheet `sheet` of workbook `file`. */
  async readSheet(file, sheet) {
    await this.sheetPicker(file).getByTestId('sheet-select').selectOption(sheet);
    await this.sheetPicker(file).getByTestId('sheet-read-one').click();
  }

  /** Reads every sheet of workbook `file`, as `imr --sheets all`. */
  async readAllSheets(file) { await this.sheetPicker(file).getByTestId('sheet-read-all').click(); }

  /** The list of the sheets left out by "every sheet". */
  sheetsLeftOut() { return this.testid('sheets-left-out'); }

  /** The report's codes read in the system of their year: the years (`li[data-time]`). */
  codeSystems() { return this.testid('code-systems').locator('li'); }

  /** The report's codes recoded to 2018's (`li[data-code][data-code-2018][data-time]`). */
  historicalRecodings() { return this.testid('historical-recodings').locator('li'); }

  /** The summary line of the codes read in the system of their year. */
  async historicalCodesSummary() { return (await this.testid('historical-codes').locator('summary').textContent()).trim(); }
}
