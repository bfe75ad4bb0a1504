// <tp-attention-grid> — the "model view": one small attention heatmap per layer (rows) and head
// (columns), each head with its own colour as in BertViz. Click or arrow keys select a head
// (a `tp-select` event { layer, head }); hovering a cell names the two tokens and the weight.
//
//   el.maps = { probs: [Float32Array(H*T*S) per layer], masked?: [Float32Array per layer],
//               heads: H, T, S, rowTokens: [...], colTokens: [...], rowSide?, colSide?,
//               firstLayer?: the layer number of probs[0] (a window of a deep model's layers) };
//   el.selected = { layer: 0, head: 0 };   (layer numbers are the model's, not the window's)
// Masked positions (−∞ before the softmax) are hatched, so causal triangles and window bands show.
import { VizElement } from './shared/viz-element.js';
import { colorAt, headColor, rgbOf } from './shared/colormap.js';
import { fmt } from './shared/format.js';
import { measureText } from './shared/scene.js';
import { defineElement } from '../ui/element.js';

// How far the selected thumbnail's frame reaches past it (2.5 px out, half of its 3 px line):
// room kept at the right edge, so the last column's frame is drawn whole.
const EDGE = 4;

export class TpAttentionGrid extends VizElement {
  static observedAttributes = ['label', 'max-thumb'];
  static labels = { ...VizElement.labels, 'attn.layer': 'layer', 'attn.head': 'head', 'heatmap.masked': 'masked',
    'attn.gridDescribe': 'Attention maps for {layers} layers and {heads} heads; layer {layer} head {head} is selected.' };

  constructor() {
    super();
    this._maps = null;
    this._selected = { layer: 0, head: 0 };
  }

  get maps() {
    return this._maps;
  }
  set maps(m) {
    this._maps = m;
    this.dataChanged();
  }
  get selected() {
    return this._selected;
  }
  set selected(s) {
    this._selected = s;
    this.dataChanged();
  }

  layout(width) {
    const m = this._maps;
    if (!m || !m.probs?.length) return null;
    const th = this.theme();
    const L = m.probs.length, H = m.heads, T = m.T, S = m.S, first = m.firstLayer ?? 0;
    const labelW = measureText(`${this.t('attn.layer')} ${first + L - 1}`, 11, { family: th.font }) + 14, headH = 30, gap = 10;
    const maxThumb = Number(this.getAttribute('max-thumb') ?? 150);
    const thumb = Math.max(24, Math.min(maxThumb, (width - labelW - gap * (H - 1) - EDGE) / H));
    const cellW = thumb / S, cellH = thumb / T;
    const items = [];
    this._geom = { labelW, headH, gap, thumb, cellW, cellH, L, H, T, S };
    // Narrow thumbnails (a model with many heads) are labelled by number alone.
    const wide = thumb + gap >= measureText(`${this.t('attn.head')} ${H - 1}`, 11, { family: th.font }) + 4;
    for (let h = 0; h < H; ++h) {
      const x = labelW + h * (thumb + gap);
      items.push({ type: 'rect', x, y: 2, w: thumb, h: 5, r: 2, fill: headColor(h) });
      items.push({ type: 'text', x: x + thumb / 2, y: 16, text: wide ? `${this.t('attn.head')} ${h}` : String(h), fill: th.muted, size: 11, anchor: 'middle' });
    }
    const hl = this._highlight;
    for (let l = 0; l < L; ++l) {
      const y = headH + l * (thumb + gap);
      items.push({ type: 'text', x: labelW - 8, y: y + thumb / 2, text: `${this.t('attn.layer')} ${first + l}`, fill: th.muted, size: 11, anchor: 'end' });
      for (let h = 0; h < H; ++h) {
        const x = labelW + h * (thumb + gap);
        const rgba = new Uint8ClampedArray(T * S * 4);
        const probs = m.probs[l], masked = m.masked?.[l];
        const off = h * T * S;
        for (let i = 0; i < T * S; ++i) {
          if (masked && masked[off + i] === -Infinity) {
            rgba.set([...rgbOf(th.hatch), 255], i * 4);
            continue;
          }
          rgba.set(colorAt('sequential', probs[off + i]), i * 4);
          rgba[i * 4 + 3] = 255;
        }
        items.push({ type: 'cells', x, y, cw: cellW, ch: cellH, rows: T, cols: S, rgba });
        if (hl && hl.side === (m.rowSide ?? 'enc') && hl.index < T) items.push({ type: 'rect', x, y: y + hl.index * cellH, w: thumb, h: cellH, stroke: th.accent, lw: 1.5, fill: null });
        if (hl && hl.side === (m.colSide ?? 'enc') && hl.index < S) items.push({ type: 'rect', x: x + hl.index * cellW, y, w: cellW, h: thumb, stroke: th.accent, lw: 1.5, fill: null });
        const sel = this._selected?.layer === first + l && this._selected?.head === h;
        items.push({ type: 'rect', x: x - (sel ? 2.5 : 0.5), y: y - (sel ? 2.5 : 0.5), w: thumb + (sel ? 5 : 1), h: thumb + (sel ? 5 : 1), r: sel ? 3 : 1, stroke: sel ? headColor(h) : th.rule, lw: sel ? 3 : 1, fill: null });
      }
    }
    return { width: labelW + H * thumb + (H - 1) * gap + EDGE, height: headH + L * thumb + (L - 1) * gap + 6, items, font: th.font, monoFont: th.mono };
  }

  _at(x, y) {
    const g = this._geom;
    if (!g) return null;
    const h = Math.floor((x - g.labelW) / (g.thumb + g.gap)), l = Math.floor((y - g.headH) / (g.thumb + g.gap));
    if (h < 0 || h >= g.H || l < 0 || l >= g.L) return null;
    const lx = x - g.labelW - h * (g.thumb + g.gap), ly = y - g.headH - l * (g.thumb + g.gap);
    if (lx > g.thumb || ly > g.thumb) return null;
    return { l, h, r: Math.min(g.T - 1, Math.floor(ly / g.cellH)), c: Math.min(g.S - 1, Math.floor(lx / g.cellW)) };
  }

  hitTest(x, y) {
    const a = this._at(x, y);
    if (!a) return null;
    const m = this._maps;
    const i = a.h * m.T * m.S + a.r * m.S + a.c;
    const masked = m.masked?.[a.l]?.[i] === -Infinity;
    const tip = `${this.t('attn.layer')} ${(m.firstLayer ?? 0) + a.l} · ${this.t('attn.head')} ${a.h}\n${m.rowTokens?.[a.r] ?? a.r} → ${m.colTokens?.[a.c] ?? a.c}: ${masked ? `0 (${this.t('heatmap.masked')})` : fmt(m.probs[a.l][i], 3)}`;
    return { key: [a.l, a.h, a.r, a.c], tip, token: { side: m.rowSide ?? 'enc', index: a.r } };
  }

  onClick(p) {
    const a = this._at(p.x, p.y);
    if (a) this._select((this._maps.firstLayer ?? 0) + a.l, a.h);
  }

  _select(layer, head) {
    this.selected = { layer, head };
    this.dispatchEvent(new CustomEvent('tp-select', { bubbles: true, composed: true, detail: { layer, head } }));
  }

  onKey(e) {
    const m = this._maps;
    if (!m) return;
    const { layer, head } = this._selected ?? { layer: 0, head: 0 };
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    const d = moves[e.key];
    if (!d) return;
    e.preventDefault();
    const first = m.firstLayer ?? 0;
    this._select(Math.min(first + m.probs.length - 1, Math.max(first, layer + d[0])), Math.min(m.heads - 1, Math.max(0, head + d[1])));
  }

  describe() {
    const m = this._maps;
    if (!m) return '';
    return this.t('attn.gridDescribe', { layers: m.probs.length, heads: m.heads, layer: this._selected?.layer ?? 0, head: this._selected?.head ?? 0 });
  }
}

defineElement('tp-attention-grid', TpAttentionGrid);
