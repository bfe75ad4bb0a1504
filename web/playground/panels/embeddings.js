// panels/embeddings.js — the embedding rows of the input tokens, the position rows the model
// added to them and the sum (the live trace's *.embed.tokens / positions / sum); the whole
// positional table of this model (sinusoidal and ALiBi from the core, tp.positionalTable, whose
// first rows are the traced ones; the learned table from the worker); RoPE's rotation and "score
// depends only on distance" with the core's rotation table on this model's real query and key;
// one-hot versus dense with cosine similarity. Every note and example fits the current model
// (its head size, its max length).
import { ropeScores } from '../../components/shared/rope.js';
import { cosineMatrix } from '../../components/shared/similarity.js';
import { headColor } from '../../components/shared/colormap.js';
import { fmt } from '../../components/shared/format.js';
import { traceName, attentionName, firstStack } from '../../lib/trace-names.js';

const MAX_ONEHOT_COLUMNS = 2048;

export function initEmbeddings(app) {
  const $ = (id) => app.$(id);
  // The tables each snapshot of the history keeps for this panel: the learned positions (the
  // rows shown) and, for small vocabularies, the token embedding (the cosine of every pair).
  const P_MAX = 64, V_MAX = 48;
  app.record('embeddings', { params: [{ name: 'pos_emb.weight', rows: P_MAX }, { name: 'tok_emb.weight', maxRows: V_MAX }] });

  const dims = (D) => Array.from({ length: D }, (_, i) => String(i));

  const stackOf = (s) => firstStack(Object.keys(s.tensors));
  const embed = (stack, part) => traceName(`{stack}.embed.${part}`, { stack });

  // What this panel says the model does with positions: true of the current model.
  function lead() {
    const pos = app.config?.pos;
    const key = !pos || pos === 'sinusoidal' || pos === 'learned' ? 'emb.lead' : pos === 'none' ? 'emb.leadNone' : 'emb.leadInside';
    $('emb-lead').textContent = app.t(key, { pos: pos ? app.t(`value.${pos}`) : '' });
  }

  function render() {
    lead();
    const s = app.snapshot, c = app.config;
    if (!s || s.error || !c || !s.tensors) return;
    const stack = stackOf(s);
    const toks = s.input.tokens;
    const D = c.dModel;
    const added = c.pos === 'sinusoidal' || c.pos === 'learned';
    for (const [id, part, key] of [['emb-tokens', 'tokens', 'emb.tokens'], ['emb-positions', 'positions', added ? 'emb.positions' : 'emb.positionsNone'],
      ['emb-sum', 'sum', added ? 'emb.sum' : 'emb.sumNone']]) {
      const t = s.tensors[embed(stack, part)];
      const el = $(id);
      el.setAttribute('label', app.t(key, { pos: app.t(`value.${c.pos}`) }));
      el.setAttribute('max-cell', '30');
      el.matrix = { rows: t.shape[0], cols: t.shape[1], data: t.data, rowLabels: toks, colLabels: dims(D), colTitle: app.t('emb.dim') };
    }
    positional(s, stack);
    rope(s, stack);
    onehot(s, stack);
  }

  function positional(s, stack) {
    const c = app.config;
    const P = Math.min(c.maxLen, P_MAX);
    const T = s.tensors[embed(stack, 'positions')].shape[0];
    const table = $('pe-table');
    table.hidden = false;
    table.marks = null;
    $('pe-h').textContent = `${app.t('emb.peTitle')}: ${app.t(`value.${c.pos}`)}`;
    const traced = c.pos === 'sinusoidal' || c.pos === 'learned' ? ` ${app.t('emb.peTraced', { last: Math.min(T, P) - 1 })}` : '';
    $('pe-note').textContent = app.t(`emb.peNote.${c.pos}`) + traced;
    const rowLabels = Array.from({ length: P }, (_, i) => String(i));
    // The rows this input used are the ones above: outlined.
    const used = { rows: Array.from({ length: Math.min(T, P) }, (_, i) => i) };
    if (c.pos === 'sinusoidal') {
      table.setAttribute('colormap', 'diverging');
      table.setAttribute('label', app.t('emb.pe.sinusoidal', { n: P - 1 }));
      const pe = app.tp.positionalTable({ kind: 'sinusoidal', maxLen: P, dim: c.dModel });
      table.matrix = { rows: P, cols: c.dModel, data: pe.data, rowLabels, colLabels: dims(c.dModel), rowTitle: app.t('emb.position'), colTitle: app.t('emb.dim') };
      table.marks = used;
    } else if (c.pos === 'learned') {
      table.setAttribute('colormap', 'diverging');
      table.setAttribute('label', app.t('emb.pe.learned', { n: P - 1 }));
      const learned = s.params?.['pos_emb.weight'];
      if (learned && learned.shape[1] === c.dModel) {
        table.matrix = { rows: P, cols: c.dModel, data: learned.data.subarray(0, P * c.dModel), rowLabels, colLabels: dims(c.dModel), rowTitle: app.t('emb.position'), colTitle: app.t('emb.dim') };
        table.marks = used;
      } else {
        table.matrix = null;
      }
    } else if (c.pos === 'alibi') {
      const L = Math.min(c.maxLen, 16);
      const bias = app.tp.positionalTable({ kind: 'alibi', maxLen: L, heads: c.nHeads });
      table.setAttribute('colormap', 'sequential');
      table.setAttribute('label', app.t('emb.pe.alibi', { h: 0, slope: fmt(bias.slopes[0], 3) }));
      const labels = Array.from({ length: L }, (_, i) => String(i));
      table.matrix = { rows: L, cols: L, data: bias.data.subarray(0, L * L), rowLabels: labels, colLabels: labels, rowTitle: 't', colTitle: 'u' };
    } else {
      table.hidden = true;
    }
  }

  function rope(s, stack) {
    const c = app.config;
    const self = stack === 'enc' ? 'enc' : 'dec';
    const q = s.tensors[attentionName(self, 0, 'q')], k = s.tensors[attentionName(self, 0, 'k')];
    if (!q || !k || q.shape[0] < 1) return;
    const dh = c.dModel / c.nHeads;
    const even = dh - (dh % 2);
    if (even < 2) {
      $('rope-box').hidden = true;
      return;
    }
    $('rope-box').hidden = false;
    const isRope = c.pos === 'rope';
    // Head 0's query and key of the first token: at position 0 a RoPE model has not turned them
    // yet, so they are its un-rotated vectors (the first `even` dimensions when dh is odd). A head
    // in the half layout (Hugging Face's Llama) is the adjacent layout with its dimensions permuted
    // (i, i + dh/2 -> 2i, 2i + 1), so the same table draws it.
    let qv = q.data.slice(0, even), kv = k.data.slice(0, even);
    if (isRope && c.ropePairs === 'half') {
      const adjacent = (v) => Float32Array.from({ length: even }, (_, j) => v[(j >> 1) + (j % 2) * (even / 2)]);
      qv = adjacent(qv);
      kv = adjacent(kv);
    }
    const pos = app.t(`value.${c.pos}`);
    $('rope-note').textContent = isRope ? app.t('rope.note.on')
      : dh % 2 ? app.t('rope.note.odd', { dh, d: c.dModel, h: c.nHeads, even }) : app.t('rope.note.off', { pos });
    // Positions this model has: at most its maxLen; the base is the model's (10000 unless imported).
    const P = Math.min(12, c.maxLen);
    const table = app.tp.positionalTable({ kind: 'rope', maxLen: P, dim: even, base: isRope ? c.ropeTheta ?? 10000 : 10000 });
    const plot = $('rope-plot');
    plot.setAttribute('label', app.t('rope.plot'));
    plot.setAttribute('positions', String(Math.min(8, P)));
    plot.table = table;
    plot.vector = qv;
    const scores = ropeScores(qv, kv, table, P, dh);
    const dist = $('rope-distance');
    dist.setAttribute('label', app.t('rope.distance'));
    dist.setAttribute('x-label', app.t('rope.distanceX'));
    const ms = [...new Set([Math.floor((P - 1) / 3), Math.floor((2 * (P - 1)) / 3), P - 1])];
    dist.series = ms.map((m, i) => ({
      name: app.t('rope.queryAt', { m }), color: headColor(i), width: 2.5 - i * 0.6, dash: i === 1 ? [6, 4] : i === 2 ? [2, 3] : undefined, dots: true,
      points: Array.from({ length: m + 1 }, (_, n) => [m - n, scores[m * P + n]]).sort((a, b) => a[0] - b[0]),
    }));
    const heat = $('rope-scores');
    heat.setAttribute('label', app.t('rope.scores'));
    const labels = Array.from({ length: P }, (_, i) => String(i));
    heat.matrix = { rows: P, cols: P, data: scores, rowLabels: labels, colLabels: labels, rowTitle: 'm', colTitle: 'n' };
  }

  function onehot(s, stack) {
    const c = app.config;
    const ids = Array.from(s.input.ids), toks = s.input.tokens;
    const V = c.vocabSize;
    const vocab = app.info?.vocab ?? [];
    // A large vocabulary (an imported model's 50,257 tokens) cannot be drawn a column per id:
    // then only the columns of the ids the input uses are shown, in id order.
    const cols = V <= MAX_ONEHOT_COLUMNS ? Array.from({ length: V }, (_, i) => i) : [...new Set(ids)].sort((a, b) => a - b);
    const data = new Float32Array(ids.length * cols.length);
    ids.forEach((id, r) => (data[r * cols.length + cols.indexOf(id)] = 1));
    const oh = $('onehot');
    oh.setAttribute('label', app.t(cols.length < V ? 'emb.onehotUsed' : 'emb.onehot', { vocab: V, used: cols.length }));
    oh.setAttribute('min-cell', cols.length > 100 ? '1' : '3');
    oh.matrix = { rows: ids.length, cols: cols.length, data, rowLabels: toks, colLabels: cols.map((i) => vocab[i] ?? String(i)) };
    const cos = $('cosine');
    const table = s.params?.['tok_emb.weight'];
    if (V <= V_MAX) {
      // A small vocabulary: every token against every token, from the embedding table at this step.
      if (table && table.shape[0] === V) {
        const D = table.shape[1];
        const rows = Array.from({ length: V }, (_, r) => table.data.subarray(r * D, (r + 1) * D));
        const labels = Array.from({ length: V }, (_, i) => vocab[i] ?? String(i));
        cos.setAttribute('label', app.t('emb.cosineVocab'));
        cos.removeAttribute('row-side');
        cos.removeAttribute('col-side');
        cos.setAttribute('max-cell', '30');
        cos.matrix = { rows: V, cols: V, data: cosineMatrix(rows), rowLabels: labels, colLabels: labels };
        cos.marks = { rows: [...new Set(ids)] };
      }
    } else {
      const emb = s.tensors[embed(stack, 'tokens')];
      const rows = Array.from({ length: emb.shape[0] }, (_, r) => emb.data.subarray(r * emb.shape[1], (r + 1) * emb.shape[1]));
      cos.setAttribute('label', app.t('emb.cosine'));
      cos.setAttribute('row-side', 'in');
      cos.setAttribute('col-side', 'in');
      cos.setAttribute('max-cell', '34');
      cos.matrix = { rows: rows.length, cols: rows.length, data: cosineMatrix(rows), rowLabels: toks, colLabels: toks };
      cos.marks = null;
    }
    $('onehot-note').textContent = app.t('emb.onehotNote', { vocab: V, d: c.dModel });
  }

  const follow = app.whenVisible('embeddings', render, { every: 100 });
  app.on('snapshot', follow);
  app.on('lang', render);
  lead();
}
