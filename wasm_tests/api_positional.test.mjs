// tp.positionalTable(): the core's position tables for any size are the very numbers a model
// uses, bit for bit — the sinusoidal rows a model adds (its trace's *.embed.positions), the RoPE
// rotation it applies to Q and K (a RoPE model's traced Q and K against the same model without
// positions, rotated here with the table's cos/sin), and the ALiBi bias it adds to the scores
// (traced `masked` = `scaled` + bias). Bad options get clear errors and the module keeps working.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'transformer-playground';
import { trainedToy, assertModuleWorks } from './helpers.mjs';

const f32 = Math.fround;

// A model of `task`'s defaults with `overrides`, given the task's tokenizer (so trace() takes text).
function modelFor(tp, taskName, overrides) {
  const task = tp.task(taskName);
  const model = tp.model({ ...task.defaults, seed: 7, ...overrides });
  const trainer = tp.trainer(model, task, { seed: 7 });  // attaches the tokenizer; no step is taken
  return { model, dispose: () => [trainer, model, task].forEach((o) => o.dispose()) };
}

// The indices where two Float32Arrays differ in any bit (NaN and −0 included).
function differences(a, b) {
  assert.equal(a.length, b.length, 'the same length');
  const out = [];
  for (let i = 0; i < a.length; ++i) if (!Object.is(a[i], b[i])) out.push(i);
  return out;
}

test('sinusoidal: the traced position rows of a model are the table\'s first rows, bit for bit', async () => {
  const tp = await load();
  for (const [task, overrides, text] of [['qa-toy', {}, 'how are you'], ['lm-char', { pos: 'sinusoidal', dModel: 48, nHeads: 4, nKvHeads: 4 }, 'the devil is in the details of this long sentence']]) {
    const { model, dispose } = modelFor(tp, task, overrides);
    const c = model.config;
    assert.equal(c.pos, 'sinusoidal');
    const trace = model.trace(text);
    const stack = trace.tensors['enc.embed.positions'] ? 'enc' : 'dec';
    const traced = trace.tensors[`${stack}.embed.positions`];
    const [T, D] = traced.shape;
    assert.equal(D, c.dModel);
    assert.ok(T >= 3, `${task}: ${T} positions traced`);
    const table = tp.positionalTable({ kind: 'sinusoidal', maxLen: c.maxLen, dim: c.dModel });
    assert.deepEqual(table.shape, [c.maxLen, c.dModel]);
    assert.equal(table.data.length, c.maxLen * c.dModel);
    assert.deepEqual(differences(table.data.subarray(0, T * D), traced.data), [], `${task}: rows 0..${T - 1}`);
    // And the sum the model feeds its first layer is tokens + these rows.
    const tokens = trace.tensors[`${stack}.embed.tokens`].data, sum = trace.tensors[`${stack}.embed.sum`].data;
    assert.deepEqual(differences(sum, tokens.map((v, i) => f32(v + table.data[i]))), []);
    dispose();
  }
  // Any size, and the formula at a few points (the table is a function of t and dim only).
  const big = tp.positionalTable({ kind: 'sinusoidal', maxLen: 512, dim: 7 });
  assert.equal(big.data[0], 0);
  assert.equal(big.data[1], 1);
  assert.ok(Math.abs(big.data[100 * 7 + 2] - Math.sin(100 / 10000 ** (2 / 7))) < 1e-6);
  assert.ok(Math.abs(big.data[100 * 7 + 6] - Math.sin(100 / 10000 ** (6 / 7))) < 1e-6, 'odd dim: the last column is a sine');
  const explicit = tp.positionalTable({ kind: 'sinusoidal', maxLen: 512, dim: 7, base: 10000 });
  assert.deepEqual(differences(explicit.data, big.data), [], 'base defaults to the model\'s 10000');
  const other = tp.positionalTable({ kind: 'sinusoidal', maxLen: 512, dim: 7, base: 100 });
  assert.ok(Math.abs(other.data[100 * 7 + 2] - Math.sin(100 / 100 ** (2 / 7))) < 1e-6, 'another base');
});

test('rope: rotating a position-free model\'s Q and K with the table gives the RoPE model\'s, bit for bit', async () => {
  const tp = await load();
  const config = { arch: 'decoder-only', dModel: 32, nHeads: 4, nKvHeads: 2, nLayers: 1, head: 'lm' };
  const plain = modelFor(tp, 'lm-char', { ...config, pos: 'none' });
  const rope = modelFor(tp, 'lm-char', { ...config, pos: 'rope' });
  // Same seed, same parameters (neither kind of position has any): only the rotation differs.
  assert.deepEqual(differences(plain.model.parameter('dec.0.self_attn.q.weight').data, rope.model.parameter('dec.0.self_attn.q.weight').data), []);
  const text = 'the devil is in the details';
  const a = plain.model.trace(text), b = rope.model.trace(text);
  const c = rope.model.config, dh = c.dModel / c.nHeads;
  const table = tp.positionalTable({ kind: 'rope', maxLen: c.maxLen, dim: dh });
  const half = dh / 2;
  assert.deepEqual(table.shape, [c.maxLen, half]);
  assert.equal(table.cos.length, c.maxLen * half);
  assert.equal(table.cos[0], 1);
  assert.equal(table.sin[0], 0);
  for (const [name, heads] of [['q', c.nHeads], ['k', c.nKvHeads]]) {
    const x = a.tensors[`dec.0.self_attn.${name}`], y = b.tensors[`dec.0.self_attn.${name}`];
    const [T, width] = x.shape;
    assert.equal(width, heads * dh);
    // The core's rotation, in float arithmetic: (a, b) -> (a·cos − b·sin, a·sin + b·cos).
    const rotated = new Float32Array(x.data.length);
    for (let t = 0; t < T; ++t) {
      for (let h = 0; h < heads; ++h) {
        for (let i = 0; i < half; ++i) {
          const o = t * width + h * dh + 2 * i;
          const cs = table.cos[t * half + i], sn = table.sin[t * half + i];
          const p = x.data[o], q = x.data[o + 1];
          rotated[o] = f32(f32(p * cs) - f32(q * sn));
          rotated[o + 1] = f32(f32(p * sn) + f32(q * cs));
        }
      }
    }
    assert.deepEqual(differences(rotated, y.data), [], `${name}: ${T} positions × ${heads} heads`);
  }
  plain.dispose();
  rope.dispose();
  // The angle of position 1 is θᵢ = base^(−2i/dh).
  const t16 = tp.positionalTable({ kind: 'rope', maxLen: 4, dim: 16, base: 500 });
  for (let i = 0; i < 8; ++i) assert.ok(Math.abs(Math.atan2(t16.sin[8 + i], t16.cos[8 + i]) - 500 ** (-2 * i / 16)) < 1e-6, `θ${i}`);
});

test('alibi: the model\'s masked scores are its scaled scores plus the table\'s bias, bit for bit', async () => {
  const tp = await load();
  const { model, dispose } = modelFor(tp, 'qa-toy', { pos: 'alibi', nHeads: 3, nKvHeads: 3 });
  const c = model.config;
  const trace = model.trace('how are you');
  const table = tp.positionalTable({ kind: 'alibi', maxLen: c.maxLen, heads: c.nHeads });
  const L = c.maxLen;
  assert.deepEqual(table.shape, [c.nHeads, L, L]);
  assert.deepEqual(Array.from(table.slopes), [2 ** (-8 / 3), 2 ** (-16 / 3), 2 ** -8].map(f32));
  for (const stack of ['enc', 'dec']) {
    const scaled = trace.tensors[`${stack}.0.self_attn.scaled`], masked = trace.tensors[`${stack}.0.self_attn.masked`];
    const [H, T, S] = scaled.shape;
    const expected = new Float32Array(H * T * S);
    for (let h = 0; h < H; ++h) {
      for (let t = 0; t < T; ++t) {
        for (let u = 0; u < S; ++u) {
          const i = (h * T + t) * S + u;
          expected[i] = stack === 'dec' && u > t ? -Infinity : f32(scaled.data[i] + table.data[(h * L + t) * L + u]);
        }
      }
    }
    assert.deepEqual(differences(expected, masked.data), [], `${stack}: ${H} heads × ${T} × ${S}`);
  }
  dispose();
});

test('positionalTable: bad options get clear errors, and the module keeps working', async () => {
  const { tp, task, model, trainer } = await trainedToy();
  const cases = [
    [undefined, /positionalTable\(options\) needs a plain object like \{ kind: 'sinusoidal', maxLen: 16, dim: 8 \}, got undefined/],
    [{ kind: 'learned', maxLen: 8, dim: 4 }, /kind must be sinusoidal, rope, alibi, got the string 'learned' \(a learned table is the model's parameter 'pos_emb.weight'/],
    [{ kind: 'rotary', maxLen: 8, dim: 4 }, /kind must be sinusoidal, rope, alibi, got the string 'rotary'/],
    [{ kind: 'sinusoidal', maxLen: 8, dim: 4, heads: 2 }, /unknown positionalTable key 'heads' for kind 'sinusoidal'; allowed: kind, maxLen, dim, base/],
    [{ kind: 'alibi', maxLen: 8, dim: 4 }, /unknown positionalTable key 'dim' for kind 'alibi'; allowed: kind, maxLen, heads/],
    [{ kind: 'sinusoidal', maxLen: 8.5, dim: 4 }, /maxLen must be a whole number, got the number 8.5/],
    [{ kind: 'sinusoidal', maxLen: 8 }, /dim must be a whole number, got undefined/],
    [{ kind: 'sinusoidal', maxLen: 0, dim: 4 }, /maxLen = 0 is out of range; allowed: 1 \.\. 4096/],
    [{ kind: 'sinusoidal', maxLen: 4096, dim: 4096 }, /maxLen × dim = 4096 × 4096 is too large/],
    [{ kind: 'rope', maxLen: 8, dim: 3 }, /dim = 3 must be an even head size from 2 to 4096 \(RoPE rotates pairs of dimensions\)/],
    [{ kind: 'alibi', maxLen: 8, heads: 0 }, /heads = 0 is out of range; allowed: 1 \.\. 64/],
    [{ kind: 'rope', maxLen: 8, dim: 4, base: 1 }, /base = 1 is out of range; allowed: more than 1, at most 1e9/],
    [{ kind: 'rope', maxLen: 8, dim: 4, base: Infinity }, /base must be a finite number, got the number Infinity/],
  ];
  for (const [options, message] of cases) assert.throws(() => tp.positionalTable(options), message, JSON.stringify(options));
  assertModuleWorks(tp, model);
  for (const o of [trainer, model, task]) o.dispose();
});
