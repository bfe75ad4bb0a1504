// node:test — memory and object lifetimes through the public API. A page that lets people press
// "reset" a thousand times must not run out of memory: 1,000 create -> train one step -> dispose
// cycles must leave the wasm heap within 1 MB of where it started (tp.heapStats()), failed calls
// must free what they made, forgotten objects must be freed by the FinalizationRegistry, and
// returned arrays must stay valid after the wasm memory grows (they are copies, not views).
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import v8 from 'node:v8';
import vm from 'node:vm';
import { load } from 'transformer-playground';

const MB = 1 << 20;
let tp;

before(async () => {
  tp = await load();
});

function cycle(seed) {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed });
  const trainer = tp.trainer(model, task, { seed });
  const report = trainer.step(1);
  trainer.dispose();
  model.dispose();
  task.dispose();
  return report;
}

test('1,000 create -> train one step -> dispose cycles leave the heap within 1 MB', (t) => {
  const start = tp.heapStats();
  // The first training step allocates buffers the core keeps for reuse by design (the matmul
  // packing buffers, about 0.6-1.1 MB); the baseline is taken after it, so only per-cycle
  // leaks count. The diagnostic line prints both figures.
  cycle(0);
  const warm = tp.heapStats();
  for (let i = 1; i <= 1000; ++i) assert.equal(cycle(i).step, 1);
  const end = tp.heapStats();
  const delta = end.allocated - warm.allocated;
  t.diagnostic(`allocated: start ${start.allocated}, after one cycle ${warm.allocated}, after 1,000 more ${end.allocated} ` +
    `(delta ${delta} bytes); heapSize ${warm.heapSize} -> ${end.heapSize}`);
  assert.ok(Math.abs(delta) < MB, `allocated grew by ${delta} bytes`);
  assert.ok(end.heapSize - warm.heapSize < MB, `the wasm memory grew by ${end.heapSize - warm.heapSize} bytes`);
  // Per cycle the leak would have to be under ~1 KB; in fact it is nothing.
  assert.ok(Math.abs(delta) < 64 * 1024, `delta ${delta}`);
});

test('generate, trace, save and load in a loop leak nothing', () => {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  trainer.step(600);
  const work = () => {
    model.generate('how are you', { topKProbs: 3 });
    model.generate('how are you', { beam: 3 });
    model.trace('how are you');
    tp.loadModel(model.save()).dispose();
    trainer.evaluate();
  };
  work();
  const before = tp.heapStats().allocated;
  for (let i = 0; i < 200; ++i) work();
  assert.ok(Math.abs(tp.heapStats().allocated - before) < 16 * 1024);
  for (const x of [trainer, model, task]) x.dispose();
});

test('failed calls free whatever they had made (no leaks on the error path)', () => {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const bytes = model.save();
  const failing = [
    () => tp.model({ ...task.defaults, nHeads: 4 }),        // rejected while the model is built
    () => tp.task('no-such-task'),
    () => tp.task({ text: 'short' }),
    () => tp.task({ pairs: [['', 'x']] }),
    () => tp.trainer(model, task, { lr: -1 }),               // rejected while the trainer is built
    () => tp.loadModel(bytes.slice(0, bytes.length - 1)),
    () => model.generate([99]),
  ];
  for (const call of failing) assert.throws(call);
  const before = tp.heapStats().allocated;
  for (let i = 0; i < 300; ++i) for (const call of failing) assert.throws(call);
  assert.equal(tp.heapStats().allocated - before, 0);
  model.dispose();
  task.dispose();
});

test('dispose() frees memory at once, is idempotent, and sets disposed', () => {
  const task = tp.task('lm-char');
  const before = tp.heapStats().allocated;
  const model = tp.model({ ...task.defaults, seed: 1 });
  const size = tp.heapStats().allocated - before;
  assert.ok(size > model.info.parameterCount * 4, `a model of ${model.info.parameterCount} parameters holds ${size} bytes`);
  assert.equal(model.disposed, false);
  model.dispose();
  model.dispose();
  assert.equal(model.disposed, true);
  assert.equal(tp.heapStats().allocated, before);
  task.dispose();
});

test('a trainer keeps its model and task alive: dispose them in any order', () => {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  model.dispose();
  task.dispose();
  assert.throws(() => model.generate([5]), /disposed/);
  assert.equal(trainer.step(5).step, 5, 'the trainer still trains the model it shares');
  trainer.dispose();
});

test('the FinalizationRegistry frees objects that were never disposed', async () => {
  v8.setFlagsFromString('--expose-gc');
  const gc = vm.runInNewContext('gc');
  cycle(0);
  const before = tp.heapStats().allocated;
  (() => {
    for (let i = 0; i < 30; ++i) {
      const task = tp.task('qa-toy');
      const model = tp.model({ ...task.defaults, seed: i });
      tp.trainer(model, task).step(1);
      task.tokenizer().encode('how are you');
    }
  })();
  assert.ok(tp.heapStats().allocated > before + 30 * 1000, 'the forgotten objects hold memory');
  for (let i = 0; i < 20 && tp.heapStats().allocated > before; ++i) {
    gc();
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
  assert.equal(tp.heapStats().allocated, before);
});

test('returned arrays are copies that survive the wasm memory growing', () => {
  const task = tp.task('qa-toy');
  const tok = task.tokenizer();
  const model = tp.model({ ...task.defaults, seed: 1 });
  const encoding = tok.encode('how are you');
  const weights = model.parameter('tok_emb.weight');
  const bytes = model.save();
  const heap = tp.heapStats().heapSize;
  // A model of ~13 M parameters (plus gradients and Adam state once trained) makes the memory grow.
  const big = tp.model({ vocabSize: 512, dModel: 512, nLayers: 4, dFF: 2048, seed: 1 });
  const bigTask = tp.task({ text: 'grow the heap please. '.repeat(40), tokenizer: 'byte' });
  const bigTrainer = tp.trainer(tp.model({ vocabSize: 262, dModel: 256, nLayers: 2, dFF: 1024, maxLen: 32, seed: 1 }), bigTask, { batchSize: 2 });
  bigTrainer.step(1);
  assert.ok(tp.heapStats().heapSize > heap, 'the memory grew');
  assert.deepEqual([...encoding.ids], [5, 8, 9]);
  assert.deepEqual([...encoding.spans], [0, 3, 4, 7, 8, 11]);
  assert.equal(weights.data.length, 66);
  assert.deepEqual(model.parameter('tok_emb.weight'), weights);
  assert.equal(bytes.length, model.save().length);
  assert.deepEqual(bytes, model.save());
  for (const x of [bigTrainer, bigTask, big, model, tok, task]) x.dispose();
});
