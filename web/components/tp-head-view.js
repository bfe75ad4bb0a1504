// <tp-head-view> — the "head view": query tokens on the left, key tokens on the right, a line
// from each query to each key whose opacity is the attention weight, one colour per head
// (BertViz's design). Hover or arrow keys focus one query token: only its lines stay, all of them,
// and bars beside the keys show how much each head gives each key; hovering a key keeps only the
// lines into it. Head toggles above the drawing.
// It scales to long inputs: each query's lines are drawn in full only for its top-k keys per head
// whose weight reaches the threshold; the rest are faded (and the faintest left out), so 64
// tokens read as the few links that matter, with the rows packed closer.
//
//   el.data = { probs: Float32Array(H*T*S), heads: H, T, S, rowTokens, colTokens,
//               masked?: Float32Array(H*T*S), rowSide?: 'dec', colSide?: 'enc' };
// Attributes: label; top-k (default: 3 beyond 16 tokens, else every key); threshold (default:
// 0.05 beyond 16 tokens, else 0.01). Property: activeHeads (array of head indices; default all).
// Each line of the scene carries `link: { head, query, key, strength }` (strength 'focus',
// 'strong' or 'faded'), what the lines stand for, for the tests and an export's reader.
import { VizElement } from './shared/viz-element.js';
import { headColor, inkOn, rgbOf } from './shared/colormap.js';
import { measureText } from './shared/scene.js';
import { fmt } from './shared/format.js';
import { defineElement } from '../ui/element.js';

export class TpHeadView extends VizElement {
  static observedAttributes = ['label', 'top-k', 'threshold'];
  static labels = { ...VizElement.labels, 'attn.head': 'head', 'attn.heads': 'heads', 'attn.queries': 'queries', 'attn.keys': 'keys',
    'attn.headDescribe': '{heads} heads; strongest link per query: {list}' };
  static css = `
    .heads { display: flex; flex-wrap: wrap; gap: 4px; margin: 0 0 6px; }
    .heads button { font: 600 11px/1 var(--_font); border-radius: 999px; padding: 4px 9px 4px 7px; cursor: pointer;
      border: 1.5px solid var(--c); background: var(--c); color: var(--ink); display: inline-flex; gap: 5px; align-items: center; }
    .heads button[aria-pressed="false"] { background: transparent; color: var(--_muted); }
    .heads button::before { content: ""; width: 8px; height: 8px; border-radius: 50%; background: currentColor; opacity: .9; }
  `;

  constructor() {
    super();
    this._data = null;
    this._active = null;
    this.focusRow = -1;
    this._headsEl = document.createElement('div');
    this._headsEl.className = 'heads';
    this._headsEl.setAttribute('role', 'group');
    const bar = this.shadowRoot.querySelector('.bar');
    bar.after(this._headsEl);
  }

  get data() {
    return this._data;
  }
  set data(d) {
    const headsChanged = d?.heads !== this._data?.heads;
    this._data = d;
    if (headsChanged) this._active = null;
    this._buttons();
    this.dataChanged();
  }
  get activeHeads() {
    return this._active ?? Array.from({ length: this._data?.heads ?? 0 }, (_, h) => h);
  }
  set activeHeads(list) {
    this._active = list;
    this._buttons();
    this.dataChanged();
  }

  _buttons() {
    const H = this._data?.heads ?? 0;
    this._headsEl.setAttribute('aria-label', this.t('attn.heads'));
    if (this._headsEl.children.length !== H) {
      this._headsEl.replaceChildren(...Array.from({ length: H }, (_, h) => {
        const b = document.createElement('button');
        b.type = 'button';
        b.style.setProperty('--c', headColor(h));
        b.style.setProperty('--ink', inkOn(rgbOf(headColor(h))));
        b.addEventListener('click', () => {
          const set = new Set(this.activeHeads);
          if (set.has(h)) set.delete(h);
          else set.add(h);
          this.activeHeads = [...set].sort((a, c) => a - c);
        });
        return b;
      }));
    }
    const active = new Set(this.activeHeads);
    [...this._headsEl.children].forEach((b, h) => {
      b.textContent = `${this.t('attn.head')} ${h}`;
      b.setAttribute('aria-pressed', String(active.has(h)));
    });
  }

  render() {
    this._buttons();
    super.render();
  }

  // Which lines are drawn in full: { topK, threshold } from the attributes or the input's length.
  lineRule() {
    const many = Math.max(this._data?.T ?? 0, this._data?.S ?? 0) > 16;
    const k = Number.parseInt(this.getAttribute('top-k') ?? '', 10);
    const th = Number.parseFloat(this.getAttribute('threshold') ?? '');
    return { topK: k > 0 ? k : many ? 3 : Infinity, threshold: th >= 0 && th <= 1 ? th : many ? 0.05 : 0.01, many };
  }

  layout(width) {
    const d = this._data;
    if (!d) return null;
    const th = this.theme();
    const { T, S, heads: H, probs } = d;
    const rule = this.lineRule();
    const dense = Math.max(T, S) > 24;
    const size = dense ? 11 : 13, rowH = dense ? 15 : 22;
    const head = (s) => measureText(s, 10, { family: th.font });
    const lw = Math.min(140, Math.max(...d.rowTokens.map((s) => measureText(String(s), size, { family: th.font })), head(this.t('attn.queries')), 20)) + 10;
    const rw = Math.min(140, Math.max(...d.colTokens.map((s) => measureText(String(s), size, { family: th.font })), head(this.t('attn.keys')), 20)) + 10;
    const barW = 46;
    const w = Math.min(width, 620);
    const xl = lw, xr = w - rw - barW;
    const top = 14;
    const height = top + Math.max(T, S) * rowH + 6;
    const y = (i) => top + (i + 0.5) * rowH;
    const items = [];
    this._geom = { xl, xr, rowH, top, T, S, w };
    // A token hovered here (or the query chosen with the keys) isolates its own lines: a query's
    // out, a key's in. A token hovered in another view isolates its lines on whichever side it
    // is; in self-attention, where it is on both, the lines out of it and into it.
    const ownRow = this.hover?.row ?? (this.focusRow >= 0 ? this.focusRow : null);
    const ownCol = ownRow === null ? this.hover?.col ?? null : null;
    const hl = this._highlight;
    const rowHl = hl && hl.side === (d.rowSide ?? 'enc') ? hl.index : null;
    const colHl = hl && hl.side === (d.colSide ?? 'enc') ? hl.index : null;
    const own = ownRow !== null || ownCol !== null;
    const fr = own ? ownRow : rowHl, fc = own ? ownCol : colHl;
    const either = fr !== null && fc !== null;
    items.push({ type: 'text', x: xl - 8, y: 6, text: this.t('attn.queries'), fill: th.muted, size: 10, anchor: 'end' });
    items.push({ type: 'text', x: xr + 8, y: 6, text: this.t('attn.keys'), fill: th.muted, size: 10 });
    const active = this.activeHeads;
    const isolated = fr !== null || fc !== null;
    // Faded lines first, so the strong ones are drawn over them.
    const faded = [], strong = [];
    const order = Array.from({ length: S }, (_, s) => s);
    for (const h of active) {
      const color = headColor(h);
      for (let t = 0; t < T; ++t) {
        if (fr !== null && t !== fr && !either) continue;
        const row = h * T * S + t * S;
        // The query's top-k keys (ties: the earlier key).
        let kept = null;
        if (!isolated && rule.topK < S) {
          order.sort((a, b) => probs[row + b] - probs[row + a] || a - b);
          kept = new Set(order.slice(0, rule.topK));
        }
        for (let s = 0; s < S; ++s) {
          if (either ? t !== fr && s !== fc : fc !== null && s !== fc) continue;
          const p = probs[row + s];
          if (!(p > 0.01)) continue;
          const line = { type: 'line', x1: xl + 4, y1: y(t), x2: xr - 4, y2: y(s), stroke: color };
          if (isolated) {
            strong.push({ ...line, lw: 2.5, opacity: Math.min(1, p * (active.length > 1 ? 0.9 : 1)), link: { head: h, query: t, key: s, strength: 'focus' } });
          } else if (p >= rule.threshold && (!kept || kept.has(s))) {
            strong.push({ ...line, lw: 2, opacity: Math.min(1, (rule.many ? Math.max(0.2, p) : p) * (active.length > 1 ? 0.9 : 1)), link: { head: h, query: t, key: s, strength: 'strong' } });
          } else if (!rule.many || p > 0.02) {
            faded.push({ ...line, lw: 1, opacity: Math.min(0.08, p * 0.3), link: { head: h, query: t, key: s, strength: 'faded' } });
          }
        }
      }
    }
    items.push(...faded, ...strong);
    d.rowTokens.forEach((tok, t) => {
      const on = t === fr;
      if (on) items.push({ type: 'rect', x: 2, y: y(t) - rowH / 2 + 2, w: xl - 6, h: rowH - 4, r: 4, fill: th.hatch });
      items.push({ type: 'text', x: xl - 8, y: y(t), text: String(tok), fill: th.fg, size, anchor: 'end', weight: on ? 700 : 400 });
    });
    d.colTokens.forEach((tok, s) => {
      const on = s === fc;
      const masked = fr !== null && d.masked && active.every((h) => d.masked[h * T * S + fr * S + s] === -Infinity);
      if (on) items.push({ type: 'rect', x: xr + 2, y: y(s) - rowH / 2 + 2, w: rw - 4, h: rowH - 4, r: 4, fill: th.hatch });
      items.push({ type: 'text', x: xr + 8, y: y(s), text: String(tok), fill: masked ? th.muted : th.fg, size, weight: on ? 700 : 400, opacity: masked ? 0.55 : 1 });
      // Per-head weight bars for the focused query.
      if (fr !== null) {
        const bw = barW / Math.max(1, active.length);
        active.forEach((h, k) => {
          const p = probs[h * T * S + fr * S + s];
          const bh = (rowH - 6) * p;
          items.push({ type: 'rect', x: w - barW + k * bw + 1, y: y(s) + (rowH - 6) / 2 - bh, w: Math.max(1, bw - 2), h: Math.max(0.5, bh), fill: headColor(h) });
        });
      }
    });
    return { width: w, height, items, font: th.font, monoFont: th.mono };
  }

  hitTest(x, y) {
    const g = this._geom, d = this._data;
    if (!g) return null;
    const i = Math.floor((y - g.top) / g.rowH);
    if (x < g.xl && i >= 0 && i < g.T) {
      const lines = this.activeHeads.map((h) => {
        let best = 0;
        for (let s = 1; s < g.S; ++s) if (d.probs[h * g.T * g.S + i * g.S + s] > d.probs[h * g.T * g.S + i * g.S + best]) best = s;
        return `${this.t('attn.head')} ${h} → ${d.colTokens[best]} ${fmt(d.probs[h * g.T * g.S + i * g.S + best], 2)}`;
      });
      return { key: ['r', i], row: i, tip: `${d.rowTokens[i]}\n${lines.join('\n')}`, token: { side: d.rowSide ?? 'enc', index: i } };
    }
    if (x > g.xr && i >= 0 && i < g.S) return { key: ['c', i], col: i, tip: String(d.colTokens[i]), token: { side: d.colSide ?? 'enc', index: i } };
    return null;
  }

  onKey(e) {
    const d = this._data;
    if (!d) return;
    if (e.key === 'ArrowDown') this.focusRow = Math.min(d.T - 1, this.focusRow + 1);
    else if (e.key === 'ArrowUp') this.focusRow = Math.max(0, this.focusRow - 1);
    else if (e.key === 'Escape') this.focusRow = -1;
    else return;
    e.preventDefault();
    this.setHover(null);
    this.invalidate();
    this.dispatchEvent(new CustomEvent('tp-hover', { bubbles: true, composed: true, detail: this.focusRow >= 0 ? { side: d.rowSide ?? 'enc', index: this.focusRow } : null }));
  }

  describe() {
    const d = this._data;
    if (!d) return '';
    const parts = [];
    for (let t = 0; t < d.T; ++t) {
      let best = 0;
      for (let s = 1; s < d.S; ++s) if (d.probs[t * d.S + s] > d.probs[t * d.S + best]) best = s;
      parts.push(`${d.rowTokens[t]} → ${d.colTokens[best]}`);
    }
    return this.t('attn.headDescribe', { heads: d.heads, list: parts.join(', ') });
  }

  tableData() {
    const d = this._data;
    if (!d || d.T * d.S > 400) return null;
    const rows = [];
    for (let t = 0; t < d.T; ++t) rows.push([String(d.rowTokens[t]), ...Array.from({ length: d.S }, (_, s) => fmt(d.probs[t * d.S + s], 3))]);
    return { head: ['', ...d.colTokens.map(String)], rows };
  }
}

defineElement('tp-head-view', TpHeadView);
