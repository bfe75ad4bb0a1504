// One import-benchmark measurement in this (fresh) Node process: bench/import/runners.mjs for
// the runtime in the spec, then one JSON line with its result and the process's peak resident
// memory. The section (bench/import/section.mjs) starts one process per measurement, so each
// runtime's memory is its own.
//   node bench/import/node_run.mjs '<spec JSON>'
import { readFile } from 'node:fs/promises';
import { runOnnx, runOurs } from './runners.mjs';

const spec = JSON.parse(process.argv[2]);
const read = async (f) => new Uint8Array(await readFile(f.path));
let result;
try {
  if (spec.impl === 'ours') {
    const { load } = await import('transformer-playground');
    result = await runOurs(spec, { load, read });
  } else if (spec.impl === 'onnxruntime') {
    const ort = await import('onnxruntime-web');
    result = await runOnnx(spec, { ort, read });
  } else {
    throw new Error(`node_run.mjs: no Node runner for '${spec.impl}' (allowed: ours, onnxruntime)`);
  }
  result.peak_mb = process.resourceUsage().maxRSS / 1024;
} catch (error) {
  result = { error: error.message };
}
console.log(JSON.stringify(result));
process.exit(result.error ? 1 : 0);
