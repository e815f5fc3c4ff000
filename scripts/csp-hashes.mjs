// Content-Security-Policy without 'unsafe-inline' for scripts: the page's inline scripts (trunk's
// module bootstrap; in the single-file page also the glue and the wasm) are allowed by their
// SHA-256 hashes, computed here from the built HTML (CSP Level 3, "hash-source"), and nothing
// else inline may run — an injected <script> or on* attribute is refused (the XSS backstop).
//
// Used two ways:
//   - as trunk's post_build hook (Trunk.toml): rewrites $TRUNK_STAGING_DIR/index.html, for
//     `trunk build` and `trunk serve` alike;
//   - imported by scripts/single-file.mjs for dist/imr-atlas.html;
//   - `node scripts/csp-hashes.mjs FILE.html` rewrites FILE.html.
// Data blocks (<script type="application/octet-stream">, the single file's worker) never run, so
// they need no hash.
import crypto from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';

const EXECUTABLE = new Set(['', 'module', 'text/javascript', 'application/javascript']);

/** The 'sha256-…' sources of the inline scripts that run in `html`. */
export function inlineScriptHashes(html) {
  const hashes = [];
  for (const m of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/gi)) {
    const attrs = m[1];
    if (/\bsrc\s*=/i.test(attrs)) continue;
    const type = (attrs.match(/\btype\s*=\s*"([^"]*)"/i) || attrs.match(/\btype\s*=\s*'([^']*)'/i) || [, ''])[1]
      .trim().toLowerCase();
    if (!EXECUTABLE.has(type)) continue;
    const digest = crypto.createHash('sha256').update(m[2], 'utf8').digest('base64');
    hashes.push(`'sha256-${digest}'`);
  }
  return [...new Set(hashes)];
}

/** `html` with its CSP meta's script-src listing the inline scripts' hashes instead of
 * 'unsafe-inline' (and instead of any hashes it listed before). */
export function withScriptHashes(html) {
  const meta = /(<meta http-equiv="Content-Security-Policy" content=")([^"]*)(")/;
  const m = html.match(meta);
  if (!m) throw new Error('csp-hashes: no Content-Security-Policy meta tag');
  const hashes = inlineScriptHashes(html);
  const policy = m[2].split(';').map((d) => d.trim()).filter(Boolean).map((directive) => {
    const [name, ...sources] = directive.split(/\s+/);
    if (name !== 'script-src') return directive;
    const kept = sources.filter((s) => s !== "'unsafe-inline'" && !s.startsWith("'sha256-"));
    return [name, ...kept, ...hashes].join(' ');
  });
  if (!policy.some((d) => d.startsWith('script-src'))) throw new Error('csp-hashes: no script-src directive');
  return html.replace(meta, (_, a, __, c) => `${a}${policy.join('; ')}${c}`);
}

/** Rewrites `file` in place; returns the number of hashes. */
export function rewrite(file) {
  const html = fs.readFileSync(file, 'utf8');
  const out = withScriptHashes(html);
  fs.writeFileSync(file, out);
  return inlineScriptHashes(out).length;
}

if (process.argv[1] && path.resolve(process.argv[1]) === path.resolve(new URL(import.meta.url).pathname)) {
  const file = process.argv[2] || path.join(process.env.TRUNK_STAGING_DIR || 'dist', 'index.html');
  const n = rewrite(file);
  console.log(`csp-hashes: ${file}: script-src allows ${n} inline script(s) by hash, no 'unsafe-inline'`);
}
