// INE's workbook of infant deaths by commune 2000–2015 (SAIP4026.xlsx), uploaded on the page as
// INE delivers it (issue 45's done-when): sixteen yearly sheets, each in the commune codes of its
// year (before and after the 2004 communes, the regions of 2007, 2010), read with "every sheet",
// give the infant deaths of every commune and year of the project's checked extract
// (crates/imr-cli/tests/data/ine_saip4026/, PROVENANCE.md and PROVENANCE-counts.md: the counts
// checked against INE's national totals). A commune not yet created in a year has no row there
// (its deaths are counted in its parent's). The births are 100,000 for each commune and year:
// only the deaths are compared. No request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { execFileSync } from 'node:child_process';
import { startServer, launch, outsideRequests, ROOT, cargoBinary } from './harness.mjs';
import { csvCells } from './views.mjs';
import { openView } from './pages/index.mjs';

const DATA = path.join(ROOT, 'crates', 'imr-cli', 'tests', 'data', 'ine_saip4026');
const BOOK = 'SAIP4026.xlsx';
const BIRTHS = 'nacimientos.csv';

let server, browser;
before(async () => {
  server = await startServer();
  browser = await launch();
});
after(async () => {
  await browser?.close();
  await server?.close();
});

/** The checked extract: `code,year` → [infant deaths (null where the commune did not exist
 * yet), note (`absent_in_source_table_set_0`: no row in INE's sheet, written 0)]. */
function extract() {
  const lines = fs.readFileSync(path.join(DATA, 'defunciones_comuna_residencia_2000_2015.csv'), 'utf8')
    .trim().split(/\r?\n/).slice(1);
  return new Map(lines.map((line) => {
    const [code, year, deaths, , , , note] = line.split(',');
    return [`${code},${year}`, [deaths === '' ? null : Number(deaths), note]];
  }));
}

/** INE's "Total País" row of each year: year → infant deaths. */
function totals() {
  const lines = fs.readFileSync(path.join(DATA, 'totales_nacionales.csv'), 'utf8').trim().split(/\r?\n/).slice(1);
  return new Map(lines.map((line) => line.split(',').map(Number)).map(([year, deaths]) => [year, deaths]));
}

test("INE's workbook uploaded as it is gives the checked infant deaths of every commune, 2000–2015", async () => {
  const expected = extract();
  const births = ['codigo_comuna,anio,nacimientos', ...[...expected.keys()].map((k) => `${k},100000`)].join('\n');
  const view = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { requests, errors } = view;
  await view.upload({ name: BIRTHS, mimeType: 'text/csv', buffer: Buffer.from(`${births}\n`) });
  await view.waitForFileNames([BIRTHS]);
  await view.upload({
    name: BOOK,
    mimeType: 'application/vnd.openxmlformats-officedocument.spreadsheetml.sheet',
    buffer: fs.readFileSync(path.join(DATA, BOOK)),
  });
  await view.sheetPicker(BOOK).waitFor({ timeout: 60000 });
  await view.readAllSheets(BOOK);
  const years = Array.from({ length: 16 }, (_, i) => 2015 - i);
  await view.waitForFileNames([BIRTHS, ...years.map((y) => `${BOOK} [${y}]`)]);
  // The years read in an earlier code system and the codes recoded are those `imr` reports.
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-ine-workbook-'));
  fs.copyFileSync(path.join(DATA, BOOK), path.join(dir, BOOK));
  fs.writeFileSync(path.join(dir, BIRTHS), `${births}\n`);
  const input = JSON.parse(execFileSync(cargoBinary('imr-cli', 'imr'), ['rates', BOOK, '--sheets', 'all', BIRTHS],
    { cwd: dir, encoding: 'utf8', maxBuffer: 1 << 28 })).input;
  fs.rmSync(dir, { recursive: true, force: true });
  assert.deepEqual(await view.codeSystems().evaluateAll((li) => li.map((l) => l.dataset.time)),
    input.code_systems.map((s) => String(s.time)));
  assert.equal(await view.historicalRecodings().count(), input.historical_recodings.length);
  assert.ok(input.historical_recodings.length > 0);
  await view.waitForRowCount('used', input.rows_used);
  assert.equal(Number(await view.rowCountText('excluded')), input.rows_excluded);

  const csv = await view.downloadRates();
  const shown = new Map();
  // The Spanish page's spreadsheet CSV (`;`): deaths are whole numbers, written alike in both.
  for (const [entity, time, , deaths] of csvCells(csv.text).slice(1)) {
    shown.set(`${entity},${time}`, deaths === '' ? null : Number(deaths));
  }
  const wrong = [];
  let compared = 0;
  for (const [key, [deaths, note]] of expected) {
    const got = shown.has(key) ? shown.get(key) : 'no row';
    // Not yet created: no deaths of its own that year (no row, or a row without deaths). No
    // row in INE's sheet (the extract's 0): no row, as `imr` reads it (crates/imr-cli/tests/sheets.rs).
    const ok = deaths === null ? got === 'no row' || got === null
      : note === 'absent_in_source_table_set_0' ? got === 'no row' || got === deaths
        : got === deaths;
    if (!ok) wrong.push(`${key}: shown ${got}, INE ${deaths}`);
    if (deaths !== null && note !== 'absent_in_source_table_set_0') compared += 1;
  }
  assert.deepEqual(wrong.slice(0, 10), [], `${wrong.length} of ${expected.size} commune-years differ`);
  assert.ok(compared > 5400, `${compared} compared`);
  // Every year's communes add up to INE's own national total of that year.
  const national = totals();
  assert.equal(national.size, 16);
  for (const [year, total] of national) {
    const sum = [...shown].filter(([k, d]) => k.endsWith(`,${year}`) && d !== null).reduce((a, [, d]) => a + d, 0);
    assert.equal(sum, total, `${year}`);
  }
  // The four communes created in 2004 (Alto Hospicio, Cholchol, Hualpén, Alto Biobío) have
  // deaths of their own from 2004, none before.
  for (const code of ['01107', '09121', '08112', '08314']) {
    assert.equal(shown.get(`${code},2003`) ?? null, null, `${code} 2003`);
    assert.equal(typeof shown.get(`${code},2005`), 'number', `${code} 2005`);
  }
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await view.close();
});
