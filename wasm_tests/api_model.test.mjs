// node:test — Model through the public API: config, info, parameters, generate (greedy, sampling,
// top-k probabilities, beam, KV cache), trace, predict, save and loadModel. These are what the
// page's architecture controls, output panel, attention views and checkpoint files use, so the
// tests check numbers: the KV cache changes nothing, attention rows are distributions with the
// causal mask's exact zeros, the trace agrees with generation, and a saved model generates
// exactly the same after loading (its bytes even round-trip unchanged).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { Model } from 'transformer-playground';
import { trainedToy } from './helpers.mjs';

let tp, toy, toyTask;

before(async () => {
  ({ tp, model: toy, task: toyTask } = await trainedToy());
});

const argmax = (row) => row.reduce((best, v, i) => (v > row[best] ? i : best), 0);
const rows = (t) => {
  const n = t.shape.at(-1);
  const out = [];
  for (let i = 0; i < t.data.length; i += n) out.push([...t.data.subarray(i, i + n)]);
  return out;
};
// Generation results without the timing, which differs run to run.
const untimed = ({ msPerToken, ...rest }) => rest;

test('model(config).config returns the full config, camelCase, with the given choices', () => {
  const config = { arch: 'decoder-only', vocabSize: 40, dModel: 16, nHeads: 4, nKvHeads: 2, nLayers: 2, dFF: 48, maxLen: 24,
    pos: 'rope', ropePairs: 'half', ropeTheta: 500, norm: 'rms', normPlacement: 'pre', normEps: 1e-5, ffn: 'swiglu', window: 8,
    globalTokens: 1, layerPattern: 'LG', dropout: 0.1, tieEmbeddings: true, bias: false, head: 'lm', nClasses: 2 };
  const model = tp.model({ ...config, seed: 3 });
  assert.ok(model instanceof Model);
  const got = model.config;
  assert.deepEqual(Object.keys(got).sort(), Object.keys(config).sort());
  for (const [k, v] of Object.entries(config)) {
    if (typeof v === 'number') assert.ok(Math.abs(got[k] - v) <= 1e-6 * Math.abs(v), `${k}: ${got[k]} vs ${v}`);
    else assert.equal(got[k], v, k);
  }
  got.dModel = 1;
  assert.equal(model.config.dModel, 16, 'config is a copy');
  // Omitted keys take the documented defaults.
  const small = tp.model({ vocabSize: 20 });
  assert.deepEqual(
    { ...small.config, normEps: Math.round(small.config.normEps * 1e9) / 1e9 },
    { arch: 'decoder-only', vocabSize: 20, dModel: 64, nHeads: 4, nKvHeads: 4, nLayers: 2, dFF: 256, maxLen: 64, pos: 'learned',
      ropePairs: 'adjacent', ropeTheta: 10000, norm: 'layer', normPlacement: 'pre', normEps: 1e-5, ffn: 'gelu', window: 0, globalTokens: 0, layerPattern: '', dropout: 0,
      tieEmbeddings: false, bias: true, head: 'lm', nClasses: 2 });
  model.dispose();
  small.dispose();
});

test('parameters() lists named tensors whose sizes add up to info.parameterCount', () => {
  const params = toy.parameters();
  assert.equal(new Set(params.map((p) => p.name)).size, params.length, 'names are unique');
  for (const p of params) assert.equal(p.size, p.shape.reduce((a, b) => a * b, 1), p.name);
  const total = params.reduce((a, p) => a + p.size, 0);
  assert.equal(toy.info.parameterCount, total);
  assert.deepEqual(params[0], { name: 'tok_emb.weight', shape: [11, 6], size: 66 });
  assert.ok(params.some((p) => p.name === 'dec.0.cross_attn.q.weight'));
});

test('parameter(name) is a copy; the same seed gives the same weights, another seed others', () => {
  const task = tp.task('qa-toy');
  const a = tp.model({ ...task.defaults, seed: 5 });
  const b = tp.model({ ...task.defaults, seed: 5 });
  const c = tp.model({ ...task.defaults, seed: 6 });
  const w = a.parameter('enc.0.self_attn.q.weight');
  assert.deepEqual(w.shape, [6, 6]);
  assert.ok(w.data instanceof Float32Array && w.data.length === 36);
  assert.deepEqual(b.parameter('enc.0.self_attn.q.weight'), w);
  assert.notDeepEqual(c.parameter('enc.0.self_attn.q.weight').data, w.data);
  w.data.fill(0);
  assert.notDeepEqual(a.parameter('enc.0.self_attn.q.weight').data, w.data, 'changing the copy changes nothing');
  // Norm weights start at 1 and biases at 0 (docs/MODEL.md).
  assert.deepEqual([...a.parameter('enc.0.norm1.weight').data], [1, 1, 1, 1, 1, 1]);
  assert.deepEqual([...a.parameter('enc.0.norm1.bias').data], [0, 0, 0, 0, 0, 0]);
  for (const x of [a, b, c, task]) x.dispose();
});

test('info: a new model has no task; a trainer attaches the task and its tokenizer', () => {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  assert.deepEqual(model.info, { task: '', taskKind: '', tokenizer: null, classNames: [], parameterCount: 1020 });
  const trainer = tp.trainer(model, task);
  assert.deepEqual(model.info, { task: 'qa-toy', taskKind: 'seq2seq', tokenizer: { kind: 'word', vocabSize: 11, numSpecials: 3 },
    classNames: [], parameterCount: 1020 });
  for (const x of [trainer, model, task]) x.dispose();
});

test('generate: the trained toy answers both seed questions, stopping at <EOS>', () => {
  const a = toy.generate('how are you');
  assert.equal(a.text, 'i am fine');
  assert.deepEqual([...a.ids], [6, 3, 4, 1]);
  assert.deepEqual(a.steps.map((s) => s.token), ['i', 'am', 'fine', '<EOS>']);
  assert.deepEqual(a.steps.map((s) => s.id), [...a.ids]);
  assert.deepEqual([...a.promptIds], [5, 8, 9]);
  assert.equal(a.stopReason, 'eos');
  assert.ok(a.msPerToken >= 0);
  assert.equal(toy.generate('i am fine').text, 'how about yourself');
  // Ids work as the prompt too, as an array or an Int32Array.
  assert.deepEqual(untimed(toy.generate([5, 8, 9])), untimed(a));
  assert.deepEqual(untimed(toy.generate(new Int32Array([5, 8, 9]))), untimed(a));
});

test('generate: maxNewTokens stops early and says so', () => {
  const r = toy.generate('how are you', { maxNewTokens: 2 });
  assert.equal(r.text, 'i am');
  assert.equal(r.steps.length, 2);
  assert.equal(r.stopReason, 'max_new_tokens');
});

test('generate: topKProbs reports the k most likely tokens, sorted, greedy picks the first', () => {
  const r = toy.generate('how are you', { topKProbs: 4 });
  for (const s of r.steps) {
    assert.equal(s.topk.length, 4);
    assert.equal(s.topk[0].id, s.id);
    assert.equal(s.topk[0].token, s.token);
    for (let i = 1; i < 4; ++i) assert.ok(s.topk[i - 1].p >= s.topk[i].p);
    const sum = s.topk.reduce((a, t) => a + t.p, 0);
    assert.ok(sum <= 1 + 1e-6 && s.topk[0].p > 0.9, `p ${s.topk[0].p}`);
    for (const t of s.topk) assert.ok(t.pSample >= 0 && t.pSample <= 1);
  }
  // All 11 tokens, by p under the model; <SOS> and <PAD> are never sampled (pSample 0).
  const all = r.steps[0].topk;
  assert.ok(toy.generate('how are you', { topKProbs: 11 }).steps[0].topk.every((t) => (t.id === 0 || t.id === 2 ? t.pSample === 0 : true)));
  assert.equal(all.length, 4);
  assert.deepEqual(toy.generate('how are you').steps.map((s) => s.topk), [[], [], [], []], 'none by default');
});

test('generate: the KV cache changes nothing but the speed', () => {
  const task = tp.task({ text: 'abcdefghij'.repeat(10) });
  for (const [model, prompt] of [[toy, 'how are you'], [tp.model({ ...task.defaults, nLayers: 2, dModel: 16, seed: 4 }), [6, 7, 8]]]) {
    for (const options of [{}, { temperature: 1, seed: 9 }]) {
      const cached = model.generate(prompt, { ...options, topKProbs: 5, maxNewTokens: 12 });
      const plain = model.generate(prompt, { ...options, topKProbs: 5, maxNewTokens: 12, kvCache: false });
      assert.deepEqual([...cached.ids], [...plain.ids]);
      cached.steps.forEach((s, i) => s.topk.forEach((t, j) => {
        assert.equal(t.id, plain.steps[i].topk[j].id);
        assert.ok(Math.abs(t.p - plain.steps[i].topk[j].p) < 1e-5);
      }));
    }
    if (model !== toy) model.dispose();
  }
  task.dispose();
});

test('generate: sampling is reproducible by seed and follows temperature, topK and topP', () => {
  const task = tp.task({ text: 'abcdefghij'.repeat(10) });
  const model = tp.model({ ...task.defaults, nLayers: 1, dModel: 16, seed: 2 });  // untrained: a flat distribution
  const sample = (o) => [...model.generate([6], { maxNewTokens: 20, ...o }).ids];
  assert.deepEqual(sample({ temperature: 1, seed: 1 }), sample({ temperature: 1, seed: 1 }));
  assert.notDeepEqual(sample({ temperature: 1, seed: 1 }), sample({ temperature: 1, seed: 2 }));
  assert.deepEqual(sample({ temperature: 0, seed: 1 }), sample({}), 'temperature 0 is greedy');
  assert.deepEqual(sample({ temperature: 5, topK: 1, seed: 3 }), sample({}), 'topK 1 is greedy');
  const r = model.generate([6], { temperature: 1, topK: 3, topKProbs: 5, seed: 4, maxNewTokens: 5 });
  for (const s of r.steps) {
    assert.equal(s.topk.filter((t) => t.pSample > 0).length, 3, 'topK 3 leaves three tokens to sample');
    assert.ok(s.topk.some((t) => t.id === s.id && t.pSample > 0), 'the sample is one of them');
    assert.ok(Math.abs(s.topk.reduce((a, t) => a + t.pSample, 0) - 1) < 1e-6);
  }
  // topKProbs 8 lists at least 4 samplable tokens (at most <SOS>, <PAD>, <CLS>, <MASK> are banned).
  const p = model.generate([6], { temperature: 1, topP: 1e-6, topKProbs: 8, seed: 4, maxNewTokens: 5 });
  for (const s of p.steps) {
    const kept = s.topk.filter((t) => t.pSample > 0);
    assert.deepEqual(kept.map((t) => [t.id, t.pSample]), [[s.id, 1]], 'a tiny topP keeps only the most likely token');
  }
  model.dispose();
  task.dispose();
});

test('generate: beam search finds the trained answers too', () => {
  for (const beam of [2, 4]) {
    assert.equal(toy.generate('how are you', { beam }).text, 'i am fine');
    assert.equal(toy.generate('i am fine', { beam, lengthPenalty: 0.5 }).text, 'how about yourself');
  }
});

test('trace: every matrix of the forward pass, with attention rows that are distributions', () => {
  const t = toy.trace('how are you', { target: 'i am fine' });
  assert.deepEqual(t.input.tokens, ['how', 'are', 'you']);
  assert.deepEqual(t.decoderInput.tokens, ['<SOS>', 'i', 'am', 'fine']);
  assert.deepEqual(t.output.tokens, ['i', 'am', 'fine']);
  assert.deepEqual(t.names.slice(0, 3), ['enc.embed.tokens', 'enc.embed.positions', 'enc.embed.sum']);
  assert.deepEqual(t.names.slice(-2), ['logits', 'probs']);
  assert.deepEqual(Object.keys(t.tensors), t.names);
  const shapes = { 'enc.embed.sum': [3, 6], 'enc.0.self_attn.probs': [2, 3, 3], 'dec.0.self_attn.probs': [2, 4, 4],
    'dec.0.cross_attn.probs': [2, 4, 3], 'enc.0.ffn.hidden': [3, 12], probs: [4, 11] };
  for (const [name, shape] of Object.entries(shapes)) assert.deepEqual(t.tensors[name].shape, shape, name);
  for (const name of ['enc.0.self_attn.probs', 'dec.0.self_attn.probs', 'dec.0.cross_attn.probs', 'probs']) {
    for (const row of rows(t.tensors[name])) assert.ok(Math.abs(row.reduce((a, b) => a + b, 0) - 1) < 1e-5, name);
  }
  // The causal mask: a decoder position never attends to a later one (exact zeros) ...
  const causal = t.tensors['dec.0.self_attn.probs'];
  for (let h = 0; h < 2; ++h) for (let i = 0; i < 4; ++i) for (let j = i + 1; j < 4; ++j) assert.equal(causal.data[h * 16 + i * 4 + j], 0);
  // ... and the masked scores are -inf there.
  assert.equal(t.tensors['dec.0.self_attn.masked'].data[1], -Infinity);
  // ReLU zeroes: the seed's feed-forward uses ReLU.
  assert.ok(t.tensors['enc.0.ffn.hidden'].data.every((v) => v >= 0));
  assert.ok(t.tensors['enc.0.ffn.pre'].data.some((v) => v < 0));
  // The embedding rows are the model's own embedding rows.
  const emb = toy.parameter('tok_emb.weight');
  assert.deepEqual([...t.tensors['enc.embed.tokens'].data.subarray(0, 6)], [...emb.data.subarray(5 * 6, 6 * 6)], "'how' is id 5");
  // The output distribution predicts the target, shifted by one.
  assert.deepEqual(rows(t.tensors.probs).map(argmax), [6, 3, 4, 1]);
});

test('trace without a target follows the model\'s own greedy answer', () => {
  const t = toy.trace('i am fine');
  assert.deepEqual(t.output.tokens, ['how', 'about', 'yourself']);
  assert.deepEqual(t.decoderInput.tokens, ['<SOS>', 'how', 'about', 'yourself']);
});

test('trace of a decoder-only model: one causal stack, no decoderInput', () => {
  const task = tp.task({ text: 'hello world. '.repeat(10) });
  const model = tp.model({ ...task.defaults, nLayers: 1, dModel: 16, seed: 1 });
  const trainer = tp.trainer(model, task);
  const t = model.trace('hello');
  assert.equal(t.decoderInput, undefined);
  assert.deepEqual(t.input.tokens, ['h', 'e', 'l', 'l', 'o']);
  assert.ok(t.names.every((n) => !n.startsWith('enc.')));
  assert.deepEqual(t.tensors['dec.0.self_attn.probs'].shape, [4, 5, 5]);
  assert.equal(t.tensors['dec.0.self_attn.probs'].data[1], 0);
  assert.deepEqual(t.tensors.probs.shape, [5, task.defaults.vocabSize]);
  for (const x of [trainer, model, task]) x.dispose();
});

test('predict: an encoder-only classifier and a tagger', () => {
  const sentiment = tp.task('sentiment');
  const classifier = tp.model({ ...sentiment.defaults, seed: 1 });
  const trainer = tp.trainer(classifier, sentiment, { seed: 1 });
  trainer.step(60);
  const r = classifier.predict('This teddy bear is SO CUTE!');
  assert.deepEqual(r.input.tokens, ['<CLS>', 'this', 'teddy', 'bear', 'is', 'so', 'cute', '!']);
  assert.equal(r.positions, undefined);
  assert.deepEqual(r.classes.map((c) => c.label), ['positive', 'negative']);
  assert.deepEqual(r.classes.map((c) => c.id), [1, 0]);
  assert.ok(Math.abs(r.classes[0].p + r.classes[1].p - 1) < 1e-5 && r.classes[0].p > 0.5);
  assert.equal(classifier.predict('The soup was cold and bland.').classes[0].label, 'negative');

  const tagging = tp.task('tagging');
  const tagger = tp.model({ ...tagging.defaults, seed: 1 });
  const tagTrainer = tp.trainer(tagger, tagging, { seed: 1 });
  const input = tagging.example(0).input;
  const t = tagger.predict(input);
  assert.equal(t.classes, undefined);
  assert.equal(t.positions.length, input.split(' ').length);
  for (const labels of t.positions) {
    assert.equal(labels.length, tagging.classNames.length);
    assert.ok(labels.every((l) => tagging.classNames.includes(l.label)));
    assert.ok(Math.abs(labels.reduce((a, l) => a + l.p, 0) - 1) < 1e-5);
  }
  for (const x of [trainer, classifier, sentiment, tagTrainer, tagger, tagging]) x.dispose();
});

test('save -> loadModel: same config, weights, tokenizer and identical generation', () => {
  const bytes = toy.save();
  assert.ok(bytes instanceof Uint8Array);
  assert.equal(bytes.buffer.byteLength, bytes.length, 'the bytes are a copy');
  const headerLength = Number(new DataView(bytes.buffer).getBigUint64(0, true));
  const header = JSON.parse(new TextDecoder().decode(bytes.subarray(8, 8 + headerLength)));
  assert.equal(header.__metadata__.format, 'transformer-playground');
  assert.equal(header.__metadata__.task, 'qa-toy');
  assert.deepEqual(header['tok_emb.weight'].shape, [11, 6]);

  for (const input of [bytes, bytes.buffer]) {
    const loaded = tp.loadModel(input);
    assert.deepEqual(loaded.config, toy.config);
    assert.deepEqual(loaded.info, toy.info);
    for (const { name } of toy.parameters()) assert.deepEqual(loaded.parameter(name), toy.parameter(name), name);
    for (const [prompt, options] of [['how are you', {}], ['i am fine', { topKProbs: 5 }], ['how', { temperature: 1.3, seed: 11, topKProbs: 3 }],
      ['you are', { beam: 3 }]]) {
      assert.deepEqual(untimed(loaded.generate(prompt, options)), untimed(toy.generate(prompt, options)), prompt);
    }
    assert.deepEqual(loaded.trace('how are you'), toy.trace('how are you'));
    assert.deepEqual(loaded.save(), bytes, 'save(load(file)) gives the same bytes');
    loaded.dispose();
  }
});

test('a loaded model trains exactly like the model it was saved from', () => {
  const task = tp.task('qa-toy');
  const a = tp.model({ ...task.defaults, seed: 8 });
  const b = tp.loadModel(a.save());
  const ta = tp.trainer(a, task, { seed: 2 });
  const tb = tp.trainer(b, task, { seed: 2 });
  for (let i = 0; i < 20; ++i) assert.equal(ta.step(1).loss, tb.step(1).loss, `step ${i + 1}`);
  assert.deepEqual(b.parameter('lm_head.weight'), a.parameter('lm_head.weight'));
  for (const x of [ta, tb, a, b, task]) x.dispose();
});
