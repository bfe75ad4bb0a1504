// <tp-kv-cache> — what generation keeps between tokens: per decoder layer, the rows of K and V
// in the cache, one per position fed so far, each a strip of its values (diverging colours), the
// newest outlined. A windowed layer's cache is a ring: after its global rows it holds only the
// last `window` positions, and a new row overwrites the oldest slot (the labels say which
// position sits where). Beneath, the work the cache saves: rows of K and V computed with it
// (each position once) against recomputing the whole prefix for every new token.
//
//   el.data = { layers: [{ layer, local, capacity, ringStart, rows, kvDim, k, v }],  // k, v: Float32Array(N·kvDim), every position's row
//               tokens: [N labels], prompt: P };
//   el.upto = n   // positions in the cache now, P ≤ n ≤ N (default N)
// `rows[p]` is the cache row position p is written to, as the core lays the cache out
// (tp.kvLayout(config, N): src/model/decode.cpp's layout, nn::KvRows::row_for's ring); no slot
// is computed here. Attribute: label.
import { VizElement } from './shared/viz-element.js';
import { colorAt, scaleFor } from './shared/colormap.js';
import { measureText } from './shared/scene.js';
import { defineElement } from '../ui/element.js';

// Slot → the position it holds once n positions have been fed (−1: empty).
export function kvSlots(n, layer) {
  const slots = new Array(Math.min(layer.capacity, Math.max(n, 0))).fill(-1);
  for (let p = 0; p < n; ++p) slots[layer.rows[p]] = p;
  return slots;
}

// Rows of K and V one layer computes to feed n positions, prompt P at once: with the cache each
// position once; without, every step runs the whole prefix again (P, then P+1, …, n).
export function kvWork(n, P) {
  if (n <= 0) return { cached: 0, recomputed: 0 };
  const first = Math.max(1, Math.min(P, n));
  return { cached: n, recomputed: ((n * (n + 1)) - (first * (first - 1))) / 2 };
}

export class TpKvCache extends VizElement {
  static observedAttributes = ['label'];
  static labels = {
    ...VizElement.labels,
    'kv.layer': 'layer {l}', 'kv.ring': 'ring of {w} rows', 'kv.full': 'every position',
    'kv.work': 'K and V rows computed per layer for {n} positions: {cached} with the cache, {recomputed} recomputing the prefix for every token ({x}× the work).',
    'kv.describe': 'the KV cache holds {n} positions; {layers}',
    'kv.slot': 'slot {s}: position {p} ({token})',
  };

  constructor() {
    super();
    this._data = null;
    this._upto = null;
  }

  get data() {
    return this._data;
  }
  set data(d) {
    this._data = d;
    this._upto = null;
    this.dataChanged();
  }
  get upto() {
    return this._upto ?? this._data?.tokens.length ?? 0;
  }
  set upto(n) {
    this._upto = n;
    this.dataChanged();
  }

  // { n, layers: [{ layer, local, slots: [position | −1] }], work }: what is drawn, for the text
  // alternative and the tests.
  state() {
    const d = this._data;
    if (!d) return null;
    const n = Math.min(this.upto, d.tokens.length);
    return { n, work: kvWork(n, d.prompt), layers: d.layers.map((l) => ({ layer: l.layer, local: l.local, capacity: l.capacity, slots: kvSlots(n, l) })) };
  }

  layout(width) {
    const d = this._data, st = this.state();
    if (!d || !st) return null;
    const th = this.theme();
    const items = [];
    const L = d.layers.length;
    // Each layer's rows as tall as its slot count allows (a ring of 8 reads at 12 px a row).
    const rowHOf = (rows) => (rows > 48 ? 5 : rows > 24 ? 8 : 12);
    const labelW = Math.min(90, Math.max(34, ...d.tokens.map((t) => measureText(`${d.tokens.length} ${t}`, 10, { family: th.font })))) + 6;
    const gap = 14, half = 4;
    const colW = Math.max(60, Math.floor((Math.min(width, 900) - L * (labelW + gap)) / L));
    const kvW = Math.floor((colW - half) / 2);
    const top = 34;
    let maxAbs = 0;
    for (const l of d.layers) for (const arr of [l.k, l.v]) for (let i = 0; i < Math.min(arr.length, d.tokens.length * l.kvDim); ++i) maxAbs = Math.max(maxAbs, Math.abs(arr[i]));
    const scale = scaleFor('diverging', -maxAbs, maxAbs);
    this._geom = [];
    let bottom = top;
    st.layers.forEach((ls, li) => {
      const l = d.layers[li];
      const rowH = rowHOf(ls.slots.length);
      bottom = Math.max(bottom, top + ls.slots.length * rowH);
      const x0 = li * (labelW + colW + gap);
      const xk = x0 + labelW, xv = xk + kvW + half;
      items.push({ type: 'text', x: x0, y: 7, text: this.t('kv.layer', { l: l.layer }), fill: th.fg, size: 11.5, weight: 600 });
      items.push({ type: 'text', x: x0, y: 21, text: l.local ? this.t('kv.ring', { w: l.capacity - l.ringStart }) : this.t('kv.full'), fill: th.muted, size: 10 });
      items.push({ type: 'text', x: xk + kvW / 2, y: top - 6, text: 'K', fill: th.muted, size: 10.5, anchor: 'middle', weight: 600 });
      items.push({ type: 'text', x: xv + kvW / 2, y: top - 6, text: 'V', fill: th.muted, size: 10.5, anchor: 'middle', weight: 600 });
      const cols = l.kvDim, cw = kvW / cols;
      for (const [x, arr] of [[xk, l.k], [xv, l.v]]) {
        const rows = ls.slots.length;
        const rgba = new Uint8ClampedArray(rows * cols * 4);
        ls.slots.forEach((p, s) => {
          if (p < 0) return;
          for (let c = 0; c < cols; ++c) {
            rgba.set(colorAt('diverging', scale.t(arr[p * cols + c])), (s * cols + c) * 4);
            rgba[(s * cols + c) * 4 + 3] = 255;
          }
        });
        if (rows) items.push({ type: 'cells', x, y: top, cw, ch: rowH, rows, cols, rgba });
      }
      ls.slots.forEach((p, s) => {
        const y = top + s * rowH;
        if (rowH >= 8 || p === st.n - 1) items.push({ type: 'text', x: xk - 4, y: y + rowH / 2, text: `${p} ${d.tokens[p] ?? ''}`, fill: p === st.n - 1 ? th.fg : th.muted, size: rowH >= 12 ? 10 : 8.5, anchor: 'end', weight: p === st.n - 1 ? 700 : 400 });
        if (p === st.n - 1) items.push({ type: 'rect', x: xk - 1, y: y - 1, w: kvW * 2 + half + 2, h: rowH + 2, r: 2, stroke: th.accent, lw: 1.5 });
      });
      if (l.local && l.ringStart > 0 && ls.slots.length > l.ringStart) {
        const y = top + l.ringStart * rowH;
        items.push({ type: 'line', x1: xk, y1: y, x2: xv + kvW, y2: y, stroke: th.fg, lw: 1, dash: [3, 2] });
      }
      this._geom.push({ x0: xk, x1: xv + kvW, top, rowH, slots: ls.slots });
    });
    const height = bottom + 8;
    return { width: Math.min(width, 900), height, items, font: th.font, monoFont: th.mono };
  }

  hitTest(x, y) {
    const d = this._data;
    for (const g of this._geom ?? []) {
      if (x < g.x0 || x > g.x1) continue;
      const s = Math.floor((y - g.top) / g.rowH);
      const p = g.slots[s];
      if (p === undefined || p < 0) return null;
      return { key: [g.x0, s], tip: this.t('kv.slot', { s, p, token: d.tokens[p] ?? '' }) };
    }
    return null;
  }

  // The sentence beneath the picture: the work saved.
  workText() {
    const st = this.state();
    if (!st || !st.n) return '';
    const { cached, recomputed } = st.work;
    return this.t('kv.work', { n: st.n, cached, recomputed, x: (recomputed / Math.max(1, cached)).toFixed(1) });
  }

  describe() {
    const st = this.state();
    if (!st) return '';
    return `${this.t('kv.describe', { n: st.n, layers: st.layers.map((l) => `${this.t('kv.layer', { l: l.layer })}: ${l.slots.filter((p) => p >= 0).length}`).join(', ') })}. ${this.workText()}`;
  }
}

defineElement('tp-kv-cache', TpKvCache);
