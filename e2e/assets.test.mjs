// The bundled data are the page's own files, not part of its wasm (issue 43): served, the page
// fetches the dataset once as it starts and the boundaries once when the map is first shown, both
// from its own origin; the wasm holds neither. The single file embeds them and fetches nothing.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import path from 'node:path';
import zlib from 'node:zlib';
import { pathToFileURL } from 'node:url';
import { DIST, ROOT, startServer, launch, openPage, outsideRequests } from './harness.mjs';
import { DataPage, MapPage } from './pages/index.mjs';

let server, browser;
before(async () => { server = await startServer(); browser = await launch(); });
after(async () => { await browser?.close(); await server?.close(); });

const PANEL = 'chile_imr_2001_2021.csv';
const BOUNDARIES = 'comunas.topojson';

// A data line of the bundled CSV and an arc run of the boundaries: text only the files hold.
function distinctive() {
  const csv = fs.readFileSync(path.join(ROOT, 'public', 'data', PANEL), 'utf8').split('\n');
  const topo = fs.readFileSync(path.join(ROOT, 'public', 'data', BOUNDARIES), 'utf8');
  const arcs = topo.indexOf('"arcs":[[[');
  assert.ok(arcs > 0, 'the TopoJSON has arcs');
  return [csv[1000], topo.slice(arcs, arcs + 60)];
}

test('the served page fetches its dataset once, its boundaries only for the map, from its own origin', async () => {
  const data = DataPage.attach(await openPage(browser, server.origin + '/#view=data&lang=en'));
  const { requests, errors } = data;
  await data.waitForRowCount('read', 7245);
  const fetched = (name) => requests.filter((u) => u === `${server.origin}/data/${name}`);
  assert.equal(fetched(PANEL).length, 1, requests.join('\n'));
  assert.equal(fetched(BOUNDARIES).length, 0, 'no boundaries before the map is shown');
  await data.openTab('map');
  const map = MapPage.attach(data);
  await map.waitForCommuneCount(345);
  assert.equal(fetched(BOUNDARIES).length, 1);
  // Back to the data and to the map again: read once per page, not once per view.
  await map.openTab('data');
  await map.openTab('map');
  await map.waitForCommuneCount(345);
  assert.equal(fetched(BOUNDARIES).length, 1);
  assert.equal(fetched(PANEL).length, 1);
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(errors, []);
  await data.close();
});

test('the page wasm carries no bundled data; dist/data holds the files as shipped', () => {
  const wasm = fs.readdirSync(DIST).filter((f) => /^imr-atlas-.*_bg\.wasm$/.test(f));
  assert.equal(wasm.length, 1, fs.readdirSync(DIST).join(' '));
  const bytes = fs.readFileSync(path.join(DIST, wasm[0]));
  for (const text of distinctive()) assert.equal(bytes.indexOf(Buffer.from(text)), -1, text);
  for (const name of [PANEL, BOUNDARIES]) {
    assert.deepEqual(fs.readFileSync(path.join(DIST, 'data', name)), fs.readFileSync(path.join(ROOT, 'public', 'data', name)));
  }
});

test('the single file draws the map from its embedded boundaries with no request', async () => {
  const url = pathToFileURL(path.join(DIST, 'imr-atlas.html')).href;
  const map = MapPage.attach(await openPage(browser, url + '#view=map'));
  const { requests, errors } = map;
  await map.waitForCommuneCount(345);
  assert.deepEqual(requests.filter((u) => u !== url + '#view=map' && u !== url && !u.startsWith('data:') && !u.startsWith('blob:')), []);
  assert.deepEqual(errors, []);
  await map.close();
});

// Served compressed (issue 43): make dist writes .br and .gz beside each file and the server
// (scripts/serve.mjs, as `make run`) sends brotli to a browser that accepts it; the page gets the
// same bytes as the files, and a client that accepts nothing gets the files themselves.
test('dist is served brotli-compressed, and the compressed copies are the files', async () => {
  const view = DataPage.attach(await openPage(browser, server.origin + '/#view=data&lang=en'));
  const responses = [];
  view.page.on('response', (r) => responses.push(r));
  await view.page.reload();
  await view.waitForRowCount('read', 7245);
  const encodings = {};
  for (const r of responses) encodings[new URL(r.url()).pathname] = (await r.allHeaders())['content-encoding'];
  const wasm = Object.keys(encodings).find((p) => /imr-atlas-.*_bg\.wasm$/.test(p));
  assert.ok(wasm, Object.keys(encodings).join(' '));
  assert.equal(encodings[wasm], 'br');
  assert.equal(encodings[`/data/${PANEL}`], 'br');
  assert.equal(encodings['/'], 'br');
  await view.close();
  for (const name of [wasm.slice(1), `data/${PANEL}`, `data/${BOUNDARIES}`, 'imr-atlas.html']) {
    const file = fs.readFileSync(path.join(DIST, name));
    assert.deepEqual(zlib.brotliDecompressSync(fs.readFileSync(path.join(DIST, `${name}.br`))), file, name);
    assert.deepEqual(zlib.gunzipSync(fs.readFileSync(path.join(DIST, `${name}.gz`))), file, name);
  }
  // Without Accept-Encoding: the file itself, no encoding header.
  const plain = await fetch(`${server.origin}/data/${PANEL}`, { headers: { 'accept-encoding': 'identity' } });
  assert.equal(plain.headers.get('content-encoding'), null);
  assert.equal(Buffer.from(await plain.arrayBuffer()).length, fs.statSync(path.join(DIST, 'data', PANEL)).size);
});
