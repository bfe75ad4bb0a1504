// The `generate` section: ms per token with and without the KV cache at 64, 256 and 1024 tokens
// (decoder-only, d_model 256, 4 layers), native and wasm; cached at d_model 512 on 1 and 2
// threads. Each program measures every length in one run; the programs run in interleaved
// rounds (harness/rounds.mjs), figures are medians of the rounds and the 2-thread speed-ups
// medians of per-round ratios.
import path from 'node:path';
import { measureRounds, ratioCell, roundHeader } from '../harness/rounds.mjs';
import { jsonLines } from '../harness/run.mjs';
import { fmt, printTable } from '../harness/table.mjs';

export async function run(ctx) {
  const { root, wide } = ctx;
  const nativeBench = path.join(root, 'build/native/tp_bench'), wideBench = path.join(root, 'build/native-wide/tp_bench');
  const wasmBench = (threads) => path.join(root, threads > 1 ? 'build/wasm-threads/tp_bench.cjs' : 'build/wasm/tp_bench.cjs');
  const program = (key, cmd, args, info) => ({
    key, side: 'ours', info,
    measure: async () => ({ rows: (await jsonLines(cmd, args, { cwd: root })).map(({ bench, ...r }) => r) }),
    value: (res) => res.rows.find((r) => r.tokens === 256)?.cached_ms_per_token,
  });
  const plain = [
    program('native-simd', nativeBench, ['generate'], { impl: 'native-simd', d_model: 256 }),
    ...(wide ? [program('native-wide', wideBench, ['generate', '--impl', 'native-wide'], { impl: 'native-wide', d_model: 256 })] : []),
    program('wasm-simd', 'node', ['--no-experimental-fetch', wasmBench(1), 'generate'], { impl: 'wasm-simd', d_model: 256 }),
  ];
  const threaded = [1, 2].flatMap((threads) => [
    program(`native-simd ${threads}t d512`, nativeBench, ['generate', '--d-model', '512', '--cached-only', '--threads', String(threads)], { impl: 'native-simd', threads, d_model: 512 }),
    program(`wasm-simd ${threads}t d512`, 'node', ['--no-experimental-fetch', wasmBench(threads), 'generate', '--d-model', '512', '--cached-only', '--threads', String(threads)],
      { impl: 'wasm-simd', threads, d_model: 512 }),
  ]);
  console.log('\ngenerate: ms per token with and without the KV cache (d_model 256, 4 layers); cached at d_model 512 on 1 and 2 threads, in interleaved rounds…');
  const measured = await measureRounds(ctx, { title: 'generate', rows: [...plain, ...threaded], better: 'lower' });
  const at = (tokens, field) => (res) => res.rows.find((r) => r.tokens === tokens)?.[field];
  const lengths = [64, 256, 1024];
  const med = (key, tokens, field) => measured.stats(key, at(tokens, field)).median;
  printTable(`generation, ms per token (average over N tokens from a 1-token prompt; d_model 256, 1 thread; median of ${measured.used.length} rounds${measured.marked ? ', SOME LOADED' : ''})`,
    ['impl', 'tokens', 'with cache', 'range', 'without', 'speed-up', 'last token: with', 'without'],
    plain.flatMap((p) => lengths.map((n) => {
      const s = measured.stats(p.key, at(n, 'cached_ms_per_token'));
      const without = med(p.key, n, 'uncached_ms_per_token');
      return [p.key, n, fmt(s.median, 3), s.n ? `${fmt(s.min, 3)}–${fmt(s.max, 3)}` : '—', fmt(without, 2),
        // Per round: without / with of the same run (times: ratio() divides den by num).
        ratioCell(measured.ratio(p.key, p.key, at(n, 'cached_ms_per_token'), at(n, 'uncached_ms_per_token'))),
        fmt(med(p.key, n, 'cached_last_ms'), 3), fmt(med(p.key, n, 'uncached_last_ms'), 2)];
    })));
  printTable('cached generation at d_model 512 (4 layers, d_ff 2048), ms per token', ['impl', 'threads', 'tokens', 'ms per token', 'range', 'vs 1 thread'],
    threaded.flatMap((p) => lengths.map((n) => {
      const s = measured.stats(p.key, at(n, 'cached_ms_per_token'));
      const one = p.key.replace(/ 2t /, ' 1t ');
      return [p.info.impl, p.info.threads, n, fmt(s.median, 3), s.n ? `${fmt(s.min, 3)}–${fmt(s.max, 3)}` : '—',
        p.info.threads > 1 ? ratioCell(measured.ratio(p.key, one, at(n, 'cached_ms_per_token'))) : ''];
    })));
  printTable('the rounds of the generate rows', roundHeader, measured.roundRows());
  return measured.toJSON();
}
