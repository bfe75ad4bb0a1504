// Trains the reference model (decoder-only, d_model 128, 4 heads, 2 layers, d_ff 512, seq 64,
// batch 16, vocab 65) through web/lib/transformer-playground.js — the API the page uses — in a
// module worker (train-worker.mjs), as the playground trains, and publishes { impl, threads,
// seq_len, tokens_per_s, step_ms, ... } as window.benchResult. The data is the same synthetic
// 59-character text as bench/bench_train.cpp (59 + 6 specials = 65 ids).
// Query: ?steps=N (timed steps, default 30) &warmup=N (default 5) &impl=LABEL (the row's label;
// scripts/bench.mjs passes chromium-wasm or firefox-wasm) &threads=N (default 1; above 1 needs
// the page served cross-origin isolated) &seq=N (default 64) &batch=N (default 16).
const params = new URLSearchParams(location.search);
const number = (name, fallback) => Number(params.get(name) ?? fallback);
const request = {
  steps: number('steps', 30), warmup: number('warmup', 5), threads: number('threads', 1), seq: number('seq', 64), batch: number('batch', 16),
};
const impl = params.get('impl') ?? 'browser-wasm';

const worker = new Worker(new URL('./train-worker.mjs', import.meta.url), { type: 'module' });
new Promise((resolve, reject) => {
  worker.onmessage = (event) => (event.data.error ? reject(new Error(event.data.error)) : resolve(event.data.result));
  worker.onerror = (event) => reject(new Error(event.message ?? 'the benchmark worker failed'));
  worker.postMessage(request);
}).then(
  (result) => {
    window.benchResult = { ...result, impl, user_agent: navigator.userAgent };
    document.getElementById('out').textContent = JSON.stringify(window.benchResult, null, 1);
  },
  (error) => {
    window.benchResult = { error: String(error?.message ?? error) };
    document.getElementById('out').textContent = `error: ${error?.message ?? error}`;
  },
);
