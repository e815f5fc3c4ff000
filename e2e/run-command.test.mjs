// The README's first command, `make run`, is `trunk serve --release=true` (Makefile): this runs
// that server on a free port and a throw-away dist folder (the other tests use dist/) and opens
// the page as a reader would, on the bundled data. Under `trunk serve` trunk used to inject a
// live-reload script after the CSP hashes were computed, so every load logged a CSP violation
// (Trunk.toml now sets no_autoreload): the page must load with no console error.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { spawn } from 'node:child_process';
import { ROOT, launch, openPage, outsideRequests } from './harness.mjs';
import { DataPage, MapPage } from './pages/index.mjs';

let trunk, browser, origin, distDir;

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => { const { port } = s.address(); s.close(() => resolve(port)); });
  });
}

// Resolves once trunk has built the page and listens; rejects with trunk's log if the build fails
// (trunk serve keeps running and serves nothing) or trunk exits.
function untilListening(child) {
  let log = '';
  return new Promise((resolve, reject) => {
    const read = (chunk) => {
      log += chunk;
      if (/ERROR/.test(log)) reject(new Error(`trunk serve could not build the page:\n${log.slice(-3000)}`));
      else if (/success[\s\S]*server listening/.test(log)) resolve();
    };
    child.stdout.on('data', read);
    child.stderr.on('data', read);
    child.on('exit', (code) => reject(new Error(`trunk serve exited (${code}) before serving:\n${log.slice(-3000)}`)));
  });
}

before(async () => {
  const port = await freePort();
  distDir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-serve-'));
  origin = `http://127.0.0.1:${port}`;
  trunk = spawn('trunk', ['serve', '--release=true', '--port', String(port), '--dist', distDir], {
    cwd: ROOT, detached: true, stdio: ['ignore', 'pipe', 'pipe'],
  });
  await untilListening(trunk);
  browser = await launch();
});

after(async () => {
  await browser?.close();
  if (trunk && trunk.exitCode === null) process.kill(-trunk.pid, 'SIGTERM');
  if (distDir) fs.rmSync(distDir, { recursive: true, force: true });
});

test('make run serves the page on the bundled data, with no console error and no outside request', async () => {
  const opened = await openPage(browser, `${origin}/#view=data&lang=en`);
  const { requests, errors } = opened;
  const [data, map] = [DataPage.attach(opened), MapPage.attach(opened)];
  await data.waitForRowCount('read', 7245, { timeout: 120000 });
  assert.equal(await data.rowCountText('read'), '7245');
  await map.openTab('map');
  await map.commune('13101').waitFor({ timeout: 120000 });
  assert.deepEqual(errors, []);
  assert.deepEqual(outsideRequests(requests, origin), []);
});
