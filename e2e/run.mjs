// Runs every end-to-end test file (or those named) with node's test runner and prints one closing line
// "e2e: N passed, M failed" (the line CI reads); exits non-zero on any failure.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { ROOT, DIST } from './harness.mjs';

if (!fs.existsSync(path.join(DIST, 'index.html'))) {
  console.error('e2e: dist/index.html is missing; run `make dist` first');
  process.exit(1);
}
// The files named on the command line (`node e2e/run.mjs e2e/paste.test.mjs …`), else every one.
const named = process.argv.slice(2).map((f) => path.relative(ROOT, path.resolve(f)));
const files = named.length > 0 ? named : fs.readdirSync(path.join(ROOT, 'e2e'))
  .filter((f) => f.endsWith('.test.mjs')).sort().map((f) => path.join('e2e', f));
const result = spawnSync(process.execPath, ['--test', '--test-concurrency=1', '--test-reporter=tap', ...files], {
  cwd: ROOT, encoding: 'utf8',
});
process.stdout.write(result.stdout);
process.stderr.write(result.stderr);
const count = (key) => Number((result.stdout.match(new RegExp(`^# ${key} (\\d+)$`, 'm')) || [])[1] || 0);
const passed = count('pass');
const failed = count('fail') + count('cancelled');
console.log(`e2e: ${passed} passed, ${failed} failed`);
process.exit(result.status === 0 && failed === 0 && passed > 0 ? 0 : 1);
