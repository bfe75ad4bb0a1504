// The training benchmark's module worker: loads the public API with `threads` (the threaded
// module when above 1, which needs the page to be cross-origin isolated), trains the reference
// model (or, with seq, a longer-sequence one) and posts { tokens_per_s, step_ms, ... } back.
// bench/browser/train.mjs starts it; the page's thread only waits.
import { load } from '../../web/lib/transformer-playground.js';

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

async function run({ steps, warmup, threads, seq, batch }) {
  const tp = await load({ threads });
  const task = tp.task({ text: syntheticText(), tokenizer: 'char' });
  const vocabSize = task.defaults.vocabSize;
  const model = tp.model({
    arch: 'decoder-only', vocabSize, dModel: 128, nHeads: 4, nLayers: 2, dFF: 512, maxLen: seq, pos: 'learned',
    norm: 'layer', normPlacement: 'pre', ffn: 'gelu', tieEmbeddings: false, bias: true, dropout: 0, seed: 1,
  });
  const trainer = tp.trainer(model, task, { batchSize: batch, seqLen: seq, evalEvery: 0, totalSteps: 100000, seed: 1 });
  const start = performance.now();
  let warmed = 0;
  for (; warmed < warmup || performance.now() - start < 500; ++warmed) trainer.step(1);
  const times = [];
  let last;
  for (let i = 0; i < steps; ++i) {
    const t0 = performance.now();
    last = trainer.step(1);
    times.push(performance.now() - t0);
  }
  const ms = median(times);
  return {
    bench: 'train', threads: tp.threads, seq_len: seq, batch, vocab: vocabSize, tokens_per_step: batch * seq, steps,
    tokens_per_s: Number((batch * seq / (ms / 1000)).toFixed(1)), step_ms: Number(ms.toFixed(3)), loss: Number(last.loss.toFixed(4)),
    warmup_steps: warmed,
    isolated: self.crossOriginIsolated === true, step_ms_all: times.map((t) => Number(t.toFixed(3))),
  };
}

self.onmessage = (event) => {
  run(event.data).then((result) => self.postMessage({ result }), (error) => self.postMessage({ error: String(error?.message ?? error) }));
};
