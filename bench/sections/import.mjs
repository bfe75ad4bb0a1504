// The `import` section: a random GPT-2-small-sized checkpoint in Hugging Face's layout (written by
// bench/make_gpt2_small.mjs into bench/results/gpt2-small, ~475 MiB, not committed): load time,
// peak memory and ms per generated token (KV cache, greedy, 32 tokens), natively and in headless
// Chromium (files fetched and streamed into the wasm heap), in interleaved rounds.
// Then the peers: ours against onnxruntime-web (wasm) and @wllama/wllama on the same random
// weights in several shapes and dtypes (bench/import/section.mjs, with its own options).
import path from 'node:path';
import { measureRounds, roundHeader } from '../harness/rounds.mjs';
import { jsonRow } from '../harness/run.mjs';
import { fmt, printTable } from '../harness/table.mjs';

export async function run(ctx) {
  const { root, browsers } = ctx;
  const { writeGpt2Small } = await import('../make_gpt2_small.mjs');
  const dir = path.join(root, 'bench', 'results', 'gpt2-small');
  const started = Date.now();
  writeGpt2Small(dir);
  console.log(`\nimport: a random GPT-2-small-sized checkpoint (${((Date.now() - started) / 1000).toFixed(1)} s to write or find), in interleaved rounds…`);
  const rel = path.relative(root, dir).split(path.sep).join('/');
  const rows = [
    { key: 'native-simd', side: 'ours', info: { impl: 'native-simd' }, value: (r) => r.ms_per_token,
      measure: () => jsonRow(path.join(root, 'build/native/tp_bench'), ['import', '--model', dir, '--reps', '32'], { cwd: root }) },
    ...((await browsers.available('chromium')) ? [{ key: 'chromium-wasm', side: 'ours', info: { impl: 'chromium-wasm' }, value: (r) => r.ms_per_token,
      measure: () => browsers.page('chromium', (url) => `import.html?model=${encodeURIComponent(`${url}${rel}`)}&tokens=32&impl=chromium-wasm`) }] : []),
  ];
  const measured = await measureRounds(ctx, { title: 'import', rows, better: 'lower' });
  const stat = (key, f) => measured.stats(key, (r) => r[f]);
  printTable(`importing GPT-2 small (124 M parameters, random weights), then 32 greedy tokens with the KV cache (median of ${measured.used.length} rounds)`,
    ['impl', 'parameters', 'load s', 'range', 'peak MiB', 'ms/token', 'range'],
    rows.map((r) => {
      const load = stat(r.key, 'load_s'), ms = stat(r.key, 'ms_per_token');
      return [r.key, measured.sample(r.key)?.parameters ?? '—', fmt(load.median, 2), load.n ? `${fmt(load.min, 2)}–${fmt(load.max, 2)}` : '—',
        fmt(stat(r.key, 'peak_mb').median, 0), fmt(ms.median, 1), ms.n ? `${fmt(ms.min, 1)}–${fmt(ms.max, 1)}` : '—'];
    }));
  printTable('the rounds of the import rows', roundHeader, measured.roundRows());
  const { runImportSection } = await import('../import/section.mjs');
  return { checkpoint: measured.toJSON(), peers: await runImportSection({ printTable }) };
}
