// node:test — the Attention card's pointer to the head whose pattern changed most so far
// (web/playground/panels/attention/changed.js and its props in attention/derive.js), on real
// recorded runs (the page's worker code in Node: playground/recorded.mjs) of each kind of model:
// the head it names is the one whose weights moved most from the first snapshot to the shown one,
// computed here cell by cell; nothing is named at the first step, for another input, or in a
// trace that is not comparable; the card's words and its pick, in English and Korean.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { recorded, SETUPS } from './playground/recorded.mjs';
import { changedMost, headChange } from '../web/playground/panels/attention/changed.js';
import { deriveAttention } from '../web/playground/panels/attention/derive.js';
import { traceOf } from '../web/playground/panels/common.js';
import { attentionKinds, attentionName } from '../web/lib/trace-names.js';

const KINDS = Object.keys(SETUPS);
const runs = {};
before(async () => {
  for (const kind of KINDS) runs[kind] = await recorded(kind);
});

// Every head's mean total variation between two traces, from the tensors: the rows both have
// (the decoder's side is the model's own answer, whose length differs between steps), a key
// only one of them has weighing 0 in the other.
function everyHead(a, b, config) {
  const out = [];
  for (const kind of attentionKinds(config.arch)) {
    for (let layer = 0; layer < config.nLayers; ++layer) {
      const x = a.tensors[attentionName(kind, layer, 'probs')], y = b.tensors[attentionName(kind, layer, 'probs')];
      const [H, Tx, Sx] = x.shape, [, Ty, Sy] = y.shape;
      const at = (t, T, S, head, r, c) => (c < S ? t.data[(head * T + r) * S + c] : 0);
      for (let head = 0; head < H; ++head) {
        let total = 0;
        for (let r = 0; r < Math.min(Tx, Ty); ++r) {
          let row = 0;
          for (let c = 0; c < Math.max(Sx, Sy); ++c) row += Math.abs(at(x, Tx, Sx, head, r, c) - at(y, Ty, Sy, head, r, c));
          total += row / 2;
        }
        out.push({ kind, layer, head, change: total / Math.min(Tx, Ty) });
      }
    }
  }
  return out;
}

test('the head named is the one whose weights moved most from the first snapshot to the shown one, for every kind of model', () => {
  for (const name of KINDS) {
    const { run } = runs[name];
    const first = traceOf(run.snapshots[0]), last = traceOf(run.snapshots.at(-1));
    assert.equal(first.step, 0, name);
    assert.ok(last.step > 0, name);
    const most = changedMost(first, last, run.config);
    const all = everyHead(first, last, run.config);
    const top = Math.max(...all.map((h) => h.change));
    assert.ok(most, `${name}: a head is named`);
    assert.ok(top > 0.001 && top <= 1, `${name}: the weights moved (${top})`);
    assert.ok(Math.abs(most.change - top) < 1e-9, `${name}: ${most.change} is the largest change, ${top}`);
    const same = all.find((h) => h.kind === most.kind && h.layer === most.layer && h.head === most.head);
    assert.ok(Math.abs(same.change - most.change) < 1e-9, `${name}: the change is the named head's own`);
    assert.deepEqual([most.from, most.to], [0, last.step]);
    // Every head of a model with more than one differs somewhere: the pointer is not the first by default.
    assert.ok(new Set(all.map((h) => h.change.toFixed(6))).size > 1, name);
  }
});

test('a mid-run snapshot is compared with the first, not with the last', () => {
  const { run } = runs['encoder-decoder'];
  const first = traceOf(run.snapshots[0]);
  const mid = traceOf(run.snapshots[Math.floor(run.snapshots.length / 2)]);
  const most = changedMost(first, mid, run.config);
  const top = Math.max(...everyHead(first, mid, run.config).map((h) => h.change));
  assert.ok(Math.abs(most.change - top) < 1e-9);
  assert.equal(most.to, mid.step);
});

test('nothing is named at the first step, for another input, for an error, or for a shortened input', () => {
  const { run } = runs['encoder-decoder'];
  const first = traceOf(run.snapshots[0]), last = traceOf(run.snapshots.at(-1));
  assert.equal(changedMost(first, first, run.config), null, 'the first step against itself');
  assert.equal(changedMost(first, { ...last, probe: 'i am fine' }, run.config), null, 'another input');
  assert.equal(changedMost(first, { ...last, error: new Error('no') }, run.config), null);
  assert.equal(changedMost(null, last, run.config), null);
  const name = attentionName('enc', 0, 'probs');
  const t = last.tensors[name];
  // A probe shortened to fit the history at one step and not at the other: not the same input.
  const cut = { ...last, shortened: { tokens: 2, of: 3, limit: 3 * 2 ** 20 } };
  assert.equal(changedMost(first, cut, run.config), null);
  // The same weights at another step: nothing changed, nothing to point to.
  assert.equal(changedMost(first, { ...first, step: 5 }, run.config), null);
  assert.equal(headChange(t, t, 0), 0);
});

test('the card names the head and its change in both languages, and its button picks it (off once it is shown)', () => {
  const r = runs['encoder-decoder'];
  const last = r.run.snapshots.at(-1);
  const most = changedMost(traceOf(r.run.snapshots[0]), traceOf(last), r.run.config);
  const kindWord = { enc: 'encoder self-attention', dec: 'decoder self-attention', cross: 'cross-attention' }[most.kind];
  const p = deriveAttention(r.state, r.run, last, r.info, r.page);
  assert.deepEqual(p.changed.pick, { kind: most.kind, layer: most.layer, head: most.head });
  assert.equal(p.changed.text, `Changed most from step 0 to ${last.step}: ${kindWord}, layer ${most.layer}, head ${most.head} (its rows' weights moved by ${most.change.toFixed(2)} of 1 on average).`);
  const shownHere = { ...r.state, attn: { ...r.state.attn, ...p.changed.pick } };
  const elsewhere = { ...r.state, attn: { ...r.state.attn, kind: most.kind, layer: most.layer, head: (most.head + 1) % r.run.config.nHeads } };
  const there = deriveAttention(elsewhere, r.run, last, r.info, r.page).changed;
  assert.deepEqual([there.show, there.disabled, there.pick], ['Show it', false, p.changed.pick]);
  const here = deriveAttention(shownHere, r.run, last, r.info, r.page).changed;
  assert.deepEqual([here.show, here.disabled], ['Shown', true]);
  const ko = deriveAttention({ ...elsewhere, lang: 'ko' }, r.run, last, r.info, r.page).changed;
  assert.match(ko.text, new RegExp(`^0단계에서 ${last.step}단계까지 가장 많이 바뀐 곳: .+, 층 ${most.layer}, 헤드 ${most.head} \\(`));
  assert.equal(ko.show, '보기');
  // At the first step there is nothing to point to.
  assert.equal(deriveAttention(r.state, r.run, r.run.snapshots[0], r.info, r.page).changed, null);
});
