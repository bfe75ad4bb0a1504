// embeddings/rope.js — RoPE's rotation and "the score depends only on the distance", with the
// core's rotation table (tp.positionalTable) on this model's real query and key (head 0, the
// first token): at position 0 a RoPE model has not turned them yet. Pure apart from the table.
import { ropeScores } from '../../../components/shared/rope.js';
import { headColor } from '../../../components/shared/colormap.js';
import { attentionName } from '../../../lib/trace-names.js';

// -> null (the trace has no query) | { hidden: true } (a head of one dimension) | props
export function ropeProps({ tp, config: c, trace, stack }, t) {
  const self = stack === 'enc' ? 'enc' : 'dec';
  const q = trace.tensors[attentionName(self, 0, 'q')], k = trace.tensors[attentionName(self, 0, 'k')];
  if (!q || !k || q.shape[0] < 1) return null;
  const dh = c.dModel / c.nHeads;
  const even = dh - (dh % 2);
  if (even < 2) return { hidden: true };
  const isRope = c.pos === 'rope';
  // The first `even` dimensions when dh is odd. A head in the half layout (Hugging Face's Llama)
  // is the adjacent layout with its dimensions permuted (i, i + dh/2 -> 2i, 2i + 1), so the same
  // table draws it.
  let qv = q.data.slice(0, even), kv = k.data.slice(0, even);
  if (isRope && c.ropePairs === 'half') {
    const adjacent = (v) => Float32Array.from({ length: even }, (_, j) => v[(j >> 1) + (j % 2) * (even / 2)]);
    qv = adjacent(qv);
    kv = adjacent(kv);
  }
  const note = isRope ? t('rope.note.on') : dh % 2 ? t('rope.note.odd', { dh, d: c.dModel, h: c.nHeads, even }) : t('rope.note.off', { pos: t(`value.${c.pos}`) });
  // Positions this model has: at most its maxLen; the base is the model's (10000 unless imported).
  const P = Math.min(12, c.maxLen);
  const table = tp.positionalTable({ kind: 'rope', maxLen: P, dim: even, base: isRope ? c.ropeTheta ?? 10000 : 10000 });
  const scores = ropeScores(qv, kv, table, P, dh);
  const ms = [...new Set([Math.floor((P - 1) / 3), Math.floor((2 * (P - 1)) / 3), P - 1])];
  const labels = Array.from({ length: P }, (_, i) => String(i));
  return {
    hidden: false, note,
    plot: { label: t('rope.plot'), positions: String(Math.min(8, P)), table, vector: qv },
    distance: {
      label: t('rope.distance'), x: t('rope.distanceX'),
      series: ms.map((m, i) => ({
        name: t('rope.queryAt', { m }), color: headColor(i), width: 2.5 - i * 0.6, dash: i === 1 ? [6, 4] : i === 2 ? [2, 3] : undefined, dots: true,
        points: Array.from({ length: m + 1 }, (_, n) => [m - n, scores[m * P + n]]).sort((a, b) => a[0] - b[0]),
      })),
    },
    scores: { label: t('rope.scores'), matrix: { rows: P, cols: P, data: scores, rowLabels: labels, colLabels: labels, rowTitle: 'm', colTitle: 'n' } },
  };
}
