// <tp-line-chart> — lines over a shared x axis: the training and validation loss curves, the
// RoPE "score depends only on distance" curves. Nice ticks, optional log y, a legend (wrapped
// between entries, and a long name between its words: never cut at the edge), a hover
// crosshair that reads every series at that x, and PNG/SVG export. Long series are reduced to
// a min/max pair per pixel column, so 10,000 points draw as fast as 500.
//
//   el.series = [{ name: 'train', color: '#0072B2', points: [[x, y], ...], width?, dash?, dots?, opacity? }];
// Attributes: label, log-y, x-label, y-label, height (px, default 220), y-min, y-max.
import { VizElement } from './shared/viz-element.js';
import { fmt } from './shared/format.js';
import { measureText } from './shared/scene.js';
import { legendLayout } from './shared/legend.js';
import { defineElement } from '../ui/element.js';

function niceTicks(lo, hi, count = 5) {
  if (!(hi > lo)) return [lo];
  const step0 = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(step0));
  const step = [1, 2, 2.5, 5, 10].map((m) => m * mag).find((s) => s >= step0) ?? 10 * mag;
  const out = [];
  for (let v = Math.ceil(lo / step) * step; v <= hi + step * 1e-9; v += step) out.push(Math.abs(v) < step * 1e-9 ? 0 : v);
  return out;
}

export class TpLineChart extends VizElement {
  static observedAttributes = ['label', 'log-y', 'x-label', 'y-label', 'height', 'y-min', 'y-max'];
  static labels = { ...VizElement.labels, 'chart.empty': 'No data yet: press Train.', 'chart.points': 'points', 'chart.last': 'last' };

  constructor() {
    super();
    this._series = [];
  }

  get series() {
    return this._series;
  }
  set series(s) {
    this._series = s ?? [];
    this.dataChanged();
  }

  layout(width) {
    const th = this.theme();
    const H0 = Number(this.getAttribute('height') ?? 220);
    const log = this.hasAttribute('log-y');
    const series = this._series.filter((s) => s.points?.length);
    const items = [];
    let xlo = Infinity, xhi = -Infinity, ylo = Infinity, yhi = -Infinity;
    for (const s of series) {
      for (const [x, y] of s.points) {
        if (!Number.isFinite(y) || (log && y <= 0)) continue;
        if (x < xlo) xlo = x;
        if (x > xhi) xhi = x;
        if (y < ylo) ylo = y;
        if (y > yhi) yhi = y;
      }
    }
    const legend = legendLayout(this._series.filter((s) => s.points?.length && !s.noLegend), width - 16, (text) => measureText(text, 11, { family: th.font }));
    this._legend = legend;
    const legendH = legend.length ? legend.at(-1).y + 16 * (legend.at(-1).lines.length - 1) + 11 : 4;
    if (!Number.isFinite(xlo)) {
      items.push({ type: 'text', x: width / 2, y: H0 / 2, text: this.getAttribute('empty') ?? this.t('chart.empty'), fill: th.muted, size: 12, anchor: 'middle' });
      return { width, height: H0, items, font: th.font, monoFont: th.mono };
    }
    if (this.getAttribute('y-min') !== null) ylo = Number(this.getAttribute('y-min'));
    if (this.getAttribute('y-max') !== null) yhi = Number(this.getAttribute('y-max'));
    if (xhi === xlo) xhi = xlo + 1;
    if (yhi === ylo) {
      yhi += Math.abs(yhi) * 0.1 || 1;
      ylo -= Math.abs(ylo) * 0.1 || 1;
    }
    const fy = log ? (v) => Math.log10(v) : (v) => v;
    let a = fy(ylo), b = fy(yhi);
    if (!log) {
      const pad = (b - a) * 0.06;
      a -= ylo >= 0 && a - pad < 0 ? a : pad;
      b += pad;
    }
    const yTicks = log ? logTicks(ylo, yhi) : niceTicks(a, b, 4);
    const tickText = (v) => (log ? fmt(v, 1) : fmt(v, 3));
    const tickW = Math.max(...yTicks.map((v) => measureText(tickText(v), 10, { family: th.font })));
    const left = tickW + 12 + (this.getAttribute('y-label') ? 14 : 0), right = 12, top = legendH + 6, bottom = 30 + (this.getAttribute('x-label') ? 12 : 0);
    const H = H0 + Math.max(0, legendH - 20);  // a wrapped legend adds its rows
    const pw = Math.max(40, width - left - right), ph = Math.max(40, H - top - bottom);
    const sx = (x) => left + ((x - xlo) / (xhi - xlo)) * pw;
    const sy = (y) => top + ph - ((fy(y) - a) / (b - a)) * ph;
    this._geom = { left, top, pw, ph, xlo, xhi, sx, sy };
    for (const v of yTicks) {
      const yy = sy(v);
      if (yy < top - 1 || yy > top + ph + 1) continue;
      items.push({ type: 'line', x1: left, y1: yy, x2: left + pw, y2: yy, stroke: th.rule, lw: 1 });
      items.push({ type: 'text', x: left - 6, y: yy, text: tickText(v), fill: th.muted, size: 10, anchor: 'end' });
    }
    for (const v of niceTicks(xlo, xhi, Math.max(2, Math.floor(pw / 80)))) {
      const xx = sx(v);
      items.push({ type: 'line', x1: xx, y1: top + ph, x2: xx, y2: top + ph + 4, stroke: th.muted });
      items.push({ type: 'text', x: xx, y: top + ph + 14, text: fmt(v, 4), fill: th.muted, size: 10, anchor: 'middle' });
    }
    items.push({ type: 'line', x1: left, y1: top + ph, x2: left + pw, y2: top + ph, stroke: th.muted });
    if (this.getAttribute('x-label')) items.push({ type: 'text', x: left + pw / 2, y: H - 8, text: this.getAttribute('x-label'), fill: th.muted, size: 11, anchor: 'middle' });
    if (this.getAttribute('y-label')) items.push({ type: 'text', x: 8, y: top + ph / 2, text: this.getAttribute('y-label'), fill: th.muted, size: 11, anchor: 'middle', rotate: -90 });
    // Series.
    for (const s of series) {
      const pts = reduce(s.points, sx, sy, log);
      if (s.dots) {
        for (let i = 0; i < pts.length; i += 2) items.push({ type: 'circle', cx: pts[i], cy: pts[i + 1], r: 2.6, fill: s.color, opacity: s.opacity ?? 1 });
      }
      if (!s.dotsOnly) items.push({ type: 'poly', points: pts, stroke: s.color, lw: s.width ?? 1.8, dash: s.dash, opacity: s.opacity ?? 1 });
    }
    // Legend.
    for (const { s, x, y, lines } of legend) {
      const lx = 8 + x;
      items.push({ type: 'line', x1: lx, y1: y, x2: lx + 16, y2: y, stroke: s.color, lw: 2.5, dash: s.dash });
      lines.forEach((line, i) => items.push({ type: 'text', x: lx + 21, y: y + 16 * i, text: line, fill: th.fg, size: 11 }));
    }
    // Hover crosshair.
    if (this.hover?.x !== undefined) {
      const xx = sx(this.hover.x);
      items.push({ type: 'line', x1: xx, y1: top, x2: xx, y2: top + ph, stroke: th.muted, dash: [3, 3] });
      for (const p of this.hover.points) items.push({ type: 'circle', cx: xx, cy: sy(p.y), r: 3.5, fill: th.bg, stroke: p.color, lw: 2 });
    }
    return { width, height: H, items, font: th.font, monoFont: th.mono };
  }

  hitTest(x) {
    const g = this._geom;
    if (!g || x < g.left || x > g.left + g.pw) return null;
    const xv = g.xlo + ((x - g.left) / g.pw) * (g.xhi - g.xlo);
    const points = [];
    let at = null;
    for (const s of this._series) {
      if (!s.points?.length) continue;
      let best = null;
      for (const p of s.points) if (best === null || Math.abs(p[0] - xv) < Math.abs(best[0] - xv)) best = p;
      if (best && Number.isFinite(best[1])) {
        points.push({ name: s.name, y: best[1], color: s.color });
        at ??= best[0];
      }
    }
    if (!points.length) return null;
    return { key: at, x: at, points, tip: `${this.getAttribute('x-label') ?? 'x'} ${fmt(at, 5)}\n${points.map((p) => `${p.name}: ${fmt(p.y, 4)}`).join('\n')}` };
  }

  // Where the drawn legend's entries are, in the canvas's CSS pixels: [{ name, lines, left,
  // top, right, bottom }] (swatch and text), and the plot's top, which they stay above.
  legendBoxes() {
    if (!this.scene) this.render();
    const th = this.theme();
    const entries = (this._legend ?? []).map(({ s, x, y, lines, width }) => ({ name: s.name, lines, left: 8 + x, top: y - 7, right: 8 + x + width,
      bottom: y + 16 * (lines.length - 1) + 7, widths: lines.map((l) => measureText(l, 11, { family: th.font })) }));
    return { entries, plotTop: this._geom?.top ?? null, width: this.scene?.width ?? 0 };
  }

  describe() {
    const parts = this._series.filter((s) => s.points?.length).map((s) => {
      const last = s.points[s.points.length - 1];
      return `${s.name}: ${s.points.length} ${this.t('chart.points')}, ${this.t('chart.last')} ${fmt(last[1], 4)} @ ${fmt(last[0], 5)}`;
    });
    return `${this.getAttribute('label') ?? ''}. ${parts.join('; ')}`;
  }

  tableData() {
    const rows = [];
    for (const s of this._series) {
      const pts = s.points ?? [];
      const every = Math.max(1, Math.ceil(pts.length / 25));
      for (let i = 0; i < pts.length; i += every) rows.push([s.name, fmt(pts[i][0], 5), fmt(pts[i][1], 4)]);
    }
    return { head: ['', this.getAttribute('x-label') ?? 'x', this.getAttribute('y-label') ?? 'y'], rows };
  }
}

function logTicks(lo, hi) {
  const out = [];
  for (let e = Math.floor(Math.log10(lo)); e <= Math.ceil(Math.log10(hi)); ++e) {
    for (const m of [1, 3]) {
      const v = m * 10 ** e;
      if (v >= lo * 0.999 && v <= hi * 1.001) out.push(v);
    }
  }
  return out.length >= 2 ? out : [lo, hi];
}

// Screen points, at most a min/max pair per pixel column.
function reduce(points, sx, sy, log) {
  const out = [];
  const n = points.length;
  if (n < 800) {
    for (const [x, y] of points) if (Number.isFinite(y) && (!log || y > 0)) out.push(sx(x), sy(y));
    return out;
  }
  let col = null, lo = null, hi = null;
  const flush = () => {
    if (col === null) return;
    out.push(col, sy(lo));
    if (hi !== lo) out.push(col, sy(hi));
  };
  for (const [x, y] of points) {
    if (!Number.isFinite(y) || (log && y <= 0)) continue;
    const c = Math.round(sx(x));
    if (c !== col) {
      flush();
      col = c;
      lo = hi = y;
    } else {
      if (y < lo) lo = y;
      if (y > hi) hi = y;
    }
  }
  flush();
  return out;
}

defineElement('tp-line-chart', TpLineChart);
