// <tp-prob-bars> — the top-k candidates of one prediction as horizontal probability bars: the
// model's probability as the bar, the probability it was actually drawn with (after temperature,
// top-k, top-p) as a thin marker line, the chosen token in the accent colour. With
// bars="sample" the other way round: the bars (and numbers) are the drawing probabilities, the
// marker the model's, for a distribution being reshaped by the sampling controls.
//
//   el.items = [{ label: 'fine', p: 0.93, pSample?: 0.97, chosen?: true }, ...];
// Attributes: label, accent (bar colour of the chosen item), bars (model | sample).
import { VizElement } from './shared/viz-element.js';
import { measureText } from './shared/scene.js';
import { fmt } from './shared/format.js';
import { defineElement } from '../ui/element.js';

export class TpProbBars extends VizElement {
  static observedAttributes = ['label', 'accent', 'bars'];
  static labels = { ...VizElement.labels, 'bars.sampled': 'drawn with p =' };

  constructor() {
    super();
    this._items = [];
  }

  get items() {
    return this._items;
  }
  set items(list) {
    this._items = list ?? [];
    this.dataChanged();
  }

  layout(width) {
    const th = this.theme();
    const list = this._items;
    if (!list.length) return null;
    const rowH = 22, size = 12.5;
    const labelW = Math.min(150, Math.max(...list.map((it) => measureText(String(it.label), size, { family: th.font })))) + 10;
    const numW = 52;
    const barMax = Math.max(30, width - labelW - numW - 6);
    const accent = this.getAttribute('accent') ?? th.accent;
    const items = [];
    const sample = this.getAttribute('bars') === 'sample';
    this._rows = list.length;
    this._rowH = rowH;
    list.forEach((it, i) => {
      const y = i * rowH;
      const on = this.hover?.key === i;
      items.push({ type: 'text', x: labelW - 8, y: y + rowH / 2, text: String(it.label), fill: th.fg, size, anchor: 'end', weight: it.chosen ? 700 : 400 });
      items.push({ type: 'rect', x: labelW, y: y + 4, w: barMax, h: rowH - 8, r: 3, fill: th.hatch });
      const bar = sample && it.pSample !== undefined ? it.pSample : it.p, mark = sample ? it.p : it.pSample;
      items.push({ type: 'rect', x: labelW, y: y + 4, w: Math.max(1, barMax * bar), h: rowH - 8, r: 3, fill: it.chosen ? accent : th.muted, opacity: it.chosen ? 1 : on ? 0.8 : 0.55 });
      if (mark !== undefined && Math.abs(mark - bar) > 0.005) {
        const xs = labelW + barMax * mark;
        items.push({ type: 'line', x1: xs, y1: y + 2, x2: xs, y2: y + rowH - 2, stroke: th.fg, lw: 2 });
      }
      items.push({ type: 'text', x: labelW + barMax + 6, y: y + rowH / 2, text: bar < 0.001 ? (bar === 0 ? '0%' : '<0.1%') : `${(bar * 100).toFixed(bar < 0.1 ? 1 : 0)}%`, fill: th.fg, size: 11.5, mono: true });
    });
    return { width, height: list.length * rowH + 2, items, font: th.font, monoFont: th.mono };
  }

  hitTest(x, y) {
    const i = Math.floor(y / (this._rowH ?? 22));
    const it = this._items[i];
    if (!it) return null;
    return { key: i, tip: `${it.label}: p = ${fmt(it.p, 4)}${it.pSample !== undefined ? `\n${this.t('bars.sampled')} ${fmt(it.pSample, 4)}` : ''}` };
  }

  describe() {
    return `${this.getAttribute('label') ?? ''}: ${this._items.map((it) => `${it.label} ${(it.p * 100).toFixed(1)}%`).join(', ')}`;
  }

  tableData() {
    return { head: ['', 'p'], rows: this._items.map((it) => [String(it.label), fmt(it.p, 4)]) };
  }
}

defineElement('tp-prob-bars', TpProbBars);
