// attention/explain.js — hovering a cell of the large heatmap: how its weight was computed
// (q · k, ÷ √d_k, the mask, the softmax) with the shown snapshot's numbers, for
// <tp-score-explain>. Pure: the element calls it with the cell under the pointer.
import { attentionName } from '../../../lib/trace-names.js';

// The tensors one head's explanation reads, or null when the trace lacks one.
export function explainSource(trace, kind, layer, head) {
  const T = trace.tensors;
  const q = T[attentionName(kind, layer, 'q')], k = T[attentionName(kind, layer, 'k')];
  const scaled = T[attentionName(kind, layer, 'scaled')], masked = T[attentionName(kind, layer, 'masked')], probs = T[attentionName(kind, layer, 'probs')];
  if (!q || !k || !scaled || !masked || !probs) return null;
  return { head, q, k, scaled, masked, probs };
}

// cell: { r, c }; labels: the heatmap's { rowLabels, colLabels } -> <tp-score-explain>'s cell, or
// undefined for a cell outside the matrix.
export function explainCell(src, cell, labels) {
  const { head, q, k, scaled, masked, probs } = src;
  const [H, R, S] = probs.shape;
  const { r, c: col } = cell;
  if (r < 0 || col < 0 || r >= R || col >= S) return undefined;
  const dk = q.shape[1] / H, G = k.shape[1] / dk, g = Math.floor(head / (H / G));
  const off = head * R * S + r * S;
  return { head, row: r, col, rowToken: labels?.rowLabels?.[r] ?? r, colToken: labels?.colLabels?.[col] ?? col, colTokens: labels?.colLabels,
    q: q.data.subarray(r * q.shape[1] + head * dk, r * q.shape[1] + (head + 1) * dk), k: k.data.subarray(col * k.shape[1] + g * dk, col * k.shape[1] + (g + 1) * dk),
    scaled: scaled.data[off + col], masked: masked.data[off + col], rowMasked: masked.data.subarray(off, off + S), rowProbs: probs.data.subarray(off, off + S) };
}
