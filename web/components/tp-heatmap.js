// <tp-heatmap> — a matrix as coloured cells, with row/column labels, a colour legend, hover
// values, keyboard cursor (arrow keys), masked (−∞) cells hatched, and PNG/SVG export.
//
//   <tp-heatmap label="attention" colormap="sequential" min="0" max="1" values></tp-heatmap>
//   el.matrix = { rows, cols, data: Float32Array(rows*cols), rowLabels?, colLabels?, rowTitle?, colTitle? }
//
// Attributes: colormap = sequential | diverging | auto (default auto: diverging when the data has
// both signs); min, max (the colour domain; default from the data); values (print numbers in
// cells that are large enough); max-cell (largest cell in px, default 44); min-cell (default 2);
// row-side, col-side ('enc' | 'dec': rows/columns are tokens of that side, so hovering emits
// tp-hover and a highlight from another view outlines them); mark-zeros (outline exact zeros,
// e.g. what ReLU cut); no-legend; accent (a colour stripe for the matrix's role, e.g. Q).
// Property marks = { rows: [i...], cols: [j...] } outlines chosen rows/columns.
import { VizElement } from './shared/viz-element.js';
import { colorAt, scaleFor, inkOn, cssColor } from './shared/colormap.js';
import { measureText } from './shared/scene.js';
import { fmt, fmt2 } from './shared/format.js';
import { defineElement } from '../ui/element.js';

const ATTRS = ['label', 'colormap', 'min', 'max', 'values', 'max-cell', 'min-cell', 'row-side', 'col-side', 'mark-zeros', 'no-legend', 'accent'];

export class TpHeatmap extends VizElement {
  static observedAttributes = ATTRS;
  static labels = { ...VizElement.labels, 'heatmap.row': 'row', 'heatmap.col': 'column', 'heatmap.masked': 'masked',
    'heatmap.describe': '{label}: {rows} × {cols} matrix, values from {lo} to {hi}.' };

  constructor() {
    super();
    this._matrix = null;
    this._marks = null;
    this.cursor = null;
  }

  get matrix() {
    return this._matrix;
  }
  set matrix(m) {
    this._matrix = m;
    this.dataChanged();
  }
  get marks() {
    return this._marks;
  }
  set marks(m) {
    this._marks = m;
    this.dataChanged();
  }

  _domain() {
    const { data } = this._matrix;
    let lo = Infinity, hi = -Infinity;
    for (let i = 0; i < data.length; ++i) {
      const v = data[i];
      if (!Number.isFinite(v)) continue;
      if (v < lo) lo = v;
      if (v > hi) hi = v;
    }
    if (lo === Infinity) lo = hi = 0;
    const a = this.getAttribute('min'), b = this.getAttribute('max');
    if (a !== null && a !== '') lo = Number(a);
    if (b !== null && b !== '') hi = Number(b);
    let name = this.getAttribute('colormap') ?? 'auto';
    if (name === 'auto') name = lo < 0 && hi > 0 ? 'diverging' : 'sequential';
    return { name, ...scaleFor(name, lo, hi) };
  }

  layout(width) {
    const m = this._matrix;
    if (!m || !m.rows || !m.cols) return null;
    const th = this.theme();
    const { rows, cols, data } = m;
    const items = [];
    const fontSize = 11;
    const rowLabels = m.rowLabels ?? [];
    const colLabels = m.colLabels ?? [];
    const showLegend = !this.hasAttribute('no-legend');
    const maxCell = Number(this.getAttribute('max-cell') ?? 44), minCell = Number(this.getAttribute('min-cell') ?? 2);

    const labelW = rowLabels.length ? Math.min(110, Math.max(...rowLabels.map((l) => measureText(String(l), fontSize, { family: th.font })))) + 8 : 0;
    const rowTitleW = m.rowTitle ? 16 : 0;
    const legendW = showLegend ? 64 : 0;
    const avail = Math.max(20, width - labelW - rowTitleW - legendW - 4);
    const cw = Math.max(minCell, Math.min(maxCell, avail / cols));
    const ch = Math.max(minCell, Math.min(maxCell, cw * (m.aspect ?? 1), rows > 48 ? 520 / rows : maxCell));
    // Column labels: horizontal when they fit, else vertical; thinned when cells are small.
    const every = Math.max(1, Math.ceil(13 / cw));
    const colW = colLabels.length ? Math.max(...colLabels.map((l) => measureText(String(l), fontSize, { family: th.font }))) : 0;
    const vertical = colLabels.length && colW + 4 > cw * every;
    const colLabelH = colLabels.length ? (vertical ? Math.min(90, colW) + 8 : fontSize + 8) : 0;
    const colTitleH = m.colTitle ? 16 : 0;
    const x0 = rowTitleW + labelW, y0 = colTitleH + colLabelH;
    const gridW = cw * cols, gridH = ch * rows;

    const dom = this._domain();
    this._geom = { x0, y0, cw, ch, rows, cols, dom };
    if (m.colTitle) items.push({ type: 'text', x: x0 + gridW / 2, y: 7, text: m.colTitle, fill: th.muted, size: 11, anchor: 'middle' });
    if (m.rowTitle) items.push({ type: 'text', x: 7, y: y0 + gridH / 2, text: m.rowTitle, fill: th.muted, size: 11, anchor: 'middle', rotate: -90 });

    // Cells as one bitmap item; masked cells (−∞) drawn hatched, row by row in runs.
    const rgba = new Uint8ClampedArray(rows * cols * 4);
    for (let i = 0; i < rows * cols; ++i) {
      const v = data[i];
      if (v === -Infinity) continue;
      const c = colorAt(dom.name, dom.t(v));
      rgba.set(c, i * 4);
      rgba[i * 4 + 3] = 255;
    }
    items.push({ type: 'cells', x: x0, y: y0, cw, ch, rows, cols, rgba });
    let anyMasked = false;
    for (let r = 0; r < rows; ++r) {
      let start = -1;
      for (let c = 0; c <= cols; ++c) {
        const masked = c < cols && data[r * cols + c] === -Infinity;
        if (masked && start < 0) start = c;
        if (!masked && start >= 0) {
          items.push({ type: 'hatch', x: x0 + start * cw, y: y0 + r * ch, w: (c - start) * cw, h: ch, fill: th.hatch, stroke: th.hatchLine });
          anyMasked = true;
          start = -1;
        }
      }
    }
    if (this.hasAttribute('mark-zeros') && cw >= 8) {
      for (let i = 0; i < rows * cols; ++i) {
        if (data[i] !== 0) continue;
        const r = Math.floor(i / cols), c = i % cols;
        items.push({ type: 'rect', x: x0 + c * cw + 1.5, y: y0 + r * ch + 1.5, w: cw - 3, h: ch - 3, stroke: th.changed, lw: 1.5, fill: null });
      }
    }
    // Numbers in cells.
    if (this.hasAttribute('values') && cw >= 28 && ch >= 16) {
      const size = Math.min(12, Math.max(9, cw / 4.2));
      let ints = true;
      for (let i = 0; i < data.length && ints; ++i) ints = !Number.isFinite(data[i]) || Number.isInteger(data[i]);
      for (let i = 0; i < rows * cols; ++i) {
        const v = data[i];
        const r = Math.floor(i / cols), c = i % cols;
        const fill = v === -Infinity ? th.fg : inkOn(colorAt(dom.name, dom.t(v)));
        items.push({ type: 'text', x: x0 + (c + 0.5) * cw, y: y0 + (r + 0.5) * ch + 0.5, text: ints && Number.isFinite(v) ? String(v) : fmt2(v), fill, size, anchor: 'middle', mono: true });
      }
    }
    // Labels.
    const hl = this._highlight, rowSide = this.getAttribute('row-side'), colSide = this.getAttribute('col-side');
    const hov = this.hover?.cell ?? this.cursor;
    rowLabels.forEach((l, r) => {
      if (ch < 9 && r % Math.ceil(10 / ch)) return;
      const on = (hl && hl.side === rowSide && hl.index === r) || hov?.r === r;
      items.push({ type: 'text', x: x0 - 5, y: y0 + (r + 0.5) * ch, text: clip(String(l), 16), fill: on ? th.fg : th.muted, weight: on ? 700 : 400, size: fontSize, anchor: 'end' });
    });
    colLabels.forEach((l, c) => {
      if (c % every) return;
      const on = (hl && hl.side === colSide && hl.index === c) || hov?.c === c;
      const x = x0 + (c + 0.5) * cw;
      const it = vertical
        ? { type: 'text', x, y: y0 - 5, text: clip(String(l), 14), rotate: -90, anchor: 'start', size: fontSize }
        : { type: 'text', x, y: y0 - 4 - fontSize / 2, text: String(l), anchor: 'middle', size: fontSize };
      items.push({ ...it, fill: on ? th.fg : th.muted, weight: on ? 700 : 400 });
    });
    // Outlines: marked rows/cols, highlighted token, hovered cell.
    const outline = (x, y, w, h, color, lw = 2) => items.push({ type: 'rect', x, y, w, h, stroke: color, lw, fill: null });
    for (const r of this._marks?.rows ?? []) outline(x0 - 1, y0 + r * ch, gridW + 2, ch, th.fg, 1.5);
    for (const c of this._marks?.cols ?? []) outline(x0 + c * cw, y0 - 1, cw, gridH + 2, th.fg, 1.5);
    if (hl && hl.side === rowSide && hl.index < rows) outline(x0 - 1, y0 + hl.index * ch, gridW + 2, ch, th.accent);
    if (hl && hl.side === colSide && hl.index < cols) outline(x0 + hl.index * cw, y0 - 1, cw, gridH + 2, th.accent);
    if (hov) outline(x0 + hov.c * cw, y0 + hov.r * ch, cw, ch, th.fg, 2);
    if (this.getAttribute('accent')) items.push({ type: 'rect', x: x0, y: y0 + gridH + 3, w: gridW, h: 3, fill: this.getAttribute('accent'), r: 1.5 });

    let height = y0 + gridH + (this.getAttribute('accent') ? 8 : 2);
    if (showLegend) height = Math.max(height, this._legend(items, x0 + gridW + 14, y0, Math.max(60, Math.min(gridH, 160)), dom, th, anyMasked));
    return { width: Math.max(x0 + gridW + legendW + 2, 60), height: height + 2, items, font: th.font, monoFont: th.mono };
  }

  _legend(items, x, y, h, dom, th, masked) {
    const steps = 48, w = 10;
    for (let i = 0; i < steps; ++i) {
      const t = 1 - i / (steps - 1);
      items.push({ type: 'rect', x, y: y + (i * h) / steps, w, h: h / steps + 0.6, fill: cssColor(colorAt(dom.name, t)) });
    }
    items.push({ type: 'rect', x, y, w, h, stroke: th.rule, lw: 1, fill: null });
    const tick = (v, yy) => {
      items.push({ type: 'line', x1: x + w, y1: yy, x2: x + w + 3, y2: yy, stroke: th.muted });
      items.push({ type: 'text', x: x + w + 5, y: yy, text: fmt(v, 2), fill: th.muted, size: 10 });
    };
    tick(dom.hi, y + 1);
    tick(dom.lo, y + h - 1);
    if (dom.name === 'diverging') tick(0, y + h / 2);
    let bottom = y + h;
    if (masked) {
      items.push({ type: 'hatch', x, y: y + h + 8, w, h: 10, fill: th.hatch, stroke: th.hatchLine });
      items.push({ type: 'text', x: x + w + 5, y: y + h + 13, text: '−∞', fill: th.muted, size: 10 });
      bottom += 20;
    }
    return bottom;
  }

  _cellAt(x, y) {
    const g = this._geom;
    if (!g) return null;
    const c = Math.floor((x - g.x0) / g.cw), r = Math.floor((y - g.y0) / g.ch);
    if (c >= 0 && c < g.cols && r >= 0 && r < g.rows) return { r, c };
    // Over a label: the whole row or column.
    if (x < g.x0 && r >= 0 && r < g.rows) return { r, c: -1 };
    if (y < g.y0 && c >= 0 && c < g.cols) return { r: -1, c };
    return null;
  }

  _hit(cell) {
    if (!cell) return null;
    const m = this._matrix, g = this._geom;
    const rowSide = this.getAttribute('row-side'), colSide = this.getAttribute('col-side');
    const rl = (r) => m.rowLabels?.[r] ?? r, cl = (c) => m.colLabels?.[c] ?? c;
    if (cell.c < 0) return { key: ['r', cell.r], tip: String(rl(cell.r)), token: rowSide ? { side: rowSide, index: cell.r } : null };
    if (cell.r < 0) return { key: ['c', cell.c], tip: String(cl(cell.c)), token: colSide ? { side: colSide, index: cell.c } : null };
    const v = m.data[cell.r * m.cols + cell.c];
    const tip = `${m.rowTitle ?? this.t('heatmap.row')} ${rl(cell.r)} · ${m.colTitle ?? this.t('heatmap.col')} ${cl(cell.c)}\n${fmt(v, 4)}${v === -Infinity ? `  (${this.t('heatmap.masked')})` : ''}`;
    const token = rowSide ? { side: rowSide, index: cell.r } : colSide ? { side: colSide, index: cell.c } : null;
    return { key: [cell.r, cell.c], cell, tip, token, x: g.x0 + (cell.c + 1) * g.cw, y: g.y0 + (cell.r + 1) * g.ch };
  }

  hitTest(x, y) {
    return this._hit(this._cellAt(x, y));
  }

  onKey(e) {
    const m = this._matrix;
    if (!m) return;
    const moves = { ArrowLeft: [0, -1], ArrowRight: [0, 1], ArrowUp: [-1, 0], ArrowDown: [1, 0] };
    if (e.key === 'Escape') {
      this.cursor = null;
      this.setHover(null);
      return;
    }
    const d = moves[e.key];
    if (!d) return;
    e.preventDefault();
    const cur = this.cursor ?? { r: 0, c: 0 };
    const next = this.cursor ? { r: Math.min(m.rows - 1, Math.max(0, cur.r + d[0])), c: Math.min(m.cols - 1, Math.max(0, cur.c + d[1])) } : cur;
    this.cursor = next;
    this.setHover(this._hit(next));
  }

  describe() {
    const m = this._matrix;
    if (!m) return '';
    const dom = this._domain();
    return this.t('heatmap.describe', { label: this.getAttribute('label') ?? '', rows: m.rows, cols: m.cols, lo: fmt(dom.lo), hi: fmt(dom.hi) });
  }

  tableData() {
    const m = this._matrix;
    if (!m || m.rows * m.cols > 600) return null;
    const head = ['', ...Array.from({ length: m.cols }, (_, c) => String(m.colLabels?.[c] ?? c))];
    const rows = [];
    for (let r = 0; r < m.rows; ++r) {
      rows.push([String(m.rowLabels?.[r] ?? r), ...Array.from({ length: m.cols }, (_, c) => fmt(m.data[r * m.cols + c], 4))]);
    }
    return { head, rows };
  }
}

function clip(s, n) {
  return s.length > n ? `${s.slice(0, n - 1)}…` : s;
}

defineElement('tp-heatmap', TpHeatmap);
