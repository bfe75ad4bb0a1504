// walkthrough-model-steps.js — the walk-through of any model the core builds: its steps derived
// from the model's configuration (architecture, positions, norm and its placement, key/value
// heads, feed-forward kind, output head) and read from one trace of it, one layer, one head and
// one focused token at a time. The seed's worked example keeps its own hand-written steps
// (walkthrough-steps.js); this covers every other model. No DOM: data for <tp-walkthrough-view>.
//
//   buildModelSteps({ trace, config, vocab, t, pick: { layer, head, token }, cachedFrom? })
//     -> [{ id, group, title, text, math, shapes, cells: [{ trace: { name, head?, row, col }, value }],
//           cached?: { computed, from: [0, computed) }, matrices: [{ label, matrix, trace: { name, head?, cols?, row? } }] }]
// Each formula has a second line with the numbers of the focused cells (the focused token's row;
// in attention, its key with the largest weight), each listed in `cells` with the trace entry it
// reads. cachedFrom: the first position generation fed back through the KV cache (the sequence
// is a prompt and what was generated after it): for a focused token there, the self-attention's
// keys and values of the earlier positions come from the cache, and only the token's own row is
// computed (`cached`).
// Every matrix says which trace entry it shows (`trace`: its name, and the head, column range or
// row it takes), so a test can check each number against model.trace(). A matrix wider or taller
// than FOCUS_LIMIT is followed by the focused token's row alone, folded into lines of at most
// FOCUS_LIMIT cells, large enough to carry their numbers.
import { ROLE_COLORS } from './colormap.js';
import { buildSteps, isSeedShape } from './walkthrough-steps.js';
import { traceName, attentionName } from '../../lib/trace-names.js';
import { mi, mn, mo, row, sub, sup, subsup, frac, sqrt, paren, math, mtable, WT, b, dk, softmax, mtext, mspace } from '../../ui/mathml.js';

// Above this many rows or columns a heatmap's cells are too small for numbers.
export const FOCUS_LIMIT = 16;

// The rows, columns and values of trace entry `name`: head `head` of an [H, T, S] entry, columns
// [c0, c1) of a [T, C] one, or row `r` alone.
export function traceMatrix(tensors, { name, head, cols, row: r }) {
  const t = tensors[name];
  if (!t) throw new Error(`walk-through: the trace has no entry '${name}'`);
  let [rows, width] = t.shape.slice(-2);
  let data = t.data;
  if (head !== undefined) data = data.subarray(head * rows * width, (head + 1) * rows * width);
  if (cols) {
    const [c0, c1] = cols, out = new Float32Array(rows * (c1 - c0));
    for (let i = 0; i < rows; ++i) out.set(data.subarray(i * width + c0, i * width + c1), i * (c1 - c0));
    [data, width] = [out, c1 - c0];
  }
  if (r !== undefined) [data, rows] = [data.slice(r * width, (r + 1) * width), 1];
  return { rows, cols: width, data };
}

const labels = (n, from = 0) => Array.from({ length: n }, (_, i) => String(from + i));

// A number of a focused cell as the formula writes it.
export const cellText = (v) => (Number.isFinite(v) ? v.toFixed(3).replace('-', '−') : v < 0 ? '−∞' : '∞');

// The value at row `r`, column `c` of trace entry `name` (of head `head` in an [H, T, S] entry).
export function traceCell(tensors, { name, head, row: r, col: c }) {
  const t = tensors[name];
  if (!t) throw new Error(`walk-through: the trace has no entry '${name}'`);
  const [rows, width] = t.shape.slice(-2);
  return t.data[(head ?? 0) * rows * width + r * width + c];
}

// How many leading cells of a row the numbers line shows.
const SHOWN = 3;

// One row of a wide matrix folded into lines of FOCUS_LIMIT cells (or 8, when the width is a
// multiple of that only), wide enough for their numbers; the data keeps its order.
function wrapRow(m, colLabels) {
  const w = m.cols <= FOCUS_LIMIT ? m.cols : m.cols % FOCUS_LIMIT === 0 ? FOCUS_LIMIT : m.cols % 8 === 0 ? 8 : m.cols;
  const lines = m.cols / w;
  return { rows: lines, cols: w, data: m.data, colLabels: labels(w).map((c) => `+${c}`), rowLabels: Array.from({ length: lines }, (_, i) => colLabels?.[i * w] ?? String(i * w)) };
}

// The stacks of an architecture in the forward pass's order, with the attentions of their layers.
function stacksOf(arch) {
  if (arch === 'encoder-decoder') return [{ stack: 'enc', attns: ['enc'] }, { stack: 'dec', attns: ['dec', 'cross'] }];
  if (arch === 'encoder-only') return [{ stack: 'enc', attns: ['enc'] }];
  return [{ stack: 'dec', attns: ['dec'] }];
}

export function buildModelSteps({ trace, config, vocab, t: tr, pick = {}, cachedFrom }) {
  const T = trace.tensors;
  const has = (name) => Boolean(T[name]);
  const D = config.dModel, H = config.nHeads, G = config.nKvHeads || H, dh = D / H;
  const layer = Math.min(Math.max(0, pick.layer ?? 0), config.nLayers - 1);
  const head = Math.min(Math.max(0, pick.head ?? 0), H - 1);
  const kvHead = Math.floor(head / (H / G));
  const pre = config.normPlacement === 'pre';
  const normName = config.norm === 'rms' ? 'RMSNorm' : 'LayerNorm';
  const X = mi('X'), Q = mi('Q'), K = mi('K'), V = mi('V');
  const h_ = mi('h');
  const steps = [];
  const group = (g) => tr(`wt.group.${g}`);

  // A step: its matrices, each with the trace entry it reads, and the focused row of a large one.
  // focus(n): the numbers line, n(src) the focused cell `src` as a number (listed in `cells`).
  function step(id, g, kind, vars, { math: m, shapes, matrices, focus, extra }) {
    const cells = [];
    const n = (src) => {
      const value = traceCell(T, src);
      cells.push({ trace: src, value });
      return mn(cellText(value));
    };
    const formula = focus ? math(mtable([[row(...m.kids)], [row(...focus(n))]])) : m;
    const mats = [];
    for (const spec of matrices) {
      const { src, rowLabels, colLabels, ...view } = spec;
      const matrix = { ...traceMatrix(T, src), rowLabels, colLabels };
      mats.push({ colormap: 'diverging', ...view, matrix, trace: src });
      if ((matrix.rows > FOCUS_LIMIT || matrix.cols > FOCUS_LIMIT) && matrix.rows > 1) {
        const r = Math.min(spec.focusRow ?? focusFor(spec.rowLabels), matrix.rows - 1);
        // (its one row keeps the marked columns; marked rows are the whole matrix's)
        mats.push({ ...view, op: undefined, marks: view.marks?.cols ? { cols: view.marks.cols } : undefined, colormap: view.colormap ?? 'diverging', label: `${spec.label} · ${tr('wt.m.row', { token: rowLabels?.[r] ?? r })}`,
          matrix: wrapRow(traceMatrix(T, { ...src, row: r }), colLabels), trace: { ...src, row: r }, maxCell: 46 });
      }
    }
    steps.push({ id, group: group(g), title: tr(`wt.g.${kind}.t`, vars), text: tr(`wt.g.${kind}.x`, vars), math: formula, shapes, cells, matrices: mats, ...extra });
  }

  const input = trace.input.tokens, decoder = trace.decoderInput?.tokens;
  const tokensOf = (stack) => (stack === 'dec' && decoder ? decoder : input);
  const focusTokens = tokensOf(stacksOf(config.arch).at(-1).stack);
  const token = Math.min(Math.max(0, pick.token ?? focusTokens.length - 1), focusTokens.length - 1);
  function focusFor(rowLabels) {
    return rowLabels === focusTokens ? token : Math.min(token, (rowLabels?.length ?? 1) - 1);
  }
  const dims = labels(D);
  // The numbers line's pieces: a cell's name with its indices, and the first cells of a row
  // (columns c0 … of the trace entry, named from 0).
  const at = (base, ...idx) => row(base, mo('['), ...idx.flatMap((i, k) => (k ? [mo(','), mn(i)] : [mn(i)])), mo(']'));
  const lead = (nf, base, src, width, c0 = 0) => {
    const k = Math.min(SHOWN, width);
    const xs = Array.from({ length: k }, (_, c) => nf({ ...src, col: c0 + c })).flatMap((x, i) => (i ? [mo(','), x] : [x]));
    return [at(base, src.row, k > 1 ? `0…${k - 1}` : 0), mo('='), paren(...xs, ...(width > k ? [mo(','), mi('…')] : []))];
  };

  for (const { stack, attns } of stacksOf(config.arch)) {
    const toks = tokensOf(stack);
    const n = toks.length;
    const g = stack === 'enc' ? 'encoder' : 'decoder';
    const ids = Array.from(stack === 'dec' && decoder ? trace.decoderInput.ids : trace.input.ids);
    const E = (part) => traceName(`{stack}.embed.${part}`, { stack });
    const L = (part) => traceName(`{stack}.{layer}.${part}`, { stack, layer });
    const ft = Math.min(token, n - 1);
    const vars = { ft, stack: tr(`wt.group.${g}`), layer, n, d: D, v: config.vocabSize, ids: ids.join(', '), text: toks.join(' '), h: head, H, G, g: kvHead, dh, f: config.dFF, pos: config.pos };
    const m = (name, extra = {}) => ({ rowLabels: toks, colLabels: dims, ...extra, src: { name, ...extra.src } });

    step(`${stack}.embed`, 'input', 'embed', vars, {
      math: math(sub(X, mi('emb')), mo('='), row(mi('E'), mo('['), mi('ids'), mo(']')), mo('∈'), sup(mi('ℝ'), row(mn(n), mo('×'), mn(D)))),
      shapes: [tr('wt.m.vocab', { n: config.vocabSize }), `ids: ${ids.join(', ')}`, `X_emb: ${n} × ${D}`],
      matrices: [{ label: 'X_emb = E[ids]', ...m(E('tokens')), rowSide: stack === 'enc' ? 'in' : 'out' }],
      focus: (nf) => lead(nf, sub(X, mi('emb')), { name: E('tokens'), row: ft }, D),
    });
    if (config.pos === 'learned' || config.pos === 'sinusoidal') {
      step(`${stack}.pos`, 'input', `pos.${config.pos}`, vars, {
        math: math(X, mo('='), sub(X, mi('emb')), mo('+'), row(mi('P'), mo('['), mn(`0 … ${n - 1}`), mo(']'))),
        shapes: [`P: ${n} × ${D}`, `X: ${n} × ${D}`],
        matrices: [
          { label: 'P', ...m(E('positions')) },
          { op: '=', label: 'X = X_emb + P', ...m(E('sum')) },
        ],
        focus: (nf) => [at(X, ft, 0), mo('='), nf({ name: E('tokens'), row: ft, col: 0 }), mo('+'), nf({ name: E('positions'), row: ft, col: 0 }), mo('='), nf({ name: E('sum'), row: ft, col: 0 })],
      });
    }

    const sublayers = [...attns.map((kind) => ({ kind })), { kind: 'ffn' }];
    sublayers.forEach((sl, i) => {
      const k = i + 1, norm = L(`norm${k}`), add = L(`add${k}`);
      const normStep = (where) => step(`${stack}.${layer}.norm${k}.${where}`, g, `norm.${config.norm}.${where}`, vars, {
        math: config.norm === 'rms'
          ? math(mi('RMSNorm'), paren(mi('x')), mo('='), mi('γ'), mo('⊙'), frac(mi('x'), sqrt(row(mfracMean(), mo('+'), mi('ε')))))
          : math(mi('LayerNorm'), paren(mi('x')), mo('='), mi('γ'), mo('⊙'), frac(row(mi('x'), mo('−'), mi('μ')), sqrt(row(sup(mi('σ'), mn('2')), mo('+'), mi('ε')))), mo('+'), mi('β')),
        shapes: [`${n} × ${D}`, `${tr('wt.m.layer', { layer })} · ${normName} ${k}`],
        matrices: [{ label: `${normName}${where === 'pre' ? '(x)' : '(x + …)'}`, ...m(norm), rowSide: stack === 'enc' ? 'in' : 'out' }],
        focus: (nf) => lead(nf, mi(normName), { name: norm, row: ft }, D),
      });
      if (pre) normStep('pre');
      if (sl.kind === 'ffn') ffnSteps(stack, g, vars, m, L);
      else attentionSteps(sl.kind, stack, g, vars, m, n);
      step(`${stack}.${layer}.add${k}`, g, 'add', vars, {
        math: math(mi('x'), mo('+'), mi(sl.kind === 'ffn' ? 'FFN' : 'Attention'), paren(mi(pre ? `${normName}(x)` : 'x'))),
        shapes: [`${n} × ${D}`],
        matrices: [
          { label: sl.kind === 'ffn' ? 'FFN' : 'Attention', ...m(sl.kind === 'ffn' ? L('ffn.out') : attentionName(sl.kind, layer, 'out')) },
          { op: '=', label: tr('wt.m.residual'), ...m(add) },
        ],
        focus: (nf) => {
          const out = sl.kind === 'ffn' ? L('ffn.out') : attentionName(sl.kind, layer, 'out');
          return [at(mi('x'), ft, 0), mo('+'), nf({ name: out, row: ft, col: 0 }), mo('='), nf({ name: add, row: ft, col: 0 })];
        },
      });
      if (!pre) normStep('post');
    });
    const finalNorm = traceName('{stack}.final_norm', { stack });
    if (has(finalNorm)) {
      step(`${stack}.final_norm`, g, `final.${config.norm}`, vars, {
        math: math(mi(normName), paren(mi('x'))),
        shapes: [`${n} × ${D}`],
        matrices: [{ label: `${normName}(x)`, ...m(finalNorm) }],
        focus: (nf) => lead(nf, mi(normName), { name: finalNorm, row: Math.min(token, rowsOf(finalNorm) - 1) }, D),
      });
    }
  }

  // ---- output -------------------------------------------------------------------------------
  const outToks = focusTokens;
  const classes = config.arch === 'encoder-only' && (config.head === 'cls' || config.head === 'mean');
  const outLabels = classes ? labels(config.nClasses) : (config.head === 'token' ? labels(trace.tensors[traceName('logits')].shape[1]) : vocab);
  const rowsOut = classes ? [tr('wt.m.pooled')] : outToks;
  // The classifier of a cls head reads the first position (the tokenizer's class token).
  const vars = { v: outLabels.length, head: config.head, n: rowsOut.length, d: D, cls: input[0] };
  const probs = T[traceName('probs')];
  const [pr, pc] = probs.shape;
  const r = Math.min(classes ? 0 : token, pr - 1);
  let best = 0;
  for (let c = 1; c < pc; ++c) if (probs.data[r * pc + c] > probs.data[r * pc + best]) best = c;
  if (classes) {
    step('pooled', 'output', `pooled.${config.head}`, vars, {
      math: config.head === 'cls' ? math(mi('z'), mo('='), sub(mi('x'), mtext(input[0]))) : math(mi('z'), mo('='), frac(mn('1'), mi('T')), mo('∑'), sub(mi('x'), mi('t'))),
      shapes: [`z: 1 × ${D}`],
      matrices: [{ label: 'z', src: { name: traceName('pooled') }, rowLabels: rowsOut, colLabels: labels(D) }],
      focus: (nf) => lead(nf, mi('z'), { name: traceName('pooled'), row: 0 }, D),
    });
  }
  step('logits', 'output', classes ? 'classifier' : 'logits', vars, {
    math: math(mi('logits'), mo('='), mi(classes ? 'z' : 'x'), sub(mi('W'), mi('out')), mo('⊤'), mo('+'), b('out')),
    shapes: [`W_outᵀ: ${D} × ${outLabels.length}`, `logits: ${rowsOut.length} × ${outLabels.length}`],
    matrices: [{ label: 'logits', src: { name: traceName('logits') }, rowLabels: rowsOut, colLabels: outLabels, colormap: 'diverging', maxCell: 44 }],
    focus: (nf) => [at(mi('logits'), r, best), mo('='), nf({ name: traceName('logits'), row: r, col: best })],
  });
  const chosen = outLabels[best] ?? String(best);
  step('probs', 'output', classes || config.head === 'token' ? 'probs.class' : config.head === 'mlm' ? 'probs.mlm' : 'probs', { ...vars, token: rowsOut[r], chosen, p: probs.data[r * pc + best].toFixed(3) }, {
    math: math(mi('p'), mo('='), softmax(mi('logits')), mo(','), mspace(), row(mi('argmax'), mi('p')), mo('='), mtext(`"${chosen}"`)),
    shapes: [`p: ${pr} × ${pc}`, `${rowsOut[r]} → ${chosen} (${probs.data[r * pc + best].toFixed(3)})`],
    matrices: [{ label: 'p = softmax(logits)', src: { name: traceName('probs') }, rowLabels: rowsOut, colLabels: outLabels, colormap: 'sequential', min: 0, max: 1, maxCell: 44, focusRow: r, marks: { cols: [best] } }],
    focus: (nf) => [at(mi('p'), r, best), mo('='), nf({ name: traceName('probs'), row: r, col: best })],
  });
  return steps;

  // √(mean of x²) for RMSNorm's formula.
  function mfracMean() {
    return row(frac(mn('1'), mi('d')), mo('∑'), sup(mi('x'), mn('2')));
  }

  function attentionSteps(kind, stack, g, vars, m, n) {
    const A = (stage) => attentionName(kind, layer, stage);
    const keys = T[A('k')].shape[0];
    const keyToks = kind === 'cross' ? input : tokensOf(stack);
    const id = (s) => `${stack}.${layer}.${kind === 'cross' ? 'cross' : 'self'}.${s}`;
    const av = { ...vars, kind: tr(`wt.m.attn.${kind === 'cross' ? 'cross' : kind === 'enc' ? 'enc' : 'dec'}`) };
    const qCols = [head * dh, (head + 1) * dh], kvCols = [kvHead * dh, (kvHead + 1) * dh];
    const hm = (stage, extra) => ({ src: { name: A(stage), head }, rowLabels: tokensOf(stack), colLabels: keyToks, rowSide: stack === 'enc' ? 'in' : 'out', colSide: kind === 'dec' ? 'out' : 'in', ...extra });
    const sharing = G === H ? 'mha' : G === 1 ? 'mqa' : 'gqa';
    const rope = config.pos === 'rope';
    // The focused cell of the scores: the focused token's row, at the key it attends to most.
    const ft = vars.ft, kr = Math.min(ft, keys - 1);
    const probsOf = T[A('probs')], S = probsOf.shape.at(-1), base = (head * probsOf.shape.at(-2) + ft) * S;
    let u = 0;
    for (let c = 1; c < S; ++c) if (probsOf.data[base + c] > probsOf.data[base + u]) u = c;
    const hc = (stage, col = u) => ({ name: A(stage), head, row: ft, col });
    // A focused token the decoder generated reads the keys and values of the positions before it
    // from the KV cache: only its own row is computed.
    const cached = kind === 'dec' && Number.isInteger(cachedFrom) && cachedFrom > 0 && ft >= cachedFrom && ft < n ? { computed: ft, from: [0, ft] } : null;
    step(id('q'), g, rope ? 'q.rope' : 'q', av, {
      math: rope
        ? math(sub(Q, h_), mo('='), row(sub(mi('R'), mi('pos')), paren(mi('x'), sub(WT('Q'), h_))), mo(','), mspace(), row(sub(mi('R'), mi('pos'))), mo('='), row(mi('rotate'), paren(mi('pos'), mo('·'), sub(mi('θ'), mi('i')))))
        : math(sub(Q, h_), mo('='), mi('x'), sub(WT('Q'), h_), mo('+'), b('Q')),
      shapes: [`Q: ${n} × ${H}·${dh}`, `Q_${head}: ${n} × ${dh}`],
      matrices: [{ label: `Q_${head}`, ...m(A('q'), { src: { cols: qCols }, colLabels: labels(dh, qCols[0]) }), accent: ROLE_COLORS.q }],
      focus: (nf) => lead(nf, sub(Q, mn(head)), { name: A('q'), row: ft }, dh, qCols[0]),
    });
    step(id('kv'), g, `kv.${sharing}`, { ...av, group: H / G }, {
      math: math(sub(K, mi('g')), mo('='), mi(kind === 'cross' ? 'Z' : 'x'), sub(WT('K'), mi('g')), mo(','), mspace(), sub(V, mi('g')), mo('='), mi(kind === 'cross' ? 'Z' : 'x'), sub(WT('V'), mi('g')), mo(','), mspace(), mi('g'), mo('='), row(mo('⌊'), frac(mi('h'), mn(H / G)), mo('⌋')), mo('='), mn(kvHead)),
      shapes: [`K, V: ${keys} × ${G}·${dh}`, `K_${kvHead}, V_${kvHead}: ${keys} × ${dh}`, `${H} Q · ${G} K/V`, ...(cached ? [tr('wt.m.cached', { t: ft, before: ft - 1 })] : [])],
      matrices: [
        { label: `K_${kvHead}`, src: { name: A('k'), cols: kvCols }, rowLabels: keyToks, colLabels: labels(dh, kvCols[0]), colormap: 'diverging', accent: ROLE_COLORS.k, ...(cached ? { marks: { rows: [ft] } } : {}) },
        { label: `V_${kvHead}`, src: { name: A('v'), cols: kvCols }, rowLabels: keyToks, colLabels: labels(dh, kvCols[0]), colormap: 'diverging', accent: ROLE_COLORS.v, ...(cached ? { marks: { rows: [ft] } } : {}) },
      ],
      focus: (nf) => [...lead(nf, sub(K, mn(kvHead)), { name: A('k'), row: kr }, dh, kvCols[0]), mo(','), mspace(), ...lead(nf, sub(V, mn(kvHead)), { name: A('v'), row: kr }, dh, kvCols[0])],
      extra: cached ? { cached } : undefined,
    });
    if (cached) steps.at(-1).text += ` ${tr('wt.g.kv.cached', { t: ft, before: ft - 1, token: tokensOf(stack)[ft], from: cachedFrom })}`;
    step(id('qk'), g, 'qk', av, {
      math: math(sub(mi('S'), h_), mo('='), sub(Q, h_), subsup(K, mi('g'), mo('⊤'))),
      shapes: [`S_${head}: ${n} × ${keys}`],
      matrices: [{ label: `Q_${head} K_${kvHead}ᵀ`, ...hm('scores') }],
      focus: (nf) => [at(sub(mi('S'), mn(head)), ft, u), mo('='), nf(hc('scores'))],
    });
    step(id('scale'), g, 'scale', { ...av, root: Math.sqrt(dh).toFixed(3) }, {
      math: math(frac(sub(mi('S'), h_), sqrt(dk)), mo(','), mspace(), sqrt(dk), mo('='), sqrt(mn(dh)), mo('='), mn(Math.sqrt(dh).toFixed(3))),
      shapes: [`d_k = ${D} / ${H} = ${dh}`],
      matrices: [{ label: `S_${head} / √d_k`, ...hm('scaled') }],
      focus: (nf) => [frac(nf(hc('scores')), mn(Math.sqrt(dh).toFixed(3))), mo('='), nf(hc('scaled'))],
    });
    const maskKind = kind === 'dec' ? (config.window > 0 ? 'window' : 'causal') : 'none';
    step(id('mask'), g, config.pos === 'alibi' ? `mask.alibi.${maskKind}` : `mask.${maskKind}`, { ...av, w: config.window, gt: config.globalTokens }, {
      math: config.pos === 'alibi'
        ? math(frac(sub(mi('S'), h_), sqrt(dk)), mo('−'), sub(mi('m'), h_), mo('·'), row(mo('|'), mi('t'), mo('−'), mi('u'), mo('|')), mo('+'), mi('M'))
        : math(frac(sub(mi('S'), h_), sqrt(dk)), mo('+'), mi('M')),
      shapes: [`M: ${n} × ${keys}`],
      matrices: [{ label: config.pos === 'alibi' ? 'S / √d_k − m·|t − u| + M' : 'S / √d_k + M', ...hm('masked') }],
      // The focused cell, and in a causal layer the next key, which the mask hides.
      focus: (nf) => [nf(hc('scaled')), mo('→'), nf(hc('masked')), ...(kind === 'dec' && ft + 1 < keys ? [mo(','), mspace(), at(mi('M'), ft, ft + 1), mo(':'), nf(hc('masked', ft + 1))] : [])],
    });
    step(id('softmax'), g, 'softmax', av, {
      math: math(sub(mi('A'), h_), mo('='), softmax(row(frac(sub(mi('S'), h_), sqrt(dk)), mo('+'), mi('M')))),
      shapes: [`A_${head}: ${n} × ${keys}`, 'Σ row = 1'],
      matrices: [{ label: `A_${head}`, ...hm('probs', { colormap: 'sequential', min: 0, max: 1 }) }],
      focus: (nf) => [at(sub(mi('A'), mn(head)), ft, u), mo('='), nf(hc('probs'))],
    });
    step(id('av'), g, 'av', av, {
      math: math(sub(mi('head'), h_), mo('='), sub(mi('A'), h_), sub(V, mi('g'))),
      shapes: [`head_${head}: ${n} × ${dh}`],
      matrices: [{ label: `head_${head}`, src: { name: A('head_out'), head }, rowLabels: tokensOf(stack), colLabels: labels(dh, head * dh), colormap: 'diverging', accent: ROLE_COLORS.v }],
      focus: (nf) => lead(nf, sub(mi('head'), mn(head)), { name: A('head_out'), head, row: ft }, dh),
    });
    step(id('out'), g, 'wo', av, {
      math: math(mi('Attention'), mo('='), mi('Concat'), paren(sub(mi('head'), mn('0')), mo(','), mi('…'), mo(','), sub(mi('head'), mn(H - 1))), WT('O'), mo('+'), b('O')),
      shapes: [`Concat: ${n} × ${H}·${dh}`, `W_Oᵀ: ${D} × ${D}`],
      matrices: [
        { label: 'Concat', ...m(A('concat')) },
        { op: '→', label: 'Attention', ...m(A('out')), accent: ROLE_COLORS.o },
      ],
      focus: (nf) => lead(nf, mi('Attention'), { name: A('out'), row: ft }, D),
    });
  }

  function ffnSteps(stack, g, vars, m, L) {
    const F = T[L('ffn.pre')].shape[1];
    const f = labels(F);
    const act = config.ffn;
    const W1 = sub(mi('W'), mn('1')), W2 = sub(mi('W'), mn('2'));
    const formula = act === 'swiglu'
      ? math(mi('H'), mo('='), row(mi('SiLU'), paren(mi('x'), WT('gate'))), mo('⊙'), paren(mi('x'), WT('up')))
      : math(mi('H'), mo('='), row(mi(act === 'relu' ? 'ReLU' : 'GELU'), paren(mi('x'), W1, mo('⊤'), mo('+'), sub(mi('b'), mn('1')))));
    step(`${stack}.${layer}.ffn.hidden`, g, `ffn.${act}`, { ...vars, f: F }, {
      math: formula,
      shapes: [`${act === 'swiglu' ? 'gate' : 'x W_1ᵀ'}: ${rowsOf(L('ffn.pre'))} × ${F}`, `H: ${rowsOf(L('ffn.hidden'))} × ${F}`],
      matrices: [
        { label: act === 'swiglu' ? 'x W_gateᵀ' : 'x W_1ᵀ + b_1', ...m(L('ffn.pre'), { colLabels: f }), maxCell: 40 },
        { op: '→', label: act === 'swiglu' ? 'SiLU(gate) ⊙ up' : act === 'relu' ? 'ReLU' : 'GELU', ...m(L('ffn.hidden'), { colLabels: f }), markZeros: act === 'relu', maxCell: 40 },
      ],
      focus: (nf) => [at(mi(act === 'swiglu' ? 'gate' : 'a'), vars.ft, 0), mo('='), nf({ name: L('ffn.pre'), row: vars.ft, col: 0 }), mo('→'), at(mi('H'), vars.ft, 0), mo('='), nf({ name: L('ffn.hidden'), row: vars.ft, col: 0 })],
    });
    step(`${stack}.${layer}.ffn.out`, g, 'ffn.out', { ...vars, f: F }, {
      math: math(mi('FFN'), paren(mi('x')), mo('='), mi('H'), W2, mo('⊤'), mo('+'), sub(mi('b'), mn('2'))),
      shapes: [`W_2ᵀ: ${F} × ${D}`, `FFN: ${rowsOf(L('ffn.out'))} × ${D}`],
      matrices: [{ label: 'FFN(x)', ...m(L('ffn.out')) }],
      focus: (nf) => lead(nf, mi('FFN'), { name: L('ffn.out'), row: vars.ft }, D),
    });
  }

  function rowsOf(name) {
    return T[name].shape[0];
  }
}

// The steps of whatever model `config` describes: the seed article's own 28 for the seed's
// model, the derived ones for any other.
export function walkthroughSteps({ trace, params, vocab, config, t, pick, cachedFrom }) {
  if (!config || (isSeedShape(config) && trace.decoderInput)) return buildSteps({ trace, params: params ?? {}, vocab, t });
  return buildModelSteps({ trace, config, vocab, t, pick, cachedFrom });
}
