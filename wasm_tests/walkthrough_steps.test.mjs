// node:test — the walk-through of every model the core builds (walkthrough-model-steps.js):
// for each architecture × norm × placement × positions × feed-forward (with MHA/GQA/MQA and the
// encoder-only mean and cls heads in turn), every
// matrix a step shows holds the numbers of the trace entry it names, the steps follow the
// model's kind (rope rotates q, alibi biases the scores, swiglu shows its gate, an encoder-decoder
// has cross-attention, an encoder-only model ends in its classifier), and the seed's model keeps
// the seed article's 28 steps, titles unchanged. Each formula's second line holds the numbers of
// the focused cells, each the trace's own; a generated token's keys and values say which rows
// came from the KV cache.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'transformer-playground';
import { walkthroughSteps, buildModelSteps, FOCUS_LIMIT, cellText } from '../web/components/shared/walkthrough-model-steps.js';
import { mathText } from '../web/ui/mathml.js';
import { SEED_SHAPE } from '../web/components/shared/walkthrough-steps.js';
import { t } from '../web/playground/strings/index.js';

const tp = await load();
const TASKS = { 'encoder-decoder': ['qa-toy', 'how are you', { target: 'i am' }], 'decoder-only': ['lm-char', 'the cat sat', {}], 'encoder-only': ['sentiment', 'a good film', {}] };

// A small model of `over`'s kind with its task's tokenizer, traced once.
function traced(arch, over) {
  const [name, text, opts] = TASKS[arch];
  const task = tp.task(name);
  const model = tp.model({ ...task.defaults, arch, dModel: 16, nHeads: 4, nLayers: 2, dFF: 24, dropout: 0, seed: 3, ...over });
  const trainer = tp.trainer(model, task);
  try {
    return { trace: model.trace(text, opts), config: model.config, vocab: task.tokenizer().vocabulary() };
  } finally {
    for (const o of [trainer, model, task]) o.dispose();
  }
}

// The test's own reading of what a matrix claims to show: [rows][cols] of the named entry.
function expected(tensors, { name, head, cols, row }) {
  const e = tensors[name];
  assert.ok(e, `no trace entry ${name}`);
  const [R, C] = e.shape.slice(-2);
  const base = (head ?? 0) * R * C;
  const out = [];
  for (let r = 0; r < R; ++r) {
    if (row !== undefined && r !== row) continue;
    const line = [];
    for (let c = cols?.[0] ?? 0; c < (cols?.[1] ?? C); ++c) line.push(e.data[base + r * C + c]);
    out.push(line);
  }
  return out;
}

const en = (k, v) => t('en', k, v);
const kinds = [];
for (const arch of Object.keys(TASKS)) for (const norm of ['layer', 'rms']) for (const normPlacement of ['pre', 'post'])
  for (const pos of ['learned', 'sinusoidal', 'rope', 'alibi', 'none']) for (const ffn of ['relu', 'gelu', 'swiglu']) kinds.push({ arch, norm, normPlacement, pos, ffn });

test('every step of every kind of model shows the trace entries it names, in the model\'s own order', () => {
  let checked = 0;
  kinds.forEach((kind, i) => {
    const nKvHeads = [4, 2, 1][i % 3];
    const head = kind.arch === 'encoder-only' ? ['mean', 'cls'][i % 2] : 'lm';
    const { trace, config, vocab } = traced(kind.arch, { ...kind, nKvHeads, head });
    const what = JSON.stringify({ ...kind, nKvHeads, head });
    const pick = { layer: 1, head: 3, token: 1 };
    const steps = walkthroughSteps({ trace, config, vocab, t: en, pick });
    const ids = steps.map((s) => s.id);
    assert.equal(new Set(ids).size, ids.length, `${what}: step ids repeat`);
    const shown = new Set();
    for (const s of steps) {
      assert.ok(s.title && s.text && !/\{[a-zA-Z]+\}|wt\.g\./.test(s.title + s.text), `${what} ${s.id}: ${s.title} / ${s.text}`);
      assert.equal(s.math.tag, 'math', s.id);
      // The numbers line: every focused cell is the trace's number, written in the formula.
      assert.ok(s.cells.length >= 1, `${what} ${s.id}: no focused cell`);
      for (const c of s.cells) {
        const { name, head, row, col } = c.trace;
        const e = trace.tensors[name];
        const [R, C] = e.shape.slice(-2);
        assert.ok(row < R && col < C, `${what} ${s.id}: cell ${row}, ${col} outside ${R} × ${C}`);
        assert.ok(Object.is(c.value, e.data[(head ?? 0) * R * C + row * C + col]), `${what} ${s.id} ${name}[${row}, ${col}]`);
        assert.ok(mathText(s.math).includes(cellText(c.value)), `${what} ${s.id}: ${cellText(c.value)} not in the formula`);
      }
      assert.ok(s.cells.some((c) => c.trace.row === (s.id.startsWith('enc.') && kind.arch === 'encoder-decoder' ? Math.min(1, trace.input.tokens.length - 1) : ['pooled', 'probs', 'logits'].includes(s.id) && kind.arch === 'encoder-only' ? 0 : 1)),
        `${what} ${s.id}: the cells are not the focused token's`);
      assert.ok(s.shapes.length >= 1 && s.matrices.length >= 1, s.id);
      for (const m of s.matrices) {
        const want = expected(trace.tensors, m.trace);
        assert.deepEqual(Array.from(m.matrix.data), want.flat(), `${what} ${s.id} ${m.label}`);
        // A whole matrix keeps its shape; a focused row is folded into lines of at most FOCUS_LIMIT.
        if (m.trace.row === undefined) assert.deepEqual([m.matrix.rows, m.matrix.cols], [want.length, want[0].length], `${what} ${s.id}`);
        else assert.ok(m.matrix.cols <= FOCUS_LIMIT || want[0].length % 8 !== 0, `${what} ${s.id}: a focused row ${m.matrix.cols} wide`);
        if (m.trace.row === undefined) shown.add(m.trace.name);
        ++checked;
      }
      // A large matrix is followed by the focused token's row, in numbers.
      s.matrices.forEach((m, j) => {
        if ((m.matrix.rows > FOCUS_LIMIT || m.matrix.cols > FOCUS_LIMIT) && m.matrix.rows > 1 && m.trace.row === undefined) {
          assert.equal(s.matrices[j + 1]?.trace.row !== undefined && s.matrices[j + 1].trace.name === m.trace.name, true, `${what} ${s.id}: no focused row after ${m.label}`);
        }
      });
    }
    // Every entry of the picked layer is on some step, and only names the trace holds.
    const layerNames = trace.names.filter((n) => /^(enc|dec)\.1\./.test(n));
    for (const n of layerNames) assert.ok(shown.has(n), `${what}: ${n} is on no step`);
    for (const n of shown) assert.ok(trace.names.includes(n), `${what}: ${n} read but not traced`);
    // The picked head and its key/value head (GQA: heads share K and V).
    const dh = 16 / 4, g = Math.floor(3 / (4 / nKvHeads));
    const self = kind.arch === 'encoder-only' ? 'enc.1.self' : 'dec.1.self';
    assert.deepEqual(steps.find((s) => s.id === `${self}.qk`).matrices[0].trace, { name: `${self}_attn.scores`, head: 3 });
    assert.deepEqual(steps.find((s) => s.id === `${self}.kv`).matrices[0].trace.cols, [g * dh, (g + 1) * dh], what);
    // The model's kind decides the steps.
    const stack = kind.arch === 'encoder-only' ? 'enc' : 'dec';
    assert.equal(ids.includes(`${stack}.pos`), kind.pos === 'learned' || kind.pos === 'sinusoidal', `${what}: position table step`);
    assert.equal(/RoPE/.test(steps.find((s) => s.id === `${self}.q`).title), kind.pos === 'rope', what);
    assert.equal(/ALiBi/.test(steps.find((s) => s.id === `${self}.mask`).title), kind.pos === 'alibi', what);
    assert.match(steps.find((s) => s.id === `${stack}.1.ffn.hidden`).title, { relu: /ReLU/, gelu: /GELU/, swiglu: /SwiGLU/ }[kind.ffn]);
    assert.match(steps.find((s) => s.id === `${self}.kv`).title, nKvHeads === 4 ? /keys and values/ : nKvHeads === 1 ? /MQA/ : /GQA/);
    const norms = steps.filter((s) => /\.norm\d\./.test(s.id));
    assert.ok(norms.length >= 2 && norms.every((s) => s.id.endsWith(kind.normPlacement) && s.title.includes(kind.norm === 'rms' ? 'RMSNorm' : 'LayerNorm')), what);
    assert.equal(ids.some((id) => id.includes('.cross.')), kind.arch === 'encoder-decoder', what);
    assert.equal(ids.at(-1), 'probs');
    assert.equal(ids.includes('pooled'), kind.arch === 'encoder-only', what);
    // Where a norm sits: pre-norm before the sublayer it feeds, post-norm after the residual sum.
    const i1 = ids.indexOf(`${stack}.1.norm1.${kind.normPlacement}`), q1 = ids.indexOf(`${self}.q`), a1 = ids.indexOf(`${stack}.1.add1`);
    assert.ok(kind.normPlacement === 'pre' ? i1 < q1 : i1 > a1, `${what}: norm1 at ${i1}, q at ${q1}, add1 at ${a1}`);
  });
  assert.ok(checked > kinds.length * 30, `only ${checked} matrices checked`);
});

test('the last step names the token the model chooses, from the trace\'s probabilities', () => {
  const { trace, config, vocab } = traced('decoder-only', { pos: 'rope', norm: 'rms', ffn: 'swiglu', nKvHeads: 2 });
  const token = 2;
  const last = buildModelSteps({ trace, config, vocab, t: en, pick: { token } }).at(-1);
  const p = trace.tensors.probs, V = p.shape[1];
  const row = Array.from(p.data.slice(token * V, (token + 1) * V));
  const best = row.indexOf(Math.max(...row));
  assert.match(last.text, new RegExp(`After "${trace.input.tokens[token]}" the most likely next token is "${vocab[best].replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}"`));
  assert.deepEqual(last.matrices[0].marks, { cols: [best] });
  // Out-of-range picks are clamped to the model's layers, heads and tokens.
  const clamped = buildModelSteps({ trace, config, vocab, t: en, pick: { layer: 9, head: 9, token: 99 } });
  assert.ok(clamped.some((s) => s.id === 'dec.1.self.qk' && s.matrices[0].trace.head === 3));
});

test('a token generation fed back through the KV cache says its keys and values came from the cache', () => {
  const { trace, config, vocab } = traced('decoder-only', { pos: 'rope', norm: 'rms', ffn: 'swiglu', nKvHeads: 2 });
  const n = trace.input.tokens.length;
  const kvOf = (token, cachedFrom) => buildModelSteps({ trace, config, vocab, t: en, pick: { token }, cachedFrom }).find((s) => s.id === 'dec.0.self.kv');
  const generated = kvOf(n - 1, 4);
  assert.deepEqual(generated.cached, { computed: n - 1, from: [0, n - 1] });
  assert.match(generated.text, new RegExp(`keys and values of positions 0 … ${n - 2} came from the KV cache, and only row ${n - 1}`));
  assert.deepEqual(generated.matrices.map((m) => m.marks), [{ rows: [n - 1] }, { rows: [n - 1] }]);
  assert.ok(generated.shapes.includes(`KV cache: rows 0 … ${n - 2}; computed: row ${n - 1}`));
  // A prompt token (computed with the whole prompt at once), or no generation: no cache.
  for (const s of [kvOf(2, 4), kvOf(n - 1, undefined)]) {
    assert.equal(s.cached, undefined);
    assert.doesNotMatch(s.text, /KV cache/);
  }
});

test('the seed\'s model keeps the seed article\'s 28 steps and titles', () => {
  const task = tp.task('qa-toy');
  for (const [k, v] of Object.entries(SEED_SHAPE)) assert.equal(task.defaults[k], v, `the seed's ${k}`);
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  const trace = model.trace('how are you', { target: 'i am' });
  const params = { 'tok_emb.weight': model.parameter('tok_emb.weight'), 'enc.0.self_attn.q.weight': model.parameter('enc.0.self_attn.q.weight') };
  const steps = walkthroughSteps({ trace, params, vocab: task.tokenizer().vocabulary(), config: model.config, t: en });
  assert.deepEqual(steps.map((s) => [s.id, s.title]), [['vocab', 'Vocabulary and ids'], ['embed', 'Embedding'], ['pe', 'Positional encoding'], ['sum', '+ position'],
    ['q', 'Queries: Q = X W_Qᵀ + b_Q'], ['kv', 'Keys and values: K and V'], ['qk', 'Q Kᵀ'], ['scale', '÷ √d_k'], ['mask', 'Mask (none in the encoder)'], ['softmax', 'Softmax'],
    ['av', '× V'], ['concat', 'Concatenate the heads'], ['wo', 'Output projection W_O'], ['add1', 'Add (residual)'], ['norm1', 'Norm'],
    ['ffn1', 'Feed-forward: first layer and ReLU'], ['ffn2', 'Feed-forward: second layer'], ['add2', 'Add & norm again: the encoder output'],
    ['dembed', 'Decoder: embedding + position'], ['dqk', 'Masked self-attention: Q Kᵀ / √d_k'], ['dmask', 'The causal mask'], ['dsoftmax', 'Softmax: −∞ becomes 0'],
    ['dout', '× V, concat, W_O, add & norm'], ['cross', 'Cross-attention'], ['crossout', 'Cross-attention output, add & norm'],
    ['dffn', 'Feed-forward, add & norm: the decoder output'], ['logits', 'Linear to the vocabulary'], ['probs', 'Softmax: the prediction']]);
  // One change to its architecture and it walks through the derived steps instead.
  const other = tp.model({ ...task.defaults, normPlacement: 'pre', seed: 1 });
  const otherTrainer = tp.trainer(other, task);
  const derived = walkthroughSteps({ trace: other.trace('how are you', { target: 'i am' }), vocab: task.tokenizer().vocabulary(), config: other.config, t: en });
  assert.ok(derived.some((s) => s.id === 'dec.0.cross.softmax'));
  for (const o of [trainer, otherTrainer, model, other, task]) o.dispose();
});
