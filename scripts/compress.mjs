// Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside each file of dist/ that
// a browser fetches (html, js, wasm, css, csv, topojson, json, md, svg), so that a static host
// or `make run` (scripts/serve.mjs) can send the compressed bytes (issue 43: the page wasm is
// 3.3 MB raw, about 1 MB in brotli). Skips files under 1 KB and the compressed copies
// themselves. Prints each file's three sizes and the totals.
//
// Then the first view's size budgets (issue 43), in brotli bytes as a static host sends them:
//   - the first answer: index.html (with the prerendered Findings, scripts/prerender.mjs) and the
//     stylesheet it waits for — FIRST_ANSWER_BUDGET;
//   - the first interaction, a tab chosen before the app is there: those and the largest of the
//     views' prerendered panels (dist/prerendered/) — FIRST_INTERACTION_BUDGET;
//   - the app itself (uploads and options): those, the wasm-bindgen glue, the page wasm and the
//     dataset the page preloads — APP_BUDGET (1,150 KB until the views were prerendered, when it
//     measured the first interaction; 1,152 KB used after the merges of 2026-12-05, hence 1,200;
//     1,204 KB when every chart and map came to mark reconstructed years (issue 42.4), hence
//     1,216; 1,218 KB with the same day's funnel limits, legend placement and wording, hence
//     1,232; 1,237 KB on 2026-12-06 with the Spanish spreadsheet CSVs, the map's desktop legend
//     and funnel at a width, the plain words of the retest, hence 1,240; 1,240.3 KB the same day
//     with the newcomer re-run's mends (the Spanish Models tables' words, a copied year marked in
//     the Data tables, a legend under a phone's map fitted to the first screen), hence 1,248;
//     1,248.07 KB on 2026-12-06 (second stop) with the rates and map CSVs' marks of flagged and
//     reconstructed rows, the embeds' copied years and the adjusted table's words (74 bytes
//     over, after the stop's shared components took 1 KB off), hence 1,256: a guard against
//     growth,
//     not a target, raised on purpose each time; the split of the engines out of the first wasm
//     is what lowers it; bench/RESULTS.md "Issue 43").
// Over any budget, `make dist` fails with the files and their sizes.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.resolve(root, process.argv[2] || 'dist');
export const COMPRESSED = new Set(['.html', '.js', '.wasm', '.css', '.csv', '.topojson', '.json', '.md', '.svg']);

function* files(dir) {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    // trunk's staging folder is not served.
    if (entry.isDirectory() && entry.name !== '.stage') yield* files(p);
    else if (entry.isFile()) yield p;
  }
}

const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
export const FIRST_ANSWER_BUDGET = 64 * 1024;
export const FIRST_INTERACTION_BUDGET = 160 * 1024;
export const APP_BUDGET = 1256 * 1024;
let raw = 0, br = 0, gz = 0;
for (const file of files(dist)) {
  if (!COMPRESSED.has(path.extname(file))) continue;
  const body = fs.readFileSync(file);
  if (body.length < 1024) continue;
  const brotli = zlib.brotliCompressSync(body, {
    params: {
      [zlib.constants.BROTLI_PARAM_QUALITY]: 11,
      [zlib.constants.BROTLI_PARAM_SIZE_HINT]: body.length,
    },
  });
  const gzip = zlib.gzipSync(body, { level: 9 });
  fs.writeFileSync(`${file}.br`, brotli);
  fs.writeFileSync(`${file}.gz`, gzip);
  raw += body.length; br += brotli.length; gz += gzip.length;
  console.log(`compress: ${path.relative(dist, file)} ${kb(body.length)} → br ${kb(brotli.length)}, gz ${kb(gzip.length)}`);
}
console.log(`compress: total ${kb(raw)} → br ${kb(br)}, gz ${kb(gz)}`);

// What the first view fetches: the files index.html names in its <head> (stylesheet, glue
// module, wasm and preloaded data), each in brotli as sent.
const index = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');
const named = (re) => [...index.matchAll(re)].map((m) => m[1]);
const brSize = (name) => {
  const p = path.join(dist, name);
  return fs.existsSync(`${p}.br`) ? fs.statSync(`${p}.br`).size : fs.statSync(p).size;
};
const answerFiles = ['index.html', ...named(/<link rel="stylesheet" href="\.\/([^"]+)"/g)];
const prerendered = path.join(dist, 'prerendered');
const views = fs.existsSync(prerendered)
  ? fs.readdirSync(prerendered).filter((f) => f.endsWith('.html')).map((f) => `prerendered/${f}`) : [];
const largestView = views.sort((a, b) => brSize(b) - brSize(a)).slice(0, 1);
const interactionFiles = [...answerFiles, ...largestView];
const appFiles = [...answerFiles, ...named(/<link rel="modulepreload" href="\.\/([^"]+)"/g),
  ...named(/<link rel="preload" href="\.\/([^"]+)"/g)];
for (const [what, list, budget] of [['first answer', answerFiles, FIRST_ANSWER_BUDGET],
  ['first interaction', interactionFiles, FIRST_INTERACTION_BUDGET], ['app', appFiles, APP_BUDGET]]) {
  const sizes = list.map((f) => [f, brSize(f)]);
  const total = sizes.reduce((t, [, n]) => t + n, 0);
  console.log(`compress: ${what} needs ${kb(total)} in brotli (budget ${kb(budget)}): ${sizes.map(([f, n]) => `${f} ${kb(n)}`).join(', ')}`);
  if (total > budget) {
    console.error(`compress: the ${what} is over its budget of ${kb(budget)}`);
    process.exit(1);
  }
}
