// attention/mask.js — the mask of the selected layer drawn on the same tokens with two <PAD>
// added (a self-attention's queries and keys, a cross-attention's keys), and the rules it
// follows. The cells come from the core (tp.attentionMask: the rule the model masks with), so
// the picture is the model's, not a copy of its rule; the <PAD> token is the tokenizer's.

const EXTRA_PADS = 2;

// -> { label, matrix, note } | null (no engine yet)
export function maskProps({ tp, config, kind, layer, sides, specials, vocab }, t) {
  if (!tp) return null;
  const self = kind !== 'cross';  // self-attention: its queries are the same tokens, padded too
  const pad = specials?.pad ?? null;
  const padText = pad === null ? null : vocab?.[pad] ?? String(pad);
  const pads = (list) => (pad === null ? list : [...list, ...Array(EXTRA_PADS).fill(padText)]);
  const rows = self ? pads(sides.rows.tokens) : sides.rows.tokens;
  const cols = pads(sides.cols.tokens);
  const keyIds = pad === null ? Array.from(sides.cols.ids) : [...sides.cols.ids, ...Array(EXTRA_PADS).fill(pad)];
  const m = tp.attentionMask(config, { kind, layer, queries: rows.length, keyIds, padId: pad ?? -1 });
  const data = Float32Array.from(m.data, (v) => (v === -Infinity ? -Infinity : 1));
  const rules = [];
  if (m.causal) rules.push(t('attn.rule.causal'));
  if (m.window > 0) rules.push(t('attn.rule.window', { w: m.window }));
  if (m.window > 0 && m.globalTokens > 0) rules.push(t('attn.rule.global', { n: m.globalTokens }));
  if (!m.causal && !(m.window > 0)) rules.push(t('attn.rule.full'));
  if (pad !== null) rules.push(t('attn.rule.pad'));
  return {
    label: t('attn.mask'),
    matrix: { rows: rows.length, cols: cols.length, data, rowLabels: rows, colLabels: cols },
    note: t('attn.maskNote', { rules: rules.join(' · ') }),
  };
}
