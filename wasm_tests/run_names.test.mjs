// Kept runs' names: the most telling differences first, at most three, then "and N more".
import test from 'node:test';
import assert from 'node:assert/strict';
import { differenceLabels, NAME_ORDER } from '../web/playground/runs.js';

const name = (k, v) => `${k}: ${v}`;
const same = (n) => `run ${n}`;
const more = (n) => `and ${n} more`;

test('many differences: the three first in the importance order, then how many more', () => {
  const a = { seed: 1, lr: 0.01, ffn: 'relu', pos: 'sin', arch: 'encoder-decoder', warmup: 0 };
  const b = { seed: 2, lr: 0.02, ffn: 'gelu', pos: 'rope', arch: 'decoder-only', warmup: 10 };
  assert.deepEqual(differenceLabels([a, b], (v) => v, name, same, more),
    ['arch: encoder-decoder, pos: sin, ffn: relu and 3 more', 'arch: decoder-only, pos: rope, ffn: gelu and 3 more']);
});
test('three or fewer differences are all named, with no count', () => {
  assert.deepEqual(differenceLabels([{ seed: 1, norm: 'layer' }, { seed: 2, norm: 'rms' }], (v) => v, name, same, more),
    ['norm: layer, seed: 1', 'norm: rms, seed: 2']);
});
test('settings outside the order come after the ordered ones', () => {
  assert.ok(!NAME_ORDER.includes('warmup'));
  const labels = differenceLabels([{ warmup: 0, seed: 1 }, { warmup: 5, seed: 2 }], (v) => v, name, same, more);
  assert.deepEqual(labels, ['seed: 1, warmup: 0', 'seed: 2, warmup: 5']);
});
test('runs that differ in nothing are numbered', () => {
  assert.deepEqual(differenceLabels([{ seed: 1 }, { seed: 1 }], (v) => v, name, same, more), ['run 1', 'run 2']);
});

// ---- labels and presets (comparison.js runNames), against the library's own task infos ----

import { runNames, presetOf, comparedRuns } from '../web/playground/comparison.js';
import { applyPreset, defaultState, LABEL_LIMIT } from '../web/playground/state.js';
import { setupOf, setupKey, parseHash, readHash, toHash } from '../web/playground/hash.js';
import { KeptRuns } from '../web/playground/runs.js';
import { t as say } from '../web/playground/strings/index.js';
import { load } from 'transformer-playground';

const tp = await load();
const infos = new Map();
const infoFor = (name) => {
  if (!infos.has(name)) {
    const task = tp.task(name);
    infos.set(name, { kind: task.kind, defaults: task.defaults, train: task.train });
    task.dispose();
  }
  return infos.get(name);
};
const en = (k, v) => say('en', k, v);
const ko = (k, v) => say('ko', k, v);
const fromPreset = (name, task = 'qa-toy', patch = {}) => ({ setup: setupOf({ ...applyPreset({ ...defaultState(), task }, name, infoFor), ...patch }), record: null });

test('runs from presets are named by their presets, in both languages', () => {
  const runs = ['gpt', 'modern', 't5'].map((p) => fromPreset(p));
  assert.deepEqual(runs.map((r) => presetOf(r.setup, infoFor)), ['gpt', 'modern', 't5']);
  assert.deepEqual(runNames(runs, infoFor, en), ['GPT-like', 'Modern', 'Encoder-decoder + ALiBi']);
  assert.deepEqual(runNames(runs, infoFor, ko), ['GPT 스타일', '최신', '인코더-디코더 + ALiBi']);
  // The seed's example is named so beside another preset, and by its difference beside a changed copy.
  const seed = fromPreset('seed');
  assert.deepEqual(runNames([seed, runs[0]], infoFor, en), ["The seed's example", 'GPT-like']);
  const pre = { setup: { ...seed.setup, model: { normPlacement: 'pre' } }, record: null };
  assert.deepEqual(runNames([seed, pre], infoFor, en), ['norm placement: post-norm (2017)', 'norm placement: pre-norm']);
});

test('a preset changed after it was applied is named by its differences', () => {
  const gpt = fromPreset('gpt');
  const changedModel = { setup: { ...gpt.setup, model: { ...gpt.setup.model, ffn: 'relu' } }, record: null };
  const changedLr = { setup: { ...gpt.setup, train: { lr: 0.02 } }, record: null };
  assert.equal(presetOf(changedModel.setup, infoFor), null);
  assert.equal(presetOf(changedLr.setup, infoFor), null);
  assert.equal(presetOf(fromPreset('gpt', 'qa-toy', { seed: 3 }).setup, infoFor), null);
  const names = runNames([gpt, changedModel, changedLr], infoFor, en);
  assert.deepEqual(names, ['GPT-like', 'feed-forward: ReLU, learning rate: 0.01', 'feed-forward: GELU, learning rate: 0.02']);
  // A preset that moved the set-up to another task is still named by it there.
  const bert = fromPreset('bert', 'qa-toy');
  assert.equal(bert.setup.task, 'sentiment');
  assert.equal(presetOf(bert.setup, infoFor), 'bert');
});

test('a label names its run; runs that share a name say how they differ', () => {
  const a = fromPreset('gpt', 'qa-toy', { label: 'baseline' });
  const b = fromPreset('modern');
  const c = fromPreset('seed', 'qa-toy', { model: { normPlacement: 'pre' } });
  assert.deepEqual(runNames([a, b, c], infoFor, en).slice(0, 2), ['baseline', 'Modern']);
  const twins = [fromPreset('gpt'), fromPreset('gpt', 'qa-toy', { seed: 2, label: 'GPT-like' })];
  assert.deepEqual(runNames(twins, infoFor, en), ['GPT-like (seed 1)', 'GPT-like (seed 2)']);
});

test('the label rides in the link (l=, and in each kept run), bounded and plain, but is no part of a run\'s key', () => {
  const state = { ...defaultState(), label: 'pre-norm <b>try</b>', runs: [{ ...setupOf(defaultState()), label: 'first' }] };
  const back = parseHash(toHash(state));
  assert.equal(back.label, 'pre-norm <b>try</b>');
  assert.equal(back.runs[0].label, 'first');
  assert.equal(setupKey(back.runs[0]), setupKey(setupOf(defaultState())));
  const long = readHash(`#l=${'x'.repeat(500)}&l=%00a%0Ab&run=${encodeURIComponent(`task=copy&seed=1&l=${'y'.repeat(LABEL_LIMIT + 1)}`)}`);
  assert.equal(long.state.label, 'a b');
  assert.equal(long.state.runs[0].label.length, LABEL_LIMIT);
  assert.deepEqual(long.problems.map((p) => p.key), ['l', 'run l']);
  assert.match(long.problems[0].reason, new RegExp(`at most ${LABEL_LIMIT} characters`));
});

test('renaming the current run renames it where it is kept; the comparison names it by its label', async () => {
  const kept = new KeptRuns();  // no IndexedDB in node: kept for this process only
  const record = { points: [[1, 1, null, null]], snapshots: [], config: null };
  const setup = setupOf({ ...defaultState(), label: 'one' });
  kept.keep(setup, record);
  let changes = 0;
  kept.addEventListener('change', () => ++changes);
  kept.relabel(record, 'two');
  assert.equal(kept.entries[0].setup.label, 'two');
  assert.equal(kept.entries[0].key, setupKey(setup));
  assert.equal(changes, 1);
  kept.relabel({}, 'three');  // another run: nothing kept is it
  assert.equal(kept.entries[0].setup.label, 'two');
  const other = { points: [], snapshots: [], config: null };
  const runs = comparedRuns({ kept, run: other, runSetup: setupOf({ ...defaultState(), model: { normPlacement: 'pre' } }), infoFor, t: en });
  assert.deepEqual(runs.map((r) => r.label), ['two', 'norm placement: pre-norm']);
});

test('a label names one run: a change that makes another run leaves it behind, unless it brings its own', async () => {
  const { nextState } = await import('../web/playground/state.js');
  const s = { ...defaultState(), label: 'baseline' };
  assert.equal(nextState(s, { input: 'how are you' }).label, 'baseline', 'a probe input is the same run');
  assert.equal(nextState(s, { lang: 'ko' }).label, 'baseline');
  assert.equal(nextState(s, { model: { normPlacement: 'pre' } }).label, '', 'another model is another run');
  assert.equal(nextState(s, { seed: 2 }).label, '');
  assert.equal(nextState(s, applyPreset(s, 'gpt', infoFor)).label, '');
  assert.equal(nextState(s, { seed: 2, label: 'kept one' }).label, 'kept one', 'a kept run\'s set-up brings its label');
});
