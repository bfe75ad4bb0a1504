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
// Sections (1 thread unless a row says otherwise; the machine's load average is recorded, since
// a shared machine's figures move with it):
//   matmul   GFLOP/s of tp's kernels (scalar reference, native 128-bit, native wide, wasm SIMD128
//            in Node) beside @tensorflow/tfjs-backend-wasm (XNNPACK) at the same shapes and forms.
//   kernels  every other kernel of a training step at the reference model's shapes: time, GB/s and
//            op-GFLOP/s beside the two roofs of the same build (micro-kernel peak, streaming add).
//   train    tokens/s training the reference model (decoder-only, d_model 128, 4 heads, 2 layers,
//            seq 64, batch 16, vocab 65) and the same model on one 1024-token sequence, at 1 and
//            2 threads: native 128-bit, native wide, wasm in Node (the threaded build for 2),
//            wasm in headless Chromium and in headless Firefox ESR (through the public JS API in
//            a module worker, the page served cross-origin isolated), tfjs-wasm (1 thread, as
//            written naturally and with transposes materialised) and PyTorch (torch threads 1
//            and 2, OpenBLAS on one; when /usr/bin/python3 has torch). Medians of >= 20 timed
//            steps after warm-up; a per-layer profile of tp's step; the targets' ratios.
//   generate ms per token with and without the KV cache at 64, 256 and 1024 tokens (decoder-only,
//            d_model 256, 4 layers), native and wasm; cached at d_model 512 on 1 and 2 threads.
//   size     a one-<tp-tokenizer> page (modules, and the single-file bundle) served with brotli in
//            headless Chromium: files, raw / brotli / gzip bytes, requests before the .wasm
//            (bench/size.mjs; also writes the tables of docs/WIDGETS.md and docs/PERFORMANCE.md).
//   import   ours against onnxruntime-web (wasm) and @wllama/wllama (llama.cpp) on the same random
//            weights (bench/import/: GPT-2 small and llama2.c's stories15M and stories110M shapes,
//            written by the bench as Hugging Face folders in F32/F16/BF16, GGUF F32/F16 and ONNX
//            with past key-values, under bench/results/import, not committed): load time, ms per
//            generated token (KV cache, greedy) and peak memory, in Node and in headless Chromium
//            at 1 and 2 threads, interleaved rounds (--rounds N, --shapes, --import-threads,
//            --envs, --dtypes; bench/import/section.mjs), and the share of the memory bandwidth
//            (a STREAM-like copy in the same run) our decode reads weights at.
//   drawing  the playground page in headless Chromium training lm-char as fast as it can for two
//            minutes (--seconds N for another length) with every panel in view (the viewport as
//            tall as the page): the main thread's long tasks (count, longest, median, how many
//            over 50 ms; Long Tasks API, which Firefox lacks), frames drawn per second and the
//            steps trained. The cost measured is the page's redrawing: training is in the worker.
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { buildNative, buildWasm, root } from './build.mjs';

const sections = {
  matmul: { run: runMatmul },
  kernels: { run: runKernels },
  train: { run: runTrain },
  generate: { run: runGenerate },
  size: { run: runSize, web: true },
  import: { run: runImport },
  drawing: { run: runDrawing, web: true },
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
const wasmThreadsBench = 'build/wasm-threads/tp_bench.cjs';

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

// The training shapes: the reference model (seq 64 x batch 16) and one long sequence (seq 1024 x
// batch 1, the same 1024 tokens per step, attention sixteen times longer).
const trainShapes = [{ seq: 64, batch: 16 }, { seq: 1024, batch: 1 }];
const threadCounts = [1, 2];
const shapeArgs = ({ seq, batch }) => ['--seq', String(seq), '--batch', String(batch)];
// Node runs the single-threaded module for one thread and the threaded build for more, as a
// page does.
const wasmBenchFor = (threads) => (threads > 1 ? wasmThreadsBench : wasmBench);

// Benchmark pages (bench/browser/*.html) in a headless browser engine (Debian's Chromium or
// Firefox ESR, through puppeteer-core; scripts/browsers.mjs), served cross-origin isolated from
// the repository root so they can import web/lib as the product does and run the threaded
// module. `pages`: each page's path and query, or a function of the server's URL giving them;
// resolves with each page's window.benchResult.
async function browserPages(engine, pages) {
  const { engines, launchEngine } = await import('./browsers.mjs');
  if (!existsSync(engines[engine].executablePath)) {
    console.log(`  (skipping ${engine}: ${engines[engine].executablePath} not found)`);
    return [];
  }
  const { serveStatic } = await import('./serve.mjs');
  const { server, url } = await serveStatic({ root, isolated: true });
  const launched = await launchEngine(engine);
  const rows = [];
  try {
    const version = await launched.browser.version();
    for (const pageAndQuery of pages) {
      const where = typeof pageAndQuery === 'function' ? pageAndQuery(url) : pageAndQuery;
      const page = await launched.context.newPage();
      await page.goto(`${url}bench/browser/${where}`);
      await page.waitForFunction(() => window.benchResult, { timeout: 600000 });
      const result = await page.evaluate(() => window.benchResult);
      await page.close();
      if (result.error) throw new Error(`${engine} ${where.split('?')[0]}: ${result.error}`);
      rows.push({ ...result, browser: version });
    }
  } finally {
    await launched.close();
    server.close();
  }
  return rows;
}

// The training page, one row per configuration: `impl: "<engine>-wasm"`.
const browserTrain = (engine, steps, configs) => browserPages(engine, configs.map(({ threads, seq, batch }) =>
  `train.html?steps=${steps}&impl=${engine}-wasm&threads=${threads}&seq=${seq}&batch=${batch}`));

async function runTrain() {
  const steps = 30;
  console.log(`\ntrain: medians of ${steps} (tfjs: 20) timed steps after warm-up, at 1 and 2 threads…`);
  const all = [];
  const each = (fn) => trainShapes.flatMap((shape) => threadCounts.map((threads) => fn(shape, threads)));
  const profiled = (shape) => shape.seq === 64 ? ['--profile'] : [];
  if (runs('native-simd')) {
    for (const [shape, threads] of each((shape, threads) => [shape, threads])) {
      all.push(...(await jsonLines(nativeBench, ['train', '--reps', String(steps), '--threads', String(threads), ...shapeArgs(shape), ...profiled(shape)])));
    }
  }
  if (wide && runs('native-wide')) {
    for (const threads of threadCounts) {
      all.push(...(await jsonLines(wideBench, ['train', '--reps', String(steps), '--threads', String(threads), '--profile', '--impl', 'native-wide'])));
    }
  }
  if (runs('wasm-simd')) {
    for (const [shape, threads] of each((shape, threads) => [shape, threads])) {
      all.push(...(await jsonLines('node', ['--no-experimental-fetch', wasmBenchFor(threads), 'train', '--reps', String(steps), '--threads', String(threads),
        ...shapeArgs(shape), ...profiled(shape)])));
    }
  }
  if (runs('chromium-wasm')) all.push(...(await browserTrain('chromium', steps, each((shape, threads) => ({ ...shape, threads })))));
  if (runs('firefox-wasm')) all.push(...(await browserTrain('firefox', steps, threadCounts.map((threads) => ({ ...trainShapes[0], threads })))));
  if (runs('tfjs-wasm', 'tfjs-wasm-materialised')) all.push(...(await jsonLines('node', ['bench/peers/tfjs_train.mjs', '20'])));
  if (runs('pytorch')) {
    if (hasTorch()) {
      // torch.set_num_threads(N) with OpenBLAS on one thread: PyTorch's best two-thread set-up
      // here (both pools at two oversubscribe the two cores).
      for (const [shape, threads] of each((shape, threads) => [shape, threads])) {
        all.push(...(await jsonLines('/usr/bin/python3', ['bench/torch_reference.py', String(steps), '--threads', String(threads), ...shapeArgs(shape)],
          { env: { OPENBLAS_NUM_THREADS: '1', OMP_NUM_THREADS: String(threads) } })));
      }
    } else {
      console.log('  (skipping PyTorch: /usr/bin/python3 has no torch)');
    }
  }
  const rows = strip(all.filter((r) => r.bench === 'train' && runs(r.impl))).map((r) => ({ threads: 1, seq_len: 64, batch: 16, ...r }));
  const profile = strip(all.filter((r) => r.bench === 'train-profile'));
  const find = (impl, threads, seq) => rows.find((r) => r.impl === impl && r.threads === threads && r.seq_len === seq);
  const torchAt = (threads, seq) => find('pytorch', threads, seq)?.tokens_per_s;
  const tfjsRate = find('tfjs-wasm', 1, 64)?.tokens_per_s;
  printTable('training (tokens/s = tokens per step / median step; reference model: seq 64 x batch 16; long: seq 1024 x batch 1)',
    ['impl', 'threads', 'seq x batch', 'tokens/s', 'step ms', 'vs 1 thread', 'vs pytorch (same threads)', 'vs tfjs-wasm'],
    rows.map((r) => [r.impl, r.threads, `${r.seq_len} x ${r.batch}`, fmt(r.tokens_per_s, 0), fmt(r.step_ms),
      r.threads > 1 ? ratio(r.tokens_per_s, find(r.impl, 1, r.seq_len)?.tokens_per_s) : '',
      ratio(r.tokens_per_s, torchAt(r.threads, r.seq_len)), r.seq_len === 64 && r.threads === 1 ? ratio(r.tokens_per_s, tfjsRate) : '']));
  const speedup = (impl, seq) => (find(impl, 2, seq) && find(impl, 1, seq) ? find(impl, 2, seq).tokens_per_s / find(impl, 1, seq).tokens_per_s : null);
  const targets = [
    ['Chromium, 2 threads vs 1 (reference model)', speedup('chromium-wasm', 64), 1.8],
    ['native, 2 threads vs 1 (reference model)', speedup('native-simd', 64), 1.8],
    ['Chromium, 2 threads vs 1 (seq 1024)', speedup('chromium-wasm', 1024), 1.7],
    ['native, 2 threads vs 1 (seq 1024)', speedup('native-simd', 1024), 1.7],
    ['Chromium 2 threads vs PyTorch 2 threads (reference model)', find('chromium-wasm', 2, 64) && torchAt(2, 64) ? find('chromium-wasm', 2, 64).tokens_per_s / torchAt(2, 64) : null, 0.85],
  ];
  printTable('training targets (ratios within this run)', ['what', 'measured', 'target', ''],
    targets.map(([what, v, target]) => [what, v == null ? '—' : `${v.toFixed(2)}x`, `>= ${target}x`, v == null ? '' : v >= target ? 'met' : `missed by ${((1 - v / target) * 100).toFixed(0)}%`]));
  const keys = [...new Set(profile.map((r) => `${r.impl} ${r.threads}t`))];
  const kinds = [...new Set(profile.map((r) => r.kind))];
  const cell = (key, kind) => {
    const r = profile.find((p) => `${p.impl} ${p.threads}t` === key && p.kind === kind);
    return r ? r.forward_ms + r.backward_ms : null;
  };
  const totals = Object.fromEntries(keys.map((k) => [k, kinds.reduce((sum, kind) => sum + (cell(k, kind) ?? 0), 0)]));
  if (keys.length) {
    printTable('profile of one training step of the reference model (ms, forward + backward)', ['layer kind', ...keys],
      [...kinds.map((k) => [k, ...keys.map((key) => fmt(cell(key, k), 2))]), ['total', ...keys.map((key) => fmt(totals[key], 2))]]);
  }
  return { rows, profile, targets: targets.map(([what, measured, target]) => ({ what, measured, target })) };
}

async function runGenerate() {
  console.log('\ngenerate: ms per token with and without the KV cache (d_model 256, 4 layers); cached at d_model 512 on 1 and 2 threads…');
  const rows = strip([
    ...(await jsonLines(nativeBench, ['generate'])),
    ...(wide ? await jsonLines(wideBench, ['generate', '--impl', 'native-wide']) : []),
    ...(await jsonLines('node', ['--no-experimental-fetch', wasmBench, 'generate'])),
  ]);
  printTable('generation, ms per token (average over N tokens from a 1-token prompt; d_model 256, 1 thread)',
    ['impl', 'tokens', 'with cache', 'without', 'speed-up', 'last token: with', 'without'],
    rows.map((r) => [r.impl, r.tokens, fmt(r.cached_ms_per_token, 3), fmt(r.uncached_ms_per_token, 2),
      ratio(r.uncached_ms_per_token, r.cached_ms_per_token), fmt(r.cached_last_ms, 3), fmt(r.uncached_last_ms, 2)]));
  const threaded = [];
  for (const threads of threadCounts) {
    threaded.push(...strip(await jsonLines(nativeBench, ['generate', '--d-model', '512', '--cached-only', '--threads', String(threads)])));
    threaded.push(...strip(await jsonLines('node', ['--no-experimental-fetch', wasmBenchFor(threads), 'generate', '--d-model', '512', '--cached-only',
      '--threads', String(threads)])));
  }
  const one = (r) => threaded.find((o) => o.impl === r.impl && o.threads === 1 && o.tokens === r.tokens);
  printTable('cached generation at d_model 512 (4 layers, d_ff 2048), ms per token',
    ['impl', 'threads', 'tokens', 'ms per token', 'last token ms', 'vs 1 thread'],
    threaded.map((r) => [r.impl, r.threads, r.tokens, fmt(r.cached_ms_per_token, 3), fmt(r.cached_last_ms, 3),
      r.threads > 1 ? ratio(one(r)?.cached_ms_per_token, r.cached_ms_per_token) : '']));
  return [...rows, ...threaded];
}

// bench/size.mjs: the page weight of a one-widget page served with brotli.
async function runSize() {
  return (await import('../bench/size.mjs')).runSize({ printTable });
}

async function runImport() {
  const { runImportSection } = await import('../bench/import/section.mjs');
  return runImportSection({ printTable });
}

// The playground page, served as the product is (web/), in headless Chromium: lm-char at full
// speed with every panel in view, and what the main thread did meanwhile.
async function runDrawing() {
  const secondsIndex = process.argv.indexOf('--seconds');
  const seconds = secondsIndex > 0 ? Number(process.argv[secondsIndex + 1]) : 120;
  console.log(`\ndrawing: the playground training lm-char for ${seconds} s with every panel in view (headless Chromium)…`);
  const { engines, launchEngine } = await import('./browsers.mjs');
  if (!existsSync(engines.chromium.executablePath)) {
    console.log(`  (skipping: ${engines.chromium.executablePath} not found)`);
    return [];
  }
  const { serveStatic } = await import('./serve.mjs');
  const { server, url } = await serveStatic();
  const launched = await launchEngine('chromium');
  try {
    const page = await launched.context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.setViewport({ width: 1440, height: 1000 });
    await page.goto(url);
    await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
    await page.select('>>> [data-testid=task]', 'lm-char');
    await page.waitForSelector('>>> #status[data-key="status.ready"]', { timeout: 60_000 });
    await page.waitForSelector('>>> [data-testid=train]:not([disabled])');
    await page.select('>>> [data-testid=speed]', '0');
    // Every panel in view: the viewport as tall as the page (measured again once the set-up has
    // drawn, as panels grow with their content).
    for (let i = 0; i < 2; ++i) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewport({ width: 1440, height: Math.min(height, 16_000) });
      await new Promise((r) => setTimeout(r, 500));
    }
    const viewport = page.viewport();
    await page.evaluate(() => {
      window.__drawing = { longTasks: [], frames: 0 };
      new PerformanceObserver((list) => window.__drawing.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
      const frame = () => { window.__drawing.frames += 1; requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    });
    const stepShown = () => page.$eval('>>> #step-text', (el) => Number.parseInt(el.textContent.replace(/[^\d\s]/g, ' ').trim().split(/\s+/)[0] ?? '0', 10));
    await page.click('>>> [data-testid=train]');
    const started = Date.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const elapsed = (Date.now() - started) / 1000;
    const { longTasks, frames } = await page.evaluate(() => window.__drawing);
    const steps = await stepShown();
    if (problems.length) throw new Error(`drawing: the page reported ${problems.join('; ')}`);
    const sorted = [...longTasks].sort((a, b) => a - b);
    const median = sorted.length ? (sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2) : null;
    const row = {
      impl: 'chromium', task: 'lm-char', seconds: Number(elapsed.toFixed(1)), viewport: `${viewport.width}x${viewport.height}`,
      steps, long_tasks: longTasks.length, longest_ms: sorted.at(-1) ?? 0, median_ms: median ?? 0,
      over_50ms: longTasks.filter((d) => d > 50).length, frames_per_s: Number((frames / elapsed).toFixed(1)),
      browser: await launched.browser.version(),
    };
    printTable('main-thread long tasks (> 50 ms by definition) while the playground trains lm-char, every panel in view (target: none)',
      ['impl', 'seconds', 'viewport', 'steps', 'long tasks', 'longest ms', 'median ms', 'frames/s'],
      [[row.impl, fmt(row.seconds, 0), row.viewport, row.steps, row.long_tasks, fmt(row.longest_ms, 0), fmt(row.median_ms, 0), fmt(row.frames_per_s)]]);
    return [row];
  } finally {
    await launched.close();
    server.close();
  }
}

async function main() {
  // The peer (PyTorch with OpenBLAS's threaded build) and the browsers, if missing.
  const setup = spawnSync('bash', ['scripts/setup.sh', '--bench'], { cwd: root, stdio: 'inherit' });
  if (setup.status !== 0) throw new Error('scripts/setup.sh --bench failed');
  // Sections that only open the page need no native build, and the web module only if it is
  // missing (web/lib/wasm, what `npm run build:wasm` writes).
  const web = chosen.every((name) => sections[name].web);
  if (!web) buildNative();
  // The wide build only where a chosen section runs it.
  if (wide && (chosen.includes('matmul') || chosen.includes('generate') || (chosen.includes('train') && runs('native-wide')))) buildNative({ wide: true });
  if (!web || !existsSync(path.join(root, 'web/lib/wasm/transformer_playground.wasm'))) buildWasm();
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
      load_average: os.loadavg(),
      wide,
    },
  };
  // The clock moves on a shared machine, and every absolute figure moves with it.
  const clock = async () => (existsSync(path.join(root, nativeBench)) ? (await jsonLines(nativeBench, ['peak']))[0]?.clock_ghz ?? null : null);
  results.env.clock_ghz_start = await clock();
  for (const name of chosen) {
    const out = await sections[name].run();
    if (name === 'train') {
      // With --impls, the rows of the other implementations keep their previous figures.
      const keep = (old = []) => old.filter((r) => implsChosen && !implsChosen.includes(r.impl));
      results.train = [...keep(previous.train), ...out.rows];
      results.train_profile = [...keep(previous.train_profile), ...out.profile];
      results.train_targets = out.targets;
    } else if (name === 'matmul') {
      results.matmul = out.rows;
      results.matmul_kernel_peak = out.peaks;
    } else {
      results[name] = out;
    }
  }
  results.env.clock_ghz_end = await clock();
  results.env.load_average_end = os.loadavg();
  if (results.env.clock_ghz_start != null) {
    console.log(`\ncore clock ≈ ${results.env.clock_ghz_start} GHz at the start, ${results.env.clock_ghz_end} GHz at the end ` +
      `(x86 imul chain; absolute GFLOP/s and tokens/s scale with it)`);
  }
  mkdirSync(path.dirname(file), { recursive: true });
  writeFileSync(file, `${JSON.stringify(results, null, 1)}\n`);
  console.log(`\nwrote bench/results/latest.json`);
}

main().catch((e) => {
  console.error(`bench: ${e.message}`);
  process.exit(1);
});
