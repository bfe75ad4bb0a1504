// <tp-walkthrough-view> — a step-by-step reader for one forward pass: each step has a title, a short
// explanation, its formula (MathML), the shapes involved and the real matrices as heatmaps with
// their numbers. Previous / next buttons, a jump list, ← → keys, and a progress bar.
//
//   el.steps = [{ id, group, title, text, math?: a formula (ui/mathml.js), shapes?: ['Q: 3 × 6'],
//                 matrices?: [{ label, matrix, colormap?, min?, max?, accent?, markZeros?, marks?,
//                               rowSide?, colSide?, op? ('+', '×', '=', '→' shown before it) }] }];
//   el.step = 0;   // fires `tp-step` { index, id } on change
//   el.labels = { 'wt.next': '다음', ... };   // its words (English by default), passed on to its heatmaps
// Every text is set as text: a step's formula is data that mathNode() builds with text nodes, so
// a token of someone else's tokenizer in it, a label or a shape is shown as the characters it is.
import { Labelled } from './shared/labelled.js';
import { mathNode } from '../ui/mathml.js';
import { THEME_CSS } from '../ui/theme.js';
import { adoptStyles } from '../ui/sheets.js';
import './tp-heatmap.js';
import { ElementBase, defineElement } from '../ui/element.js';

const CSS = `
  :host { display: block; font: 14px/1.55 var(--_font); color: var(--_fg); }
  .nav { display: flex; flex-wrap: wrap; align-items: center; gap: 8px; }
  .count { font: 600 12px/1 var(--_font); color: var(--_muted); font-variant-numeric: tabular-nums; min-width: 64px; }
  button, select { font: 500 13px/1 var(--_font); color: var(--_fg); background: var(--_panel); border: 1px solid var(--_rule);
    border-radius: 8px; padding: 8px 12px; cursor: pointer; }
  button.primary { background: var(--_accent); color: var(--_accent-fg); border-color: var(--_accent); }
  button:disabled { opacity: .45; cursor: default; }
  select { max-width: min(340px, 100%); padding: 7px 8px; }
  button:focus-visible, select:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
  .progress { height: 4px; background: var(--_rule); border-radius: 2px; margin: 10px 0 14px; overflow: hidden; }
  .progress > div { height: 100%; background: var(--_accent); transition: width .2s; }
  .group { display: inline-block; font: 700 10.5px/1 var(--_font); letter-spacing: .06em; text-transform: uppercase;
    color: var(--_muted); margin-bottom: 4px; }
  h3 { margin: 0 0 6px; font-size: 19px; line-height: 1.3; }
  .text { margin: 0 0 10px; max-width: 75ch; white-space: pre-line; }
  .math { overflow-x: auto; padding: 10px 14px; background: var(--_panel); border-radius: 10px; margin: 8px 0; font-size: 17px; }
  .math math { font-size: 1.1em; }
  .shapes { display: flex; flex-wrap: wrap; gap: 6px; margin: 8px 0 12px; padding: 0; list-style: none; }
  .shapes li { font: 12px/1 var(--_mono); border: 1px solid var(--_rule); border-radius: 999px; padding: 5px 9px; color: var(--_muted); }
  .mats { display: flex; flex-wrap: wrap; gap: 10px 14px; align-items: flex-start; }
  .mat { flex: 0 1 var(--w, 320px); min-width: 150px; }
  .op { align-self: center; font: 300 26px/1 var(--_font); color: var(--_muted); padding: 0 2px; }
  :host(:focus-visible) { outline: none; }
`;

export class TpWalkthroughView extends Labelled(ElementBase) {
  static labels = { 'wt.prev': 'Previous', 'wt.next': 'Next', 'wt.count': 'Step {i} of {n}', 'wt.jump': 'Jump to step', 'wt.shapes': 'shapes' };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<div class="nav" part="nav">
        <button type="button" class="prev" data-testid="walkthrough-prev"></button>
        <button type="button" class="next primary" data-testid="walkthrough-next"></button>
        <span class="count" aria-live="polite"></span>
        <select class="jump" data-testid="walkthrough-jump"></select>
      </div>
      <div class="progress" aria-hidden="true"><div></div></div>
      <article aria-live="polite"><span class="group"></span><h3></h3><p class="text"></p><div class="math"></div><ul class="shapes"></ul><div class="mats"></div></article>`;
    adoptStyles(root, THEME_CSS, CSS);
    this._steps = [];
    this._step = 0;
    root.querySelector('.prev').addEventListener('click', () => this.go(this._step - 1));
    root.querySelector('.next').addEventListener('click', () => this.go(this._step + 1));
    root.querySelector('.jump').addEventListener('change', (e) => this.go(Number(e.target.value)));
    this.addEventListener('keydown', (e) => {
      if (e.composedPath()[0]?.tagName === 'SELECT') return;
      if (e.key === 'ArrowRight' && !e.composedPath()[0]?.closest?.('tp-heatmap')) this.go(this._step + 1);
      if (e.key === 'ArrowLeft' && !e.composedPath()[0]?.closest?.('tp-heatmap')) this.go(this._step - 1);
    });
  }

  connectedCallback() {
    this._render();
  }

  relabel() {
    this._render();
  }

  get steps() {
    return this._steps;
  }
  set steps(list) {
    this._steps = list ?? [];
    this._step = Math.min(this._step, Math.max(0, this._steps.length - 1));
    this._render();
  }
  get step() {
    return this._step;
  }
  set step(i) {
    this.go(i, false);
  }

  go(i, notify = true) {
    const n = this._steps.length;
    if (!n) return;
    const next = Math.max(0, Math.min(n - 1, i));
    if (next === this._step && this._rendered) return;
    this._step = next;
    this._render();
    if (notify) this.dispatchEvent(new CustomEvent('tp-step', { bubbles: true, composed: true, detail: { index: next, id: this._steps[next].id } }));
  }

  _render() {
    const root = this.shadowRoot;
    const n = this._steps.length, s = this._steps[this._step];
    const t = (k, v) => this.t(k, v);
    root.querySelector('.prev').textContent = `← ${t('wt.prev')}`;
    root.querySelector('.next').textContent = `${t('wt.next')} →`;
    root.querySelector('.prev').disabled = this._step <= 0;
    root.querySelector('.next').disabled = this._step >= n - 1;
    root.querySelector('.count').textContent = n ? t('wt.count', { i: this._step + 1, n }) : '';
    const jump = root.querySelector('.jump');
    jump.setAttribute('aria-label', t('wt.jump'));
    jump.replaceChildren(...this._steps.map((st, i) => {
      const o = document.createElement('option');
      o.value = String(i);
      o.textContent = `${i + 1}. ${st.title}`;
      return o;
    }));
    jump.value = String(this._step);
    root.querySelector('.progress > div').style.width = n ? `${((this._step + 1) / n) * 100}%` : '0';
    if (!s) return;
    this._rendered = true;
    root.querySelector('.group').textContent = s.group ?? '';
    root.querySelector('h3').textContent = s.title;
    root.querySelector('.text').textContent = s.text ?? '';
    const math = root.querySelector('.math');
    math.replaceChildren(...(s.math ? [mathNode(s.math)] : []));
    math.hidden = !s.math;
    const shapes = root.querySelector('.shapes');
    shapes.replaceChildren(...(s.shapes ?? []).map((x) => {
      const li = document.createElement('li');
      li.textContent = x;
      return li;
    }));
    shapes.setAttribute('aria-label', t('wt.shapes'));
    const mats = root.querySelector('.mats');
    const kids = [];
    for (const m of s.matrices ?? []) {
      if (m.op) {
        const op = document.createElement('span');
        op.className = 'op';
        op.setAttribute('aria-hidden', 'true');
        op.textContent = m.op;
        kids.push(op);
      }
      const wrap = document.createElement('div');
      wrap.className = 'mat';
      wrap.style.setProperty('--w', `${Math.min(720, m.matrix.cols * 46 + 130)}px`);
      const hm = document.createElement('tp-heatmap');
      hm.labels = this._labels;
      hm.setAttribute('label', m.label);
      hm.setAttribute('values', '');
      hm.setAttribute('colormap', m.colormap ?? 'auto');
      if (m.min !== undefined) hm.setAttribute('min', String(m.min));
      if (m.max !== undefined) hm.setAttribute('max', String(m.max));
      if (m.accent) hm.setAttribute('accent', m.accent);
      if (m.markZeros) hm.setAttribute('mark-zeros', '');
      if (m.rowSide) hm.setAttribute('row-side', m.rowSide);
      if (m.colSide) hm.setAttribute('col-side', m.colSide);
      hm.setAttribute('max-cell', String(m.maxCell ?? 46));
      hm.matrix = m.matrix;
      if (m.marks) hm.marks = m.marks;
      wrap.appendChild(hm);
      kids.push(wrap);
    }
    mats.replaceChildren(...kids);
  }
}

defineElement('tp-walkthrough-view', TpWalkthroughView);
