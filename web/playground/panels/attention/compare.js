// attention/compare.js — another kept run's attention at the same step, beside this run's: the
// same kind of attention, its grid of layers × heads, or why it has none. Pure.
import { attentionKinds, attentionName } from '../../../lib/trace-names.js';
import { traceOf } from '../common.js';
import { sidesOf } from './sides.js';

// compared: comparison.js's runs; key: the run picked (page.compareKey); step: the step shown
// here. -> { hidden } | { hidden: false, options, key, label, selected, maps, note }
export function compareProps({ compared, key, step, kind, layer, head, kindLabel }, t) {
  const others = compared.filter((r) => !r.current && r.record.snapshots.length);
  if (!others.length) return { hidden: true };
  const other = others.find((r) => r.key === key) ?? others[0];
  const base = { hidden: false, options: others.map((r) => ({ value: r.key, text: r.label })), key: other.key };
  const snap = other.record.snapshotAt(step);
  const trace = snap && traceOf(snap);
  const config = other.record.config;
  if (!trace || trace.error || !attentionKinds(config.arch).includes(kind)) {
    return { ...base, maps: null, note: t('attn.compareNone', { kind: kindLabel(kind) }) };
  }
  const probs = [], masked = [];
  for (let l = 0; l < config.nLayers; ++l) {
    probs.push(trace.tensors[attentionName(kind, l, 'probs')].data);
    masked.push(trace.tensors[attentionName(kind, l, 'masked')]?.data);
  }
  const [H, T, S] = trace.tensors[attentionName(kind, 0, 'probs')].shape;
  const sides = sidesOf(trace, config, kind);
  return {
    ...base,
    label: t('attn.compareGrid', { run: other.label, step: snap.step }),
    selected: { layer: Math.min(layer, config.nLayers - 1), head: Math.min(head, H - 1) },
    maps: { probs, masked, heads: H, T, S, rowTokens: sides.rows.tokens, colTokens: sides.cols.tokens, rowSide: sides.rowSide, colSide: sides.colSide },
    note: t('attn.compareNote', { run: other.label, step: snap.step, here: step }),
  };
}
