// Peer benchmark: the reference model trained by @tensorflow/tfjs on the wasm backend (XNNPACK,
// SIMD, 1 thread) — decoder-only, d_model 128, 4 heads, 2 layers, d_ff 512 (GELU, tanh form),
// seq 64, batch 16, vocab 65, learned positions, pre-LayerNorm, untied head, AdamW (decoupled
// decay on weights only) with clipping at 1.0: the step `tp_bench train` measures.
//
// Two ways of writing it, both reported:
//   tfjs-wasm             what a tfjs user writes: tf.matMul with transposeB for Q·Kᵀ, autodiff
//                         for the rest (whose gradients are transposed and batched products);
//   tfjs-wasm-materialised every transposed operand copied by tf.transpose first (custom
//                         gradients), so each product is a plain one — XNNPACK's fast case for
//                         the 2-D linears; the batched attention products stay batched.
// The embedding is a one-hot × matrix product: the wasm backend has no gradient for tf.gather.
// One thread: in Node the backend has no multi-threaded build (WASM_HAS_MULTITHREAD_SUPPORT is
// false there; setThreadsCount(2) leaves 1).
//   node bench/peers/tfjs_train.mjs [STEPS] [natural|materialised,...] [--seq N] [--batch N]
//                                                           → one JSON line per variant
import * as tf from '@tensorflow/tfjs';
import { setThreadsCount, setWasmPaths } from '@tensorflow/tfjs-backend-wasm';
import { createRequire } from 'node:module';
import path from 'node:path';
import { readFileSync } from 'node:fs';

const require = createRequire(import.meta.url);
setWasmPaths(path.dirname(require.resolve('@tensorflow/tfjs-backend-wasm/dist/tfjs-backend-wasm.wasm')) + path.sep);
setThreadsCount(1);
await tf.setBackend('wasm');
await tf.ready();

const option = (name, fallback) => (process.argv.includes(name) ? Number(process.argv[process.argv.indexOf(name) + 1]) : fallback);
const positional = process.argv.slice(2).filter((a, i, all) => !a.startsWith('--') && !(i > 0 && all[i - 1].startsWith('--')));
const VOCAB = 65, D = 128, H = 4, DH = D / H, LAYERS = 2, FF = 512, T = option('--seq', 64), B = option('--batch', 16);
const LR = 3e-3, WD = 0.01;
const steps = Number(positional[0] ?? 20);
const variants = (positional[1] ?? 'natural,materialised').split(',');
const version = (name) => JSON.parse(readFileSync(require.resolve(`${name}/package.json`), 'utf8')).version;

function median(values) {
  const v = [...values].sort((a, b) => a - b);
  return v.length % 2 ? v[(v.length - 1) / 2] : (v[v.length / 2 - 1] + v[v.length / 2]) / 2;
}

// Deterministic pseudo-random numbers so every run trains on the same data.
let seed = 12345;
const random = () => ((seed = (Math.imul(seed, 1103515245) + 12345) >>> 0) >>> 8) / (1 << 24);

// a·b with every transposed operand materialised: forward and both gradients are plain products.
const plainMatMul = tf.customGrad((a, b, save) => {
  save([a, b]);
  const perm = a.rank === 2 ? [1, 0] : [0, 1, 3, 2];
  return {
    value: tf.matMul(a, b),
    gradFunc: (dy, [sa, sb]) => [tf.matMul(dy, tf.transpose(sb, perm)), tf.matMul(tf.transpose(sa, perm), dy)],
  };
});

function buildModel() {
  const normal = (shape, std) => tf.variable(tf.randomNormal(shape, 0, std, 'float32', 1 + Math.floor(random() * 1e6)));
  const zeros = (shape) => tf.variable(tf.zeros(shape));
  const ones = (shape) => tf.variable(tf.ones(shape));
  const residual = 1 / Math.sqrt(2 * LAYERS);
  const linear = (inp, out, scale = 1) => ({ w: normal([inp, out], scale / Math.sqrt(inp)), b: zeros([out]) });
  const m = {
    tok: normal([VOCAB, D], 1 / Math.sqrt(D)), pos: normal([T, D], 1 / Math.sqrt(D)),
    layers: [], fg: ones([D]), fb: zeros([D]), head: normal([D, VOCAB], 1 / Math.sqrt(D)),
  };
  for (let l = 0; l < LAYERS; ++l) {
    m.layers.push({
      g1: ones([D]), b1: zeros([D]), g2: ones([D]), b2: zeros([D]),
      q: linear(D, D), k: linear(D, D), v: linear(D, D), o: linear(D, D, residual),
      up: linear(D, FF), down: linear(FF, D, residual),
    });
  }
  const decayed = [m.tok, m.pos, m.head, ...m.layers.flatMap((L) => [L.q, L.k, L.v, L.o, L.up, L.down].map((p) => p.w))];
  return { m, decayed };
}

function forwardLoss(m, ids, targets, materialise) {
  const mm = materialise ? plainMatMul : (a, b) => tf.matMul(a, b);
  const layerNorm = (x, g, b) => {
    const { mean, variance } = tf.moments(x, -1, true);
    return x.sub(mean).mul(tf.rsqrt(variance.add(1e-5))).mul(g).add(b);
  };
  const dense = (x, p) => mm(x, p.w).add(p.b);
  const gelu = (x) => x.mul(0.5).mul(tf.tanh(x.add(x.pow(3).mul(0.044715)).mul(Math.sqrt(2 / Math.PI))).add(1));
  const mask = tf.linalg.bandPart(tf.ones([T, T]), -1, 0).sub(1).mul(1e9);  // 0 on and below the diagonal
  const heads = (x) => x.reshape([B, T, H, DH]).transpose([0, 2, 1, 3]);  // [B, H, T, dh]
  let x = mm(tf.oneHot(ids, VOCAB).toFloat(), m.tok).add(tf.tile(m.pos, [B, 1]));  // [B·T, D]
  for (const L of m.layers) {
    const h = layerNorm(x, L.g1, L.b1);
    const q = heads(dense(h, L.q)), k = heads(dense(h, L.k)), v = heads(dense(h, L.v));
    const scores = (materialise ? mm(q, tf.transpose(k, [0, 1, 3, 2])) : tf.matMul(q, k, false, true)).mul(1 / Math.sqrt(DH)).add(mask);
    const attn = mm(tf.softmax(scores), v).transpose([0, 2, 1, 3]).reshape([B * T, D]);
    x = x.add(dense(attn, L.o));
    x = x.add(dense(gelu(dense(layerNorm(x, L.g2, L.b2), L.up)), L.down));
  }
  const logits = mm(layerNorm(x, m.fg, m.fb), m.head);
  return tf.losses.softmaxCrossEntropy(tf.oneHot(targets, VOCAB), logits);
}

function run(variant) {
  const materialise = variant === 'materialised';
  const { m, decayed } = buildModel();
  const optimizer = tf.train.adam(LR, 0.9, 0.98, 1e-8);
  const stream = Int32Array.from({ length: 1 << 16 }, () => 6 + Math.floor(random() * (VOCAB - 6)));
  const step = () => {
    const ids = new Int32Array(B * T), targets = new Int32Array(B * T);
    for (let b = 0; b < B; ++b) {
      const s = Math.floor(random() * (stream.length - T - 1));
      ids.set(stream.subarray(s, s + T), b * T);
      targets.set(stream.subarray(s + 1, s + T + 1), b * T);
    }
    const loss = tf.tidy(() => {
      const idsT = tf.tensor1d(ids, 'int32'), targetsT = tf.tensor1d(targets, 'int32');
      const { value, grads } = tf.variableGrads(() => forwardLoss(m, idsT, targetsT, materialise));
      const norm = tf.sqrt(tf.addN(Object.values(grads).map((g) => g.square().sum())));
      const scale = tf.minimum(1, tf.div(1, norm.add(1e-6)));
      for (const p of decayed) p.assign(p.mul(1 - LR * WD));
      optimizer.applyGradients(Object.fromEntries(Object.entries(grads).map(([n, g]) => [n, g.mul(scale)])));
      return value;
    });
    const v = loss.dataSync()[0];
    loss.dispose();
    return v;
  };
  for (let i = 0; i < 3; ++i) step();
  const times = [];
  let loss = 0;
  for (let i = 0; i < steps; ++i) {
    const start = performance.now();
    loss = step();
    times.push(performance.now() - start);
  }
  const ms = median(times);
  const impl = materialise ? 'tfjs-wasm-materialised' : 'tfjs-wasm';
  console.log(JSON.stringify({ bench: 'train', impl, variant, threads: 1, seq_len: T, batch: B, tokens_per_step: B * T, steps,
    tokens_per_s: Number((B * T / (ms / 1000)).toFixed(1)), step_ms: Number(ms.toFixed(3)), loss: Number(loss.toFixed(4)),
    tfjs: version('@tensorflow/tfjs'), backend: `wasm ${version('@tensorflow/tfjs-backend-wasm')} (XNNPACK, SIMD)`,
    step_ms_all: times.map((t) => Number(t.toFixed(3))) }));
  tf.disposeVariables();
  optimizer.dispose();
}

for (const v of variants) run(v);
