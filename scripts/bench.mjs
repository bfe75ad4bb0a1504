// `npm run bench`: every benchmark with its peers in the same run, printed as tables and written
// to bench/results/latest.json. Nothing here asserts a time; the numbers are for reading.
//
//   npm run bench                      all sections
//   npm run bench -- --only matmul     some sections (comma-separated)
//
// Sections: matmul — GFLOP/s of tp's kernels (scalar reference, native 128-bit, wasm SIMD128 in
// Node) beside @tensorflow/tfjs-backend-wasm (XNNPACK, 1 thread) at the same shapes and forms.
import { spawn } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildNative, buildWasm, root } from './build.mjs';

const sections = {
  matmul: { run: runMatmul },
};

const onlyIndex = process.argv.indexOf('--only');
const chosen = onlyIndex > 0 ? process.argv[onlyIndex + 1].split(',') : Object.keys(sections);
for (const name of chosen) {
  if (!sections[name]) {
    console.error(`bench.mjs: unknown section '${name}'; allowed: ${Object.keys(sections).join(', ')}`);
    process.exit(2);
  }
}

// Runs a command and resolves with the JSON objects it printed, one per line.
function jsonLines(cmd, args, { env = {} } = {}) {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { cwd: root, env: { ...process.env, ...env }, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('close', (code) => {
      if (code !== 0) return reject(new Error(`${cmd} ${args.join(' ')} exited with ${code}`));
      resolve(out.split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)));
    });
  });
}

export function printTable(title, header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

async function runMatmul() {
  console.log('matmul: native, wasm (Node) and tfjs-wasm, medians of 7 timed repetitions after warm-up…');
  const rows = [
    ...(await jsonLines('build/native/tp_bench', ['matmul', '--reps', '7'])),
    ...(await jsonLines('node', ['--no-experimental-fetch', 'build/wasm/tp_bench.cjs', 'matmul', '--reps', '7'])),
    ...(await jsonLines('node', ['bench/peers/tfjs_matmul.mjs', '7'])),
  ].map(({ bench, ...row }) => row);
  const impls = ['scalar', 'native-simd', 'wasm-simd', 'tfjs-wasm'];
  const keys = [...new Set(rows.map((r) => `${r.m}x${r.k}x${r.n} ${r.form}`))];
  const get = (key, impl) => rows.find((r) => `${r.m}x${r.k}x${r.n} ${r.form}` === key && r.impl === impl)?.gflops;
  const fmt = (v) => (v == null ? '—' : v.toFixed(1));
  printTable('matmul GFLOP/s (M x K x N, form; 1 thread)', ['shape', ...impls, 'wasm/tfjs'],
    keys.map((k) => [k, ...impls.map((i) => fmt(get(k, i))), `${(get(k, 'wasm-simd') / get(k, 'tfjs-wasm')).toFixed(2)}x`]));
  return rows;
}

async function main() {
  buildNative();
  buildWasm();
  const results = {
    env: {
      date: new Date().toISOString(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
      threads: 1,
    },
  };
  for (const name of chosen) results[name] = await sections[name].run();
  const dir = path.join(root, 'bench', 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(path.join(dir, 'latest.json'), `${JSON.stringify(results, null, 1)}\n`);
  console.log(`\nwrote bench/results/latest.json`);
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
