// <tp-attention-panel> — the Attention card: the probe input, the kind, stage, layer and head,
// the layer × head grid, the head view, the selected head large (hover a cell: how its weight
// was computed), the layer's mask, a kept run's grid beside this one, and a pointer to the head
// that changed most so far (with a button that shows it). It draws
// attention/derive.js's props; it keeps only the input being typed and the cell under the pointer.
// Intents: set (the input, the attention picked), compare-run { key }.
import { segmented, h } from '../../../ui/dom.js';
import { panel, definePanel, setText } from '../../panel.js';
import { explainCell } from './explain.js';

const MARKUP = `
<section id="attention" class="card" aria-labelledby="attn-h">
  <div class="card-head"><h2 id="attn-h" data-i18n="attn.title"></h2><p class="lead" data-i18n="attn.lead"></p></div>
  <div class="probe-row">
    <label class="field-label" for="attn-input" data-i18n="attn.input"></label>
    <input id="attn-input" type="text" spellcheck="false" autocomplete="off">
  </div>
  <div class="controls-row">
    <div class="segmented" id="attn-kinds" role="radiogroup" data-i18n-aria="attn.kind"></div>
    <label class="inline"><span data-i18n="attn.stage"></span> <select id="attn-stage"></select></label>
    <label class="inline"><span data-i18n="attn.layerPick"></span> <select id="attn-layer"></select></label>
    <label class="inline"><span data-i18n="attn.headPick"></span> <select id="attn-head"></select></label>
  </div>
  <p class="hint" id="attn-note"></p>
  <p class="hint changed" id="attn-changed" data-testid="attn-changed" hidden><span id="attn-changed-text"></span> <button type="button" id="attn-changed-show" data-testid="attn-changed-show"></button></p>
  <div class="attn-grid">
    <div class="stack">
      <tp-attention-grid id="attn-grid"></tp-attention-grid>
      <div class="compare" id="attn-compare" hidden>
        <label class="inline"><span data-i18n="attn.compare"></span> <select id="attn-compare-run" data-testid="compare-run"></select></label>
        <tp-attention-grid id="attn-grid-b" data-testid="attn-grid-b"></tp-attention-grid>
        <p class="hint" id="attn-compare-note"></p>
      </div>
      <tp-head-view id="head-view"></tp-head-view>
    </div>
    <div class="stack">
      <tp-heatmap id="attn-main" min="0" max="1" colormap="sequential" max-cell="64" values></tp-heatmap>
      <tp-score-explain id="score-explain" data-testid="score-explain"></tp-score-explain>
      <div>
        <tp-heatmap id="attn-mask" colormap="sequential" min="0" max="0" max-cell="22" no-legend></tp-heatmap>
        <p class="hint" id="mask-note"></p>
      </div>
    </div>
  </div>
</section>`;

const CSS = `
.probe-row { display: grid; grid-template-columns: auto minmax(0, 1fr); gap: 10px; align-items: center; margin-bottom: 10px; }
.probe-row .field-label { margin: 0; }
.probe-row input { font-size: 15px; }
.attn-grid { display: grid; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); gap: 20px; align-items: start; margin: 10px 0 18px; }
.changed { display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; }
.changed[hidden] { display: none; }
.stack { display: flex; flex-direction: column; gap: 22px; min-width: 0; }
@container app (max-width: 900px) {
  .probe-row { grid-template-columns: minmax(0, 1fr); gap: 4px; }
  .attn-grid { grid-template-columns: minmax(0, 1fr); }
}`;

const TYPING_MS = 300;

export class TpAttentionPanel extends panel(MARKUP, CSS) {
  build() {
    this.props = null;
    this.hovered = null;
    this.$('attn-main').canvas.dataset.testid = 'attention';
    const input = this.$('attn-input');
    let typing = 0;
    input.addEventListener('input', () => {
      clearTimeout(typing);
      typing = setTimeout(() => this.emit('set', { input: input.value }), TYPING_MS);
    });
    const pick = (key, read) => (e) => this.emit('set', { attn: { ...this.props.attn, [key]: read(e.target.value) } });
    this.$('attn-stage').addEventListener('change', pick('stage', String));
    this.$('attn-layer').addEventListener('change', pick('layer', Number));
    this.$('attn-head').addEventListener('change', pick('head', Number));
    this.$('attn-grid').addEventListener('tp-select', (e) => this.emit('set', { attn: { ...this.props.attn, layer: e.detail.layer, head: e.detail.head } }));
    this.$('attn-changed-show').addEventListener('click', () => this.props.changed && this.emit('set', { attn: { ...this.props.attn, ...this.props.changed.pick } }));
    this.$('attn-compare-run').addEventListener('change', (e) => this.emit('compare-run', { key: e.target.value || null }));
    this.$('attn-main').addEventListener('tp-cell', (e) => {
      this.hovered = e.detail;
      this.explain();
    });
  }

  render(props) {
    this.props = props;
    segmented(this.$('attn-kinds'), props.kinds, props.kind, (v) => this.emit('set', { attn: { ...props.attn, kind: v } }));
    const options = (id, list) => this.$(id).replaceChildren(...list.map((o) => h('option', { value: o.value, text: o.text, selected: o.selected })));
    options('attn-stage', props.stages);
    options('attn-layer', props.layers);
    options('attn-head', props.heads);
    const input = this.$('attn-input');
    if (this.getRootNode().activeElement !== input) input.value = props.input;
    if (props.note !== undefined) setText(this.$('attn-note'), props.note);
    if (props.views) this.views(props);
    this.changed(props.changed);
    this.explain();
    this.compare(props.compare);
  }

  views({ views, mask }) {
    const { grid, main, headView } = views;
    const g = this.$('attn-grid');
    g.setAttribute('label', grid.label);
    g.selected = grid.selected;
    g.maps = grid.maps;
    const m = this.$('attn-main');
    m.setAttribute('label', main.label);
    m.setAttribute('accent', main.accent);
    for (const key of ['colormap', 'min', 'max']) {
      if (main.scale[key] !== undefined) m.setAttribute(key, main.scale[key]);
      else m.removeAttribute(key);
    }
    m.setAttribute('row-side', main.rowSide);
    m.setAttribute('col-side', main.colSide);
    m.matrix = main.matrix;
    const hv = this.$('head-view');
    hv.setAttribute('label', headView.label);
    hv.data = headView.data;
    if (mask) {
      const el = this.$('attn-mask');
      el.setAttribute('label', mask.label);
      el.setAttribute('min', '0');
      el.setAttribute('max', '1');
      el.matrix = mask.matrix;
      setText(this.$('mask-note'), mask.note);
    }
  }

  changed(c) {
    this.$('attn-changed').hidden = !c;
    setText(this.$('attn-changed-text'), c?.text ?? '');
    const button = this.$('attn-changed-show');
    setText(button, c?.show ?? '');
    button.disabled = Boolean(c?.disabled);
  }

  // How the hovered cell's weight was computed, from the shown snapshot.
  explain() {
    const el = this.$('score-explain'), src = this.props?.explain;
    if (!this.hovered || !src) {
      el.cell = null;
      return;
    }
    const cell = explainCell(src, this.hovered, this.$('attn-main').matrix);
    if (cell !== undefined) el.cell = cell;
  }

  compare(c) {
    this.$('attn-compare').hidden = c.hidden;
    if (c.hidden) return;
    const select = this.$('attn-compare-run');
    const sig = JSON.stringify(c.options);
    if (select.dataset.sig !== sig) {
      select.dataset.sig = sig;
      select.replaceChildren(...c.options.map((o) => h('option', { value: o.value, text: o.text })));
    }
    select.value = c.key;
    const grid = this.$('attn-grid-b');
    if (!c.maps) {
      grid.maps = null;
    } else {
      grid.setAttribute('label', c.label);
      grid.selected = c.selected;
      grid.maps = c.maps;
    }
    setText(this.$('attn-compare-note'), c.note);
  }
}

definePanel('tp-attention-panel', TpAttentionPanel);
