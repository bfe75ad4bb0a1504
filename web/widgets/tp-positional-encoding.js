// <tp-positional-encoding> — how a transformer learns where each token is: the table (or the
// rotation, or the bias) as a heatmap, a second view that shows its key property, the formula
// and a short explanation.
//
//   <tp-positional-encoding kind="sinusoidal" d-model="64" length="48"></tp-positional-encoding>
//   <tp-positional-encoding kind="sinusoidal" d-model="6" length="3" values></tp-positional-encoding>
//   <tp-positional-encoding kind="rope" d-model="16" length="12"></tp-positional-encoding>
//
// Attributes: kind (sinusoidal | rope | alibi | learned | none), d-model (sinusoidal: the model
// width; rope: the head size; learned: taken from the model), length (positions), base (10000),
// heads (alibi), model (learned: a checkpoint whose pos_emb.weight to show; default the shipped
// lm-char model), values (numbers in the cells), no-text (no explanation), label.
// Every table comes from the C++ core (tp.positionalTable; a learned one from a checkpoint), so
// the pictures show the numbers a model of that kind uses, not a re-derivation of them.
import { TpWidget } from './shared/widget.js';
import { choice, int, num, flag } from './shared/attrs.js';
import { engine, sharedModel, shippedModel } from './shared/runtime.js';
import { ropeScores } from '../components/shared/rope.js';
import { headColor } from '../components/shared/colormap.js';
import { fmt } from '../components/shared/format.js';
import { mi, mn, mo, row, sub, sup, frac, sqrt, paren, math, mathNode, mspace as mspaceOf } from '../ui/mathml.js';
import '../components/tp-heatmap.js';
import '../components/tp-line-chart.js';
import '../components/tp-rope-plot.js';
import { attributeNames } from './shared/manifest.js';
import { defineElement } from '../ui/element.js';

const KINDS = ['sinusoidal', 'rope', 'alibi', 'learned', 'none'];
const DEFAULTS = { sinusoidal: [64, 48], rope: [16, 12], alibi: [0, 12], learned: [0, 48], none: [0, 0] };

// A fixed, unremarkable vector for the RoPE pictures (the same on every page).
function demoVector(n, salt) {
  const v = new Float32Array(n);
  let s = 12345 + salt;
  for (let i = 0; i < n; ++i) {
    s = (s * 1103515245 + 12345) % 2147483648;
    v[i] = (s / 2147483648) * 2 - 1;
  }
  return v;
}

const labels = (n, prefix = '') => Array.from({ length: n }, (_, i) => `${prefix}${i}`);

export class TpPositionalEncoding extends TpWidget {
  static observedAttributes = attributeNames('tp-positional-encoding');
  static css = `
    .views { display: grid; grid-template-columns: minmax(0, 1.4fr) minmax(0, 1fr); gap: 14px 18px; align-items: start; }
    .views.one { grid-template-columns: minmax(0, 1fr); }
    .views.rope > :first-child { grid-column: 1 / -1; }
    .views.rope { grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); }
    @container pe (max-width: 620px) { .views { grid-template-columns: minmax(0, 1fr); } }
    .frame { container: pe / inline-size; }
    .heads { display: grid; grid-template-columns: repeat(auto-fill, minmax(150px, 1fr)); gap: 12px; }
    :host([no-text]) .prose, :host([no-text]) .math { display: none; }
  `;

  template() {
    return `<div class="head"><span class="title" part="title"></span></div>
      <div class="views" part="views"></div>
      <div class="math" part="formula" hidden></div>
      <div class="prose" part="text"></div>`;
  }

  async update() {
    const kind = choice(this, 'kind', KINDS, 'sinusoidal');
    const [dDefault, lenDefault] = DEFAULTS[kind];
    const d = int(this, 'd-model', { min: 2, max: 512, fallback: dDefault });
    const length = int(this, 'length', { min: 1, max: 512, fallback: lenDefault });
    const base = num(this, 'base', { min: 1, max: 1e9, fallback: 10000, exclusiveMin: true });
    const heads = int(this, 'heads', { min: 1, max: 16, fallback: 4 });
    const values = flag(this, 'values');
    const views = this.$('.views');
    views.className = 'views';
    const formula = this.$('.math');
    formula.hidden = true;
    let title = '';
    const tp = kind === 'learned' || kind === 'none' ? null : await engine();
    if (kind === 'sinusoidal') {
      title = this.t('pe.title.sinusoidal', { length, d });
      // The waves need a few positions to look like waves, even for a three-word table.
      const wave = tp.positionalTable({ kind, maxLen: Math.max(length, 24), dim: d, base });
      this.sinusoidal(views, wave, length, values);
      formula.replaceChildren(mathNode(this.sinFormula()));
      formula.hidden = false;
    } else if (kind === 'rope') {
      if (d % 2) throw new Error(`d-model must be even for rope (it rotates pairs of dimensions) (got "${d}")`);
      title = this.t('pe.title.rope', { d });
      views.className = 'views rope';
      this.rope(views, tp.positionalTable({ kind, maxLen: Math.max(2, Math.min(length, 32)), dim: d, base }));
      formula.replaceChildren(mathNode(this.ropeFormula()));
      formula.hidden = false;
    } else if (kind === 'alibi') {
      title = this.t('pe.title.alibi', { heads });
      this.alibi(views, tp.positionalTable({ kind, maxLen: Math.min(length, 32), heads }), values);
      formula.replaceChildren(mathNode(math(row(sub(mi('s'), mi('h')), paren(mi('t'), mo(','), mi('u'))), mo('='), frac(row(mi('q'), mo('·'), mi('k')), sqrt(sub(mi('d'), mi('k')))),
        mo('−'), sub(mi('m'), mi('h')), row(mo('|'), mi('t'), mo('−'), mi('u'), mo('|')), mo(','), sub(mi('m'), mi('h')), mo('='), sup(mn('2'), row(mo('−'), mn('8'), paren(mi('h'), mo('+'), mn('1')), mo('/'), mi('H'))))));
      formula.hidden = false;
    } else if (kind === 'learned') {
      const url = this.getAttribute('model') ? this.modelUrl() : shippedModel('lm-char');
      const model = await sharedModel(url);
      if (!model.parameters().some((p) => p.name === 'pos_emb.weight')) {
        throw new Error(`${String(url).split('/').pop()} has no learned position table (its pos is "${model.config.pos}")`);
      }
      const p = model.parameter('pos_emb.weight');
      const rows = Math.min(length, p.shape[0]);
      title = this.t('pe.title.learned', { length: rows, d: p.shape[1] });
      views.className = 'views one';
      const hm = this.heat(views, 0, { colormap: 'diverging', label: this.t('pe.learned.from', { file: String(url).split('/').pop() }), maxCell: 18 });
      hm.matrix = { rows, cols: p.shape[1], data: p.data.subarray(0, rows * p.shape[1]), rowLabels: labels(rows), colLabels: labels(p.shape[1]), rowTitle: this.t('pe.position'), colTitle: this.t('pe.dimension') };
    } else {
      title = this.t('pe.title.none');
      views.replaceChildren();
    }
    this.$('.title').textContent = this.getAttribute('label') ?? title;
    const prose = this.$('.prose');
    prose.replaceChildren(...this.t(`pe.text.${kind}`).split('\n').map((para) => Object.assign(document.createElement('p'), { textContent: para })));
  }

  // Reuses the view elements between updates (same kind), so charts do not flicker.
  heat(views, index, { colormap, label, maxCell = 30, values = false, min, max }) {
    let el = views.children[index];
    if (!el || el.localName !== 'tp-heatmap') {
      el = document.createElement('tp-heatmap');
      if (views.children[index]) views.children[index].replaceWith(el);
      else views.appendChild(el);
    }
    el.setAttribute('colormap', colormap);
    el.setAttribute('label', label);
    el.setAttribute('max-cell', String(maxCell));
    el.toggleAttribute('values', values);
    for (const [k, v] of [['min', min], ['max', max]]) if (v === undefined) el.removeAttribute(k); else el.setAttribute(k, String(v));
    return el;
  }

  chart(views, index, attrs) {
    let el = views.children[index];
    if (!el || el.localName !== 'tp-line-chart') {
      el = document.createElement('tp-line-chart');
      if (views.children[index]) views.children[index].replaceWith(el);
      else views.appendChild(el);
    }
    for (const [k, v] of Object.entries(attrs)) el.setAttribute(k, String(v));
    return el;
  }

  trim(views, n) {
    while (views.children.length > n) views.lastElementChild.remove();
  }

  // table: the core's sinusoidal table, at least `length` positions (the heatmap shows those).
  sinusoidal(views, table, length, values) {
    const [positions, d] = table.shape;
    const hm = this.heat(views, 0, { colormap: 'diverging', label: this.t('pe.table'), min: -1, max: 1, values: values || (d <= 8 && length <= 8), maxCell: d <= 8 ? 56 : 22 });
    hm.matrix = { rows: length, cols: d, data: table.data.subarray(0, length * d), rowLabels: labels(length), colLabels: labels(d), rowTitle: this.t('pe.position'), colTitle: this.t('pe.dimension') };
    const dims = [...new Set([0, 1, Math.min(d - 2, 2 * Math.floor(d / 8)), d - 2 >= 0 ? d - 2 : 0].filter((i) => i >= 0 && i < d))];
    const waves = this.chart(views, 1, { label: this.t('pe.waves'), 'x-label': this.t('pe.position'), height: 220, 'y-min': -1.05, 'y-max': 1.05 });
    // A few columns of the table itself: a model has values at whole positions only.
    waves.series = dims.map((j, k) => ({
      name: this.t('pe.dim', { i: j }), color: headColor(k), width: 2, dash: j % 2 ? [5, 3] : undefined, dots: positions <= 24,
      points: Array.from({ length: positions }, (_, t) => [t, table.data[t * d + j]]),
    }));
    this.trim(views, 2);
  }

  sinFormula() {
    const pos = mi('pos'), expo = sup(mn('10000'), frac(row(mn('2'), mi('i')), sub(mi('d'), mi('model'))));
    return math(row(mi('PE'), paren(pos, mo(','), mn('2'), mi('i'))), mo('='), row(mi('sin'), paren(frac(pos, expo))), mspace(),
      row(mi('PE'), paren(pos, mo(','), mn('2'), mi('i'), mo('+'), mn('1'))), mo('='), row(mi('cos'), paren(frac(pos, expo))));
  }

  ropeFormula() {
    const th = sub(mi('θ'), mi('i'));
    return math(row(mo('['), sub(mi('q′'), row(mn('2'), mi('i'))), mo(','), sub(mi('q′'), row(mn('2'), mi('i'), mo('+'), mn('1'))), mo(']')), mo('='),
      row(mo('['), sub(mi('q'), row(mn('2'), mi('i'))), mi('cos'), row(mi('p'), th), mo('−'), sub(mi('q'), row(mn('2'), mi('i'), mo('+'), mn('1'))), mi('sin'), row(mi('p'), th), mo(','),
        sub(mi('q'), row(mn('2'), mi('i'))), mi('sin'), row(mi('p'), th), mo('+'), sub(mi('q'), row(mn('2'), mi('i'), mo('+'), mn('1'))), mi('cos'), row(mi('p'), th), mo(']')),
      mspace(), th, mo('='), sup(mn('10000'), row(mo('−'), mn('2'), mi('i'), mo('/'), mi('d'))));
  }

  // table: the core's rotation for P positions of head size d.
  rope(views, table) {
    const P = table.shape[0], d = 2 * table.shape[1];
    const q = demoVector(d, 1), k = demoVector(d, 2);
    let plot = views.children[0];
    if (!plot || plot.localName !== 'tp-rope-plot') {
      plot = document.createElement('tp-rope-plot');
      views.replaceChildren(plot);
    }
    const shown = Math.min(P, 16);
    plot.setAttribute('positions', String(shown));
    plot.setAttribute('label', this.t('pe.rope.vector', { n: shown - 1 }));
    plot.table = table;
    plot.vector = q;
    const scores = ropeScores(q, k, table, P);
    const dist = this.chart(views, 1, { label: this.t('pe.rope.distance'), 'x-label': this.t('rope.distanceX'), height: 220 });
    const ms = [...new Set([Math.floor((P - 1) / 3), Math.floor((2 * (P - 1)) / 3), P - 1])];
    dist.series = ms.map((m, i) => ({
      name: this.t('rope.queryAt', { m }), color: headColor(i), width: 2.6 - i * 0.6, dash: i === 1 ? [6, 4] : i === 2 ? [2, 3] : undefined, dots: true,
      points: Array.from({ length: m + 1 }, (_, n) => [m - n, scores[m * P + n]]).sort((a, b) => a[0] - b[0]),
    }));
    const hm = this.heat(views, 2, { colormap: 'diverging', label: this.t('pe.rope.scores'), maxCell: 22 });
    hm.matrix = { rows: P, cols: P, data: scores, rowLabels: labels(P), colLabels: labels(P), rowTitle: 'm', colTitle: 'n' };
    this.trim(views, 3);
  }

  // table: the core's slopes and biases for T positions of each head.
  alibi(views, table, values) {
    const [, T] = table.shape;
    views.className = 'views one';
    let grid = views.children[0];
    if (!grid || !grid.classList.contains('heads')) {
      grid = document.createElement('div');
      grid.className = 'heads';
      views.replaceChildren(grid);
    }
    const shown = Array.from(table.slopes.subarray(0, 8));
    while (grid.children.length > shown.length) grid.lastElementChild.remove();
    shown.forEach((m, h) => {
      const hm = this.heat(grid, h, { colormap: 'sequential', label: this.t('pe.alibi.head', { h, slope: fmt(m, 3) }), maxCell: 18, values: values && T <= 8 });
      hm.setAttribute('accent', headColor(h));
      hm.setAttribute('no-legend', '');
      hm.matrix = { rows: T, cols: T, data: table.data.subarray(h * T * T, (h + 1) * T * T), rowLabels: labels(T), colLabels: labels(T), rowTitle: 't', colTitle: 'u' };
    });
  }
}

const mspace = () => mspaceOf('1.5em');

defineElement('tp-positional-encoding', TpPositionalEncoding);
