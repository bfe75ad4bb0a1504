// panels/attention.js — attention of the live model on the probe input: the layer × head grid
// (model view), the selected head as a large heatmap (probabilities or any earlier stage of the
// scores), the head view (token-to-token lines), and the mask rules of the selected layer drawn
// on the same tokens with two <PAD> added. Refreshed from every snapshot while training.
// A deep model (an imported GPT-2 has 12 layers × 12 heads) shows the grid as a window of
// layers around the selected one, at most MAX_THUMBS thumbnails; the layer and head pickers
// reach every head.
import { segmented, h } from '../../ui/dom.js';
import { ATTN_STAGES } from '../state.js';
import { headColor } from '../../components/shared/colormap.js';
import { attentionKinds, attentionName, ATTENTION_KINDS } from '../../lib/trace-names.js';

const MAX_THUMBS = 48;

// The layers the grid shows: all of them, or `span` around the selected one.
export function gridWindow(layers, heads, layer) {
  const span = Math.max(1, Math.min(layers, Math.floor(MAX_THUMBS / Math.max(1, heads))));
  const first = Math.min(Math.max(0, layer - Math.floor(span / 2)), layers - span);
  return { first, span };
}

export function availableKinds(config) {
  return config ? attentionKinds(config.arch) : [];
}

export function isLocal(config, layer) {
  if (!(config.window > 0)) return false;
  const p = config.layerPattern ?? '';
  return p === '' || p[layer % p.length] === 'L';
}

export function initAttention(app) {
  const $ = (id) => app.$(id);
  const grid = $('attn-grid'), main = $('attn-main'), headView = $('head-view'), maskMap = $('attn-mask');
  main.canvas.dataset.testid = 'attention';
  const input = $('attn-input');
  let typing = 0;
  input.addEventListener('input', () => {
    clearTimeout(typing);
    typing = setTimeout(() => app.set({ input: input.value }), 300);
  });

  function current() {
    const kinds = availableKinds(app.config);
    const a = app.state.attn;
    const kind = kinds.includes(a.kind) ? a.kind : kinds[0];
    const layer = Math.min(a.layer, (app.config?.nLayers ?? 1) - 1), head = Math.min(a.head, (app.config?.nHeads ?? 1) - 1);
    return { kinds, kind, layer, head, stage: a.stage };
  }

  function kindLabel(kind) {
    return kind === 'dec' && app.config?.arch === 'decoder-only' ? app.t('attn.kind.decOnly') : app.t(`attn.kind.${kind}`);
  }

  function controls() {
    const { kinds, kind, stage } = current();
    segmented($('attn-kinds'), ATTENTION_KINDS.map((k) => ({ value: k, label: kindLabel(k), disabled: !kinds.includes(k) })), kind,
      (v) => app.set({ attn: { ...app.state.attn, kind: v } }));
    const sel = $('attn-stage');
    sel.replaceChildren(...ATTN_STAGES.map((s) => h('option', { value: s, text: app.t(`attn.stage.${s}`), selected: s === stage })));
    const { layer, head } = current();
    const numbers = (n, selected) => Array.from({ length: n }, (_, i) => h('option', { value: String(i), text: String(i), selected: i === selected }));
    $('attn-layer').replaceChildren(...numbers(app.config?.nLayers ?? 1, layer));
    $('attn-head').replaceChildren(...numbers(app.config?.nHeads ?? 1, head));
  }
  $('attn-stage').addEventListener('change', (e) => app.set({ attn: { ...app.state.attn, stage: e.target.value } }));
  $('attn-layer').addEventListener('change', (e) => app.set({ attn: { ...app.state.attn, layer: Number(e.target.value) } }));
  $('attn-head').addEventListener('change', (e) => app.set({ attn: { ...app.state.attn, head: Number(e.target.value) } }));
  grid.addEventListener('tp-select', (e) => app.set({ attn: { ...app.state.attn, layer: e.detail.layer, head: e.detail.head } }));

  function render() {
    controls();
    if (app.activeElement !== input) input.value = app.input;
    const s = app.snapshot, c = app.config;
    if (!s || !c) return;
    if (s.error) {
      $('attn-note').textContent = s.error.message;
      return;
    }
    const { kind, layer, head, stage } = current();
    const encDec = c.arch === 'encoder-decoder';
    const inTok = s.input.tokens, outTok = s.decoderInput?.tokens ?? [];
    const rowTokens = kind === 'enc' || (kind === 'dec' && !encDec) ? inTok : outTok;
    const colTokens = kind === 'cross' || kind === 'enc' || !encDec ? inTok : outTok;
    const rowSide = rowTokens === inTok ? 'in' : 'out', colSide = colTokens === inTok ? 'in' : 'out';
    const probs = [], masked = [];
    for (let l = 0; l < c.nLayers; ++l) {
      const p = s.tensors[attentionName(kind, l, 'probs')];
      if (!p) return;
      probs.push(p.data);
      masked.push(s.tensors[attentionName(kind, l, 'masked')]?.data);
    }
    const [H, T, S] = s.tensors[attentionName(kind, 0, 'probs')].shape;
    const { first, span } = gridWindow(c.nLayers, H, layer);
    const windowed = span < c.nLayers;
    grid.setAttribute('label', windowed ? app.t('attn.gridWindow', { first, last: first + span - 1, layers: c.nLayers }) : app.t('attn.grid'));
    grid.selected = { layer, head };
    grid.maps = { probs: probs.slice(first, first + span), masked: masked.slice(first, first + span), heads: H, T, S, rowTokens, colTokens,
      rowSide, colSide, firstLayer: first };

    // The selected head, large: probabilities with masked cells shown as −∞, or an earlier stage.
    const src = s.tensors[attentionName(kind, layer, stage)];
    const off = head * T * S;
    const data = new Float32Array(T * S);
    for (let i = 0; i < T * S; ++i) data[i] = stage === 'probs' && masked[layer]?.[off + i] === -Infinity ? -Infinity : src.data[off + i];
    main.setAttribute('label', app.t('attn.main', { layer, head, kind: kindLabel(kind) }));
    main.setAttribute('accent', headColor(head));
    if (stage === 'probs') {
      main.setAttribute('colormap', 'sequential');
      main.setAttribute('min', '0');
      main.setAttribute('max', '1');
    } else {
      main.setAttribute('colormap', 'diverging');
      main.removeAttribute('min');
      main.removeAttribute('max');
    }
    main.setAttribute('row-side', rowSide);
    main.setAttribute('col-side', colSide);
    main.matrix = { rows: T, cols: S, data, rowLabels: rowTokens, colLabels: colTokens, rowTitle: app.t('attn.rows'), colTitle: app.t('attn.cols') };

    headView.setAttribute('label', app.t('attn.headView', { layer }));
    headView.data = { probs: probs[layer], masked: masked[layer], heads: H, T, S, rowTokens, colTokens, rowSide, colSide };

    mask(kind, layer, rowTokens, colTokens);
    let answer = '';
    if (encDec) {
      try {
        answer = app.info.tokenizer.decode(Array.from(s.decoderInput.ids).slice(1));
      } catch {
        answer = outTok.slice(1).join(' ');
      }
    }
    const cut = s.shortened ? app.t('attn.shortened', { tokens: s.shortened.tokens, of: s.shortened.of, mb: (s.shortened.limit / 2 ** 20).toFixed(1) }) : '';
    $('attn-note').textContent = app.t('attn.note', { input: s.probe, answer: answer ? app.t('attn.noteAnswer', { answer }) : '', step: s.step ?? 0 }) + cut;
  }

  function mask(kind, layer, rowTokens, colTokens) {
    const c = app.config;
    const self = kind !== 'cross';
    const rows = self ? [...rowTokens, '<PAD>', '<PAD>'] : rowTokens;
    const cols = [...colTokens, '<PAD>', '<PAD>'];
    const causal = kind === 'dec', local = self && isLocal(c, layer);
    const g = c.globalTokens ?? 0, w = c.window;
    const data = new Float32Array(rows.length * cols.length);
    for (let t = 0; t < rows.length; ++t) {
      for (let u = 0; u < cols.length; ++u) {
        let ok = cols[u] !== '<PAD>' || u < colTokens.length;
        if (causal && u > t) ok = false;
        if (local && Math.abs(t - u) >= w && t >= g && u >= g) ok = false;
        data[t * cols.length + u] = ok ? 1 : -Infinity;
      }
    }
    const rules = [];
    if (causal) rules.push(app.t('attn.rule.causal'));
    if (local) rules.push(app.t('attn.rule.window', { w }));
    if (local && g > 0) rules.push(app.t('attn.rule.global', { n: g }));
    if (!causal && !local) rules.push(app.t('attn.rule.full'));
    rules.push(app.t('attn.rule.pad'));
    maskMap.setAttribute('label', app.t('attn.mask'));
    maskMap.setAttribute('min', '0');
    maskMap.setAttribute('max', '1');
    maskMap.matrix = { rows: rows.length, cols: cols.length, data, rowLabels: rows, colLabels: cols };
    $('mask-note').textContent = app.t('attn.maskNote', { rules: rules.join(' · ') });
  }

  // Hovering a cell of the large heatmap: how its weight was computed (q · k, ÷ √d_k, mask,
  // softmax), from the shown snapshot.
  let hovered = null;
  main.addEventListener('tp-cell', (e) => {
    hovered = e.detail;
    explain();
  });
  function explain() {
    const el = $('score-explain');
    const s = app.snapshot, c = app.config;
    if (!hovered || !s || s.error || !c) {
      el.cell = null;
      return;
    }
    const { kind, layer, head } = current();
    const T = s.tensors;
    const q = T[attentionName(kind, layer, 'q')], k = T[attentionName(kind, layer, 'k')];
    const scaled = T[attentionName(kind, layer, 'scaled')], masked = T[attentionName(kind, layer, 'masked')], probs = T[attentionName(kind, layer, 'probs')];
    if (!q || !k || !scaled || !masked || !probs) {
      el.cell = null;
      return;
    }
    const [H, R, S] = probs.shape;
    const { r, c: col } = hovered;
    if (r < 0 || col < 0 || r >= R || col >= S) return;
    const dk = q.shape[1] / H, G = k.shape[1] / dk, g = Math.floor(head / (H / G));
    const off = head * R * S + r * S;
    const tok = main.matrix;
    el.cell = { head, row: r, col, rowToken: tok?.rowLabels?.[r] ?? r, colToken: tok?.colLabels?.[col] ?? col, colTokens: tok?.colLabels,
      q: q.data.subarray(r * q.shape[1] + head * dk, r * q.shape[1] + (head + 1) * dk), k: k.data.subarray(col * k.shape[1] + g * dk, col * k.shape[1] + (g + 1) * dk),
      scaled: scaled.data[off + col], masked: masked.data[off + col], rowMasked: masked.data.subarray(off, off + S), rowProbs: probs.data.subarray(off, off + S) };
  }

  // Another kept run's attention at the same step, beside this one's.
  const compareSel = $('attn-compare-run');
  let compareKey = null;
  compareSel.addEventListener('change', () => {
    compareKey = compareSel.value || null;
    compare();
  });
  function compare() {
    const others = app.compared().filter((r) => !r.current && r.record.snapshots.length);
    $('attn-compare').hidden = others.length === 0;
    if (!others.length) return;
    if (!others.some((r) => r.key === compareKey)) compareKey = others[0].key;
    const sig = JSON.stringify(others.map((r) => [r.key, r.label]));
    if (compareSel.dataset.sig !== sig) {
      compareSel.dataset.sig = sig;
      compareSel.replaceChildren(...others.map((r) => h('option', { value: r.key, text: r.label })));
    }
    compareSel.value = compareKey;
    const other = others.find((r) => r.key === compareKey);
    const step = app.shown?.step ?? 0;
    const snap = other.record.snapshotAt(step);
    const t = snap && app.traceOf('main', snap);
    const { kind, layer, head } = current();
    const grid = $('attn-grid-b');
    const kinds = availableKinds(other.record.config);
    if (!t || t.error || !kinds.includes(kind)) {
      grid.maps = null;
      $('attn-compare-note').textContent = app.t('attn.compareNone', { kind: kindLabel(kind) });
      return;
    }
    const probs = [], masked = [];
    for (let l = 0; l < other.record.config.nLayers; ++l) {
      probs.push(t.tensors[attentionName(kind, l, 'probs')].data);
      masked.push(t.tensors[attentionName(kind, l, 'masked')]?.data);
    }
    const [H, T, S] = t.tensors[attentionName(kind, 0, 'probs')].shape;
    const side = (toks) => (toks === t.input.tokens ? 'in' : 'out');
    const encDec = other.record.config.arch === 'encoder-decoder';
    const inTok = t.input.tokens, outTok = t.decoderInput?.tokens ?? [];
    const rowTokens = kind === 'enc' || (kind === 'dec' && !encDec) ? inTok : outTok;
    const colTokens = kind === 'cross' || kind === 'enc' || !encDec ? inTok : outTok;
    grid.setAttribute('label', app.t('attn.compareGrid', { run: other.label, step: snap.step }));
    grid.selected = { layer: Math.min(layer, other.record.config.nLayers - 1), head: Math.min(head, H - 1) };
    grid.maps = { probs, masked, heads: H, T, S, rowTokens, colTokens, rowSide: side(rowTokens), colSide: side(colTokens) };
    $('attn-compare-note').textContent = app.t('attn.compareNote', { run: other.label, step: snap.step, here: step });
  }

  const follow = app.whenVisible('attention', () => {
    render();
    explain();
    compare();
  });
  app.on('snapshot', follow);
  app.on('kept', compare);
  app.on('lang', render);
  app.on('state', ({ changed }) => {
    if (changed.includes('attn') || changed.includes('input')) {
      render();
      explain();
      compare();
    }
  });
  app.on('configured', render);
}
