// A numeric panel CSV of a given size for the big-upload tests and the memory measurement
// (README, "Big files"): the bundled dataset's 345 commune codes × consecutive years (as many as
// the size needs, ending in 2023), births, infant deaths and `covariates` numeric columns, some
// written in scientific notation as pandas and R write small values. Every `excludeEvery`-th row
// has an empty births cell, so the engine must exclude it ("missing value"). Deterministic.
import fs from 'node:fs';
import path from 'node:path';
import { ROOT } from './harness.mjs';

export function communeCodes() {
  const text = fs.readFileSync(path.join(ROOT, 'public', 'data', 'chile_imr_2001_2021.csv'), 'utf8');
  const codes = new Set();
  for (const line of text.split('\n').slice(1)) {
    const code = line.split(',')[0];
    if (code) codes.add(code);
  }
  return [...codes];
}

// mulberry32: a small seeded generator, so the file is the same on every run.
function random(seed) {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

// Writes the CSV to `file` (streamed, so a 100 MB file needs little of node's memory) and returns
// {rows, excluded, bytes}: data rows written, rows written with an empty births cell, file size.
export function writePanelCsv(file, { targetBytes, covariates = 24, excludeEvery = 1000, seed = 7 }) {
  const codes = communeCodes();
  const next = random(seed);
  const header = ['codigo_comuna', 'anio', 'nacimientos', 'defunciones'];
  for (let c = 1; c <= covariates; c++) header.push(`x${c}`);
  const sampleRow = (code, year, r) => {
    const births = 50 + Math.floor(next() * 5000);
    const deaths = Math.floor(births * (0.002 + next() * 0.01));
    const cells = [code, String(year), r % excludeEvery === excludeEvery - 1 ? '' : String(births), String(deaths)];
    for (let c = 0; c < covariates; c++) {
      const v = next();
      // A third of the covariates in scientific notation with a decimal point (1.712078e-05).
      cells.push(c % 3 === 0 ? (v * 1e-4).toExponential(6) : (v * 100).toFixed(3));
    }
    return cells.join(',') + '\n';
  };
  const rowBytes = sampleRow(codes[0], 2023, 0).length;
  const years = Math.max(1, Math.ceil(targetBytes / (rowBytes * codes.length)));
  const fd = fs.openSync(file, 'w');
  let bytes = 0;
  let rows = 0;
  let excluded = 0;
  let buffer = header.join(',') + '\n';
  for (let y = 0; y < years; y++) {
    const year = 2023 - years + 1 + y;
    for (const code of codes) {
      if (rows % excludeEvery === excludeEvery - 1) excluded++;
      buffer += sampleRow(code, year, rows);
      rows++;
      if (buffer.length > 1 << 20) {
        bytes += fs.writeSync(fd, buffer);
        buffer = '';
      }
    }
  }
  bytes += fs.writeSync(fd, buffer);
  fs.closeSync(fd);
  return { rows, excluded, bytes };
}
