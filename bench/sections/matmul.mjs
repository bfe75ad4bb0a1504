// The `matmul` section: GFLOP/s of tp's matmul (scalar reference, native 128-bit, native wide,
// wasm SIMD128 in Node) beside @tensorflow/tfjs-backend-wasm (XNNPACK) at the same shapes and
// forms, 1 thread, and each build's micro-kernel peak. Each program measures every shape in one
// run; the programs run in interleaved rounds (harness/rounds.mjs) and every figure is the
// median of its rounds, each ratio the median of the per-round ratios.
import path from 'node:path';
import { measureRounds, ratioCell, roundHeader } from '../harness/rounds.mjs';
import { jsonLines } from '../harness/run.mjs';
import { fmt, printTable } from '../harness/table.mjs';
import { median } from '../harness/stats.mjs';
import { wholeNumber } from '../harness/options.mjs';

// The transformer shapes of a training step (dModel 128..512, 1024 tokens, vocab 65).
const transformerShapes = ['1024x128x384', '1024x128x512', '1024x512x128', '128x1024x512', '1024x128x65'];
const shapeKey = (r) => `${r.m}x${r.k}x${r.n} ${r.form}`;

export async function run(ctx) {
  const { root, wide } = ctx;
  const reps = String(wholeNumber(ctx.args, '--reps', 7));
  const nativeBench = path.join(root, 'build/native/tp_bench'), wideBench = path.join(root, 'build/native-wide/tp_bench');
  const wasmBench = path.join(root, 'build/wasm/tp_bench.cjs');
  const onShapes = (rows) => median(rows.filter((r) => transformerShapes.includes(`${r.m}x${r.k}x${r.n}`)).map((r) => r.gflops));
  const program = (key, side, cmd, args, keep = () => true) => ({
    key, side, info: { impl: key },
    measure: async () => ({ rows: (await jsonLines(cmd, args, { cwd: root })).filter(keep).map(({ bench, ...r }) => r) }),
    value: (res) => onShapes(res.rows),
  });
  const rows = [
    program('native-simd', 'ours', nativeBench, ['matmul', '--reps', reps]),
    ...(wide ? [program('native-wide', 'ours', wideBench, ['matmul', '--reps', reps, '--impl', 'native-wide'], (r) => r.impl !== 'scalar')] : []),
    program('wasm-simd', 'ours', 'node', ['--no-experimental-fetch', wasmBench, 'matmul', '--reps', reps], (r) => r.impl !== 'scalar'),
    program('tfjs-wasm', 'peer', 'node', ['bench/peers/tfjs_matmul.mjs', reps]),
  ];
  const peaks = [
    program('peak native-simd', 'ours', nativeBench, ['peak']),
    ...(wide ? [program('peak native-wide', 'ours', wideBench, ['peak', '--impl', 'native-wide'])] : []),
    program('peak wasm-simd', 'ours', 'node', ['--no-experimental-fetch', wasmBench, 'peak']),
  ].map((p) => ({ ...p, value: (res) => res.rows[0]?.gflops }));
  console.log(`\nmatmul: GFLOP/s, medians of ${reps} timed repetitions a run, programs in interleaved rounds…`);
  const measured = await measureRounds(ctx, { title: 'matmul', rows: [...rows, ...peaks] });

  // Every figure of a program's run, by impl and shape.
  const sample = measured.sample('native-simd')?.rows ?? [];
  const keys = [...new Set(sample.map(shapeKey))];
  const pick = (impl, key) => (res) => res.rows.find((r) => r.impl === impl && shapeKey(r) === key)?.gflops;
  const implsOf = [['scalar', 'native-simd'], ['native-simd', 'native-simd'], ...(wide ? [['native-wide', 'native-wide']] : []),
    ['wasm-simd', 'wasm-simd'], ['tfjs-wasm', 'tfjs-wasm']];
  const fig = (impl, program, key) => measured.stats(program, pick(impl, key)).median;
  const peak = (program) => measured.stats(`peak ${program}`).median;
  printTable(`matmul GFLOP/s (M x K x N, form; 1 thread; median of ${measured.used.length} rounds${measured.marked ? ', SOME LOADED' : ''})`,
    ['shape', ...implsOf.map(([i]) => i), 'wasm vs tfjs', 'wasm % of kernel peak'],
    keys.map((k) => [k, ...implsOf.map(([impl, prog]) => fmt(fig(impl, prog, k))),
      ratioCell(measured.ratio('wasm-simd', 'tfjs-wasm', pick('wasm-simd', k), pick('tfjs-wasm', k))),
      fig('wasm-simd', 'wasm-simd', k) && peak('wasm-simd') ? `${Math.round((100 * fig('wasm-simd', 'wasm-simd', k)) / peak('wasm-simd'))}%` : '—']));
  printTable('micro-kernel alone, operands in L1 (the ceiling of the rows above)', ['impl', 'GFLOP/s', 'range'],
    peaks.map((p) => {
      const s = measured.stats(p.key);
      return [p.key.slice(5), fmt(s.median), s.n ? `${fmt(s.min)}–${fmt(s.max)}` : '—'];
    }));
  const summaryRows = implsOf.filter(([i]) => i !== 'scalar').map(([impl, prog]) => [impl, ...['nn', 'nt', 'tn'].map((form) => {
    const v = keys.filter((k) => k.endsWith(form) && transformerShapes.includes(k.split(' ')[0])).map((k) => fig(impl, prog, k)).filter((x) => x != null);
    return v.length ? `${fmt(Math.min(...v))}..${fmt(Math.max(...v))}` : '—';
  })]);
  printTable('at the transformer shapes (min..max GFLOP/s of the medians)', ['impl', 'nn', 'nt', 'tn'], summaryRows);
  printTable('the rounds of the matmul rows', roundHeader, measured.roundRows());
  return measured.toJSON();
}
