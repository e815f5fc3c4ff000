// The reader's data survive a reload (issue 42, item 9): phones reload background tabs, and a
// reload used to return silently to the bundled data (and the link's year 2025 to 2023). The
// uploaded files are kept in the browser's own storage (IndexedDB; no request leaves the page)
// and come back with their roles, the link's options stay, the file's name is shown above every
// view, and "remove my data" deletes them and returns to the bundled data, also after a reload.
// A big file read by the worker is kept too (its contents, read again by the worker). The
// single file from disk does the same; a browser without storage for the page says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { startServer, launch, openPage, outsideRequests, DIST } from './harness.mjs';
import { READY } from './views.mjs';
import { openView, DataPage, MapPage } from './pages/index.mjs';
import { writePanelCsv } from './big-csv.mjs';

let server, browser, dir;
before(async () => {
  server = await startServer();
  browser = await launch();
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'imr-kept-'));
});
after(async () => {
  await browser?.close();
  await server?.close();
  if (dir) fs.rmSync(dir, { recursive: true, force: true });
});

/** A file of two communes over 2024–2025 (years the bundled data do not have), with the
 * births column under a name the reader chose another role for, and a covariate. */
const MINE = {
  name: 'mis_datos_2025.csv', mimeType: 'text/csv',
  buffer: Buffer.from('codigo_comuna,anio,nacimientos,defunciones,otra_cuenta,pobreza\n'
    + '13101,2024,1200,8,1000,10.5\n13101,2025,1100,7,1000,10.1\n'
    + '05101,2024,900,6,800,12.2\n05101,2025,950,5,800,12.0\n'),
};

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1400, height: 1000 };

for (const [lang, size, viewport] of [['es', 'phone', PHONE], ['en', 'desktop', DESKTOP]]) {
  test(`uploaded data come back after a reload with their roles and the link's year (${lang}, ${size})`, async () => {
    const data = await openView(browser, server.origin, 'data', { lang, viewport });
    const { page, requests } = data;
    await data.upload(MINE);
    await data.waitForRowCount('read', 4);
    // A role chosen by the reader: births from another column.
    await data.chooseRole('births', { label: 'otra_cuenta' });
    await data.waitForRateText('13101', '2025', 'births', lang === 'es' ? '1.000' : '1,000');
    await data.yourDataFiles().filter({ hasText: MINE.name }).waitFor();
    // The map of 2025, its year in the link.
    await data.openTab('map');
    const map = MapPage.attach(data);
    await map.waitForYear('2025');
    await map.chooseYear('2024');
    await page.waitForFunction(() => location.hash.includes('year=2024'));
    await page.reload();
    // Back: the file, its role, the year of the link, on every view, named above each.
    await map.yourDataFiles().filter({ hasText: MINE.name }).waitFor({ timeout: 60000 });
    await map.waitForYear('2024');
    assert.match(await page.evaluate(() => location.hash), /year=2024/);
    for (const view of Object.keys(READY)) {
      await map.openTab(view);
      await map.waitForTabSelected(view);
      assert.equal((await map.yourDataFiles().textContent()).trim(), MINE.name, view);
    }
    await map.openTab('data');
    const restored = DataPage.attach(data);
    await restored.waitForRowCount('read', 4);
    assert.equal((await restored.roleChosen('births')).trim(), 'otra_cuenta');
    await restored.waitForRateText('13101', '2025', 'births', lang === 'es' ? '1.000' : '1,000');
    // The sources under the reader's data are hers, not the bundled data's.
    assert.match(await restored.userDataSource().textContent(), new RegExp(MINE.name.replace('.', '\\.')));
    assert.deepEqual(outsideRequests(requests, server.origin), []);
    assert.deepEqual(data.errors, []);
    await data.close();
  });

  test(`"remove my data" deletes them and returns to the bundled data, also after a reload (${lang}, ${size})`, async () => {
    const data = await openView(browser, server.origin, 'data', { lang, viewport });
    const { page, requests } = data;
    await data.upload(MINE);
    await data.waitForRowCount('read', 4);
    await page.reload();
    await data.yourDataFiles().filter({ hasText: MINE.name }).waitFor({ timeout: 60000 });
    await data.removeMyData();
    await data.bundledNote().waitFor();
    assert.equal(await data.yourDataFiles().count(), 0);
    assert.match(await data.yourDataStatus().textContent(), lang === 'es' ? /se borraron/ : /were deleted/);
    await page.reload();
    await data.bundledNote().waitFor({ timeout: 60000 });
    assert.equal(await data.yourDataFiles().count(), 0);
    assert.equal(await data.userDataSource().count(), 0);
    assert.deepEqual(outsideRequests(requests, server.origin), []);
    assert.deepEqual(data.errors, []);
    await data.close();
  });
}

test('a big file read by the worker is kept and read again by the worker after a reload', async () => {
  const file = path.join(dir, 'panel_5mb.csv');
  const { rows, bytes } = writePanelCsv(file, { targetBytes: 5e6 });
  assert.ok(bytes > 4 * 1024 * 1024, `${bytes} bytes`);
  const data = await openView(browser, server.origin, 'data', { lang: 'es' });
  const { page, requests } = data;
  await data.upload(file);
  await data.waitForRowCountText('read', String(rows));
  await data.yourDataFiles().filter({ hasText: 'panel_5mb.csv' }).waitFor();
  await page.reload();
  await data.waitForRowCountText('read', String(rows));
  assert.equal((await data.yourDataFiles().textContent()).trim(), 'panel_5mb.csv');
  assert.deepEqual(outsideRequests(requests, server.origin), []);
  assert.deepEqual(data.errors, []);
  await data.close();
});

test('the single file from disk keeps the data too', async () => {
  const url = pathToFileURL(path.join(DIST, 'imr-atlas.html')).href;
  const data = DataPage.attach(await openPage(browser, `${url}#view=data&lang=es`, { locale: 'es-CL' }));
  await data.bundledNote().waitFor({ timeout: 60000 });
  await data.upload(MINE);
  await data.waitForRowCount('read', 4);
  await data.page.reload();
  await data.yourDataFiles().filter({ hasText: MINE.name }).waitFor({ timeout: 60000 });
  await data.waitForRowCount('read', 4);
  assert.deepEqual(data.requests.filter((u) => u !== `${url}#view=data&lang=es` && !u.startsWith('data:') && !u.startsWith('blob:') && u !== url), []);
  assert.deepEqual(data.errors, []);
  await data.context.close();
});

test('a browser that keeps nothing for the page says so, and the data stay loaded', async () => {
  const data = DataPage.attach(await openPage(browser, `${server.origin}/#view=data&lang=es`, { locale: 'es-CL' }));
  await data.withoutStorage();
  await data.page.reload();
  await data.bundledNote().waitFor({ timeout: 60000 });
  // Nothing to say on the bundled data.
  assert.equal(await data.yourDataStatus().count(), 0);
  await data.upload(MINE);
  await data.waitForRowCount('read', 4);
  await data.yourDataFiles().filter({ hasText: MINE.name }).waitFor();
  assert.match(await data.yourDataStatus().textContent(), /No se pudieron guardar en este navegador/);
  assert.deepEqual(data.errors, []);
  await data.context.close();
});
