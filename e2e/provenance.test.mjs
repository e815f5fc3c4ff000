// Every export carries its provenance, and engine texts follow the page's language:
// a download from each view starts with the source, engine and date lines (CSV) or carries them
// at its foot and in <metadata> (SVG); a downloaded CSV can be read again, its comment lines
// reported as metadata; on the Spanish page a model diagnostic, an inequality note and the chart
// titles are in Spanish. No request leaves 127.0.0.1.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startServer, launch, openPage, outsideRequests, todayUtc, datesSince } from './harness.mjs';
import { openView, DataPage, InequalityPage, MapPage, ModelsPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

// The page dates its exports with the browser's clock, in UTC, as this does: the day this file
// started, or today when a test crossed midnight UTC since.
const startedOn = todayUtc();
const dates = () => `(?:${datesSince(startedOn).join('|')})`;

function assertCsvProvenance(what, text) {
  const lines = text.split('\n');
  assert.equal(lines[0], '# Source: chile_imr_2001_2021.csv', what);
  assert.match(lines[1], /^# imr-atlas engine \d+\.\d+\.\d+ \(imr-core \d+\.\d+\.\d+\)$/, what);
  assert.match(lines[2], new RegExp(`^# Generated: ${dates()}$`), what);
  assert.doesNotMatch(lines[3], /^#/, `${what}: the header row follows the comment lines`);
}

function assertSvgProvenance(what, text) {
  assert.match(text, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/, what);
  // The metadata names the engine with its version and the date (a chart's line, then its engine;
  // a map's sources, engine and date).
  const metadata = text.match(/<metadata>([^<]*)<\/metadata>/)?.[1] ?? '';
  assert.match(metadata, /imr-atlas (?:engine )?\d+\.\d+\.\d+/, what);
  assert.match(metadata, new RegExp(dates()), what);
  // Visible: the source, the tool and the date, on one line or on the few lines a long source
  // line wraps onto at the chart's width (each <text> or <tspan> a line); the version is not
  // there, as a newsroom's published chart has none (issue 42.8).
  const lines = [...text.matchAll(/>([^<>]+)<\/(?:text|tspan)>/g)].map((m) => m[1].trim());
  const foot = lines.join('\n');
  assert.match(foot, new RegExp(`imr-atlas[^\\n]*(?:\\n[^\\n]*){0,2}${dates()}`), what);
  assert.ok(lines.some((l) => l.includes('chile_imr_2001_2021.csv')), what);
  assert.doesNotMatch(foot, /imr-atlas (?:engine )?\d+\.\d+|motor imr-atlas/, what);
}

// One test per view, each in a browser context of its own: a download's fate must not depend
// on the downloads an earlier view made (a newcomer's machine once dropped the map's SVG after
// ten other downloads in the same page).
test('a download from the Data view starts with the provenance lines and carries the date', async () => {
  const view = await openView(browser, server.origin, 'data');
  assertCsvProvenance('rates', (await view.downloadRates()).text);
  await assertStayedLocal(view);
});

test('downloads from the Inequality view carry the provenance lines and the date', async () => {
  const view = await openView(browser, server.origin, 'inequality');
  await view.row(2019).waitFor({ timeout: 60_000 });
  assertCsvProvenance('inequality table', (await view.downloadChart('inequality-table-csv')).text);
  assertCsvProvenance('inequality trend', (await view.downloadChart('inequality-trend-csv')).text);
  await view.chart('line').locator('svg').waitFor({ timeout: 60_000 });
  assertCsvProvenance('inequality series', (await view.downloadChart('desigualdad_medida_por_anio-csv')).text);
  assertSvgProvenance('inequality chart', (await view.downloadChart('desigualdad_medida_por_anio-svg')).text);
  assertCsvProvenance('outliers', (await view.downloadChart('tasas_comunales_atipicos-csv')).text);
  await assertStayedLocal(view);
});

test('downloads from the Models view carry the provenance lines and the date', async () => {
  const view = await openView(browser, server.origin, 'models');
  assertCsvProvenance('model data', (await view.downloadTo('data')).text);
  assertCsvProvenance('coefficients', (await view.downloadTo('coef-csv')).text);
  assertSvgProvenance('coefficient plot', (await view.downloadTo('plot')).text);
  await assertStayedLocal(view);
});

test('downloads from the Map view carry the provenance lines and the date', async () => {
  // The map's CSV and SVG (the PNG is drawn from this SVG).
  const view = await openView(browser, server.origin, 'map');
  assertCsvProvenance('map', (await view.downloadCsv()).text);
  assertSvgProvenance('map', (await view.downloadSvg()).text);
  await assertStayedLocal(view);
});

async function assertStayedLocal(view) {
  assert.deepEqual(outsideRequests(view.requests, server.origin), []);
  assert.deepEqual(view.errors, []);
  await view.close();
}

test('a downloaded CSV read again reports its comment lines as metadata, not as rows', async () => {
  const opened = await openPage(browser, server.origin + '/');
  const [models, data] = [ModelsPage.attach(opened), DataPage.attach(opened)];
  await models.openTab('models');
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-provenance-e2e-'));
  try {
    const downloaded = await models.downloadTo('data', dir);
    const rows = downloaded.text.split('\n').filter((l) => l && !l.startsWith('#')).length - 1;
    await data.openTab('data');
    await data.upload(downloaded.path);
    await data.fileSummary().filter({ hasText: '3 metadata lines (#) skipped' }).waitFor();
    assert.equal(await data.rowCountText('read'), String(rows));
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
  assert.deepEqual(outsideRequests(opened.requests, server.origin), []);
  assert.deepEqual(opened.errors, []);
});

test('on the Spanish page, model diagnostics, inequality notes and chart titles are in Spanish', async () => {
  const opened = await openPage(browser, server.origin + '/', { locale: 'es-CL' });
  const [models, inequality, map] = [ModelsPage, InequalityPage, MapPage].map((P) => P.attach(opened));
  await models.openTab('models');
  await models.coefTable().waitFor({ timeout: 60_000 });
  await models.checkModel('poisson-fe');
  // The diagnostics sit behind the closed "How was it computed?" disclosure: open it as a reader would.
  await models.openMethod();
  const poisson = models.diagnostics('poisson-fe');
  await poisson.waitFor({ timeout: 60_000 });
  await poisson.filter({ hasText: /el modelo de Poisson convergió en \d+ iteraci(ón|ones) de Newton/ }).waitFor();
  const diagnostics = await models.diagnostics().textContent();
  assert.doesNotMatch(diagnostics, /converged in|rows? excluded|singleton|does not vary within|all entity effects|\((s|es)\)|excluded_rows|`/);
  // Fixed effects drop the time-invariant characteristics, with the reason and the test in Spanish.
  assert.match(diagnostics, /no cambia en el tiempo dentro de ninguna comuna/);
  assert.match(diagnostics, /H0: todos los efectos de entidad son cero/);
  const plot = await models.coefPlot().innerHTML();
  // A chart to publish: a title naming the outcome, the axis saying what a coefficient is a
  // change of, the models in plain words; their technical names only in the file's <desc>.
  assert.match(plot, /Tasa de mortalidad infantil \(por 1\.000 nacidos vivos\): cambio asociado a cada característica/);
  // The study's covariates per the change question 4 speaks of, said on the row and the axis.
  assert.match(plot, /Cambio por el aumento que indica cada fila/);
  assert.match(plot, />Pobreza \+10 puntos</);
  assert.doesNotMatch(plot.split('</desc>')[1], /Swamy|intragrupos|EE agrupados/);
  // The institutions on the chart's source line, not only the file's name (issue 42).
  assert.match(plot, /Fuente: INE, DEIS–MINSAL y SINIM–SUBDERE \(chile_imr_2001_2021\.csv\) · imr-atlas · /);

  await inequality.openTab('inequality');
  await inequality.chart('line').locator('svg').waitFor({ timeout: 60_000 });
  const notes = await inequality.notesText();
  assert.match(notes, /Se consideran las comunas con nacidos vivos > 0 en el año; las tasas son por 1\.000 nacidos vivos/);
  assert.doesNotMatch(notes, /Areas are those|Median, percentiles|not available in|logarithm of 0|so no interval is given/);
  assert.equal(await inequality.chartTitle('line'), 'Gini (ponderado): tasa de mortalidad infantil, por año');
  assert.match(await inequality.chartTitle('box'), /^Distribución de la tasa de mortalidad infantil/);
  assert.match(await inequality.chartTitle('lorenz'), /^Curvas de Lorenz/);

  await map.openTab('map');
  await map.legendRow('0').waitFor({ timeout: 60_000 });
  // The downloaded SVG: Spanish title and legend, Spanish source line.
  const svg = (await map.downloadSvg()).text;
  assert.match(svg, /<text id="map-title"[^>]*>Tasa de mortalidad infantil<\/text>/);
  assert.match(svg, />Datos: INE, DEIS–MINSAL y SINIM–SUBDERE \(chile_imr_2001_2021\.csv\)\. Límites: /);
  assert.match(svg, />Sin datos </);
  assert.equal(await map.titleText(), 'Tasa de mortalidad infantil');
  // The command that writes the same SVG asks for Spanish too.
  assert.match(await map.commandLine().textContent(), / --lang es /);
  assert.deepEqual(outsideRequests(opened.requests, server.origin), []);
  assert.deepEqual(opened.errors, []);
});
