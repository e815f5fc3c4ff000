// bench/browser.mjs: the engine benchmarks in headless Chromium (a harness, not a test).
//
//   fe          `fe` with clustered SEs, 1,000,000 rows × 5 regressors (50,000 × 20), fit only
//               on data in memory, as the native criterion bench (crates/imr-bench)
//   fe-absorbed the same with the entity (then entity and period) absorbed, `imr fit --fe`
//   inequality  1,000 bootstrap replicates on 5,570 areas × 30 years
//   ingest      the deaths aggregator (wasm, main thread) on the 500 MiB synthetic deaths file,
//               read from a File with its stream: the engine alone, in the browser (and, for
//               reference, the time to read the file without aggregating)
//   csv         the generic CSV ingest of `imr fit` (file bytes → table → validated panel) on the
//               pandas-written 1,000,000-row panel of bench/compare ($IMR_BENCH_PANEL_CSV), wasm
//               on the main thread, the bytes already in wasm memory as criterion has them
//   microdata   the same file through the page's microdata Web Worker (Data view), timed by the
//               page itself (data-elapsed-ms); skipped with a message if this build has none
//   map         time to first map: cold loads of the built page (dist/) at #view=map, from
//               navigation start to the 345 commune paths in the DOM and painted
//
// fe, inequality, ingest and csv run crates/imr-bench-wasm (same generators as the native benches,
// built with the page's release profile and wasm-opt -Oz, like trunk does for the page) from a
// tiny page; `make bench-browser` builds it and runs this file. Human-readable lines go to
// stderr; `--json FILE` writes the figures for bench/compare.
//
// Usage: node bench/browser.mjs [--only fe,fe-absorbed,inequality,ingest,csv,microdata,map] [--json FILE]
// Environment: IMR_BENCH_WASM (wasm-bindgen output folder; default
// $CARGO_TARGET_DIR/bench-wasm), IMR_DIST (built page, default dist/), IMR_BENCH_DIR (where the
// deaths file is, default /tmp), DEATHS_MB (default 500), BENCH_RUNS (timed runs of fe, ingest,
// microdata; default 5, 3, 3), MAP_LOADS (default 7), IMR_GEN_DEATHS (the generator binary; default: cargo run it).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { ROOT, DIST, startServer, launch } from '../e2e/harness.mjs';

const args = process.argv.slice(2);
const flag = (name) => {
  const i = args.indexOf(name);
  return i >= 0 ? args[i + 1] : undefined;
};
const ALL = ['fe', 'fe-absorbed', 'inequality', 'ingest', 'csv', 'microdata', 'map'];
const only = (flag('--only') || ALL.join(',')).split(',');
for (const name of only) {
  if (!ALL.includes(name)) {
    console.error(`bench/browser.mjs: unknown benchmark "${name}" (one of ${ALL.join(', ')})`);
    process.exit(2);
  }
}
const jsonOut = flag('--json');
const targetDir = process.env.CARGO_TARGET_DIR || path.join(ROOT, 'target');
const WASM_DIR = path.resolve(process.env.IMR_BENCH_WASM || path.join(targetDir, 'bench-wasm'));
const DEATHS_MB = Number(process.env.DEATHS_MB || 500);
const DATA_DIR = process.env.IMR_BENCH_DIR || '/tmp';
const runs = (fallback) => Number(process.env.BENCH_RUNS || fallback);
const MAP_LOADS = Number(process.env.MAP_LOADS || 7);

const log = (...xs) => console.error(...xs);
const median = (xs) => {
  const s = [...xs].sort((a, b) => a - b);
  const m = s.length >> 1;
  return s.length % 2 ? s[m] : (s[m - 1] + s[m]) / 2;
};
const fmt = (ms) => `${(ms / 1000).toFixed(3)} s`;

// The deaths file the native bench reads (imr-bench-data writes the same bytes): made with the
// repository's generator when missing.
function deathsFile() {
  const file = path.join(DATA_DIR, `imr-bench-deaths-${DEATHS_MB}mb-seed2024.csv`);
  if (fs.existsSync(file) && fs.statSync(file).size >= DEATHS_MB * 2 ** 20) return file;
  log(`writing ${file} with imr-gen-deaths`);
  // Same options as imr_bench::deaths_file (header, 1990-2019, seed 2024, DEATHS_MB MiB), so
  // the browser reads the bytes the native bench and pandas read.
  const genArgs = ['--out', `${file}.partial`, '--mb', String(DEATHS_MB), '--seed', '2024', '--years', '1990-2019'];
  const r = process.env.IMR_GEN_DEATHS
    ? spawnSync(process.env.IMR_GEN_DEATHS, genArgs, { stdio: ['ignore', 'inherit', 'inherit'] })
    : spawnSync('cargo', ['run', '--quiet', '--release', '-p', 'imr-microdata', '--bin', 'imr-gen-deaths', '--', ...genArgs],
      { cwd: ROOT, stdio: ['ignore', 'inherit', 'inherit'] });
  if (r.status !== 0) throw new Error('imr-gen-deaths failed');
  fs.renameSync(`${file}.partial`, file);
  return file;
}

const results = {
  date: new Date().toISOString(),
  machine: {
    cpus: os.cpus().length, cpu: os.cpus()[0]?.model, memory_gib: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.type()} ${os.release()} ${os.arch()}`, node: process.version,
  },
};

const browser = await launch();
results.machine.chromium = browser.version();
log(`Chromium ${browser.version()}, ${results.machine.cpus} cores (${results.machine.cpu}), node ${process.version}`);

async function benchPage() {
  if (!fs.existsSync(path.join(WASM_DIR, 'imr_bench_wasm_bg.wasm'))) {
    throw new Error(`${WASM_DIR}/imr_bench_wasm_bg.wasm is missing: run \`make bench-browser\` (it builds crates/imr-bench-wasm)`);
  }
  fs.copyFileSync(path.join(ROOT, 'bench', 'browser.html'), path.join(WASM_DIR, 'index.html'));
  const server = await startServer(WASM_DIR);
  const context = await browser.newContext();
  const page = await context.newPage();
  page.on('pageerror', (e) => log(`page error: ${e}`));
  await page.goto(`${server.origin}/index.html`);
  await page.waitForFunction(() => document.body.dataset.ready === 'true');
  return { page, close: async () => { await context.close(); await server.close(); } };
}

const needsBenchPage = only.some((b) => ['fe', 'fe-absorbed', 'inequality', 'ingest', 'csv'].includes(b));
const bench = needsBenchPage ? await benchPage() : null;

// The absorbed fixed effects path (`imr fit --fe entity[,time]`, pyfixest's model): one-way and
// two-way, same data and timing as fe.
if (only.includes('fe-absorbed')) {
  const n = runs(5);
  for (const twoWay of [false, true]) {
    const key = twoWay ? 'fe_absorbed_2way' : 'fe_absorbed';
    log(`fe --fe entity${twoWay ? ',time' : ''}, clustered SEs, 50,000 × 20 × 5 in wasm: 1 warm-up + ${n} runs`);
    const out = await bench.page.evaluate(async ([n, twoWay]) => {
      const b = window.imrBench.FeBench.absorbing(50000, 20, 5, twoWay);
      const times = [];
      let coefs;
      for (let i = 0; i <= n; i++) {
        const s = performance.now();
        coefs = b.run();
        if (i > 0) times.push(performance.now() - s);
      }
      b.free();
      return { times, coefs: Array.from(coefs) };
    }, [n, twoWay]);
    results[key] = { median_ms: median(out.times), runs_ms: out.times, slopes: out.coefs.slice(0, 5), std_errors: out.coefs.slice(5) };
    log(`  median ${fmt(results[key].median_ms)} (runs ${out.times.map(fmt).join(', ')}); slopes ${out.coefs.slice(0, 5).map((v) => v.toFixed(6)).join(', ')}`);
  }
}

if (only.includes('fe')) {
  const n = runs(5);
  log(`fe, clustered SEs, 50,000 × 20 × 5 in wasm: 1 warm-up + ${n} runs`);
  const out = await bench.page.evaluate(async (n) => {
    const t0 = performance.now();
    const b = new window.imrBench.FeBench(50000, 20, 5);
    const setup = performance.now() - t0;
    const times = [];
    let coefs;
    for (let i = 0; i <= n; i++) {
      const s = performance.now();
      coefs = b.run();
      if (i > 0) times.push(performance.now() - s);
    }
    b.free();
    return { setup, times, coefs: Array.from(coefs) };
  }, n);
  results.fe = { median_ms: median(out.times), runs_ms: out.times, data_setup_ms: out.setup, slopes: out.coefs.slice(0, 5), std_errors: out.coefs.slice(5) };
  log(`  median ${fmt(results.fe.median_ms)} (runs ${out.times.map(fmt).join(', ')}); slopes ${out.coefs.slice(0, 5).map((v) => v.toFixed(6)).join(', ')}`);
}

if (only.includes('inequality')) {
  const n = runs(3);
  log(`inequality, 1,000 bootstrap replicates, 5,570 × 30 in wasm: ${n} runs (after a small warm-up)`);
  const out = await bench.page.evaluate(async (n) => {
    const warm = new window.imrBench.InequalityBench(500, 2, 50);
    warm.prepare();
    warm.run();
    warm.free();
    const b = new window.imrBench.InequalityBench(5570, 30, 1000);
    const times = [];
    let gini;
    for (let i = 0; i < n; i++) {
      b.prepare();
      const s = performance.now();
      gini = b.run();
      times.push(performance.now() - s);
    }
    b.free();
    return { times, gini: Array.from(gini) };
  }, n);
  results.inequality = { median_ms: median(out.times), runs_ms: out.times, first_year_gini_and_ci: out.gini };
  log(`  median ${fmt(results.inequality.median_ms)} (runs ${out.times.map(fmt).join(', ')}); first year Gini ${out.gini[0].toFixed(6)} [${out.gini[1].toFixed(6)}, ${out.gini[2].toFixed(6)}]`);
}

// Reads the File with its stream (the browser's own chunks, ~64 KiB to 1 MiB; file.slice() per
// MiB was 1.5-3× slower here) into the wasm aggregator; with `push` false, only reads it (the
// cost of getting the bytes out of the browser, for reference). Returns elapsed ms and counts.
async function ingestOnce(page, push) {
  return page.evaluate(async (push) => {
    const file = document.getElementById('deaths').files[0];
    const s = performance.now();
    const agg = push ? new window.imrBench.DeathsBench() : null;
    const reader = file.stream().getReader();
    for (;;) {
      const { done, value } = await reader.read();
      if (done) break;
      if (push) agg.push(value);
    }
    const counts = push ? agg.finish() : [file.size, 0, 0];
    const elapsed = performance.now() - s;
    if (push) agg.free();
    return { elapsed, bytes: counts[0], rows: counts[1], infant: counts[2], size: file.size };
  }, push);
}

if (only.includes('ingest')) {
  const file = deathsFile();
  const n = runs(3);
  log(`ingest, ${path.basename(file)} through the wasm aggregator on the main thread: 1 warm-up + ${n} runs`);
  await bench.page.setInputFiles('#deaths', file);
  const times = [];
  const reads = [];
  let last;
  for (let i = 0; i <= n; i++) {
    last = await ingestOnce(bench.page, true);
    if (i > 0) times.push(last.elapsed);
    if (i > 0) reads.push((await ingestOnce(bench.page, false)).elapsed);
  }
  const mib = last.size / 2 ** 20;
  results.ingest = {
    median_ms: median(times), runs_ms: times, mib, mib_per_s: mib / (median(times) / 1000),
    read_only_median_ms: median(reads), read_only_runs_ms: reads, rows: last.rows, infant_deaths: last.infant,
  };
  log(`  median ${fmt(results.ingest.median_ms)} = ${results.ingest.mib_per_s.toFixed(0)} MiB/s on ${mib.toFixed(1)} MiB (runs ${times.map(fmt).join(', ')}); ${last.rows} rows, ${last.infant} infant deaths`);
  log(`  reading the file alone (no aggregation): median ${fmt(results.ingest.read_only_median_ms)} (runs ${reads.map(fmt).join(', ')})`);
}

// The generic CSV ingest: the pandas-written panel that bench/compare gives the native
// criterion bench (IMR_BENCH_PANEL_CSV), its bytes pushed into wasm (not timed), then file bytes
// → table → validated panel timed, as criterion times RawTable::from_vec + build_panel.
if (only.includes('csv')) {
  const file = process.env.IMR_BENCH_PANEL_CSV;
  if (!file || !fs.existsSync(file)) {
    results.csv = { skipped: 'IMR_BENCH_PANEL_CSV not set (bench/compare sets it)' };
    log('csv: skipped, IMR_BENCH_PANEL_CSV not set');
  } else {
    const n = runs(3);
    log(`csv, ${path.basename(file)} → table → panel in wasm on the main thread: 1 warm-up + ${n} runs`);
    await bench.page.setInputFiles('#panel', file);
    const out = await bench.page.evaluate(async (n) => {
      const file = document.getElementById('panel').files[0];
      const b = new window.imrBench.CsvPanelBench();
      const times = [];
      let counts;
      for (let i = 0; i <= n; i++) {
        const reader = file.stream().getReader();
        for (;;) {
          const { done, value } = await reader.read();
          if (done) break;
          b.push(value);
        }
        const s = performance.now();
        counts = b.run();
        if (i > 0) times.push(performance.now() - s);
      }
      b.free();
      return { times, counts: Array.from(counts) };
    }, n);
    const mb = out.counts[0] / 1e6;
    results.csv = {
      median_ms: median(out.times), runs_ms: out.times, mb, mb_per_s: mb / (median(out.times) / 1000),
      rows_used: out.counts[1], rows_excluded: out.counts[2],
    };
    log(`  median ${fmt(results.csv.median_ms)} = ${results.csv.mb_per_s.toFixed(0)} MB/s on ${mb.toFixed(1)} MB (runs ${out.times.map(fmt).join(', ')}); ${out.counts[1]} rows used, ${out.counts[2]} excluded`);
  }
}

if (bench) await bench.close();

const distIndex = path.join(DIST, 'index.html');
const needsDist = only.includes('microdata') || only.includes('map');
if (needsDist && !fs.existsSync(distIndex)) {
  throw new Error(`${distIndex} is missing: run \`make dist\` first`);
}

// The page's microdata worker (Data view). Contract: section [data-testid=microdata] with
// input[type=file][data-testid=microdata-deaths-file], button [data-testid=microdata-start],
// and when done [data-testid=microdata-result] with data-bytes, data-rows, data-elapsed-ms.
if (only.includes('microdata')) {
  const server = await startServer(DIST);
  const context = await browser.newContext({ locale: 'en-US' });
  const page = await context.newPage();
  page.on('pageerror', (e) => log(`page error: ${e}`));
  await page.goto(`${server.origin}/index.html#view=data`);
  await page.locator('main, body').first().waitFor();
  // The Data view renders after the wasm starts: give it time before concluding.
  const present = await page.locator('[data-testid=microdata]').first()
    .waitFor({ timeout: 15000 }).then(() => true, () => false);
  if (!present) {
    log('microdata: microdata worker not in this build ([data-testid=microdata] is absent from the Data view); skipped');
    results.microdata = { skipped: 'microdata worker not in this build' };
  } else {
    const file = deathsFile();
    const size = fs.statSync(file).size;
    const n = runs(3);
    log(`microdata, ${path.basename(file)} through the page's Web Worker: ${n} runs`);
    const times = [];
    let result;
    for (let i = 0; i < n; i++) {
      if (i > 0) {
        await page.reload();
        await page.locator('[data-testid=microdata]').first().waitFor();
      }
      await page.locator('input[type=file][data-testid=microdata-deaths-file]').setInputFiles(file);
      await page.locator('[data-testid=microdata-start]').click();
      const done = page.locator('[data-testid=microdata-result]').first();
      await done.waitFor({ state: 'attached', timeout: 30 * 60 * 1000 });
      result = await done.evaluate((el) => ({
        bytes: Number(el.dataset.bytes), rows: Number(el.dataset.rows), elapsed: Number(el.dataset.elapsedMs),
      }));
      if (!(result.elapsed > 0)) {
        throw new Error(`microdata: no elapsed time in ${JSON.stringify(result)}`);
      }
      if (result.bytes !== size) log(`  warning: the page reports ${result.bytes} bytes for a file of ${size}`);
      times.push(result.elapsed);
    }
    const mib = result.bytes / 2 ** 20;
    results.microdata = { median_ms: median(times), runs_ms: times, mib, mib_per_s: mib / (median(times) / 1000), rows: result.rows };
    log(`  median ${fmt(results.microdata.median_ms)} = ${results.microdata.mib_per_s.toFixed(0)} MiB/s (runs ${times.map(fmt).join(', ')}); ${result.rows} rows`);
  }
  await context.close();
  await server.close();
}

// Time to first map: each load in a fresh browser (no HTTP, compiled-wasm or code cache), the
// page's own clock (performance.now() counts from navigation start). An init script watches the
// DOM; "dom" is when the 345th commune path is inserted, "painted" when the frame holding it has
// been rendered (a task queued from the next animation frame).
if (only.includes('map')) {
  const server = await startServer(DIST);
  const loads = [];
  log(`time to first map, ${MAP_LOADS} cold loads of dist/ at #view=map`);
  for (let i = 0; i < MAP_LOADS; i++) {
    const cold = await launch();
    const context = await cold.newContext({ locale: 'en-US' });
    await context.addInitScript(() => {
      const SELECTOR = 'svg[data-testid="choropleth"] path[data-code]';
      const observer = new MutationObserver(() => {
        if (document.querySelectorAll(SELECTOR).length < 345) return;
        observer.disconnect();
        window.__mapDom = performance.now();
        requestAnimationFrame(() => setTimeout(() => { window.__mapPainted = performance.now(); }, 0));
      });
      observer.observe(document, { childList: true, subtree: true });
    });
    const page = await context.newPage();
    page.on('pageerror', (e) => log(`page error: ${e}`));
    await page.goto(`${server.origin}/index.html#view=map`);
    await page.waitForFunction(() => window.__mapPainted !== undefined, null, { timeout: 120000 });
    const t = await page.evaluate(() => ({
      dom: window.__mapDom, painted: window.__mapPainted,
      paths: document.querySelectorAll('svg[data-testid="choropleth"] path[data-code]').length,
      wasm: performance.getEntriesByType('resource').filter((e) => e.name.endsWith('.wasm')).map((e) => e.responseEnd)[0],
    }));
    if (t.paths !== 345) throw new Error(`map: ${t.paths} commune paths, expected 345`);
    loads.push(t);
    log(`  load ${i + 1}: paths in DOM ${t.dom.toFixed(0)} ms, painted ${t.painted.toFixed(0)} ms (wasm fetched at ${t.wasm?.toFixed(0)} ms)`);
    await cold.close();
  }
  await server.close();
  results.map = {
    median_painted_ms: median(loads.map((l) => l.painted)),
    median_dom_ms: median(loads.map((l) => l.dom)),
    loads,
  };
  log(`  median: painted ${results.map.median_painted_ms.toFixed(0)} ms, in DOM ${results.map.median_dom_ms.toFixed(0)} ms`);
}

await browser.close();
if (jsonOut) fs.writeFileSync(jsonOut, JSON.stringify(results, null, 2) + '\n');
