// The `engines` section: the same benchmark program, tp_bench_web.mjs (the objects of
// build/wasm/tp_bench.cjs, bench/browser/tp-bench.html), in headless Chromium and Firefox ESR,
// in interleaved rounds: GFLOP/s of one product at each transformer shape and form, and the
// reference model's training step with its per-layer profile. Where one engine is slower, the
// rows say which kernel is; `perf` over the worker thread then says why (docs/PERFORMANCE.md,
// "Firefox").
//
// Options: --builds wasm,NAME (folders under build/ holding a tp_bench_web.mjs: an A/B of two
// builds in both engines; default wasm), --engines chromium,firefox.
import { existsSync } from 'node:fs';
import path from 'node:path';
import { measureRounds, ratioCell, roundHeader } from '../harness/rounds.mjs';
import { fmt, printTable } from '../harness/table.mjs';

const products = [['1024x128x512', 'nt'], ['1024x512x128', 'nn'], ['512x128x1024', 'tn'], ['64x64x32', 'nt']];

export async function run(ctx) {
  const { root, args, browsers } = ctx;
  const builds = String(args.get('--builds') ?? 'wasm').split(',');
  for (const b of builds) {
    if (!/^[\w-]+$/.test(b) || !existsSync(path.join(root, 'build', b, 'tp_bench_web.mjs'))) throw new Error(`--builds: no build/${b}/tp_bench_web.mjs`);
  }
  const engines = [];
  for (const e of String(args.get('--engines') ?? 'chromium,firefox').split(',')) {
    if (await browsers.available(e)) engines.push(e);
    else console.log(`  (no ${e} here: its rows are skipped)`);
  }
  const page = (engine, build, list) => browsers.page(engine, `tp-bench.html?build=${build}&args=${list.join(',')}`);
  const rows = [];
  for (const build of builds) {
    for (const engine of engines) {
      const key = `${engine} ${build}`;
      rows.push({
        key, side: 'ours', info: { engine, build },
        // A fixed amount of work per product (about 0.4 GFLOP), then five training steps.
        measure: async () => {
          const out = [];
          for (const [shape, form] of products) {
            const [m, k, n] = shape.split('x').map(Number);
            const calls = Math.max(4, Math.round(4e8 / (2 * m * k * n)));
            out.push(...(await page(engine, build, ['matmul', '--shape', shape, '--form', form, '--calls', String(calls)])).rows);
          }
          const train = await page(engine, build, ['train', '--reps', '5', '--warmup', '2', '--profile']);
          return { rows: [...out, ...train.rows], browser: train.browser };
        },
        value: (r) => r.rows.find((x) => x.bench === 'train')?.tokens_per_s,
      });
    }
  }
  console.log(`\nengines: tp_bench_web.mjs (${builds.join(', ')}) in ${engines.join(' and ')}, in interleaved rounds…`);
  const measured = await measureRounds(ctx, { title: 'engines', rows });
  const gflops = (shape, form) => (r) => r.rows.find((x) => x.bench === 'matmul' && `${x.m}x${x.k}x${x.n}` === shape && x.form === form)?.gflops;
  const layer = (kind) => (r) => {
    const p = r.rows.find((x) => x.bench === 'train-profile' && x.kind === kind);
    return p ? p.forward_ms + p.backward_ms : null;
  };
  const first = rows[0]?.key;
  printTable(`the same module in each engine (median of ${measured.used.length} interleaved rounds${measured.marked ? ', SOME LOADED' : ''})`,
    ['what', ...rows.map((r) => r.key), ...rows.slice(1).map((r) => `${r.key} vs ${first}`)],
    [
      ...products.map(([shape, form]) => [`matmul ${shape} ${form}, GFLOP/s`, ...rows.map((r) => fmt(measured.stats(r.key, gflops(shape, form)).median)),
        ...rows.slice(1).map((r) => ratioCell(measured.ratio(r.key, first, gflops(shape, form))))]),
      ['training, tokens/s', ...rows.map((r) => fmt(measured.stats(r.key).median, 0)), ...rows.slice(1).map((r) => ratioCell(measured.ratio(r.key, first)))],
    ]);
  const kinds = [...new Set((measured.sample(first)?.rows ?? []).filter((x) => x.bench === 'train-profile').map((x) => x.kind))];
  if (kinds.length) {
    printTable('one training step by layer kind (ms, forward + backward)', ['layer kind', ...rows.map((r) => r.key)],
      kinds.map((k) => [k, ...rows.map((r) => fmt(measured.stats(r.key, layer(k)).median, 2))]));
  }
  const versions = rows.map((r) => `${r.key}: ${measured.sample(r.key)?.browser ?? '—'}`).join('; ');
  console.log(versions);
  printTable('the rounds of the engines rows', roundHeader, measured.roundRows());
  return measured.toJSON();
}
