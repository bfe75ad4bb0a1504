// The `size` section: the web module (web/lib/wasm/transformer_playground.{wasm,js}), raw and
// gzipped. Bytes, not times: nothing to interleave.
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { printTable } from '../harness/table.mjs';

export async function run({ root }) {
  const files = ['web/lib/wasm/transformer_playground.wasm', 'web/lib/wasm/transformer_playground.js'];
  const rows = files.map((f) => {
    const bytes = readFileSync(path.join(root, f));
    return { file: f, bytes: statSync(path.join(root, f)).size, gzip_bytes: gzipSync(bytes, { level: 9 }).length };
  });
  const kb = (n) => `${(n / 1024).toFixed(1)} KiB`;
  printTable('web module size', ['file', 'raw', 'gzip -9'], [
    ...rows.map((r) => [r.file, kb(r.bytes), kb(r.gzip_bytes)]),
    ['total', kb(rows.reduce((s, r) => s + r.bytes, 0)), kb(rows.reduce((s, r) => s + r.gzip_bytes, 0))],
  ]);
  return rows;
}
