// The `kernels` section: every other kernel of a training step at the reference model's shapes —
// time, GB/s and op-GFLOP/s — beside the two roofs of the same build (micro-kernel peak,
// streaming add), native and wasm in Node, 1 thread. No peer: each build against its own roofs.
// The programs run in rounds (harness/rounds.mjs); each figure is the median of the rounds.
import path from 'node:path';
import { measureRounds, roundHeader } from '../harness/rounds.mjs';
import { jsonLines } from '../harness/run.mjs';
import { fmt, printTable } from '../harness/table.mjs';

export async function run(ctx) {
  const { root } = ctx;
  const nativeBench = path.join(root, 'build/native/tp_bench'), wasmBench = path.join(root, 'build/wasm/tp_bench.cjs');
  const program = (impl, cmd, pre) => ({
    key: impl, side: 'ours', info: { impl },
    measure: async () => ({
      rows: [...(await jsonLines(cmd, [...pre, 'peak'], { cwd: root })), ...(await jsonLines(cmd, [...pre, 'kernels'], { cwd: root }))].map(({ bench, ...r }) => r),
    }),
    value: (res) => res.rows.reduce((s, r) => s + (r.us ?? 0), 0),
  });
  const rows = [program('native-simd', nativeBench, []), program('wasm-simd', 'node', ['--no-experimental-fetch', wasmBench])];
  console.log('\nkernels: the row kernels of a training step, best of 7 timings a run, in rounds…');
  const measured = await measureRounds(ctx, { title: 'kernels', rows, better: 'lower' });
  const impls = rows.map((r) => r.key);
  const names = [...new Set((measured.sample('native-simd')?.rows ?? []).filter((r) => r.kernel && r.us != null).map((r) => r.kernel))];
  const field = (name, f) => (res) => res.rows.find((r) => r.kernel === name)?.[f];
  const med = (impl, name, f) => measured.stats(impl, field(name, f)).median;
  const peak = (impl) => measured.stats(impl, (res) => res.rows.find((r) => r.gflops != null)?.gflops).median;
  const header = ['kernel', ...impls.flatMap((i) => [`${i} µs`, 'GB/s', '% mem roof', 'op-GFLOP/s', '% peak'])];
  printTable(`row kernels (1 thread; % of the same build's micro-kernel peak and streaming-add bandwidth; median of ${measured.used.length} rounds)`, header,
    names.map((n) => [n, ...impls.flatMap((i) => {
      const us = med(i, n, 'us');
      if (us == null) return ['—', '—', '—', '—', '—'];
      const gb = med(i, n, 'gbytes_per_s'), op = med(i, n, 'op_gflops'), roof = med(i, 'stream add (memory roof)', 'gbytes_per_s');
      return [fmt(us), fmt(gb), roof ? `${Math.round((100 * gb) / roof)}%` : '—', fmt(op), peak(i) ? `${Math.round((100 * op) / peak(i))}%` : '—'];
    })]));
  printTable('the rounds of the kernels rows', roundHeader, measured.roundRows());
  return measured.toJSON();
}
