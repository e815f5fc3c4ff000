// A static server for dist/ that sends the compressed copies scripts/compress.mjs writes: brotli
// when the browser accepts it, else gzip, else the file itself (`Content-Encoding`, `Vary:
// Accept-Encoding`), as a static host configured per README ("Hosting") does. Used by `make run`
// (http://127.0.0.1:8080) and by the end-to-end tests (e2e/harness.mjs), so that what the tests
// load is what a reader's browser gets.
//   node scripts/serve.mjs [dist] [port]
import http from 'node:http';
import fs from 'node:fs';
import path from 'node:path';

export const TYPES = {
  '.html': 'text/html; charset=utf-8', '.js': 'text/javascript', '.wasm': 'application/wasm',
  '.css': 'text/css', '.json': 'application/json', '.csv': 'text/csv; charset=utf-8',
  '.svg': 'image/svg+xml', '.topojson': 'application/json', '.md': 'text/markdown; charset=utf-8',
};

/** The encodings `accept` (an Accept-Encoding header) allows, in the order this server prefers. */
export function acceptedEncodings(accept = '') {
  const allowed = new Map();
  for (const part of accept.split(',')) {
    const [name, ...params] = part.trim().toLowerCase().split(';');
    const q = params.map((p) => p.trim()).find((p) => p.startsWith('q='));
    allowed.set(name, q ? Number(q.slice(2)) : 1);
  }
  const ok = (name) => (allowed.get(name) ?? allowed.get('*') ?? 0) > 0;
  return [['br', '.br'], ['gzip', '.gz']].filter(([name]) => ok(name));
}

/** Serves `dir` on 127.0.0.1:`port` (0: any free port); resolves to its origin and a close().
 * `compressed: false` serves every file as it is, as a plain static server does (the
 * uncompressed case of bench/page-ready.mjs). */
export function serve(dir, port = 0, { compressed = true } = {}) {
  const root = path.resolve(dir);
  const server = http.createServer((req, res) => {
    const url = new URL(req.url, 'http://127.0.0.1');
    let file = path.join(root, decodeURIComponent(url.pathname));
    if (!file.startsWith(root)) { res.writeHead(403).end(); return; }
    if (fs.existsSync(file) && fs.statSync(file).isDirectory()) file = path.join(file, 'index.html');
    if (!fs.existsSync(file)) { res.writeHead(404).end('not found'); return; }
    const headers = {
      'content-type': TYPES[path.extname(file)] || 'application/octet-stream',
      vary: 'Accept-Encoding',
    };
    let body = file;
    for (const [name, ext] of compressed ? acceptedEncodings(req.headers['accept-encoding']) : []) {
      if (fs.existsSync(file + ext)) { body = file + ext; headers['content-encoding'] = name; break; }
    }
    fs.readFile(body, (err, bytes) => {
      if (err) { res.writeHead(404).end('not found'); return; }
      res.writeHead(200, headers);
      res.end(bytes);
    });
  });
  return new Promise((resolve) => {
    server.listen(port, '127.0.0.1', () => {
      const { port: bound } = server.address();
      resolve({ origin: `http://127.0.0.1:${bound}`, close: () => new Promise((r) => server.close(r)) });
    });
  });
}

if (import.meta.url === `file://${process.argv[1]}`) {
  const dir = process.argv[2] || path.join(path.dirname(new URL(import.meta.url).pathname), '..', 'dist');
  const port = Number(process.argv[3] || 8080);
  const { origin } = await serve(dir, port);
  console.log(`serving ${path.resolve(dir)} on ${origin}/ (brotli or gzip when the browser accepts them)`);
}
