// Trains the reference model (decoder-only, d_model 128, 4 heads, 2 layers, d_ff 512, seq 64,
// batch 16, vocab 65) through web/lib/transformer-playground.js — the API the page uses — and
// publishes { impl, tokens_per_s, step_ms, ... } as window.benchResult. The data is the same
// synthetic 59-character text as bench/bench_train.cpp (59 + 6 specials = 65 ids).
// Query: ?steps=N (timed steps, default 30) &warmup=N (default 5) &impl=LABEL (the row's label;
// scripts/bench.mjs passes chromium-wasm or firefox-wasm).
import { load } from '../../web/lib/transformer-playground.js';

const params = new URLSearchParams(location.search);
const steps = Number(params.get('steps') ?? 30);
const warmup = Number(params.get('warmup') ?? 5);
const impl = params.get('impl') ?? 'browser-wasm';

function syntheticText() {
  const alphabet = 'abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456';
  let x = 12345, text = '';
  for (let i = 0; i < 1 << 16; ++i) {
    x = (Math.imul(x, 1103515245) + 12345) >>> 0;
    text += alphabet[(x >>> 16) % alphabet.length];
  }
  return text;
}

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

async function main() {
  const tp = await load();
  const task = tp.task({ text: syntheticText(), tokenizer: 'char' });
  const vocabSize = task.defaults.vocabSize;
  const model = tp.model({
    arch: 'decoder-only', vocabSize, dModel: 128, nHeads: 4, nLayers: 2, dFF: 512, maxLen: 64, pos: 'learned',
    norm: 'layer', normPlacement: 'pre', ffn: 'gelu', tieEmbeddings: false, bias: true, dropout: 0, seed: 1,
  });
  const trainer = tp.trainer(model, task, { batchSize: 16, evalEvery: 0, totalSteps: 100000, seed: 1 });
  const start = performance.now();
  for (let i = 0; i < warmup || performance.now() - start < 500; ++i) trainer.step(1);
  const times = [];
  let last;
  for (let i = 0; i < steps; ++i) {
    const t0 = performance.now();
    last = trainer.step(1);
    times.push(performance.now() - t0);
  }
  const ms = median(times);
  return {
    bench: 'train', impl, vocab: vocabSize, tokens_per_step: 16 * 64, steps,
    tokens_per_s: Number((16 * 64 / (ms / 1000)).toFixed(1)), step_ms: Number(ms.toFixed(3)),
    loss: Number(last.loss.toFixed(4)), user_agent: navigator.userAgent,
  };
}

main().then(
  (result) => {
    window.benchResult = result;
    document.getElementById('out').textContent = JSON.stringify(result, null, 1);
  },
  (error) => {
    window.benchResult = { error: String(error?.message ?? error) };
    document.getElementById('out').textContent = `error: ${error?.message ?? error}`;
  },
);
