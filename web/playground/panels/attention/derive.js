// attention/derive.js — attention of the live model on the probe input: the layer × head grid
// (model view; a deep model shows a window of layers around the selected one), the selected
// head large (the probabilities, or any earlier stage of the scores), the head view
// (token-to-token lines), the mask of the selected layer (mask.js), another kept run beside it
// (compare.js), and the head whose pattern changed most since the run's first snapshot, with one
// click to show it (changed.js). Pure: (state, run, shown, info, page) -> props; page.tp asks the core for the
// mask, page.compared lists the runs to compare, page.compareKey is the one picked.
import { ATTN_STAGES } from '../../state.js';
import { headColor } from '../../../components/shared/colormap.js';
import { attentionKinds, attentionName, ATTENTION_KINDS } from '../../../lib/trace-names.js';
import { tr, configOf, traceOf, decodeIds, probeInput } from '../common.js';
import { sidesOf } from './sides.js';
import { maskProps } from './mask.js';
import { explainSource } from './explain.js';
import { compareProps } from './compare.js';
import { changedMost } from './changed.js';

const MAX_THUMBS = 48;

// The layers the grid shows: all of them, or `span` around the selected one.
export function gridWindow(layers, heads, layer) {
  const span = Math.max(1, Math.min(layers, Math.floor(MAX_THUMBS / Math.max(1, heads))));
  const first = Math.min(Math.max(0, layer - Math.floor(span / 2)), layers - span);
  return { first, span };
}

// The kind, layer, head and stage shown: the state's, within what this model has.
export function selection(state, config) {
  const kinds = config ? attentionKinds(config.arch) : [];
  const a = state.attn;
  return {
    kinds, kind: kinds.includes(a.kind) ? a.kind : kinds[0], stage: a.stage,
    layer: Math.min(a.layer, (config?.nLayers ?? 1) - 1), head: Math.min(a.head, (config?.nHeads ?? 1) - 1),
  };
}

export function deriveAttention(state, run, shown, info, page) {
  const t = tr(state);
  const config = configOf(run, page);
  const sel = selection(state, config);
  const kindLabel = (k) => (k === 'dec' && config?.arch === 'decoder-only' ? t('attn.kind.decOnly') : t(`attn.kind.${k}`));
  const numbers = (n, selected) => Array.from({ length: n }, (_, i) => ({ value: String(i), text: String(i), selected: i === selected }));
  const props = {
    input: probeInput(state, info),
    attn: state.attn,
    kinds: ATTENTION_KINDS.map((k) => ({ value: k, label: kindLabel(k), disabled: !sel.kinds.includes(k) })),
    kind: sel.kind,
    stages: ATTN_STAGES.map((s) => ({ value: s, text: t(`attn.stage.${s}`), selected: s === sel.stage })),
    layers: numbers(config?.nLayers ?? 1, sel.layer),
    heads: numbers(config?.nHeads ?? 1, sel.head),
    views: null,
    explain: null,
    changed: null,
    compare: compareProps({ compared: page.compared ?? [], key: page.compareKey, step: shown?.step ?? 0, ...sel, kindLabel }, t),
  };
  const trace = traceOf(shown);
  if (!trace || !config) return props;
  if (trace.error) return { ...props, note: trace.error.message };
  const views = viewsProps(trace, config, sel, kindLabel, t);
  if (!views) return props;
  const sides = sidesOf(trace, config, sel.kind);
  let answer = '';
  if (config.arch === 'encoder-decoder') answer = info?.tokenizer ? decodeIds(info.tokenizer, Array.from(trace.decoderInput.ids).slice(1)) : trace.decoderInput.tokens.slice(1).join(' ');
  return {
    ...props,
    views,
    note: t('attn.note', { input: trace.probe, answer: answer ? t('attn.noteAnswer', { answer }) : '', step: trace.step ?? 0 }) + shortenedNote(trace, t),
    mask: maskProps({ tp: page.tp, config, kind: sel.kind, layer: sel.layer, sides, specials: info?.tokenizer?.specials, vocab: info?.vocab }, t),
    explain: explainSource(trace, sel.kind, sel.layer, sel.head),
    changed: changedProps(run, trace, config, sel, kindLabel, t),
  };
}

// Where the shown step's attention differs most from the run's first snapshot: the words, and
// the pick that shows it (null: nothing to point to yet).
function changedProps(run, trace, config, sel, kindLabel, t) {
  const most = changedMost(traceOf(run?.snapshots?.[0]), trace, config);
  if (!most) return null;
  const { kind, layer, head } = most;
  const here = kind === sel.kind && layer === sel.layer && head === sel.head;
  return {
    text: t('attn.changed', { from: most.from, to: most.to, kind: kindLabel(kind), layer, head, tv: most.change.toFixed(2) }),
    show: here ? t('attn.changedHere') : t('attn.changedShow'), disabled: here, pick: { kind, layer, head },
  };
}

// A probe too large for one snapshot was traced on its first tokens: the history says how many.
function shortenedNote(trace, t) {
  const cut = trace.shortened;
  return cut ? t('attn.shortened', { tokens: cut.tokens, of: cut.of, mb: (cut.limit / 2 ** 20).toFixed(1) }) : '';
}

// The grid, the large heatmap and the head view of the selected kind, layer and head.
function viewsProps(trace, config, { kind, layer, head, stage }, kindLabel, t) {
  const probs = [], masked = [];
  for (let l = 0; l < config.nLayers; ++l) {
    const p = trace.tensors[attentionName(kind, l, 'probs')];
    if (!p) return null;
    probs.push(p.data);
    masked.push(trace.tensors[attentionName(kind, l, 'masked')]?.data);
  }
  const [H, T, S] = trace.tensors[attentionName(kind, 0, 'probs')].shape;
  const { rows, cols, rowSide, colSide } = sidesOf(trace, config, kind);
  const rowTokens = rows.tokens, colTokens = cols.tokens;
  const { first, span } = gridWindow(config.nLayers, H, layer);
  // The selected head, large: probabilities with masked cells shown as −∞, or an earlier stage.
  const src = trace.tensors[attentionName(kind, layer, stage)];
  const off = head * T * S;
  const data = new Float32Array(T * S);
  for (let i = 0; i < T * S; ++i) data[i] = stage === 'probs' && masked[layer]?.[off + i] === -Infinity ? -Infinity : src.data[off + i];
  return {
    grid: {
      label: span < config.nLayers ? t('attn.gridWindow', { first, last: first + span - 1, layers: config.nLayers }) : t('attn.grid'),
      selected: { layer, head },
      maps: { probs: probs.slice(first, first + span), masked: masked.slice(first, first + span), heads: H, T, S, rowTokens, colTokens, rowSide, colSide, firstLayer: first },
    },
    main: {
      label: t('attn.main', { layer, head, kind: kindLabel(kind) }), accent: headColor(head),
      scale: stage === 'probs' ? { colormap: 'sequential', min: '0', max: '1' } : { colormap: 'diverging' },
      rowSide, colSide,
      matrix: { rows: T, cols: S, data, rowLabels: rowTokens, colLabels: colTokens, rowTitle: t('attn.rows'), colTitle: t('attn.cols') },
    },
    headView: { label: t('attn.headView', { layer }), data: { probs: probs[layer], masked: masked[layer], heads: H, T, S, rowTokens, colTokens, rowSide, colSide } },
  };
}
