// node:test — the rules views draw, asked of the core: tp.attentionMask() is the mask a traced
// pass masks with (here: causal, a window of 2 on local layers, <PAD> keys), tp.kvLayout() and
// model.kvLayout() the cache generation builds; bad requests are clear errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'transformer-playground';

const tp = await load();
const config = { ...tp.model({ arch: 'decoder-only', vocabSize: 16, dModel: 8, nHeads: 2, nLayers: 2, dFF: 16, maxLen: 8, window: 2, layerPattern: 'LG' }).config };

test('attentionMask is the traced pass\'s mask, with the layer\'s rule', () => {
  const pad = 2;
  const ids = [6, 7, 8, 9, pad];
  const m = tp.attentionMask(config, { kind: 'dec', layer: 0, queries: 5, keyIds: ids, padId: pad });
  assert.deepEqual([m.rows, m.cols, m.causal, m.window, m.globalTokens], [5, 5, true, 2, 0]);
  for (let q = 0; q < 5; ++q) {
    for (let k = 0; k < 5; ++k) assert.equal(m.data[q * 5 + k] === 0, k <= q && q - k < 2 && k !== 4, `query ${q}, key ${k}`);
  }
  // Layer 1 is global: causal only. The same −∞ cells as a trace with two <PAD> keys.
  const g = tp.attentionMask(config, { kind: 'dec', layer: 1, queries: 5, keyIds: ids, padId: pad });
  assert.equal(g.window, 0);
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task);
  const trace = model.trace('how are you', { padTo: 5 });
  const masked = trace.tensors['enc.0.self_attn.masked'];
  const [, T, S] = masked.shape;
  const encMask = tp.attentionMask(model.config, { kind: 'enc', layer: 0, queries: T, keyIds: trace.input.ids, padId: task.tokenizer().specials.pad });
  for (let i = 0; i < T * S; ++i) assert.equal(encMask.data[i] === -Infinity, masked.data[i] === -Infinity, `cell ${i}`);
  for (const x of [trainer, model, task]) x.dispose();
});

test('kvLayout: every position of a global layer, a ring of the window on a local one', () => {
  const layout = tp.kvLayout(config, 6);
  assert.deepEqual(layout.map((l) => [l.layer, l.local, l.capacity, l.ringStart, [...l.rows]]), [[0, true, 2, 0, [0, 1, 0, 1, 0, 1]], [1, false, 8, 8, [0, 1, 2, 3, 4, 5]]]);
  const model = tp.model({ ...config, seed: 1 });
  assert.deepEqual(model.kvLayout(6), layout);
  model.dispose();
});

test('bad requests say what is allowed', () => {
  const mask = (o) => tp.attentionMask(config, { kind: 'dec', layer: 0, queries: 2, keyIds: [6, 7], ...o });
  assert.throws(() => mask({ kind: 'self' }), /^Error: kind = 'self' is not an attention of a model; allowed: enc, dec, cross$/);
  assert.throws(() => mask({ layer: 2 }), /layer = 2 is out of range; allowed: 0 \.\. 1/);
  assert.throws(() => mask({ kind: 'cross' }), /cross-attention is an encoder-decoder's; this model is decoder-only/);
  assert.throws(() => mask({ keyIds: 'abc' }), /attentionMask: keyIds must be an array, Int32Array or Uint32Array of token ids/);
  assert.throws(() => mask({ queries: 0 }), /queries = 0 is out of range/);
  assert.throws(() => mask({ heads: 2 }), /unknown attentionMask option 'heads'; allowed: kind, layer, queries, keyIds, padId/);
  assert.throws(() => tp.attentionMask({ dModel: 'x' }, { kind: 'dec', layer: 0, queries: 1, keyIds: [1] }), /dModel/);
  assert.throws(() => tp.kvLayout({ ...config, arch: 'encoder-only', head: 'mlm' }, 4), /an encoder-only model keeps no KV cache/);
  assert.throws(() => tp.kvLayout(config, 9), /positions = 9 is out of range; allowed: 0 \.\. 8/);
  assert.throws(() => tp.kvLayout(config, -1), /positions must be a whole number >= 0/);
  // The module keeps working.
  assert.equal(tp.kvLayout(config, 1)[0].rows[0], 0);
});
