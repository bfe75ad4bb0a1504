// `npm run bench`: every benchmark with its peers in the same run, printed as tables and written
// to bench/results/latest.json. Nothing here asserts a time; the numbers are for reading.
//
//   npm run bench                          all sections
//   npm run bench -- --only train,size     some sections (comma-separated)
//   npm run bench -- --no-wide             skip the wide native build (AVX2/AVX-512)
//   npm run bench -- --only train --impls chromium-wasm,firefox-wasm
//                                          some rows of the train section (the others keep their
//                                          previous figures in latest.json)
//
// Sections (1 thread everywhere):
//   matmul   GFLOP/s of tp's kernels (scalar reference, native 128-bit, native wide, wasm SIMD128
//            in Node) beside @tensorflow/tfjs-backend-wasm (XNNPACK) at the same shapes and forms.
//   kernels  every other kernel of a training step at the reference model's shapes: time, GB/s and
//            op-GFLOP/s beside the two roofs of the same build (micro-kernel peak, streaming add).
//   train    tokens/s training the reference model (decoder-only, d_model 128, 4 heads, 2 layers,
//            seq 64, batch 16, vocab 65): native 128-bit, native wide, wasm in Node, wasm in
//            headless Chromium and in headless Firefox ESR (through the public JS API), tfjs-wasm
//            (as written naturally and with transposes materialised) and PyTorch (when
//            /usr/bin/python3 has torch).
//            Medians of >= 20 timed steps after warm-up; plus a per-layer profile of tp's step.
//   generate ms per token with and without the KV cache at 64, 256 and 1024 tokens (decoder-only,
//            d_model 256, 4 layers), native and wasm.
//   size     the web module (web/lib/wasm/transformer_playground.{wasm,js}), raw and gzipped.
//   import   a random GPT-2-small-sized checkpoint in Hugging Face's layout (written by
//            bench/make_gpt2_small.mjs into bench/results/gpt2-small, ~475 MiB, not committed):
//            load time, peak memory and ms per generated token (KV cache, greedy, 32 tokens),
//            native and in headless Chromium (files fetched and streamed into the wasm heap).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { gzipSync } from 'node:zlib';
import { buildNative, buildWasm, root } from './build.mjs';

const sections = {
  matmul: { run: runMatmul },
  kernels: { run: runKernels },
  train: { run: runTrain },
  generate: { run: runGenerate },
  size: { run: runSize },
  import: { run: runImport },
};

const onlyIndex = process.argv.indexOf('--only');
const chosen = onlyIndex > 0 ? process.argv[onlyIndex + 1].split(',') : Object.keys(sections);
for (const name of chosen) {
  if (!sections[name]) {
    console.error(`bench.mjs: unknown section '${name}'; allowed: ${Object.keys(sections).join(', ')}`);
    process.exit(2);
  }
}
const cpuFlags = (() => {
  try {
    return readFileSync('/proc/cpuinfo', 'utf8').match(/^flags\s*:(.*)$/m)?.[1].split(/\s+/) ?? [];
  } catch {
    return [];
  }
})();
const wide = !process.argv.includes('--no-wide') && cpuFlags.includes('avx2') && cpuFlags.includes('fma');
// The train section's rows, by `impl`; --impls keeps only some of them.
const trainImpls = ['native-simd', 'native-wide', 'wasm-simd', 'chromium-wasm', 'firefox-wasm', 'tfjs-wasm', 'tfjs-wasm-materialised', 'pytorch'];
const implsIndex = process.argv.indexOf('--impls');
const implsChosen = implsIndex > 0 ? process.argv[implsIndex + 1].split(',') : null;
for (const impl of implsChosen ?? []) {
  if (!trainImpls.includes(impl)) {
    console.error(`bench.mjs: unknown --impls value '${impl}'; allowed: ${trainImpls.join(', ')}`);
    process.exit(2);
  }
}
const runs = (...impls) => !implsChosen || impls.some((i) => implsChosen.includes(i));
const nativeBench = 'build/native/tp_bench', wideBench = 'build/native-wide/tp_bench', wasmBench = 'build/wasm/tp_bench.cjs';

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

const strip = (rows) => rows.map(({ bench, ...row }) => row);
const fmt = (v, digits = 1) => (v == null || Number.isNaN(v) ? '—' : v.toFixed(digits));
const ratio = (a, b) => (a && b ? `${(a / b).toFixed(2)}x` : '—');

export function printTable(title, header, rows) {
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => String(r[i]).length)));
  const line = (cells) => cells.map((c, i) => (i === 0 ? String(c).padEnd(widths[i]) : String(c).padStart(widths[i]))).join('  ');
  console.log(`\n${title}`);
  console.log(line(header));
  console.log(widths.map((w) => '-'.repeat(w)).join('  '));
  for (const r of rows) console.log(line(r));
}

// The transformer shapes of a training step (dModel 128..512, 1024 tokens, vocab 65).
const transformerShapes = ['1024x128x384', '1024x128x512', '1024x512x128', '128x1024x512', '1024x128x65'];

async function runMatmul() {
  console.log('\nmatmul: native, wasm (Node) and tfjs-wasm, medians of 7 timed repetitions after warm-up…');
  const peaks = strip([
    ...(await jsonLines(nativeBench, ['peak'])),
    ...(wide ? await jsonLines(wideBench, ['peak', '--impl', 'native-wide']) : []),
    ...(await jsonLines('node', ['--no-experimental-fetch', wasmBench, 'peak'])),
  ]);
  const rows = strip([
    ...(await jsonLines(nativeBench, ['matmul', '--reps', '7'])),
    ...(wide ? (await jsonLines(wideBench, ['matmul', '--reps', '7', '--impl', 'native-wide'])).filter((r) => r.impl !== 'scalar') : []),
    ...(await jsonLines('node', ['--no-experimental-fetch', wasmBench, 'matmul', '--reps', '7'])).filter((r) => r.impl !== 'scalar'),
    ...(await jsonLines('node', ['bench/peers/tfjs_matmul.mjs', '7'])),
  ]);
  const impls = ['scalar', 'native-simd', ...(wide ? ['native-wide'] : []), 'wasm-simd', 'tfjs-wasm'];
  const keys = [...new Set(rows.map((r) => `${r.m}x${r.k}x${r.n} ${r.form}`))];
  const get = (key, impl) => rows.find((r) => `${r.m}x${r.k}x${r.n} ${r.form}` === key && r.impl === impl)?.gflops;
  const peak = (impl) => peaks.find((p) => p.impl === impl)?.gflops;
  const pct = (v, p) => (v && p ? `${Math.round((100 * v) / p)}%` : '—');
  printTable('matmul GFLOP/s (M x K x N, form; 1 thread)', ['shape', ...impls, 'wasm/tfjs', 'wasm % of kernel peak'],
    keys.map((k) => [k, ...impls.map((i) => fmt(get(k, i))), ratio(get(k, 'wasm-simd'), get(k, 'tfjs-wasm')),
      pct(get(k, 'wasm-simd'), peak('wasm-simd'))]));
  printTable('micro-kernel alone, operands in L1 (the ceiling of the rows above)', ['impl', 'kernel', 'GFLOP/s'],
    peaks.map((p) => [p.impl, p.kernel, fmt(p.gflops)]));
  const ghz = peaks.find((p) => p.clock_ghz > 0)?.clock_ghz;
  if (ghz) {
    console.log(`core clock during the run ≈ ${ghz.toFixed(2)} GHz: the 128-bit mul+add ceiling (3 ports x 4 flops) is ` +
      `≈ ${(12 * ghz).toFixed(0)} GFLOP/s, the AVX-512 FMA one (2 ports x 32 flops) ≈ ${(64 * ghz).toFixed(0)}`);
  }
  const onShapes = rows.filter((r) => transformerShapes.includes(`${r.m}x${r.k}x${r.n}`));
  const summary = ['native-simd', ...(wide ? ['native-wide'] : []), 'wasm-simd', 'tfjs-wasm'].map((impl) => {
    const mine = onShapes.filter((r) => r.impl === impl);
    const byForm = (f) => mine.filter((r) => r.form === f).map((r) => r.gflops);
    return [impl, ...['nn', 'nt', 'tn'].map((f) => (byForm(f).length ? `${fmt(Math.min(...byForm(f)))}..${fmt(Math.max(...byForm(f)))}` : '—'))];
  });
  printTable('at the transformer shapes (min..max GFLOP/s)', ['impl', 'nn', 'nt', 'tn'], summary);
  return { rows, peaks };
}

async function runKernels() {
  console.log('\nkernels: the row kernels of a training step, best of 7 timings…');
  const rows = strip([
    ...(await jsonLines(nativeBench, ['peak'])),
    ...(await jsonLines(nativeBench, ['kernels'])),
    ...(await jsonLines('node', ['--no-experimental-fetch', wasmBench, 'peak'])),
    ...(await jsonLines('node', ['--no-experimental-fetch', wasmBench, 'kernels'])),
  ]);
  const impls = ['native-simd', 'wasm-simd'];
  const names = [...new Set(rows.filter((r) => r.kernel && r.us != null).map((r) => r.kernel))];
  const get = (impl, name) => rows.find((r) => r.impl === impl && r.kernel === name);
  const peak = (impl) => rows.find((r) => r.impl === impl && r.gflops != null)?.gflops;
  const memory = (impl) => get(impl, 'stream add (memory roof)')?.gbytes_per_s;
  const header = ['kernel', ...impls.flatMap((i) => [`${i} µs`, 'GB/s', '% mem roof', 'op-GFLOP/s', '% peak'])];
  printTable('row kernels (1 thread; % of the same build\'s micro-kernel peak and streaming-add bandwidth)', header,
    names.map((n) => [n, ...impls.flatMap((i) => {
      const r = get(i, n);
      if (!r) return ['—', '—', '—', '—', '—'];
      return [fmt(r.us), fmt(r.gbytes_per_s), `${Math.round((100 * r.gbytes_per_s) / memory(i))}%`, fmt(r.op_gflops),
        `${Math.round((100 * r.op_gflops) / peak(i))}%`];
    })]));
  return rows;
}

function hasTorch() {
  if (!existsSync('/usr/bin/python3')) return false;
  return spawnSync('/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;
}

// A benchmark page (bench/browser/*.html) in a headless browser engine (Debian's Chromium or
// Firefox ESR, through puppeteer-core; scripts/browsers.mjs), served from the repository root so
// it can import web/lib as the product does; resolves with its window.benchResult.
async function browserPage(engine, pageAndQuery) {
  const { engines, launchEngine } = await import('./browsers.mjs');
  if (!existsSync(engines[engine].executablePath)) {
    console.log(`  (skipping ${engine}: ${engines[engine].executablePath} not found)`);
    return [];
  }
  const { serveStatic } = await import('./serve.mjs');
  const { server, url } = await serveStatic({ root });
  const launched = await launchEngine(engine);
  try {
    const page = await launched.context.newPage();
    await page.goto(`${url}bench/browser/${pageAndQuery(url)}`);
    await page.waitForFunction(() => window.benchResult, { timeout: 600000 });
    const result = await page.evaluate(() => window.benchResult);
    if (result.error) throw new Error(`${engine} ${pageAndQuery(url).split('?')[0]}: ${result.error}`);
    return [{ ...result, browser: await launched.browser.version() }];
  } finally {
    await launched.close();
    server.close();
  }
}

// The training page; its row is `impl: "<engine>-wasm"`.
const browserTrain = (engine, steps) => browserPage(engine, () => `train.html?steps=${steps}&impl=${engine}-wasm`);

async function runTrain() {
  const steps = 30;
  console.log(`\ntrain: the reference model, medians of ${steps} (tfjs: 20) timed steps after warm-up…`);
  const native = runs('native-simd') ? await jsonLines(nativeBench, ['train', '--reps', String(steps), '--profile']) : [];
  const wideRows = wide && runs('native-wide') ? await jsonLines(wideBench, ['train', '--reps', String(steps), '--profile', '--impl', 'native-wide']) : [];
  const wasm = runs('wasm-simd') ? await jsonLines('node', ['--no-experimental-fetch', wasmBench, 'train', '--reps', String(steps), '--profile']) : [];
  const browsers = [];
  for (const engine of ['chromium', 'firefox']) if (runs(`${engine}-wasm`)) browsers.push(...(await browserTrain(engine, steps)));
  const tfjs = runs('tfjs-wasm', 'tfjs-wasm-materialised') ? await jsonLines('node', ['bench/peers/tfjs_train.mjs', '20']) : [];
  const torch = !runs('pytorch') ? []
    : hasTorch()
      ? await jsonLines('/usr/bin/python3', ['bench/torch_reference.py', String(steps)], { env: { OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: '1' } })
      : (console.log('  (skipping PyTorch: /usr/bin/python3 has no torch)'), []);
  const all = [...native, ...wideRows, ...wasm, ...browsers, ...tfjs, ...torch].filter((r) => runs(r.impl));
  const rows = strip(all.filter((r) => r.bench === 'train'));
  const profile = strip(all.filter((r) => r.bench === 'train-profile'));
  const tfjsRate = rows.find((r) => r.impl === 'tfjs-wasm')?.tokens_per_s;
  const torchRate = rows.find((r) => r.impl === 'pytorch')?.tokens_per_s;
  printTable('training the reference model (tokens/s = 1024 / median step; 1 thread)',
    ['impl', 'tokens/s', 'step ms', 'vs tfjs-wasm', 'vs pytorch'],
    rows.map((r) => [r.impl, fmt(r.tokens_per_s, 0), fmt(r.step_ms), ratio(r.tokens_per_s, tfjsRate), ratio(r.tokens_per_s, torchRate)]));
  const impls = [...new Set(profile.map((r) => r.impl))];
  const kinds = [...new Set(profile.map((r) => r.kind))];
  const cell = (impl, kind) => {
    const r = profile.find((p) => p.impl === impl && p.kind === kind);
    return r ? r.forward_ms + r.backward_ms : null;
  };
  const totals = Object.fromEntries(impls.map((i) => [i, kinds.reduce((s, k) => s + (cell(i, k) ?? 0), 0)]));
  if (impls.length) {
    printTable('profile of one training step (ms, forward + backward)', ['layer kind', ...impls],
      [...kinds.map((k) => [k, ...impls.map((i) => fmt(cell(i, k), 2))]), ['total', ...impls.map((i) => fmt(totals[i], 2))]]);
  }
  return { rows, profile };
}

async function runGenerate() {
  console.log('\ngenerate: ms per token with and without the KV cache (d_model 256, 4 layers)…');
  const rows = strip([
    ...(await jsonLines(nativeBench, ['generate'])),
    ...(wide ? await jsonLines(wideBench, ['generate', '--impl', 'native-wide']) : []),
    ...(await jsonLines('node', ['--no-experimental-fetch', wasmBench, 'generate'])),
  ]);
  printTable('generation, ms per token (average over N tokens from a 1-token prompt)',
    ['impl', 'tokens', 'with cache', 'without', 'speed-up', 'last token: with', 'without'],
    rows.map((r) => [r.impl, r.tokens, fmt(r.cached_ms_per_token, 3), fmt(r.uncached_ms_per_token, 2),
      ratio(r.uncached_ms_per_token, r.cached_ms_per_token), fmt(r.cached_last_ms, 3), fmt(r.uncached_last_ms, 2)]));
  return rows;
}

async function runSize() {
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

// The import page: the checkpoint served from the repository root.
const browserImport = (engine, dir) => browserPage(engine, (url) => {
  const model = `${url}${path.relative(root, dir).split(path.sep).join('/')}`;
  return `import.html?model=${encodeURIComponent(model)}&tokens=32&impl=${engine}-wasm`;
});

async function runImport() {
  const { writeGpt2Small } = await import('../bench/make_gpt2_small.mjs');
  const dir = path.join(root, 'bench', 'results', 'gpt2-small');
  const started = Date.now();
  writeGpt2Small(dir);
  console.log(`\nimport: a random GPT-2-small-sized checkpoint (${((Date.now() - started) / 1000).toFixed(1)} s to write or find)…`);
  const rows = strip([
    ...(await jsonLines(nativeBench, ['import', '--model', dir, '--reps', '32'])),
    ...(await browserImport('chromium', dir)),
  ]);
  printTable('importing GPT-2 small (124 M parameters, random weights), then 32 greedy tokens with the KV cache',
    ['impl', 'parameters', 'load s', 'peak MiB', 'ms/token'],
    rows.map((r) => [r.impl, r.parameters, fmt(r.load_s, 2), fmt(r.peak_mb, 0), fmt(r.ms_per_token, 1)]));
  return rows;
}

async function main() {
  buildNative();
  // The wide build only where a chosen section runs it.
  if (wide && (chosen.includes('matmul') || chosen.includes('generate') || (chosen.includes('train') && runs('native-wide')))) buildNative({ wide: true });
  buildWasm();
  // With --only, the other sections keep their previous figures.
  const file = path.join(root, 'bench', 'results', 'latest.json');
  const previous = (onlyIndex > 0 || implsChosen) && existsSync(file) ? JSON.parse(readFileSync(file, 'utf8')) : {};
  const results = {
    ...previous,
    env: {
      date: new Date().toISOString(),
      cpu: os.cpus()[0]?.model ?? 'unknown',
      cores: os.cpus().length,
      node: process.version,
      platform: `${os.platform()} ${os.arch()}`,
      threads: 1,
      wide,
    },
  };
  // The clock moves on a shared machine, and every absolute figure moves with it.
  const clock = async () => (await jsonLines(nativeBench, ['peak']))[0]?.clock_ghz ?? null;
  results.env.clock_ghz_start = await clock();
  for (const name of chosen) {
    const out = await sections[name].run();
    if (name === 'train') {
      // With --impls, the rows of the other implementations keep their previous figures.
      const keep = (old = []) => old.filter((r) => implsChosen && !implsChosen.includes(r.impl));
      results.train = [...keep(previous.train), ...out.rows];
      results.train_profile = [...keep(previous.train_profile), ...out.profile];
    } else if (name === 'matmul') {
      results.matmul = out.rows;
      results.matmul_kernel_peak = out.peaks;
    } else {
      results[name] = out;
    }
  }
  results.env.clock_ghz_end = await clock();
  console.log(`\ncore clock ≈ ${results.env.clock_ghz_start} GHz at the start, ${results.env.clock_ghz_end} GHz at the end ` +
    `(x86 imul chain; absolute GFLOP/s and tokens/s scale with it)`);
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
  console.log(`\nwrote bench/results/latest.json`);
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
