// Writes a brotli (.br, quality 11) and a gzip (.gz, level 9) copy beside each file of dist/ that
// a browser fetches (html, js, wasm, css, csv, topojson, json, md, svg), so that a static host
// or `make run` (scripts/serve.mjs) can send the compressed bytes (issue 43: the page wasm is
// 3.3 MB raw, about 1 MB in brotli). Skips files under 1 KB and the compressed copies
// themselves. Prints each file's three sizes and the totals.
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
