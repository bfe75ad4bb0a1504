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
