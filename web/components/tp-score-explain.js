// <tp-score-explain> — how one attention weight was computed, with the model's own numbers: the
// query row q_i and key row k_j of one head side by side, their products per dimension, the sum
// q_i · k_j, ÷ √d_k, the mask term (0, −∞ where attending is not allowed, or ALiBi's distance
// penalty: read from the trace as masked − scaled), the pre-softmax score, and the softmax over
// its row, the chosen column marked. The sum is recomputed here from q and k; the trace's score
// is shown beside it, so the reader sees the product is the one the model used.
//
//   el.cell = { head, row, col, rowToken, colToken, q: Float32Array(dk), k: Float32Array(dk),
//               scaled, masked, rowMasked: Float32Array(S), rowProbs: Float32Array(S), colTokens };
//   el.cell = null;  // the hint instead
// Attributes: label. data-* on the element carry the numbers (data-total, data-dk, data-mask,
// data-score) for tools and tests.
import { THEME_CSS } from '../ui/theme.js';
import { adoptStyles } from '../ui/sheets.js';
import { Labelled } from './shared/labelled.js';
import { fmt } from './shared/format.js';
import { ElementBase, defineElement } from '../ui/element.js';

const CSS = `
  :host { display: block; font: 13px/1.45 var(--_font); color: var(--_fg); }
  .hint { color: var(--_muted); margin: 0; }
  h4 { margin: 0 0 4px; font-size: 13px; }
  table { border-collapse: collapse; font: 12px/1.3 var(--_mono); font-variant-numeric: tabular-nums; }
  th, td { padding: 1px 8px 1px 0; text-align: right; }
  th { color: var(--_muted); font-weight: 500; }
  th[scope=row] { text-align: left; }
  .wrap { display: flex; flex-wrap: wrap; gap: 6px 24px; align-items: flex-start; }
  .sums td, .sums th { padding-top: 3px; }
  .sums tr.total td, .sums tr.total th { border-top: 1px solid var(--_rule); font-weight: 650; }
  tr.chosen td, tr.chosen th { color: var(--_accent); font-weight: 650; }
  .bar { display: inline-block; height: 8px; background: var(--_accent); border-radius: 2px; vertical-align: middle; }
  .scroll { max-height: 260px; overflow-y: auto; }
`;

export class TpScoreExplain extends Labelled(ElementBase) {
  static labels = {
    'explain.hint': 'Hover a cell of the heatmap (or move to it with the arrow keys) to see how its weight was computed.',
    'explain.title': 'Head {head}: how much "{row}" (query {i}) attends to "{col}" (key {j})',
    'explain.dim': 'dim', 'explain.q': 'q_i', 'explain.k': 'k_j', 'explain.product': 'q × k',
    'explain.sum': 'q_i · k_j (sum)', 'explain.scale': '÷ √d_k = ÷ {root}', 'explain.mask': '+ mask',
    'explain.maskOff': '−∞: not allowed (mask)', 'explain.score': '= score', 'explain.traced': 'the model\'s score',
    'explain.softmax': 'softmax over the row', 'explain.key': 'key', 'explain.scoreCol': 'score', 'explain.p': 'weight',
  };

  constructor() {
    super();
    this.attachShadow({ mode: 'open' });
    adoptStyles(this.shadowRoot, THEME_CSS, CSS);
    this._cell = null;
    this.render();
  }

  get cell() {
    return this._cell;
  }
  set cell(c) {
    this._cell = c;
    this.render();
  }

  relabel() {
    this.render();
  }

  render() {
    const root = this.shadowRoot;
    const c = this._cell;
    for (const k of ['total', 'dk', 'mask', 'score', 'head', 'row', 'col']) delete this.dataset[k];
    if (!c) {
      root.replaceChildren(el('p', { class: 'hint' }, this.t('explain.hint')));
      return;
    }
    const dk = c.q.length;
    let total = 0;
    const rows = [];
    for (let d = 0; d < dk; ++d) {
      const p = c.q[d] * c.k[d];
      total += p;
      rows.push(el('tr', {}, el('th', { scope: 'row' }, String(d)), el('td', {}, fmt(c.q[d], 3)), el('td', {}, fmt(c.k[d], 3)), el('td', {}, fmt(p, 3))));
    }
    const root2 = Math.sqrt(dk);
    const mask = c.masked - c.scaled;  // 0, −∞, or ALiBi's penalty
    const computed = total / root2 + mask;
    Object.assign(this.dataset, { total: String(total), dk: String(dk), mask: String(mask), score: String(c.masked), head: String(c.head), row: String(c.row), col: String(c.col) });
    const products = el('table', {},
      el('thead', {}, el('tr', {}, ...['explain.dim', 'explain.q', 'explain.k', 'explain.product'].map((k) => el('th', { scope: 'col' }, this.t(k))))),
      el('tbody', {}, ...rows));
    const line = (key, value, cls) => el('tr', cls ? { class: cls } : {}, el('th', { scope: 'row' }, key), el('td', {}, value));
    const sums = el('table', { class: 'sums' }, el('tbody', {},
      line(this.t('explain.sum'), fmt(total, 5)),
      line(this.t('explain.scale', { root: fmt(root2, 4) }), fmt(total / root2, 5)),
      line(this.t('explain.mask'), mask === -Infinity ? this.t('explain.maskOff') : fmt(mask, 5)),
      line(this.t('explain.score'), fmt(computed, 5), 'total'),
      line(this.t('explain.traced'), fmt(c.masked, 5))));
    // The softmax of the row: exp(s − max) / Σ, the chosen key marked.
    const S = c.rowMasked.length;
    const soft = [];
    for (let j = 0; j < S; ++j) {
      const p = c.rowProbs[j];
      soft.push(el('tr', j === c.col ? { class: 'chosen' } : {}, el('th', { scope: 'row' }, String(c.colTokens?.[j] ?? j)), el('td', {}, fmt(c.rowMasked[j], 4)),
        el('td', {}, fmt(p, 3)), el('td', {}, el('span', { class: 'bar', width: `${Math.round(p * 60)}px` }))));
    }
    const softmax = el('div', {}, el('h4', {}, this.t('explain.softmax')), el('div', { class: 'scroll' }, el('table', {},
      el('thead', {}, el('tr', {}, el('th', { scope: 'col' }, this.t('explain.key')), el('th', { scope: 'col' }, this.t('explain.scoreCol')), el('th', { scope: 'col' }, this.t('explain.p')), el('td', {}))),
      el('tbody', {}, ...soft))));
    root.replaceChildren(el('h4', {}, this.t('explain.title', { head: c.head, row: c.rowToken, col: c.colToken, i: c.row, j: c.col })),
      el('div', { class: 'wrap' }, el('div', { class: 'scroll' }, products), sums, softmax));
  }
}

// A small element builder; `width` is set on the element's style from script (a strict CSP
// forbids style attributes, not the CSSOM).
function el(tag, attrs = {}, ...children) {
  const e = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (k === 'width') e.style.width = v;
    else e.setAttribute(k, v);
  }
  for (const c of children) if (c !== null && c !== undefined) e.append(c);
  return e;
}

defineElement('tp-score-explain', TpScoreExplain);
