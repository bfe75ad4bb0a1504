// The `train` section: tokens/s training the reference model (decoder-only, d_model 128, 4 heads,
// 2 layers, d_ff 512, vocab 65, learned positions, pre-LayerNorm, GELU, untied head, AdamW with
// clipping) at seq 64 x batch 16, and the same model on one 1024-token sequence (seq 1024 x
// batch 1: the same 1024 tokens a step, attention sixteen times longer), at 1 and 2 threads.
//
// Ours: native (128-bit path, and the wide AVX2/AVX-512 path where the CPU has it), wasm in Node
// (the threaded build for 2), wasm in headless Chromium and Firefox ESR (bench/browser/train.html:
// the public JS API in a module worker, the page cross-origin isolated). Peers: PyTorch
// (bench/torch_reference.py) in its best set-up on this machine, and tfjs-wasm
// (bench/peers/tfjs_train.mjs) as written naturally or with transposes materialised, whichever is
// faster. Each peer's set-ups are first measured in rounds of their own and the best becomes the
// row (the others are printed beside it); then every row is measured in interleaved rounds
// (harness/rounds.mjs) and each ratio comes from pairs of the same round.
//
// Options: --impls a,b (rows of these implementations only), --steps N (timed steps a
// measurement; default 30, tfjs a third of it), --shapes 64x16,1024x1, --threads 1,2.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { spawnSync } from 'node:child_process';
import { chooseBest, measureRounds, ratioCell, roundHeader } from '../harness/rounds.mjs';
import { jsonRow, jsonLines } from '../harness/run.mjs';
import { count, fmt, printTable } from '../harness/table.mjs';
import { wholeNumber, wholeNumbers } from '../harness/options.mjs';

export const impls = ['native-simd', 'native-wide', 'wasm-simd', 'chromium-wasm', 'firefox-wasm', 'pytorch', 'tfjs-wasm'];

const label = {
  'native-simd': 'native, 128-bit path',
  'native-wide': 'native, wide path (AVX2/AVX-512)',
  'wasm-simd': 'wasm in Node',
  'chromium-wasm': 'wasm in Chromium (module worker, public API)',
  'firefox-wasm': 'wasm in Firefox ESR (module worker, public API)',
  pytorch: 'PyTorch',
  'tfjs-wasm': 'tfjs, wasm backend',
};

const parseShapes = (s) => s.split(',').map((x) => {
  const [seq, batch] = x.split('x').map(Number);
  if (!(Number.isInteger(seq) && seq > 0 && Number.isInteger(batch) && batch > 0)) throw new Error(`--shapes: '${x}' is not SEQxBATCH in whole numbers (e.g. 64x16)`);
  return { seq, batch };
});
const shapeName = ({ seq, batch }) => `${seq}x${batch}`;
const shapeArgs = ({ seq, batch }) => ['--seq', String(seq), '--batch', String(batch)];

function hasTorch() {
  if (!existsSync('/usr/bin/python3')) return false;
  return spawnSync('/usr/bin/python3', ['-c', 'import torch'], { stdio: 'ignore' }).status === 0;
}

// PyTorch's set-ups on this machine: intra-op threads (OpenMP in Debian's build) and OpenBLAS's
// own pool, 1 or 2 each; OMP_WAIT_POLICY=PASSIVE (OpenMP's threads sleep at once instead of
// spinning between regions) where an OpenMP team of more than one thread exists; and
// OPENBLAS_CORETYPE as the machine's environment sets it, or unset (OpenBLAS then picks this
// CPU's own kernels), changed in that command only. A set-up of at most N threads competes for
// the N-thread row.
export function torchSetups(env = process.env) {
  const coretypes = env.OPENBLAS_CORETYPE ? [env.OPENBLAS_CORETYPE, null] : [null];
  const setups = [];
  for (const [intra, blas] of [[1, 1], [2, 1], [1, 2], [2, 2]]) {
    for (const passive of intra > 1 ? [false, true] : [false]) {
      for (const coretype of coretypes) {
        const name = [`intra-op ${intra}`, `OpenBLAS ${blas}`, ...(passive ? ['PASSIVE'] : []),
          coretype ? `CORETYPE=${coretype}` : 'CORETYPE unset'].join(', ');
        const env2 = { OPENBLAS_NUM_THREADS: String(blas), OMP_NUM_THREADS: String(intra), ...(passive ? { OMP_WAIT_POLICY: 'PASSIVE' } : {}) };
        setups.push({ name, intra, blas, passive, coretype, threads: Math.max(intra, blas), env: env2, unset: coretype ? [] : ['OPENBLAS_CORETYPE'] });
      }
    }
  }
  return setups;
}

export async function run(ctx) {
  const { root, args, wide } = ctx;
  const steps = wholeNumber(args, '--steps', 30, { min: 3 });
  const shapes = parseShapes(args.get('--shapes') ?? '64x16,1024x1');
  const threadCounts = wholeNumbers(args, '--threads', [1, 2], { max: 4 });
  const chosen = args.get('--impls')?.split(',') ?? impls;
  for (const impl of chosen) {
    if (!impls.includes(impl)) throw new Error(`--impls: unknown '${impl}'; allowed: ${impls.join(', ')}`);
  }
  const runs = (impl) => chosen.includes(impl) && (impl !== 'native-wide' || wide);
  const nativeBench = path.join(root, 'build/native/tp_bench'), wideBench = path.join(root, 'build/native-wide/tp_bench');
  const wasmBench = (threads) => path.join(root, threads > 1 ? 'build/wasm-threads/tp_bench.cjs' : 'build/wasm/tp_bench.cjs');
  const tpArgs = (threads, shape, n = steps) => ['train', '--reps', String(n), '--threads', String(threads), ...shapeArgs(shape)];
  const value = (r) => r.tokens_per_s;
  const browsers = ctx.browsers;

  // How each of our rows is measured.
  const ours = {
    'native-simd': (threads, shape) => jsonRow(nativeBench, tpArgs(threads, shape), { cwd: root }, 'train'),
    'native-wide': (threads, shape) => jsonRow(wideBench, [...tpArgs(threads, shape), '--impl', 'native-wide'], { cwd: root }, 'train'),
    'wasm-simd': (threads, shape) => jsonRow('node', ['--no-experimental-fetch', wasmBench(threads), ...tpArgs(threads, shape)], { cwd: root }, 'train'),
    'chromium-wasm': (threads, shape) => browsers.page('chromium', `train.html?steps=${steps}&impl=chromium-wasm&threads=${threads}&seq=${shape.seq}&batch=${shape.batch}`),
    'firefox-wasm': (threads, shape) => browsers.page('firefox', `train.html?steps=${steps}&impl=firefox-wasm&threads=${threads}&seq=${shape.seq}&batch=${shape.batch}`),
  };
  for (const engine of ['chromium', 'firefox']) {
    if (runs(`${engine}-wasm`) && !(await browsers.available(engine))) {
      console.log(`  (no ${engine} here: its rows are skipped)`);
      chosen.splice(chosen.indexOf(`${engine}-wasm`), 1);
    }
  }
  const torch = runs('pytorch') && hasTorch();
  if (runs('pytorch') && !torch) console.log('  (skipping PyTorch: /usr/bin/python3 has no torch)');
  const torchRun = (setup, shape, n) => jsonRow('/usr/bin/python3', ['bench/torch_reference.py', String(n), '--threads', String(setup.intra), ...shapeArgs(shape)],
    { cwd: root, env: setup.env, unset: setup.unset }, 'train').then((r) => ({ ...r, setup: setup.name }));
  const tfjsSteps = Math.max(3, Math.round(steps / 3));
  const tfjsRun = (variant, shape, n) => jsonRow('node', ['bench/peers/tfjs_train.mjs', String(n), variant, ...shapeArgs(shape)], { cwd: root }, 'train')
    .then((r) => ({ ...r, setup: variant === 'natural' ? 'as written naturally' : 'transposes materialised' }));

  console.log(`\ntrain: tokens/s (tokens a step / median step time of ${steps} timed steps after warm-up), shapes ${shapes.map(shapeName).join(', ')}, threads ${threadCounts.join(', ')}`);
  const logRow = (row, r) => `${row.key}: ${count(r.tokens_per_s)} tokens/s${r.setup ? ` (${r.setup})` : ''}`;

  // 1. The peers' set-ups, in rounds of their own (a third of the steps each).
  const setupRounds = [];
  const best = {};  // `${peer} ${threads}t ${shape}` -> candidate
  if (torch) {
    const candidates = torchSetups().flatMap((setup) => shapes.map((shape) => ({
      key: `pytorch [${setup.name}] ${shapeName(shape)}`, side: 'peer', setup, shape,
      group: threadCounts.filter((t) => t >= setup.threads).map((t) => `pytorch ${t}t ${shapeName(shape)}`),
      measure: () => torchRun(setup, shape, Math.max(5, Math.round(steps / 3))), value,
      info: { impl: 'pytorch', setup: setup.name, threads: setup.threads, seq_len: shape.seq, batch: shape.batch },
    })));
    console.log(`  PyTorch: ${candidates.length / shapes.length} set-ups per shape, in rounds of their own…`);
    const chose = await chooseBest(ctx, { title: 'PyTorch set-ups', candidates, log: logRow });
    setupRounds.push({ peer: 'pytorch', measured: chose.measured, candidates });
    Object.assign(best, chose.best);
  }
  if (runs('tfjs-wasm')) {
    const candidates = ['natural', 'materialised'].flatMap((variant) => shapes.map((shape) => ({
      key: `tfjs-wasm [${variant}] ${shapeName(shape)}`, side: 'peer', variant, shape, group: [`tfjs-wasm 1t ${shapeName(shape)}`],
      measure: () => tfjsRun(variant, shape, Math.max(3, Math.round(tfjsSteps / 2))), value,
      info: { impl: 'tfjs-wasm', setup: variant, threads: 1, seq_len: shape.seq, batch: shape.batch },
    })));
    console.log('  tfjs-wasm: both ways of writing it, in rounds of their own…');
    const chose = await chooseBest(ctx, { title: 'tfjs set-ups', candidates, log: logRow });
    setupRounds.push({ peer: 'tfjs-wasm', measured: chose.measured, candidates });
    Object.assign(best, chose.best);
  }

  // 2. Every row, interleaved.
  const rows = [];
  for (const shape of shapes) {
    for (const threads of threadCounts) {
      for (const impl of Object.keys(ours).filter(runs)) {
        rows.push({ key: `${impl} ${threads}t ${shapeName(shape)}`, side: 'ours', impl, threads, shape,
          measure: () => ours[impl](threads, shape), value, info: { impl, threads, seq_len: shape.seq, batch: shape.batch } });
      }
      const peerKey = `pytorch ${threads}t ${shapeName(shape)}`;
      if (best[peerKey]) {
        const { setup } = best[peerKey];
        rows.push({ key: peerKey, side: 'peer', impl: 'pytorch', threads, shape, setup: setup.name,
          measure: () => torchRun(setup, shape, steps), value, info: { impl: 'pytorch', threads, setup: setup.name, seq_len: shape.seq, batch: shape.batch } });
      }
      const tfjsKey = `tfjs-wasm ${threads}t ${shapeName(shape)}`;
      if (threads === 1 && best[tfjsKey]) {
        const { variant } = best[tfjsKey];
        rows.push({ key: tfjsKey, side: 'peer', impl: 'tfjs-wasm', threads: 1, shape, setup: variant,
          measure: () => tfjsRun(variant, shape, tfjsSteps), value, info: { impl: 'tfjs-wasm', threads: 1, setup: variant, seq_len: shape.seq, batch: shape.batch } });
      }
    }
  }
  console.log(`  ${rows.length} rows in interleaved rounds…`);
  const measured = await measureRounds(ctx, { title: 'train', rows, log: logRow });

  // 3. Tables.
  const keyOf = (impl, threads, shape) => `${impl} ${threads}t ${shapeName(shape)}`;
  const has = (key) => rows.some((r) => r.key === key);
  const versions = (key) => {
    const s = measured.sample(key);
    if (!s) return '';
    if (s.torch) return `torch ${s.torch}, ${s.openblas ? s.openblas.config.split(' ').slice(0, 2).join(' ') + ` (${s.openblas.core} kernels)` : path.basename(path.dirname(s.blas))}`;
    if (s.tfjs) return `tfjs ${s.tfjs}, ${s.backend}`;
    if (s.browser) return s.browser;
    return '';
  };
  for (const shape of shapes) {
    const shapeRows = rows.filter((r) => r.shape === shape);
    const table = shapeRows.map((r) => {
      const s = measured.stats(r.key);
      const err = measured.error(r.key);
      const torchKey = keyOf('pytorch', r.threads, shape), tfjsKey = keyOf('tfjs-wasm', 1, shape);
      return [`${label[r.impl]}${r.side === 'peer' ? ` — ${r.setup}` : ''}`, r.threads, err && s.n === 0 ? `failed: ${err.slice(0, 60)}` : count(s.median),
        s.n ? `${count(s.min)}–${count(s.max)}` : '—', s.spread == null ? '—' : `${Math.round(100 * s.spread)}%`, s.n,
        r.side === 'ours' && has(torchKey) ? ratioCell(measured.ratio(r.key, torchKey)) : '',
        r.side === 'ours' && r.threads === 1 && has(tfjsKey) ? ratioCell(measured.ratio(r.key, tfjsKey)) : '',
        r.threads > 1 && has(keyOf(r.impl, 1, shape)) ? ratioCell(measured.ratio(r.key, keyOf(r.impl, 1, shape))) : '', versions(r.key)];
    });
    printTable(`training, seq ${shape.seq} x batch ${shape.batch} (tokens/s: median of ${measured.used.length} interleaved rounds${measured.marked ? ', SOME LOADED' : ''}, range; ratios: median and range of the per-round ratios)`,
      ['impl', 'threads', 'tokens/s', 'range', 'spread', 'rounds', 'vs PyTorch (same threads)', 'vs tfjs', 'vs 1 thread', 'versions'], table);
  }
  for (const { peer, measured: m, candidates } of setupRounds) {
    const chosenFor = (c) => Object.entries(best).filter(([, v]) => v === c).map(([k]) => k.split(' ')[1]).join(', ');
    printTable(`${peer} set-ups (median of ${m.used.length} rounds of their own${m.marked ? ', SOME LOADED' : ''}; the best of at most N threads is the N-thread row)`,
      ['set-up', 'seq x batch', 'tokens/s', 'range', 'row for'],
      candidates.map((c) => {
        const s = m.stats(c.key);
        return [c.setup?.name ?? (c.variant === 'natural' ? 'as written naturally' : 'transposes materialised'), shapeName(c.shape), count(s.median),
          s.n ? `${count(s.min)}–${count(s.max)}` : '—', chosenFor(c)];
      }));
  }
  const ref = shapes[0], long = shapes.find((s) => s.seq === 1024);
  const targetList = [
    ['Firefox 1T vs Chromium 1T (reference model)', keyOf('firefox-wasm', 1, ref), keyOf('chromium-wasm', 1, ref), 0.9],
    ['Chromium 2T vs 1T (reference model)', keyOf('chromium-wasm', 2, ref), keyOf('chromium-wasm', 1, ref), 1.8],
    ['Firefox 2T vs 1T (reference model)', keyOf('firefox-wasm', 2, ref), keyOf('firefox-wasm', 1, ref), null],
    ['Node 2T vs 1T (reference model)', keyOf('wasm-simd', 2, ref), keyOf('wasm-simd', 1, ref), null],
    ['native 2T vs 1T (reference model)', keyOf('native-simd', 2, ref), keyOf('native-simd', 1, ref), 1.8],
    ...(long ? [['Chromium 2T vs 1T (seq 1024)', keyOf('chromium-wasm', 2, long), keyOf('chromium-wasm', 1, long), 1.7],
      ['native 2T vs 1T (seq 1024)', keyOf('native-simd', 2, long), keyOf('native-simd', 1, long), 1.7]] : []),
    ['Chromium 2T vs PyTorch best 2T (reference model)', keyOf('chromium-wasm', 2, ref), keyOf('pytorch', 2, ref), 0.85],
  ].filter(([, a, b]) => has(a) && has(b));
  const targets = targetList.map(([what, a, b, target]) => ({ what, num: a, den: b, target, ...measured.ratio(a, b) }));
  if (targets.length) {
    printTable('ratios within this run (median of the per-round ratios, range)', ['what', 'measured', 'range', 'target', ''],
      targets.map((t) => [t.what, t.median == null ? '—' : `${t.median.toFixed(2)}x`, t.n ? `${t.min.toFixed(2)}–${t.max.toFixed(2)}` : '—',
        t.target ? `>= ${t.target}x` : '', t.median == null || !t.target ? '' : t.median >= t.target ? 'met' : `missed by ${((1 - t.median / t.target) * 100).toFixed(0)}%`]));
  }
  printTable('the rounds of the train rows', roundHeader, measured.roundRows());

  // 4. The profile of one step (not part of the comparison): per layer kind, and the pool's
  //    regions, natively and in Node at 1 and 2 threads.
  const profile = [];
  if (runs('native-simd') || runs('wasm-simd')) {
    for (const threads of threadCounts) {
      if (runs('native-simd')) profile.push(...(await jsonLines(nativeBench, [...tpArgs(threads, ref, 20), '--profile'], { cwd: root })).filter((r) => r.bench !== 'train'));
      if (runs('wasm-simd')) profile.push(...(await jsonLines('node', ['--no-experimental-fetch', wasmBench(threads), ...tpArgs(threads, ref, 20), '--profile'], { cwd: root })).filter((r) => r.bench !== 'train'));
    }
    printProfile(profile);
  }
  return {
    steps, shapes: shapes.map(shapeName), threads: threadCounts,
    setups: Object.fromEntries(setupRounds.map(({ peer, measured: m }) => [peer, m.toJSON()])),
    best: Object.fromEntries(Object.entries(best).map(([k, c]) => [k, c.key])),
    rounds: measured.toJSON(), targets, profile,
  };
}

function printProfile(profile) {
  const layer = profile.filter((r) => r.bench === 'train-profile');
  const keys = [...new Set(layer.map((r) => `${r.impl} ${r.threads}t`))];
  const kinds = [...new Set(layer.map((r) => r.kind))];
  if (!keys.length) return;
  const cell = (key, kind) => {
    const r = layer.find((p) => `${p.impl} ${p.threads}t` === key && p.kind === kind);
    return r ? r.forward_ms + r.backward_ms : null;
  };
  printTable('profile of one training step of the reference model (ms, forward + backward; one run, not interleaved)', ['layer kind', ...keys],
    [...kinds.map((k) => [k, ...keys.map((key) => fmt(cell(key, k), 2))]),
      ['total', ...keys.map((key) => fmt(kinds.reduce((s, k) => s + (cell(key, k) ?? 0), 0), 2))]]);
  const pool = profile.filter((r) => r.bench === 'train-pool');
  if (pool.length) {
    printTable('the thread pool in one training step of the reference model (per step)', ['impl', 'threads', 'step ms', 'regions', 'tasks',
      'of which the caller ran', 'ms in regions', 'ms the caller waited', 'caller sleeps', 'worker sleeps'],
    pool.map((r) => [r.impl, r.threads, fmt(r.step_ms, 1), fmt(r.regions, 0), fmt(r.tasks, 0), fmt(r.caller_tasks, 0), fmt(r.region_ms, 1),
      fmt(r.caller_wait_ms, 2), fmt(r.caller_sleeps, 1), fmt(r.worker_sleeps, 1)]));
  }
}
