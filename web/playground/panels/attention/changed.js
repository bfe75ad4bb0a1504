// attention/changed.js — which head's pattern changed most so far: between the run's first
// recorded snapshot and the shown one, on the same probe input, the kind, layer and head whose
// attention weights moved most, so the panel can point to it (the striking patterns are often
// not the head shown by default). Pure.
//
// A head's change is the total variation of its weights, row by row (half the sum of the absolute
// differences of the two distributions a query row attends with: 0 the same, 1 disjoint), averaged
// over its query rows. The decoder's side of a probe is the model's own answer at each step, so
// its length may differ between the two: the query positions both have are compared, a key
// position only one has counts with weight 0 in the other (a causal row never reaches one).
import { attentionKinds, attentionName } from '../../../lib/trace-names.js';

// The change of head `h` between tensors a and b ([H, T, S] probabilities): mean total variation
// over the rows both have.
export function headChange(a, b, h) {
  const [, Ta, Sa] = a.shape, [, Tb, Sb] = b.shape;
  const T = Math.min(Ta, Tb), S = Math.max(Sa, Sb);
  let sum = 0;
  for (let r = 0; r < T; ++r) {
    const ra = (h * Ta + r) * Sa, rb = (h * Tb + r) * Sb;
    for (let c = 0; c < S; ++c) sum += Math.abs((c < Sa ? a.data[ra + c] : 0) - (c < Sb ? b.data[rb + c] : 0));
  }
  return T > 0 ? sum / 2 / T : 0;
}

// first, shown: traces (common.js traceOf) of two snapshots of one run; config: its model's.
// -> { kind, layer, head, change, from, to } for the head that changed most, or null when the two
// are the same step, traced on different inputs (or shortened differently), or nothing changed.
export function changedMost(first, shown, config) {
  if (!first || !shown || !config || first.error || shown.error || first.step === shown.step || first.probe !== shown.probe ||
    (first.shortened?.tokens ?? null) !== (shown.shortened?.tokens ?? null)) return null;
  let best = null;
  for (const kind of attentionKinds(config.arch)) {
    for (let layer = 0; layer < config.nLayers; ++layer) {
      const name = attentionName(kind, layer, 'probs');
      const a = first.tensors?.[name], b = shown.tensors?.[name];
      if (!a || !b || a.shape[0] !== b.shape[0]) return null;
      for (let head = 0; head < a.shape[0]; ++head) {
        const change = headChange(a, b, head);
        if (!best || change > best.change) best = { kind, layer, head, change };
      }
    }
  }
  return best && best.change > 0 ? { ...best, from: first.step, to: shown.step } : null;
}
