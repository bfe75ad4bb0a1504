// embeddings/positional.js — the whole positional table of this model: sinusoidal and ALiBi from
// the core (tp.positionalTable, whose first rows are the ones the trace used), the learned table
// from the history's snapshot; RoPE and none have no table here (rope.js explains RoPE). Pure
// apart from asking the core for a table.
import { fmt } from '../../../components/shared/format.js';

export const P_MAX = 64;  // positions drawn (and recorded from a learned table)

const dims = (D) => Array.from({ length: D }, (_, i) => String(i));
const numbers = (n) => Array.from({ length: n }, (_, i) => String(i));

// T: positions the traced input used. -> { title, note, table: null (hidden) | { label, colormap, matrix, marks } }
export function positionalProps({ tp, config: c, T, params }, t) {
  const P = Math.min(c.maxLen, P_MAX);
  const traced = c.pos === 'sinusoidal' || c.pos === 'learned' ? ` ${t('emb.peTraced', { last: Math.min(T, P) - 1 })}` : '';
  const head = { title: `${t('emb.peTitle')}: ${t(`value.${c.pos}`)}`, note: t(`emb.peNote.${c.pos}`) + traced };
  // The rows this input used are the ones above: outlined.
  const used = { rows: Array.from({ length: Math.min(T, P) }, (_, i) => i) };
  const axes = { rowLabels: numbers(P), colLabels: dims(c.dModel), rowTitle: t('emb.position'), colTitle: t('emb.dim') };
  if (c.pos === 'sinusoidal') {
    const pe = tp.positionalTable({ kind: 'sinusoidal', maxLen: P, dim: c.dModel });
    return { ...head, table: { label: t('emb.pe.sinusoidal', { n: P - 1 }), colormap: 'diverging', matrix: { rows: P, cols: c.dModel, data: pe.data, ...axes }, marks: used } };
  }
  if (c.pos === 'learned') {
    const learned = params?.['pos_emb.weight'];
    const ok = learned && learned.shape[1] === c.dModel;
    return { ...head, table: { label: t('emb.pe.learned', { n: P - 1 }), colormap: 'diverging', matrix: ok ? { rows: P, cols: c.dModel, data: learned.data.subarray(0, P * c.dModel), ...axes } : null,
      marks: ok ? used : null } };
  }
  if (c.pos === 'alibi') {
    const L = Math.min(c.maxLen, 16);
    const bias = tp.positionalTable({ kind: 'alibi', maxLen: L, heads: c.nHeads });
    const labels = numbers(L);
    return { ...head, table: { label: t('emb.pe.alibi', { h: 0, slope: fmt(bias.slopes[0], 3) }), colormap: 'sequential', marks: null,
      matrix: { rows: L, cols: L, data: bias.data.subarray(0, L * L), rowLabels: labels, colLabels: labels, rowTitle: 't', colTitle: 'u' } } };
  }
  return { ...head, table: null };
}
