// walkthrough-steps.js — the steps of the seed's worked example ("how are you" -> "i am fine",
// vocabulary 11, d_model 6) built from one real trace of the seed's model and its weights, in
// the order of the seed article (embedding, + position, Q/K/V, QKᵀ, ÷√d_k, mask, softmax, ×V,
// concat, W_O, add & norm, FFN with ReLU zeros, add & norm, decoder, cross-attention, linear to
// vocabulary, softmax). No DOM: the result is data for <tp-walkthrough-view>, which the
// playground's walk-through panel and the <tp-walkthrough> widget both show.
//
//   buildSteps({ trace, params, vocab, t }) -> [{ id, group, title, text, math, shapes, matrices }]
// trace: model.trace('how are you', { target: 'i am' }) of an encoder-decoder post-norm model;
// params: { name: { shape, data } } with tok_emb.weight, enc.0.self_attn.q.weight; t(key, vars):
// the caller's strings in the reader's language (the step texts are in web/ui/strings.js).
import { ROLE_COLORS } from './colormap.js';
import { traceName, attentionName } from '../../lib/trace-names.js';
import { mi, mn, mo, row, sub, sup, subsup, frac, sqrt, paren, math, WT, W, b, dk, softmax, mtext, mspace, mtable } from '../../ui/mathml.js';

const dims = (m) => `${m.rows} × ${m.cols}`;

// The seed's model, whose steps these are: their texts speak of these numbers. Any other
// configuration walks through walkthrough-model-steps.js (a test checks this against the
// qa-toy task's defaults).
export const SEED_SHAPE = Object.freeze({ arch: 'encoder-decoder', vocabSize: 11, dModel: 6, nHeads: 2, nKvHeads: 2, nLayers: 1, dFF: 12, pos: 'sinusoidal', norm: 'layer', normPlacement: 'post', ffn: 'relu', window: 0 });
export const isSeedShape = (config) => Object.entries(SEED_SHAPE).every(([k, v]) => config?.[k] === v);

function matrix(tensor, rowLabels, colLabels, { head, transpose } = {}) {
  let [rows, cols] = tensor.shape.slice(-2);
  let data = tensor.data;
  if (head !== undefined) data = data.subarray(head * rows * cols, (head + 1) * rows * cols);
  if (transpose) {
    const out = new Float32Array(rows * cols);
    for (let r = 0; r < rows; ++r) for (let c = 0; c < cols; ++c) out[c * rows + r] = data[r * cols + c];
    [rows, cols, data] = [cols, rows, out];
  }
  return { rows, cols, data, rowLabels, colLabels };
}

function oneHot(ids, vocab) {
  const data = new Float32Array(ids.length * vocab.length);
  ids.forEach((id, r) => (data[r * vocab.length + id] = 1));
  return { rows: ids.length, cols: vocab.length, data, rowLabels: [], colLabels: vocab };
}

// The names of the entries the example reads: layer 0 of each stack.
const A = (kind, stage) => attentionName(kind, 0, stage);
const Emb = (stack, part) => traceName(`{stack}.embed.${part}`, { stack });
const Lay = (stack, part) => traceName(`{stack}.{layer}.${part}`, { stack, layer: 0 });

export function buildSteps({ trace, params, vocab, t: tr }) {
  const T = trace.tensors;
  const enc = trace.input.tokens, dec = trace.decoderInput.tokens;
  const D = T[Emb('enc', 'sum')].shape[1];
  const H = T[A('enc', 'probs')].shape[0];
  const dh = D / H;
  const dimLabels = Array.from({ length: D }, (_, i) => String(i));
  const ffLabels = Array.from({ length: T[Lay('enc', 'ffn.hidden')].shape[1] }, (_, i) => String(i));
  const headCols = (h) => Array.from({ length: dh }, (_, i) => String(h * dh + i));
  const M = (name, rowsL, colsL, opt) => matrix(T[name], rowsL, colsL, opt);
  const group = (g) => tr(`wt.group.${g}`);
  const step = (id, g, extra) => ({ id, group: group(g), title: tr(`wt.s.${id}.t`), text: tr(`wt.s.${id}.x`, extra?.vars), ...extra });
  const perHead = (name, rowsL, colsL, label, opts = {}) =>
    Array.from({ length: H }, (_, h) => ({ label: `${label} · ${tr('wt.m.head', { h })}`, matrix: M(name, rowsL, colsL, { head: h }), accent: undefined, ...opts }));
  const X = mi('X'), Q = mi('Q'), K = mi('K'), V = mi('V'), E = mi('E');
  const scoreMath = (qSym, kSym) => math(sub(mi('S'), mi('h')), mo('='), frac(row(sub(qSym, mi('h')), subsup(kSym, mi('h'), mo('⊤'))), sqrt(dk)));
  const encIds = Array.from(trace.input.ids), decIds = Array.from(trace.decoderInput.ids);
  const steps = [];

  // ---- input -------------------------------------------------------------------------------
  steps.push(step('vocab', 'input', {
    math: math(mtext(`"${enc.join(' ')}"`), mo('→'), paren(mn(encIds.join(', '))), mspace(), mtext(`"${dec.join(' ')}"`), mo('→'), paren(mn(decIds.join(', ')))),
    shapes: [tr('wt.m.vocab', { n: vocab.length }), `ids: ${encIds.length}`],
    matrices: [
      { label: tr('wt.m.onehot', { text: enc.join(' ') }), matrix: { ...oneHot(encIds, vocab), rowLabels: enc }, colormap: 'sequential', min: 0, max: 1, rowSide: 'in' },
      { label: tr('wt.m.onehot', { text: dec.join(' ') }), matrix: { ...oneHot(decIds, vocab), rowLabels: dec }, colormap: 'sequential', min: 0, max: 1 },
    ],
  }));
  const Emat = params['tok_emb.weight'] ? matrix(params['tok_emb.weight'], vocab, dimLabels) : null;
  steps.push(step('embed', 'input', {
    math: math(sub(X, mi('emb')), mo('='), row(E, mo('['), mi('ids'), mo(']')), mo('∈'), sup(mi('ℝ'), row(mn(enc.length), mo('×'), mn(D)))),
    shapes: [`E: ${vocab.length} × ${D}`, `X_emb: ${enc.length} × ${D}`],
    matrices: [
      ...(Emat ? [{ label: 'E', matrix: Emat, colormap: 'diverging', marks: { rows: encIds } }] : []),
      { op: '→', label: 'X_emb = E[ids]', matrix: M(Emb('enc', 'tokens'), enc, dimLabels), colormap: 'diverging', rowSide: 'in' },
    ],
  }));
  const pos = mi('pos');
  steps.push(step('pe', 'input', {
    math: math(row(mi('PE'), paren(pos, mo(','), mn('2'), mi('i'))), mo('='), row(mi('sin'), paren(frac(pos, sup(mn('10000'), frac(row(mn('2'), mi('i')), sub(mi('d'), mi('model'))))))), mspace(),
      row(mi('PE'), paren(pos, mo(','), mn('2'), mi('i'), mo('+'), mn('1'))), mo('='), row(mi('cos'), paren(frac(pos, sup(mn('10000'), frac(row(mn('2'), mi('i')), sub(mi('d'), mi('model')))))))),
    shapes: [`PE: ${enc.length} × ${D}`],
    matrices: [{ label: 'PE', matrix: M(Emb('enc', 'positions'), enc.map((_, i) => `pos ${i}`), dimLabels), colormap: 'diverging', min: -1, max: 1 }],
  }));
  steps.push(step('sum', 'input', {
    math: math(X, mo('='), sub(X, mi('emb')), mo('+'), mi('PE')),
    shapes: [`X: ${enc.length} × ${D}`],
    matrices: [
      { label: 'X_emb', matrix: M(Emb('enc', 'tokens'), enc, dimLabels), colormap: 'diverging' },
      { op: '+', label: 'PE', matrix: M(Emb('enc', 'positions'), enc, dimLabels), colormap: 'diverging' },
      { op: '=', label: 'X', matrix: M(Emb('enc', 'sum'), enc, dimLabels), colormap: 'diverging', rowSide: 'in' },
    ],
  }));

  // ---- encoder -----------------------------------------------------------------------------
  const wq = params['enc.0.self_attn.q.weight'];
  steps.push(step('q', 'encoder', {
    math: math(Q, mo('='), X, WT('Q'), mo('+'), b('Q')),
    shapes: [`X: ${enc.length} × ${D}`, `W_Qᵀ: ${D} × ${D}`, `Q: ${enc.length} × ${D}`],
    matrices: [
      { label: 'X', matrix: M(Emb('enc', 'sum'), enc, dimLabels), colormap: 'diverging' },
      ...(wq ? [{ op: '×', label: 'W_Qᵀ', matrix: matrix(wq, dimLabels, dimLabels, { transpose: true }), colormap: 'diverging', accent: ROLE_COLORS.q }] : []),
      { op: '=', label: 'Q', matrix: M(A('enc', 'q'), enc, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.q, rowSide: 'in' },
    ],
  }));
  steps.push(step('kv', 'encoder', {
    math: math(K, mo('='), X, WT('K'), mo('+'), b('K'), mo(','), mspace(), V, mo('='), X, WT('V'), mo('+'), b('V')),
    shapes: [`K: ${enc.length} × ${D}`, `V: ${enc.length} × ${D}`],
    matrices: [
      { label: 'K', matrix: M(A('enc', 'k'), enc, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.k },
      { label: 'V', matrix: M(A('enc', 'v'), enc, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.v },
    ],
  }));
  steps.push(step('qk', 'encoder', {
    math: math(sub(mi('S'), mi('h')), mo('='), sub(Q, mi('h')), subsup(K, mi('h'), mo('⊤')), mo(','), mspace(), sub(Q, mi('h')), mo('='), row(Q, mo('[:,'), mi('h'), mo('·'), dk, mo(':'), mo('('), mi('h'), mo('+'), mn('1'), mo(')'), dk, mo(']'))),
    shapes: [`Q_h: ${enc.length} × ${dh}`, `K_hᵀ: ${dh} × ${enc.length}`, `S_h: ${enc.length} × ${enc.length}`, `d_k = ${D} / ${H} = ${dh}`],
    matrices: perHead(A('enc', 'scores'), enc, enc, 'Q_h K_hᵀ', { colormap: 'diverging', rowSide: 'in', colSide: 'in' }),
  }));
  steps.push(step('scale', 'encoder', {
    math: scoreMath(Q, K),
    shapes: [`√d_k = √${dh} = ${Math.sqrt(dh).toFixed(3)}`],
    matrices: perHead(A('enc', 'scaled'), enc, enc, 'S_h / √d_k', { colormap: 'diverging', rowSide: 'in', colSide: 'in' }),
  }));
  steps.push(step('mask', 'encoder', {
    math: math(sub(mi('S'), mi('h')), mo('+'), mi('M'), mo(','), mspace(), mi('M'), mo('='), mn('0')),
    shapes: [`M: ${enc.length} × ${enc.length}`],
    matrices: perHead(A('enc', 'masked'), enc, enc, 'S_h + M', { colormap: 'diverging', rowSide: 'in', colSide: 'in' }),
  }));
  steps.push(step('softmax', 'encoder', {
    math: math(sub(mi('A'), mi('h')), mo('='), softmax(frac(row(sub(Q, mi('h')), subsup(K, mi('h'), mo('⊤'))), sqrt(dk)), mo('+'), mi('M'))),
    shapes: [`A_h: ${enc.length} × ${enc.length}`, 'Σ row = 1'],
    matrices: perHead(A('enc', 'probs'), enc, enc, 'A_h', { colormap: 'sequential', min: 0, max: 1, rowSide: 'in', colSide: 'in' }),
  }));
  steps.push(step('av', 'encoder', {
    math: math(sub(mi('head'), mi('h')), mo('='), sub(mi('A'), mi('h')), sub(V, mi('h'))),
    shapes: [`A_h: ${enc.length} × ${enc.length}`, `V_h: ${enc.length} × ${dh}`, `head_h: ${enc.length} × ${dh}`],
    matrices: Array.from({ length: H }, (_, h) => ({ label: `${tr('wt.m.head', { h })} = A_${h} V_${h}`, matrix: M(A('enc', 'head_out'), enc, headCols(h), { head: h }), colormap: 'diverging', accent: ROLE_COLORS.v })),
  }));
  steps.push(step('concat', 'encoder', {
    math: math(mi('Concat'), paren(sub(mi('head'), mn('0')), mo(','), sub(mi('head'), mn('1')))),
    shapes: [`${H} × (${enc.length} × ${dh}) → ${enc.length} × ${D}`],
    matrices: [{ label: 'Concat', matrix: M(A('enc', 'concat'), enc, dimLabels), colormap: 'diverging' }],
  }));
  steps.push(step('wo', 'encoder', {
    math: math(mi('MultiHead'), paren(X), mo('='), mi('Concat'), paren(mi('…')), WT('O'), mo('+'), b('O')),
    shapes: [`W_Oᵀ: ${D} × ${D}`, `out: ${enc.length} × ${D}`],
    matrices: [{ label: 'MultiHead(X)', matrix: M(A('enc', 'out'), enc, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.o, rowSide: 'in' }],
  }));
  steps.push(step('add1', 'encoder', {
    math: math(X, mo('+'), mi('MultiHead'), paren(X)),
    shapes: [`${enc.length} × ${D}`],
    matrices: [
      { label: 'X', matrix: M(Emb('enc', 'sum'), enc, dimLabels), colormap: 'diverging' },
      { op: '+', label: 'MultiHead(X)', matrix: M(A('enc', 'out'), enc, dimLabels), colormap: 'diverging' },
      { op: '=', label: 'X + MultiHead(X)', matrix: M(Lay('enc', 'add1'), enc, dimLabels), colormap: 'diverging' },
    ],
  }));
  const mu = mi('μ'), sigma = mi('σ');
  steps.push(step('norm1', 'encoder', {
    math: math(mi('LayerNorm'), paren(mi('x')), mo('='), mi('γ'), mo('⊙'), frac(row(mi('x'), mo('−'), mu), sqrt(row(sup(sigma, mn('2')), mo('+'), mi('ε')))), mo('+'), mi('β')),
    shapes: rowStats(T[Lay('enc', 'add1')], enc),
    matrices: [{ label: 'LayerNorm(X + MultiHead(X))', matrix: M(Lay('enc', 'norm1'), enc, dimLabels), colormap: 'diverging', rowSide: 'in' }],
  }));
  const ffnW = T[Lay('enc', 'ffn.hidden')].shape[1];
  steps.push(step('ffn1', 'encoder', {
    math: math(mi('H'), mo('='), row(mi('ReLU'), paren(mi('X'), sub(mi('W'), mn('1')), mo('⊤'), mo('+'), sub(mi('b'), mn('1')))), mo(','), mspace(), row(mi('ReLU'), paren(mi('z'))), mo('='), row(mi('max'), paren(mn('0'), mo(','), mi('z')))),
    shapes: [`W_1ᵀ: ${D} × ${ffnW}`, `H: ${enc.length} × ${ffnW}`, tr('wt.m.zeros', { n: countZeros(T[Lay('enc', 'ffn.hidden')].data), total: T[Lay('enc', 'ffn.hidden')].data.length })],
    matrices: [
      { label: 'X W_1ᵀ + b_1', matrix: M(Lay('enc', 'ffn.pre'), enc, ffLabels), colormap: 'diverging', maxCell: 40 },
      { op: '→', label: 'ReLU', matrix: M(Lay('enc', 'ffn.hidden'), enc, ffLabels), colormap: 'diverging', markZeros: true, maxCell: 40 },
    ],
  }));
  steps.push(step('ffn2', 'encoder', {
    math: math(mi('FFN'), paren(X), mo('='), mi('H'), sub(mi('W'), mn('2')), mo('⊤'), mo('+'), sub(mi('b'), mn('2'))),
    shapes: [`W_2ᵀ: ${ffnW} × ${D}`, `FFN: ${enc.length} × ${D}`],
    matrices: [{ label: 'FFN(X)', matrix: M(Lay('enc', 'ffn.out'), enc, dimLabels), colormap: 'diverging' }],
  }));
  steps.push(step('add2', 'encoder', {
    math: math(mi('Z'), mo('='), mi('LayerNorm'), paren(X, mo('+'), mi('FFN'), paren(X))),
    shapes: [`Z: ${enc.length} × ${D}`],
    matrices: [
      { label: 'X + FFN(X)', matrix: M(Lay('enc', 'add2'), enc, dimLabels), colormap: 'diverging' },
      { op: '→', label: 'Z = LayerNorm(…)', matrix: M(Lay('enc', 'norm2'), enc, dimLabels), colormap: 'diverging', rowSide: 'in' },
    ],
  }));

  // ---- decoder -----------------------------------------------------------------------------
  const Y = mi('Y');
  steps.push(step('dembed', 'decoder', {
    math: math(Y, mo('='), E, mo('['), mn(decIds.join(', ')), mo(']'), mo('+'), mi('PE')),
    shapes: [`Y: ${dec.length} × ${D}`],
    matrices: [
      { label: 'E[ids]', matrix: M(Emb('dec', 'tokens'), dec, dimLabels), colormap: 'diverging' },
      { op: '+', label: 'PE', matrix: M(Emb('dec', 'positions'), dec, dimLabels), colormap: 'diverging' },
      { op: '=', label: 'Y', matrix: M(Emb('dec', 'sum'), dec, dimLabels), colormap: 'diverging', rowSide: 'out' },
    ],
  }));
  steps.push(step('dqk', 'decoder', {
    math: scoreMath(Q, K),
    shapes: [`Q, K, V: ${dec.length} × ${D}`, `S_h: ${dec.length} × ${dec.length}`],
    matrices: [
      { label: 'Q', matrix: M(A('dec', 'q'), dec, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.q },
      { label: 'K', matrix: M(A('dec', 'k'), dec, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.k },
      ...perHead(A('dec', 'scaled'), dec, dec, 'S_h / √d_k', { colormap: 'diverging', rowSide: 'out', colSide: 'out' }),
    ],
  }));
  steps.push(step('dmask', 'decoder', {
    math: math(sub(mi('M'), row(mi('t'), mi('u'))), mo('='), row(mo('{'), mtable([[row(mo('−'), mi('∞')), row(mi('u'), mo('>'), mi('t'))], [mn('0'), mtext(tr('wt.m.otherwise'))]]))),
    shapes: [`M: ${dec.length} × ${dec.length}`],
    matrices: perHead(A('dec', 'masked'), dec, dec, 'S_h / √d_k + M', { colormap: 'diverging', rowSide: 'out', colSide: 'out' }),
  }));
  steps.push(step('dsoftmax', 'decoder', {
    math: math(sub(mi('A'), mi('h')), mo('='), softmax(frac(row(sub(Q, mi('h')), subsup(K, mi('h'), mo('⊤'))), sqrt(dk)), mo('+'), mi('M')), mo(','), mspace(), sup(mi('e'), row(mo('−'), mi('∞'))), mo('='), mn('0')),
    shapes: [`A_h: ${dec.length} × ${dec.length}`],
    matrices: perHead(A('dec', 'probs'), dec, dec, 'A_h', { colormap: 'sequential', min: 0, max: 1, rowSide: 'out', colSide: 'out' }),
  }));
  steps.push(step('dout', 'decoder', {
    math: math(mi('LayerNorm'), paren(Y, mo('+'), mi('MaskedMultiHead'), paren(Y))),
    shapes: [`${dec.length} × ${D}`],
    matrices: [
      { label: 'MaskedMultiHead(Y)', matrix: M(A('dec', 'out'), dec, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.o },
      { op: '→', label: 'LayerNorm(Y + …)', matrix: M(Lay('dec', 'norm1'), dec, dimLabels), colormap: 'diverging', rowSide: 'out' },
    ],
  }));
  steps.push(step('cross', 'decoder', {
    math: math(sub(mi('A'), mi('h')), mo('='), softmax(frac(row(sub(Q, mi('h')), subsup(K, mi('h'), mo('⊤'))), sqrt(dk))), mo(','), mspace(), Q, mo('='), Y, WT('Q'), mo(','), mspace(), K, mo('='), mi('Z'), WT('K'), mo(','), mspace(), V, mo('='), mi('Z'), WT('V')),
    shapes: [`Q: ${dec.length} × ${D}`, `K, V: ${enc.length} × ${D}`, `A_h: ${dec.length} × ${enc.length}`],
    matrices: [
      { label: tr('wt.m.qDec'), matrix: M(A('cross', 'q'), dec, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.q },
      { label: tr('wt.m.kEnc'), matrix: M(A('cross', 'k'), enc, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.k },
      ...perHead(A('cross', 'probs'), dec, enc, 'A_h', { colormap: 'sequential', min: 0, max: 1, rowSide: 'out', colSide: 'in' }),
    ],
  }));
  steps.push(step('crossout', 'decoder', {
    math: math(mi('LayerNorm'), paren(mi('…'), mo('+'), mi('MultiHead'), paren(mi('…'), mo(','), mi('Z'), mo(','), mi('Z')))),
    shapes: [`${dec.length} × ${D}`],
    matrices: [
      { label: tr('wt.m.crossOut'), matrix: M(A('cross', 'out'), dec, dimLabels), colormap: 'diverging', accent: ROLE_COLORS.o },
      { op: '→', label: 'LayerNorm(… + …)', matrix: M(Lay('dec', 'norm2'), dec, dimLabels), colormap: 'diverging', rowSide: 'out' },
    ],
  }));
  steps.push(step('dffn', 'decoder', {
    math: math(mi('LayerNorm'), paren(mi('x'), mo('+'), row(mi('ReLU'), paren(mi('x'), sub(mi('W'), mn('1')), mo('⊤'), mo('+'), sub(mi('b'), mn('1')))), sub(mi('W'), mn('2')), mo('⊤'), mo('+'), sub(mi('b'), mn('2')))),
    shapes: [`H: ${dec.length} × ${ffnW}`, tr('wt.m.zeros', { n: countZeros(T[Lay('dec', 'ffn.hidden')].data), total: T[Lay('dec', 'ffn.hidden')].data.length })],
    matrices: [
      { label: 'ReLU', matrix: M(Lay('dec', 'ffn.hidden'), dec, ffLabels), colormap: 'diverging', markZeros: true, maxCell: 40 },
      { op: '→', label: tr('wt.m.decOut'), matrix: M(Lay('dec', 'norm3'), dec, dimLabels), colormap: 'diverging', rowSide: 'out' },
    ],
  }));

  // ---- output ------------------------------------------------------------------------------
  steps.push(step('logits', 'output', {
    math: math(mi('logits'), mo('='), mi('Y'), sub(mi('W'), mi('vocab')), mo('⊤')),
    shapes: [`W_vocabᵀ: ${D} × ${vocab.length}`, `logits: ${dec.length} × ${vocab.length}`],
    matrices: [{ label: 'logits', matrix: M(traceName('logits'), dec, vocab), colormap: 'diverging', maxCell: 44 }],
  }));
  const probs = T[traceName('probs')];
  const V_ = probs.shape[1];
  const pred = [], targets = [...decIds.slice(1), ...answerTail(trace, vocab)];
  let loss = 0, counted = 0;
  for (let r = 0; r < probs.shape[0]; ++r) {
    let best = 0;
    for (let c = 1; c < V_; ++c) if (probs.data[r * V_ + c] > probs.data[r * V_ + best]) best = c;
    pred.push(vocab[best]);
    if (targets[r] !== undefined) {
      loss += -Math.log(Math.max(1e-12, probs.data[r * V_ + targets[r]]));
      ++counted;
    }
  }
  steps.push(step('probs', 'output', {
    vars: { pred: `"${pred.join(' ')}"`, loss: (loss / Math.max(1, counted)).toFixed(4) },
    math: math(mi('p'), mo('='), softmax(mi('logits')), mo(','), mspace(), mi('L'), mo('='), mo('−'), frac(mn('1'), mi('T')), row(mo('∑'), mi('log'), sub(mi('p'), row(mi('t'), mo(','), sub(mi('y'), mi('t')))))),
    shapes: [`p: ${dec.length} × ${vocab.length}`, `L = ${(loss / Math.max(1, counted)).toFixed(4)}`],
    matrices: [{ label: 'p = softmax(logits)', matrix: { ...M(traceName('probs'), dec, vocab), rowLabels: dec.map((d, i) => `${d} → ${pred[i]}`) }, colormap: 'sequential', min: 0, max: 1, maxCell: 44, marks: { cols: [] } }],
  }));
  return steps;
}

// The targets after the decoder input: "i am" predicts "am" then "fine" (the word after the
// last input token), i.e. the answer "i am fine" shifted left.
function answerTail(trace, vocab) {
  const fine = vocab.indexOf('fine');
  return trace.decoderInput.tokens.at(-1) === 'am' && fine >= 0 ? [fine] : [];
}

function countZeros(data) {
  let n = 0;
  for (const v of data) if (v === 0) ++n;
  return n;
}

function rowStats(tensor, labels) {
  const [rows, cols] = tensor.shape;
  return labels.map((l, r) => {
    let mean = 0, sq = 0;
    for (let c = 0; c < cols; ++c) mean += tensor.data[r * cols + c];
    mean /= cols;
    for (let c = 0; c < cols; ++c) sq += (tensor.data[r * cols + c] - mean) ** 2;
    return `${l}: μ = ${mean.toFixed(2)}, σ = ${Math.sqrt(sq / cols).toFixed(2)}`;
  }).slice(0, rows);
}

export { W };
