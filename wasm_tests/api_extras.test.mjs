// node:test — the smaller API additions: tp.taskList(), trace's padTo (the padding mask with the
// model's numbers), decoder-only seq2seq traces of the model's own answer,
// trainer.setTotalSteps() to train on past the planned total, Symbol.dispose on every
// disposable, one rule for token-id arrays, and load() refusing options it cannot honour.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'transformer-playground';
import { trainedToy, assertModuleWorks } from './helpers.mjs';

test('taskList() names every built-in task with its kind, like tasks()', async () => {
  const tp = await load();
  const list = tp.taskList();
  assert.deepEqual(list.map((t) => t.name), tp.tasks().map((t) => t.name));
  assert.deepEqual(Object.fromEntries(list.map((t) => [t.name, t.kind])), Object.fromEntries(tp.tasks().map((t) => [t.name, t.kind])));
  assert.equal(list.find((t) => t.name === 'sentiment').kind, 'classify');
});

test('trace padTo adds <PAD> keys that get exactly zero attention', async () => {
  const { tp, model } = await trainedToy();
  const trace = model.trace('how are you', { padTo: 6 });
  assert.deepEqual(trace.input.tokens, ['how', 'are', 'you', '<PAD>', '<PAD>', '<PAD>']);
  const probs = trace.tensors['enc.0.self_attn.probs'];  // [heads, 6, 6]
  assert.deepEqual(probs.shape, [2, 6, 6]);
  for (let h = 0; h < 2; ++h) {
    for (let q = 0; q < 6; ++q) {
      let sum = 0;
      for (let k = 0; k < 6; ++k) {
        const p = probs.data[(h * 6 + q) * 6 + k];
        if (k >= 3) assert.equal(p, 0);
        sum += p;
      }
      assert.ok(Math.abs(sum - 1) < 1e-5);
    }
  }
  // The real tokens' attention is the same as without padding.
  const plain = model.trace('how are you').tensors['enc.0.self_attn.probs'].data;
  for (let q = 0; q < 3; ++q) {
    for (let k = 0; k < 3; ++k) assert.ok(Math.abs(probs.data[q * 6 + k] - plain[q * 3 + k]) < 1e-6);
  }
  assert.throws(() => model.trace('how are you', { padTo: 99 }), /padTo = 99 must be between the input's length \(3\) and this model's maxLen \(8\)/);
  assert.throws(() => model.trace('how are you', { padTo: -1 }), /padTo must be a whole number >= 0/);
  assert.throws(() => model.trace('how are you', { pad: 4 }), /unknown trace option 'pad'; allowed: target, padTo/);
  assertModuleWorks(tp, model);
});

test('a decoder-only model on a seq2seq task traces its own greedy answer', async () => {
  const tp = await load();
  const task = tp.task('reverse');
  const model = tp.model({ ...task.defaults, arch: 'decoder-only', maxLen: 32, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1, totalSteps: 300 });
  trainer.step(300);
  const answer = model.generate('abcdefghij', { maxNewTokens: 12 });
  const trace = model.trace('abcdefghij');
  assert.equal(trace.input.tokens[10], '<SOS>');
  assert.deepEqual(trace.output.tokens, answer.steps.map((s) => s.token).filter((t) => t !== '<EOS>'));
  assert.ok(trace.output.tokens.length > 0);
  for (const o of [trainer, model, task]) o.dispose();
});

test('setTotalSteps() trains on past the planned total without losing the weights', async () => {
  const tp = await load();
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1, totalSteps: 50, schedule: 'cosine', warmup: 0 });
  const first = trainer.step(50);
  const weights = model.parameter('tok_emb.weight').data;
  trainer.setTotalSteps(600);
  assert.deepEqual(model.parameter('tok_emb.weight').data, weights);  // nothing rebuilt
  const next = trainer.step(1);
  assert.equal(next.step, 51);
  // At step 51 of 600 the cosine schedule is near its peak again, above where step 50 of 50 was.
  assert.ok(next.lr > first.lr, `lr ${next.lr} after extending vs ${first.lr} at the old end`);
  trainer.step(549);
  assert.equal(model.generate('how are you').text, 'i am fine');
  assert.throws(() => trainer.setTotalSteps(0), /setTotalSteps\(n\): n must be a whole number >= 1/);
  for (const o of [trainer, model, task]) o.dispose();
});

test('model.tokenizer() shares the tokenizer of a checkpoint or task, and is null before', async () => {
  const tp = await load();
  const { readFileSync } = await import('node:fs');
  const model = tp.loadModel(readFileSync(new URL('../web/models/reverse.safetensors', import.meta.url)));
  const tok = model.tokenizer();
  assert.equal(tok.kind, 'char');
  assert.equal(tok.vocabSize, model.config.vocabSize);
  assert.deepEqual(Array.from(tok.encode('cba').ids), Array.from(tp.task('reverse').tokenizer().encode('cba').ids));
  const fresh = tp.model({ dModel: 8, nHeads: 2, vocabSize: 20 });
  assert.equal(fresh.tokenizer(), null);
  for (const o of [tok, model, fresh]) o.dispose();
});

test("the playground's task menu lists exactly the built-in tasks", async () => {
  const tp = await load();
  const { TASKS } = await import('../web/playground/state.js');
  assert.deepEqual(TASKS, tp.taskList().map((t) => t.name));
});

test('every disposable is Disposable: Symbol.dispose frees it like dispose()', async () => {
  const tp = await load();
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  const tokenizer = task.tokenizer();
  for (const x of [trainer, model, task, tokenizer]) {
    assert.equal(typeof x[Symbol.dispose], 'function');
    x[Symbol.dispose]();
    assert.equal(x.disposed, true);
  }
  assert.throws(() => model.config, /this Model has been disposed/);
});

test('token ids are taken as an array, an Int32Array or a Uint32Array by decode and generate alike', async () => {
  const tp = await load();
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  trainer.step(600);
  const tok = task.tokenizer();
  const ids = tok.encode('how are you').ids;
  const answers = [[...ids], Int32Array.from(ids), Uint32Array.from(ids)].map((p) => model.generate(p).text);
  assert.deepEqual(answers, ['i am fine', 'i am fine', 'i am fine']);
  const decoded = [[...ids], Int32Array.from(ids), Uint32Array.from(ids)].map((p) => tok.decode(p));
  assert.deepEqual(decoded, ['how are you', 'how are you', 'how are you']);
  assert.throws(() => model.generate(Float32Array.from(ids)), /prompt must be a string, or an array, Int32Array or Uint32Array of token ids, got a Float32Array/);
  for (const x of [trainer, model, task, tok]) x.dispose();
});

test('load() again with options that ask for another module rejects, naming both; without options it shares', async () => {
  const tp = await load();
  assert.equal(await load(), tp);
  assert.equal(await load({}), tp);
  await assert.rejects(load({ wasmUrl: 'file:///elsewhere/other.wasm' }),
    /^Error: load\(\): the WebAssembly module is already loaded \(from file:.*transformer_playground\.wasm\), and this call asks for wasmUrl file:\/\/\/elsewhere\/other\.wasm; .*only the first call's options choose it/);
  const other = await WebAssembly.compile(new Uint8Array([0, 97, 115, 109, 1, 0, 0, 0]));
  await assert.rejects(load({ compiledModule: other }), /asks for another compiledModule/);
  await assert.rejects(load({ wasmURL: 'x' }), /^Error: unknown load option 'wasmURL'; allowed: wasmUrl, compiledModule, threads$/);
  // The engine is untouched.
  assert.equal((await load()).version, tp.version);
});
