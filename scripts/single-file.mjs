// Builds dist/imr-atlas.html: the whole page in one file that works when opened from disk
// (file://, where a browser refuses to fetch a .wasm file). The stylesheet is inlined, the
// wasm-bindgen glue becomes an inline module (its `export` statements removed) and the wasm is
// embedded as base64 and instantiated with `initSync` — no fetch, no request of any kind.
// The bundled dataset and boundaries (dist/data/, not in the wasm) are embedded as base64 blocks
// that the page reads instead of fetching them (src/assets.rs).
// Its Content-Security-Policy allows the inline scripts by SHA-256 hash (scripts/csp-hashes.mjs),
// not 'unsafe-inline'. Prints the sizes (raw and gzip) of the wasm and of the single file.
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { withScriptHashes, inlineScriptHashes } from './csp-hashes.mjs';

const root = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
const dist = path.resolve(root, process.argv[2] || 'dist');
const html = fs.readFileSync(path.join(dist, 'index.html'), 'utf8');

const find = (re, what) => {
  const m = html.match(re);
  if (!m) throw new Error(`single-file: no ${what} in ${dist}/index.html`);
  return m[1];
};
const cssFile = find(/<link rel="stylesheet" href="\.\/([^"]+\.css)"/, 'stylesheet');
const jsFile = find(/import init, \* as bindings from '\.\/([^']+\.js)'/, 'glue import');
const wasmFile = find(/module_or_path: '\.\/([^']+\.wasm)'/, 'wasm path');

const css = fs.readFileSync(path.join(dist, cssFile), 'utf8');
let glue = fs.readFileSync(path.join(dist, jsFile), 'utf8');
const wasm = fs.readFileSync(path.join(dist, wasmFile));

// The glue as a plain module body: `export class X` → `class X`, drop the export list.
glue = glue.replace(/^export (class|function|const|let) /gm, '$1 ')
  .replace(/^export \{[^}]*\};?\s*$/gm, '');
if (/^export /m.test(glue)) throw new Error('single-file: an export statement was left in the glue');

const boot = `
${glue}
const wasmBase64 = "${wasm.toString('base64')}";
const wasmBytes = Uint8Array.from(atob(wasmBase64), (c) => c.charCodeAt(0));
initSync({ module: wasmBytes });
dispatchEvent(new CustomEvent("TrunkApplicationStarted"));
`;

let out = html
  .replace(/<link rel="stylesheet"[^>]*>/, () => `<style>\n${css}\n</style>`)
  .replace(/<script type="module">[\s\S]*?<\/script>/, () => `<script type="module">${boot}</script>`)
  .replace(/<link rel="modulepreload"[^>]*>/g, '')
  .replace(/<link rel="preload"[^>]*>/g, '');
if (/href="\.\/|src="\.\//.test(out)) throw new Error('single-file: a reference to a separate file is left');

// The microdata worker: its glue and wasm as base64 blocks that the page turns into a blob:
// worker (src/components/microdata.rs) — a file:// page can fetch neither.
const workerJs = path.join(dist, 'imr-worker.js');
const workerWasm = path.join(dist, 'imr-worker_bg.wasm');
if (!fs.existsSync(workerJs) || !fs.existsSync(workerWasm)) {
  throw new Error(`single-file: no imr-worker.js / imr-worker_bg.wasm in ${dist}`);
}
const workerWasmBuf = fs.readFileSync(workerWasm);
const block = (id, buf) => `<script type="application/octet-stream" id="${id}">${buf.toString('base64')}</script>`;
out = out.replace('</body>', () =>
  `${block('imr-worker-js', fs.readFileSync(workerJs))}\n${block('imr-worker-wasm', workerWasmBuf)}\n</body>`);

// The bundled data: the ids and paths of src/assets.rs.
const dataBlocks = [
  ['imr-data-panel', 'data/chile_imr_2001_2021.csv'],
  ['imr-data-boundaries', 'data/comunas.topojson'],
];
for (const [id, file] of dataBlocks) {
  const p = path.join(dist, file);
  if (!fs.existsSync(p)) throw new Error(`single-file: no ${file} in ${dist}`);
  out = out.replace('</body>', () => `${block(id, fs.readFileSync(p))}\n</body>`);
}

// The inline scripts changed (glue and wasm inlined): script-src allows exactly these by hash.
out = withScriptHashes(out);
if (inlineScriptHashes(out).length === 0) throw new Error('single-file: no inline script to allow');

const target = path.join(dist, 'imr-atlas.html');
fs.writeFileSync(target, out);
const gz = (buf) => zlib.gzipSync(buf, { level: 9 }).length;
const kb = (n) => `${(n / 1024).toFixed(0)} KB`;
const outBuf = Buffer.from(out);
console.log(`single-file: ${path.relative(root, target)} ${kb(outBuf.length)} (gzip ${kb(gz(outBuf))}); ` +
  `wasm ${kb(wasm.length)} (gzip ${kb(gz(wasm))}); ` +
  `worker wasm ${kb(workerWasmBuf.length)} (gzip ${kb(gz(workerWasmBuf))})`);
// The page wasm in gzip (a file:// page has no brotli): 1.5 MB until 2026-12-06, when this
// stop's CSV marks, embed marks and table words took it 166 bytes over; hence 1.5 MB + 16 KB,
// raised on purpose as compress.mjs's APP_BUDGET the same day (the engines' split out of the
// first wasm is what lowers both).
const budget = 1.5 * 1024 * 1024 + 16 * 1024;
if (gz(wasm) > budget) {
  console.error(`single-file: the gzip wasm is over its budget of ${kb(budget)}`);
  process.exit(1);
}
