// Shared end-to-end fixtures: a static server for the built page on 127.0.0.1 (no python, no
// external server process), headless Debian Chromium driven by playwright-core, and a log of
// every request the page makes, to prove that nothing leaves the machine.
import { serve } from '../scripts/serve.mjs';
import fs from 'node:fs';
import path from 'node:path';
import { createRequire } from 'node:module';
import { execFileSync } from 'node:child_process';


export const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '..');
// IMR_DIST lets a developer test a build in another folder (e.g. trunk build --dist /tmp/x).
export const DIST = process.env.IMR_DIST ? path.resolve(process.env.IMR_DIST) : path.join(ROOT, 'dist');
// The node tools live in tools/node (installed by scripts/setup.sh), not beside this file.
export const toolsRequire = createRequire(path.join(ROOT, 'tools', 'node', 'package.json'));
const { chromium } = toolsRequire('playwright-core');

// dist/ served as `make run` serves it (scripts/serve.mjs): brotli or gzip copies when the
// browser accepts them, so the tests load what a reader's browser gets.
export function startServer(dir = DIST) {
  return serve(dir);
}

export async function launch() {
  return chromium.launch({
    executablePath: process.env.CHROMIUM || '/usr/bin/chromium',
    headless: true,
    args: ['--no-sandbox', '--disable-gpu', '--disable-quic', '--no-first-run',
      '--disable-background-networking', '--disable-component-update', '--disable-sync'],
  });
}

// A page whose every request is recorded; console errors are collected too. The browser language
// is English unless `locale` says otherwise (the page follows it).
//
// The page opens on the Findings view; the tests written before it expect the Data
// view, so a URL without a fragment gets `#view=data` unless `firstView` asks for the page as a
// visitor opens it. `viewport` sets the window size (default Playwright's 1280×720); other
// options (e.g. `hasTouch`) go to the browser context as they are.
//
// A page opened on the bundled data's Findings first shows their prerendered copy
// (scripts/prerender.mjs) until the app takes its place; openPage waits for the app unless
// `awaitApp` is false (the tests of the copy itself), so a test acts on the app, never on the copy.
export async function openPage(browser, url, { locale = 'en-US', firstView = false, viewport, awaitApp = true, ...contextOptions } = {}) {
  if (!firstView && !url.includes('#')) url += '#view=data';
  const context = await browser.newContext({ acceptDownloads: true, locale, ...(viewport ? { viewport } : {}), ...contextOptions });
  const page = await context.newPage();
  const requests = [];
  const errors = [];
  page.on('request', (r) => requests.push(r.url()));
  page.on('console', (m) => { if (m.type() === 'error') errors.push(m.text()); });
  page.on('pageerror', (e) => errors.push(String(e)));
  await page.goto(url);
  if (awaitApp) await appShown(page);
  return { page, context, requests, errors };
}

// The app is in the page (its root `#app`) and no prerendered copy is left.
export async function appShown(page, timeout = 60_000) {
  await page.waitForFunction(() => document.getElementById('app')?.isConnected && !document.getElementById('prerendered'),
    null, { timeout });
}

// Requests that are not the page's own: anything but the server's origin, data: and blob: URLs.
export function outsideRequests(requests, origin) {
  return requests.filter((u) => !(u.startsWith(origin + '/') || u.startsWith('data:') || u.startsWith('blob:')
    || (origin.startsWith('file:') && u.startsWith('file:'))));
}

// axe-core (from tools/node) into the page. Through DevTools evaluation, not a <script> tag: the
// page's Content Security Policy allows only its own hashed inline scripts, and a
// test must not weaken it (no bypassCSP) to run its checker.
const AXE_SOURCE_PATH = toolsRequire.resolve('axe-core/axe.min.js');
export async function injectAxe(page) {
  await page.evaluate(fs.readFileSync(AXE_SOURCE_PATH, 'utf8'));
}

export const fixture = (name) => path.join(ROOT, 'e2e', 'fixtures', name);

// The date a download of the page carries (`YYYY-MM-DD`): its `# Generated:` (`# Generado:` in Spanish) line (a CSV) or the
// date that ends its provenance line (a chart's foot, a report's), also when the foot wraps and
// the date starts its last line.
export function exportDate(text) {
  const found = text.match(/^# (?:Generated|Generado): (\d{4}-\d{2}-\d{2})$/m) ?? text.match(/ · (\d{4}-\d{2}-\d{2})</)
    ?? text.match(/class="provenance"[^>]*>(\d{4}-\d{2}-\d{2})<\/text>/);
  if (!found) throw new Error(`no provenance date in the download: ${text.slice(0, 300)}`);
  return found[1];
}

// The environment of an `imr` run whose exports carry `date` (SOURCE_DATE_EPOCH, which imr
// honours): the page's download and imr's file can then be compared byte for byte whatever the
// clocks say, also when a test crosses midnight UTC between the two.
export function imrEnv(date) {
  const seconds = Date.parse(`${date}T00:00:00Z`) / 1000;
  if (!Number.isInteger(seconds)) throw new Error(`not a date: ${date}`);
  return { ...process.env, SOURCE_DATE_EPOCH: String(seconds) };
}

// Today in UTC, as the page and imr date their exports.
export const todayUtc = () => new Date().toISOString().slice(0, 10);

// The dates an export made since `startedOn` may carry: that day, and today (a test that crosses
// midnight UTC sees both).
export const datesSince = (startedOn) => [...new Set([startedOn, todayUtc()])];

// A binary of this source tree (`imr`, `imr-gen-deaths`): built with cargo (a no-op when up to
// date) into CARGO_TARGET_DIR or target/, debug profile, as `make e2e` builds them. IMR_BIN
// overrides the `imr` binary.
const built = new Map();
export function cargoBinary(pkg, bin) {
  if (bin === 'imr' && process.env.IMR_BIN) return process.env.IMR_BIN;
  if (!built.has(bin)) {
    execFileSync('cargo', ['build', '-q', '-p', pkg, '--bin', bin], { cwd: ROOT, stdio: 'inherit' });
    const targetDir = process.env.CARGO_TARGET_DIR ? path.resolve(ROOT, process.env.CARGO_TARGET_DIR) : path.join(ROOT, 'target');
    const file = path.join(targetDir, 'debug', bin);
    if (!fs.existsSync(file)) throw new Error(`no ${bin} binary at ${file}`);
    built.set(bin, file);
  }
  return built.get(bin);
}
