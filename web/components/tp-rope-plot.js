// <tp-rope-plot> — how RoPE turns a query: one 2-D pair of a head vector drawn as an arrow at
// positions 0, 1, 2, ... The fastest pair (i = 0) turns by 1 radian per position, the slowest
// by base^(-2i/dh); the arrow's length never changes, only its angle — which is why the dot
// product of a rotated query and key depends only on how far apart they are.
//
//   el.vector = Float32Array(dh)  (an un-rotated query or key head vector);
//   el.table = tp.positionalTable({ kind: 'rope', maxLen, dim: dh })  (the core's cos/sin);
// Attributes: positions (default 8, at most the table's), label. Pairs shown: 0, 1 and the last.
import { VizElement } from './shared/viz-element.js';
import { colorAt, cssColor, ROLE_COLORS } from './shared/colormap.js';
import { rotate, angleStep } from './shared/rope.js';
import { fmt } from './shared/format.js';
import { defineElement } from '../ui/element.js';

export class TpRopePlot extends VizElement {
  static observedAttributes = ['label', 'positions'];
  static labels = { ...VizElement.labels, 'rope.pair': 'pair {i}: θ = {theta} rad/pos', 'rope.describe': 'RoPE rotation of a query vector, pairs {pairs}' };

  constructor() {
    super();
    this._vector = null;
    this._rope = null;
  }

  get vector() {
    return this._vector;
  }
  set vector(v) {
    this._vector = v;
    this.dataChanged();
  }
  get table() {
    return this._rope;
  }
  set table(t) {
    this._rope = t;
    this.dataChanged();
  }

  _pairs() {
    const dh = this._vector?.length ?? 0;
    const last = Math.max(0, Math.floor(dh / 2) - 1);
    return last > 0 ? [0, Math.min(1, last), last].filter((v, i, a) => a.indexOf(v) === i) : [0];
  }

  layout(width) {
    const v = this._vector, table = this._rope;
    if (!v || v.length < 2 || !table) return null;
    const th = this.theme();
    const P = Math.min(table.shape[0], Number(this.getAttribute('positions') ?? 8));
    const rotated = Array.from({ length: P }, (_, p) => rotate(v, table, p));
    const pairs = this._pairs().filter((i) => i < table.shape[1]);
    const n = pairs.length;
    const cellW = Math.min(220, (width - 8) / n);
    const R = Math.max(30, cellW / 2 - 22);
    const items = [];
    this._info = [];
    pairs.forEach((i, k) => {
      const cx = k * cellW + cellW / 2, cy = R + 18;
      const a = v[2 * i], b = v[2 * i + 1];
      const len = Math.hypot(a, b) || 1;
      items.push({ type: 'circle', cx, cy, r: R, stroke: th.rule, lw: 1 });
      items.push({ type: 'line', x1: cx - R - 4, y1: cy, x2: cx + R + 4, y2: cy, stroke: th.rule });
      items.push({ type: 'line', x1: cx, y1: cy - R - 4, x2: cx, y2: cy + R + 4, stroke: th.rule });
      const angle = (p) => Math.atan2(rotated[p][2 * i + 1], rotated[p][2 * i]);
      for (let p = P - 1; p >= 0; --p) {
        const ang = angle(p);
        const x = cx + R * Math.cos(ang), y = cy - R * Math.sin(ang);
        const col = p === 0 ? ROLE_COLORS.q : cssColor(colorAt('sequential', 0.15 + (0.75 * p) / Math.max(1, P - 1)));
        items.push({ type: 'line', x1: cx, y1: cy, x2: x, y2: y, stroke: col, lw: p === 0 ? 2.5 : 1.6 });
        items.push({ type: 'circle', cx: x, cy: y, r: p === 0 ? 4 : 3, fill: col });
      }
      // Position labels, from 0 up, only where arrows stand apart (a slow pair's nearly coincide).
      const labelled = [];
      for (let p = 0; p < P; ++p) {
        const ang = angle(p);
        if (labelled.some((l) => Math.abs(Math.atan2(Math.sin(ang - l), Math.cos(ang - l))) < 0.25)) continue;
        labelled.push(ang);
        items.push({ type: 'text', x: cx + (R + 11) * Math.cos(ang), y: cy - (R + 11) * Math.sin(ang), text: String(p), fill: th.muted, size: 9.5, anchor: 'middle' });
      }
      const theta = angleStep(table, i);
      items.push({ type: 'text', x: cx, y: cy + R + 30, text: this.t('rope.pair', { i, theta: fmt(theta, 3) }), fill: th.fg, size: 11, anchor: 'middle' });
      items.push({ type: 'text', x: cx, y: cy + R + 45, text: `|v| = ${fmt(len, 3)}`, fill: th.muted, size: 10.5, anchor: 'middle' });
      this._info.push({ i, theta });
    });
    return { width: cellW * n, height: 2 * R + 70, items, font: th.font, monoFont: th.mono };
  }

  describe() {
    return this.t('rope.describe', { pairs: (this._info ?? []).map((p) => `${p.i}: ${fmt(p.theta, 3)}`).join(', ') });
  }
}

defineElement('tp-rope-plot', TpRopePlot);
