// embeddings/onehot.js — one-hot versus dense: the input's one-hot rows (for a large vocabulary,
// such as an imported model's 50,257 tokens, only the columns of the ids it uses), and the cosine
// similarity of embeddings: every token of a small vocabulary against every other (from the
// snapshot's embedding table), or the input's tokens against each other. Pure.
import { cosineMatrix } from '../../../components/shared/similarity.js';

export const MAX_ONEHOT_COLUMNS = 2048;
export const V_MAX = 48;  // a vocabulary this small is compared whole (and recorded)

export function onehotProps({ config: c, trace, embeddings, params, vocab = [] }, t) {
  const ids = Array.from(trace.input.ids), toks = trace.input.tokens;
  const V = c.vocabSize;
  const cols = V <= MAX_ONEHOT_COLUMNS ? Array.from({ length: V }, (_, i) => i) : [...new Set(ids)].sort((a, b) => a - b);
  const data = new Float32Array(ids.length * cols.length);
  ids.forEach((id, r) => (data[r * cols.length + cols.indexOf(id)] = 1));
  return {
    note: t('emb.onehotNote', { vocab: V, d: c.dModel }),
    onehot: { label: t(cols.length < V ? 'emb.onehotUsed' : 'emb.onehot', { vocab: V, used: cols.length }), minCell: cols.length > 100 ? '1' : '3',
      matrix: { rows: ids.length, cols: cols.length, data, rowLabels: toks, colLabels: cols.map((i) => vocab[i] ?? String(i)) } },
    cosine: cosineProps({ V, ids, toks, embeddings, table: params?.['tok_emb.weight'], vocab }, t),
  };
}

// null: keep what is drawn (a small vocabulary whose table this snapshot lacks).
function cosineProps({ V, ids, toks, embeddings, table, vocab }, t) {
  if (V <= V_MAX) {
    if (!table || table.shape[0] !== V) return null;
    const D = table.shape[1];
    const rows = Array.from({ length: V }, (_, r) => table.data.subarray(r * D, (r + 1) * D));
    const labels = Array.from({ length: V }, (_, i) => vocab[i] ?? String(i));
    return { label: t('emb.cosineVocab'), side: null, maxCell: '30', matrix: { rows: V, cols: V, data: cosineMatrix(rows), rowLabels: labels, colLabels: labels }, marks: { rows: [...new Set(ids)] } };
  }
  const rows = Array.from({ length: embeddings.shape[0] }, (_, r) => embeddings.data.subarray(r * embeddings.shape[1], (r + 1) * embeddings.shape[1]));
  return { label: t('emb.cosine'), side: 'in', maxCell: '34', matrix: { rows: rows.length, cols: rows.length, data: cosineMatrix(rows), rowLabels: toks, colLabels: toks }, marks: null };
}
