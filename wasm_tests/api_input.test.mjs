// node:test — what the API does to arguments before they reach the wasm module (web/lib/arguments.js):
// strings with lone UTF-16 surrogates arrive well-formed (U+FFFD, as TextEncoder does) with spans
// that index the caller's string; a caller's getter or Proxy that throws costs no wasm memory
// (arguments are copied in JavaScript first); keys inherited from a prototype are never options;
// checkpoints report what they were accepted with (model.warnings, allowNonFinite); and step
// reports flag divergence. The error messages themselves are in api_errors.test.mjs.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { trainedToy, assertModuleWorks, spanTexts } from './helpers.mjs';
import { STEP_REPORT, LOAD_OPTIONS } from '../web/lib/transformer-playground.js';

let tp, toy, toyTask, checkpoint;

before(async () => {
  ({ tp, model: toy, task: toyTask } = await trainedToy());
  checkpoint = toy.save();
});

// Strings a user pastes or cuts: lone surrogates of both kinds, alone, at the ends, in the
// middle, and an emoji sliced in half.
const ILL_FORMED = ['ab\uD800cd', '\uD800', '\uDC00', 'x\uDBFF', '\uDFFFy', 'a\uDC00\uD800b', '😀x'.slice(1), 'go 😀'.slice(0, 4) + ' on', '한\uD83D국어'];

const well = (s) => s.replace(/[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g, (m) => (m.length === 2 ? m : '\uFFFD'));

test('lone surrogates become U+FFFD on the way in, and spans index the caller\'s string', () => {
  const training = 'ab cd 한국어 go on. 😀 x y '.repeat(8);
  for (const kind of ['char', 'word', 'bpe', 'byte']) {
    const tok = tp.tokenizer({ kind, text: training, ...(kind === 'bpe' ? { vocabSize: 300 } : {}) });
    for (const text of ILL_FORMED) {
      const e = tok.encode(text);
      const spans = [...e.spans];
      assert.ok(spans.every((v) => v >= 0 && v <= text.length), `${kind} ${JSON.stringify(text)}: spans ${spans} stay inside the string`);
      // The spans tile the string: each token starts where the previous one ended or inside it.
      assert.equal(spans[0], 0, `${kind}: the first token starts the string`);
      assert.equal(spans[spans.length - 1], text.length, `${kind}: the last token ends it`);
      const texts = spanTexts(text, e.spans);
      assert.ok(texts.every((t) => t.length > 0), `${kind}: no empty span`);
      if (kind === 'bpe' || kind === 'byte') {
        assert.equal(tok.decode(e.ids), well(text), `${kind}: decode(encode(t)) is t made well-formed`);
      }
    }
    // Well-formed strings still round-trip exactly.
    if (kind === 'bpe' || kind === 'byte') for (const text of ['ab cd', '한국어 😀 go']) assert.equal(tok.decode(tok.encode(text).ids), text);
    tok.dispose();
  }
  const byte = tp.tokenizer({ kind: 'byte' });
  const e = byte.encode('ab\uD800cd');
  // a, b, the three bytes of U+FFFD (each spanning the one code unit it replaced), c, d.
  assert.deepEqual([...e.spans], [0, 1, 1, 2, 2, 3, 2, 3, 2, 3, 3, 4, 4, 5]);
  assert.equal(byte.decode(e.ids), 'ab\uFFFDcd');
  byte.dispose();
});

test('lone surrogates in prompts, task texts, pairs and option strings are well-formed too', () => {
  // The word toy has no <UNK>: the message shows the word as the core received it.
  assert.throws(() => toy.generate('how are\uD800'), /word "are\uFFFD" at byte offset 4 is not in the vocabulary/);
  const text = tp.task({ text: 'the cat sat on the mat \uD800 the dog '.repeat(4), tokenizer: 'byte' });
  const tok = text.tokenizer();
  assert.equal(tok.decode(tok.encode('a\uD800').ids), 'a\uFFFD');
  const model = tp.model({ ...text.defaults, seed: 1 });
  const trainer = tp.trainer(model, text, { seed: 1 });  // gives the model the task's tokenizer
  assert.deepEqual([...model.generate('ab\uD800', { maxNewTokens: 2 }).promptIds], [...tok.encode('ab\uFFFD').ids]);
  const trace = model.trace('ab\uDC00c');
  assert.deepEqual([...trace.input.ids], [...tok.encode('ab\uFFFDc').ids]);
  const pairs = tp.task({ pairs: [['ab\uD800', 'c\uDC00d'], ['xy', 'z']] });
  assert.ok(pairs.trainSize + pairs.valSize >= 2);
  assert.throws(() => tp.task('qa\uD800toy'), /there is no task named 'qa\uFFFDtoy'/);
  for (const o of [trainer, model, tok, text, pairs]) o.dispose();
  assertModuleWorks(tp, toy);
});

// A Proxy whose trap throws at index `at`, like a getter that fails half-way.
function trap(target, at) {
  return new Proxy(target, {
    get(t, key, receiver) {
      if (key === String(at)) throw new Error('the caller\'s getter failed');
      return Reflect.get(t, key, receiver);
    },
  });
}

test('a caller\'s getter or Proxy that throws costs no wasm memory', () => {
  const tok = toyTask.tokenizer();
  const calls = [
    () => tp.task({ pairs: trap([['a', 'b'], ['c', 'd'], ['e', 'f']], 2) }),
    () => tp.task({ pairs: [['a', 'b'], trap(['c', 'd'], 1)] }),
    () => tok.decode(trap([6, 3, 4], 2)),
    () => toy.generate(trap([5, 7, 8], 1)),
    () => toy.generate('how', { get topK() { throw new Error('the caller\'s getter failed'); } }),
    () => tp.model({ ...toyTask.defaults, get dModel() { throw new Error('the caller\'s getter failed'); } }),
    () => tp.loadModel(trap(checkpoint, 7)),
    () => toy.trace('how', { get padTo() { throw new Error('the caller\'s getter failed'); } }),
  ];
  for (const call of calls) assert.throws(call);  // warm up whatever a first call allocates
  const before = tp.heapStats().allocated;
  for (let i = 0; i < 25; ++i) for (const call of calls) assert.throws(call, /the caller's getter failed|must be/);
  assert.equal(tp.heapStats().allocated - before, 0, 'wasm memory kept by failed calls');
  tok.dispose();
  assertModuleWorks(tp, toy);
});

test('keys inherited from Object.prototype are never read as options', () => {
  const polluted = { seed: 77, padTo: 2 ** 31, target: 5, text: 5, topK: -1, dModel: 3, kind: 'bogus', tokenizer: 'bogus', allowNonFinite: 'x' };
  for (const [key, value] of Object.entries(polluted)) Object.defineProperty(Object.prototype, key, { value, configurable: true, writable: true });
  try {
    const model = tp.model({ ...toyTask.defaults });
    assert.equal(model.config.dModel, toyTask.defaults.dModel);
    assert.ok(toy.trace('how are you').names.length > 0, 'padTo and target come from the options object only');
    assert.equal(toy.generate('how are you').text, 'i am fine');
    const tok = tp.tokenizer({ kind: 'char', text: 'abc' });
    assert.equal(tok.vocabSize > 3, true);
    const text = tp.task({ text: 'the cat sat on the mat '.repeat(3) });
    assert.equal(text.tokenizer().kind, 'char');
    assert.deepEqual(tp.loadModel(checkpoint).warnings, []);
    assert.equal(tp.positionalTable({ kind: 'sinusoidal', maxLen: 4, dim: 2 }).shape[0], 4);
    for (const o of [model, tok, text]) o.dispose();
  } finally {
    for (const key of Object.keys(polluted)) delete Object.prototype[key];
  }
  assertModuleWorks(tp, toy);
});

// The checkpoint with `from` replaced by `to` (same length) in its JSON header.
function patched(from, to) {
  const text = new TextDecoder('latin1').decode(checkpoint);
  const at = text.indexOf(from);
  assert.ok(at > 0 && from.length === to.length);
  const bytes = checkpoint.slice();
  bytes.set(new TextEncoder().encode(to), at);
  return bytes;
}

test('a checkpoint\'s unknown metadata keys and allowed NaN weights come back as model.warnings', () => {
  assert.deepEqual(toy.warnings, []);
  assert.deepEqual(tp.loadModel(checkpoint).warnings, []);
  // One damaged byte in the key 'tokenizer': the model loads without it, and says so.
  const typo = tp.loadModel(patched('"tokenizer":', '"tokenizex":'));
  assert.equal(typo.warnings.length, 1);
  assert.match(typo.warnings[0], /^checkpoint: metadata key 'tokenizex' is not one this version reads, so it was ignored \(did you mean 'tokenizer'\?/);
  assert.equal(typo.info.tokenizer, null);
  assert.ok(Object.isFrozen(typo.warnings));
  const nan = checkpoint.slice();
  nan.set([0x00, 0x00, 0xc0, 0x7f], nan.length - 4);
  assert.throws(() => tp.loadModel(nan), /not finite/);
  const allowed = tp.loadModel(nan, { allowNonFinite: true });
  assert.equal(allowed.warnings.length, 1);
  assert.match(allowed.warnings[0], /holds 1 value that is not finite .*loaded because allowNonFinite is set/);
  assert.ok(Number.isNaN(allowed.parameter('lm_head.weight').data.at(-1)));
  assert.deepEqual(LOAD_OPTIONS.map((f) => f.js), ['allowNonFinite']);
  for (const o of [typo, allowed]) o.dispose();
});

test('step reports flag a run that diverges, and say since when', () => {
  assert.ok(STEP_REPORT.some((f) => f.js === 'diverged' && f.type === 'bool'));
  assert.ok(STEP_REPORT.some((f) => f.js === 'divergedAt' && f.type === 'int'));
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1, lr: 10, warmup: 0 });
  const first = trainer.step(1);
  assert.equal(first.diverged, false);
  assert.equal(first.divergedAt, 0);
  const later = trainer.step(10);
  assert.equal(later.diverged, true);
  assert.ok(later.divergedAt >= 2 && later.divergedAt <= 11, `diverged at ${later.divergedAt}`);
  const good = tp.trainer(tp.model({ ...task.defaults, seed: 1 }), task, { seed: 1 }).step(300);
  assert.equal(good.diverged, false);
  assert.equal(good.divergedAt, 0);
  for (const o of [trainer, model, task]) o.dispose();
});
