// node:test — tp.version, tp.tasks() and tp.task(): the built-in tasks and users' own pairs and
// text. The page's task menu and a documentation widget's `task` attribute are built from these
// lists, so the tests check the exact set of tasks, that every default config fits its task's
// tokenizer, that lists are copies a caller may change, and that users' data become trainable
// tasks.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { load, Task } from 'transformer-playground';

const BUILTIN = ['qa-toy', 'copy', 'reverse', 'sort', 'addition', 'translate', 'lm-char', 'lm-bpe', 'sentiment', 'tagging'];
const CONFIG_KEYS = ['arch', 'vocabSize', 'dModel', 'nHeads', 'nKvHeads', 'nLayers', 'dFF', 'maxLen', 'pos', 'ropePairs', 'ropeTheta', 'norm',
  'normPlacement', 'normEps', 'ffn', 'window', 'globalTokens', 'layerPattern', 'dropout', 'tieEmbeddings', 'bias', 'head',
  'nClasses'];
let tp;

before(async () => {
  tp = await load();
});

test('tp.version is the package version', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url)));
  assert.equal(tp.version, pkg.version);
  assert.match(tp.version, /^\d+\.\d+\.\d+/);
});

test('tp.tasks() lists every built-in task with a complete camelCase default config', () => {
  const tasks = tp.tasks();
  assert.deepEqual(tasks.map((t) => t.name), BUILTIN);
  for (const t of tasks) {
    assert.deepEqual(Object.keys(t.defaults).sort(), [...CONFIG_KEYS].sort(), t.name);
    assert.ok(['seq2seq', 'text', 'classify', 'tag'].includes(t.kind), `${t.name}: ${t.kind}`);
    assert.ok(['exact_match', 'token_accuracy', 'perplexity', 'accuracy'].includes(t.metric), `${t.name}: ${t.metric}`);
    assert.ok(t.description.length > 10 && t.source.length > 0, t.name);
    assert.ok(t.train.totalSteps > 0 && t.train.lr > 0 && t.train.batchSize > 0, t.name);
    assert.ok(['constant', 'cosine', 'noam'].includes(t.train.schedule));
    assert.ok((t.trainSize > 0 || t.synthetic) && t.valSize > 0, t.name);
    assert.equal(typeof t.synthetic, 'boolean');
    if (t.kind === 'classify' || t.kind === 'tag') assert.ok(t.classNames.length >= 2, t.name);
    // The defaults fit the task: the model's vocabulary is the task tokenizer's.
    const task = tp.task(t.name);
    const tok = task.tokenizer();
    assert.equal(t.defaults.vocabSize, tok.vocabSize, t.name);
    tok.dispose();
    task.dispose();
  }
  const qa = tasks[0];
  assert.equal(qa.kind, 'seq2seq');
  assert.equal(qa.metric, 'exact_match');
  assert.equal(qa.defaults.dModel, 6, "the seed's d_model");
  assert.equal(qa.defaults.arch, 'encoder-decoder');
  assert.deepEqual(tasks.find((t) => t.name === 'sentiment').classNames, ['negative', 'positive']);
});

test('tp.tasks() returns copies: changing one changes nothing for the next caller', () => {
  const a = tp.tasks();
  a[0].defaults.dModel = 999;
  a[0].train.lr = 5;
  a[8].classNames.push('neutral');
  a[0].sampleInputs.length = 0;
  a.pop();
  const b = tp.tasks();
  assert.equal(b.length, BUILTIN.length);
  assert.equal(b[0].defaults.dModel, 6);
  assert.notEqual(b[0].train.lr, 5);
  assert.deepEqual(b[8].classNames, ['negative', 'positive']);
  assert.ok(b[0].sampleInputs.length > 0);
});

test('tp.task(name) carries the same description as tp.tasks() plus examples and a tokenizer', () => {
  const task = tp.task('qa-toy');
  assert.ok(task instanceof Task);
  const info = tp.tasks()[0];
  for (const key of Object.keys(info)) assert.deepEqual(task[key], info[key], key);
  const pairs = [0, 1, 2, 3].map((i) => task.example(i));
  for (const e of pairs) {
    assert.ok(['how are you', 'i am fine'].includes(e.input), e.input);
    assert.equal(e.target, e.input === 'how are you' ? 'i am fine' : 'how about yourself');
  }
  assert.deepEqual(task.example(0), task.example(), 'the index defaults to 0');
  task.dispose();
});

test('classification and tagging examples carry labels and per-word tags', () => {
  const sentiment = tp.task('sentiment');
  const e = sentiment.example(3);
  assert.ok(sentiment.classNames.includes(e.label), e.label);
  assert.equal(e.target, undefined);
  const tagging = tp.task('tagging');
  const t = tagging.example(1);
  assert.equal(t.tags.length, t.input.split(' ').length, `${t.input} / ${t.tags}`);
  for (const tag of t.tags) assert.ok(tagging.classNames.includes(tag));
  const lm = tp.task('lm-char');
  assert.ok(lm.example(0).input.length > 10);
  for (const x of [sentiment, tagging, lm]) x.dispose();
});

test('tp.task({ pairs }) makes a character-level seq2seq task that trains', () => {
  const pairs = [['one', 'uno'], ['two', 'dos'], ['three', 'tres'], ['four', 'cuatro']];
  const task = tp.task({ pairs });
  assert.equal(task.kind, 'seq2seq');
  assert.equal(task.defaults.arch, 'encoder-decoder');
  const tok = task.tokenizer();
  assert.equal(tok.kind, 'char');
  for (const word of pairs.flat()) assert.equal(tok.decode(tok.encode(word).ids), word);
  assert.equal(tok.vocabSize, 6 + new Set(pairs.flat().join('')).size, 'specials + the distinct characters');
  assert.equal(task.defaults.vocabSize, tok.vocabSize);
  // It trains: a small model learns the four pairs.
  const model = tp.model({ ...task.defaults, dModel: 32, nLayers: 1, dFF: 64, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1, lr: 0.01, batchSize: 4, warmup: 5 });
  const first = trainer.step(1).loss;
  const last = trainer.step(150).loss;
  assert.ok(last < first / 20, `loss ${first} -> ${last}`);
  assert.equal(model.generate('three').text, 'tres');
  for (const x of [trainer, model, tok, task]) x.dispose();
});

test('tp.task({ text, tokenizer }) makes a language-model task with the chosen tokenizer', () => {
  const text = 'the quick brown fox jumps over the lazy dog. '.repeat(20);
  for (const [spec, kind] of [[undefined, 'char'], ['word', 'word'], ['byte', 'byte'], [{ kind: 'bpe', vocabSize: 280 }, 'bpe']]) {
    const task = tp.task(spec === undefined ? { text } : { text, tokenizer: spec });
    assert.equal(task.kind, 'text');
    assert.equal(task.metric, 'perplexity');
    assert.equal(task.defaults.arch, 'decoder-only');
    const tok = task.tokenizer();
    assert.equal(tok.kind, kind);
    assert.equal(task.defaults.vocabSize, tok.vocabSize);
    if (kind === 'bpe') assert.ok(tok.vocabSize <= 280);
    tok.dispose();
    task.dispose();
  }
});
