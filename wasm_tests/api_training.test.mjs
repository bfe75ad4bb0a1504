// node:test — Trainer through the public API: the seed's Q&A toy learns its two answers, step
// reports carry real numbers, the same seeds give the same loss curve, and the training options
// (learning rate, warm-up, schedules, evaluation cadence) do what docs/API.md says. The page's
// live loss curve, learning-rate and gradient-norm readouts are drawn from these reports.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load, Trainer } from 'transformer-playground';
import { trainedToy } from './helpers.mjs';

let tp;

before(async () => {
  tp = await load();
});

const close = (a, b, tolerance = 1e-6) => Math.abs(a - b) <= tolerance * Math.max(1, Math.abs(b));

test("the seed's Q&A toy learns both answers through the API", async () => {
  const { model, task, trainer, report } = await trainedToy();
  assert.ok(trainer instanceof Trainer);
  assert.equal(model.generate('how are you', { maxNewTokens: 8 }).text, 'i am fine');
  assert.equal(model.generate('i am fine', { maxNewTokens: 8 }).text, 'how about yourself');
  assert.equal(report.step, 600);
  assert.equal(trainer.stepCount, 600);
  assert.ok(report.loss < 0.01, `loss ${report.loss}`);
  assert.ok(report.valLoss < 0.01, `valLoss ${report.valLoss}`);
  assert.equal(report.metric, 1, 'exact match on both pairs');
  assert.equal(report.tokenAccuracy, 1);
  assert.equal(report.evaluated, true);
  assert.equal(report.evaluatedAt, 600);
  assert.ok(close(report.lr, task.train.lr), `constant schedule after warm-up: ${report.lr}`);
  assert.ok(report.gradNorm >= 0 && report.gradNorm < 0.1, `gradNorm ${report.gradNorm}`);
  assert.ok(report.tokensPerSec > 0);
  // 600 steps x 2 sequences x (3 source + 4 decoder tokens) = 8,400 tokens.
  assert.equal(report.tokensSeen, 8400);
  for (const x of [trainer, model, task]) x.dispose();
});

test('a step report has exactly the documented fields, all finite numbers or booleans', async () => {
  const { trainer, model, task } = await trainedToy({ steps: 1 });
  const report = trainer.step(1);
  assert.deepEqual(Object.keys(report).sort(), ['diverged', 'divergedAt', 'evaluated', 'evaluatedAt', 'gradNorm', 'loss', 'lr', 'metric', 'step',
    'tokenAccuracy', 'tokensPerSec', 'tokensSeen', 'valLoss'].sort());
  for (const [k, v] of Object.entries(report)) {
    assert.ok(typeof v === 'boolean' || Number.isFinite(v), `${k} = ${v}`);
  }
  for (const x of [trainer, model, task]) x.dispose();
});

test('the loss falls: an untrained toy is near log(vocab), a trained one near 0', () => {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 4 });
  const trainer = tp.trainer(model, task, { seed: 4 });
  const first = trainer.step(1);
  assert.ok(first.loss > 1 && first.loss < 2 * Math.log(11), `first loss ${first.loss}`);
  assert.ok(trainer.step(300).loss < first.loss / 10);
  for (const x of [trainer, model, task]) x.dispose();
});

test('the same seeds give the same loss curve; another seed gives another', () => {
  const curve = (modelSeed, trainSeed) => {
    const task = tp.task('copy');
    const model = tp.model({ ...task.defaults, seed: modelSeed });
    const trainer = tp.trainer(model, task, { seed: trainSeed, batchSize: 8 });
    const losses = Array.from({ length: 15 }, () => trainer.step(1).loss);
    for (const x of [trainer, model, task]) x.dispose();
    return losses;
  };
  const a = curve(1, 1);
  assert.deepEqual(curve(1, 1), a);
  assert.notDeepEqual(curve(2, 1), a, 'the model seed changes the initial weights');
  assert.notDeepEqual(curve(1, 2), a, 'the training seed changes the batches');
});

test('step(n) runs n steps and stepCount counts them', () => {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  assert.equal(trainer.stepCount, 0);
  assert.equal(trainer.step().step, 1, 'n defaults to 1');
  assert.equal(trainer.step(9).step, 10);
  assert.equal(trainer.stepCount, 10);
  // Ten single steps and one step(10) from the same state end in the same place.
  const other = tp.model({ ...task.defaults, seed: 1 });
  const otherTrainer = tp.trainer(other, task, { seed: 1 });
  otherTrainer.step(10);
  assert.deepEqual(other.parameter('lm_head.weight'), model.parameter('lm_head.weight'));
  for (const x of [trainer, model, otherTrainer, other, task]) x.dispose();
});

test('warm-up rises linearly to lr; constant stays; cosine decays to a tenth; noam follows d_model^-0.5', () => {
  const task = tp.task('qa-toy');
  const lrs = (options, n) => {
    const model = tp.model({ ...task.defaults, seed: 1 });
    const trainer = tp.trainer(model, task, options);
    const out = Array.from({ length: n }, () => trainer.step(1).lr);
    trainer.dispose();
    model.dispose();
    return out;
  };
  const constant = lrs({ lr: 0.02, warmup: 4, schedule: 'constant' }, 8);
  [0.005, 0.01, 0.015, 0.02, 0.02, 0.02, 0.02, 0.02].forEach((v, i) => assert.ok(close(constant[i], v), `step ${i + 1}: ${constant[i]}`));
  const cosine = lrs({ lr: 0.1, warmup: 0, schedule: 'cosine', totalSteps: 100 }, 110);
  assert.ok(cosine[0] > 0.0999 && cosine[0] <= 0.1);
  assert.ok(close(cosine[49], 0.1 * (0.1 + 0.9 * 0.5 * (1 + Math.cos(Math.PI * 0.5))), 1e-3), `midway ${cosine[49]}`);
  for (let i = 1; i < 100; ++i) assert.ok(cosine[i] <= cosine[i - 1]);
  assert.ok(close(cosine[99], 0.01) && close(cosine[109], 0.01), 'the floor is lr / 10');
  const noam = lrs({ lr: 1, warmup: 4, schedule: 'noam' }, 8);
  noam.forEach((v, i) => {
    const step = i + 1;
    assert.ok(close(v, 6 ** -0.5 * Math.min(step ** -0.5, step * 4 ** -1.5), 1e-5), `noam step ${step}: ${v}`);
  });
  task.dispose();
});

test('evaluation cadence: the first call and then every evalEvery steps', () => {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { evalEvery: 5 });
  const flags = Array.from({ length: 12 }, () => trainer.step(1)).map((r) => [r.step, r.evaluated, r.evaluatedAt]);
  assert.deepEqual(flags.filter(([, e]) => e).map(([s]) => s), [1, 6, 11]);
  assert.deepEqual(flags[3], [4, false, 1]);
  const other = tp.model({ ...task.defaults, seed: 1 });
  const never = tp.trainer(other, task, { evalEvery: 0 });
  const reports = Array.from({ length: 6 }, () => never.step(1));
  assert.deepEqual(reports.map((r) => r.evaluated), [true, false, false, false, false, false]);
  for (const x of [trainer, model, never, other, task]) x.dispose();
});

test('evaluate() scores the validation set now', async () => {
  const { trainer, model, task } = await trainedToy();
  const e = trainer.evaluate();
  assert.deepEqual(Object.keys(e).sort(), ['exactMatch', 'loss', 'metric', 'perplexity', 'sequences', 'targets', 'tokenAccuracy']);
  assert.equal(e.sequences, 2);
  assert.equal(e.targets, 8, "'i am fine <EOS>' and 'how about yourself <EOS>'");
  assert.equal(e.exactMatch, 1);
  assert.equal(e.metric, e.exactMatch, "qa-toy's metric is exact_match");
  assert.ok(close(e.perplexity, Math.exp(e.loss), 1e-9));
  assert.ok(close(trainer.step(1).valLoss, trainer.evaluate().loss, 0.5));
  for (const x of [trainer, model, task]) x.dispose();
});

test('a decoder-only model learns the seq2seq toy as "source <SOS> target"', () => {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, arch: 'decoder-only', normPlacement: 'pre', dModel: 16, nHeads: 2, dFF: 32, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1, lr: 0.01 });
  trainer.step(400);
  assert.equal(model.generate('how are you').text, 'i am fine');
  assert.equal(model.generate('i am fine').text, 'how about yourself');
  for (const x of [trainer, model, task]) x.dispose();
});

test('a sentiment classifier and a character language model improve with training', () => {
  const sentiment = tp.task('sentiment');
  const classifier = tp.model({ ...sentiment.defaults, seed: 1 });
  const c = tp.trainer(classifier, sentiment, { seed: 1 });
  const before = c.evaluate().metric;
  const after = c.step(80).metric;
  assert.ok(after > 0.85 && after > before, `accuracy ${before} -> ${after}`);

  const lm = tp.task({ text: 'to be or not to be, that is the question. '.repeat(30), tokenizer: 'char' });
  const model = tp.model({ ...lm.defaults, dModel: 32, nLayers: 1, dFF: 64, maxLen: 32, seed: 1 });
  const t = tp.trainer(model, lm, { seed: 1, batchSize: 8, lr: 0.01 });
  const start = t.evaluate().perplexity;
  t.step(150);
  const end = t.evaluate().perplexity;
  assert.ok(end < start / 3, `perplexity ${start} -> ${end}`);
  assert.equal(model.generate('to be or not to', { maxNewTokens: 3 }).text, ' be');
  for (const x of [c, classifier, sentiment, t, model, lm]) x.dispose();
});
