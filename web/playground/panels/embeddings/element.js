// <tp-embeddings-panel> — the Embeddings card: the embedding rows, the positions added and the
// sum, the positional table, RoPE's rotation and its scores by distance, one-hot against dense
// with cosine similarity. It draws embeddings/derive.js's props; it has no intents.
import { panel, definePanel, setText } from '../../panel.js';

const MARKUP = `
<section id="embeddings" class="card" aria-labelledby="emb-h">
  <div class="card-head"><h2 id="emb-h" data-i18n="emb.title"></h2><p class="lead" id="emb-lead"></p></div>
  <div class="grid3">
    <tp-heatmap id="emb-tokens" row-side="in" colormap="diverging"></tp-heatmap>
    <tp-heatmap id="emb-positions" row-side="in" colormap="diverging"></tp-heatmap>
    <tp-heatmap id="emb-sum" row-side="in" colormap="diverging"></tp-heatmap>
  </div>
  <h3 id="pe-h" data-i18n="emb.peTitle"></h3>
  <p class="hint" id="pe-note"></p>
  <tp-heatmap id="pe-table" colormap="diverging" max-cell="18"></tp-heatmap>
  <div id="rope-box">
    <h3 data-i18n="rope.title"></h3>
    <p class="hint" id="rope-note"></p>
    <div class="grid2">
      <tp-rope-plot id="rope-plot" positions="8"></tp-rope-plot>
      <tp-line-chart id="rope-distance" height="230"></tp-line-chart>
    </div>
    <tp-heatmap id="rope-scores" colormap="diverging" max-cell="22"></tp-heatmap>
  </div>
  <h3 data-i18n="emb.onehotTitle"></h3>
  <p class="hint" id="onehot-note"></p>
  <div class="grid2">
    <tp-heatmap id="onehot" row-side="in" colormap="sequential" min="0" max="1" max-cell="26"></tp-heatmap>
    <tp-heatmap id="cosine" row-side="in" col-side="in" colormap="diverging" min="-1" max="1" max-cell="34"></tp-heatmap>
  </div>
</section>`;

const CSS = `
.grid3 { display: grid; grid-template-columns: repeat(3, minmax(0, 1fr)); gap: 18px; align-items: start; }
@container app (max-width: 900px) { .grid3 { grid-template-columns: minmax(0, 1fr); } }`;

export class TpEmbeddingsPanel extends panel(MARKUP, CSS) {
  render(props) {
    setText(this.$('emb-lead'), props.lead);
    const v = props.views;
    if (!v) return;
    for (const r of v.rows) {
      const el = this.$(r.id);
      el.setAttribute('label', r.label);
      el.setAttribute('max-cell', '30');
      el.matrix = r.matrix;
    }
    this.positional(v.positional);
    if (v.rope) this.rope(v.rope);
    this.onehot(v.onehot);
  }

  positional(p) {
    const table = this.$('pe-table');
    table.hidden = !p.table;
    table.marks = null;
    setText(this.$('pe-h'), p.title);
    setText(this.$('pe-note'), p.note);
    if (!p.table) return;
    table.setAttribute('colormap', p.table.colormap);
    table.setAttribute('label', p.table.label);
    table.matrix = p.table.matrix;
    table.marks = p.table.marks;
  }

  rope(r) {
    this.$('rope-box').hidden = r.hidden;
    if (r.hidden) return;
    setText(this.$('rope-note'), r.note);
    const plot = this.$('rope-plot');
    plot.setAttribute('label', r.plot.label);
    plot.setAttribute('positions', r.plot.positions);
    plot.table = r.plot.table;
    plot.vector = r.plot.vector;
    const dist = this.$('rope-distance');
    dist.setAttribute('label', r.distance.label);
    dist.setAttribute('x-label', r.distance.x);
    dist.series = r.distance.series;
    const heat = this.$('rope-scores');
    heat.setAttribute('label', r.scores.label);
    heat.matrix = r.scores.matrix;
  }

  onehot(o) {
    const oh = this.$('onehot');
    oh.setAttribute('label', o.onehot.label);
    oh.setAttribute('min-cell', o.onehot.minCell);
    oh.matrix = o.onehot.matrix;
    const c = o.cosine, cos = this.$('cosine');
    if (c) {
      cos.setAttribute('label', c.label);
      for (const side of ['row-side', 'col-side']) {
        if (c.side) cos.setAttribute(side, c.side);
        else cos.removeAttribute(side);
      }
      cos.setAttribute('max-cell', c.maxCell);
      cos.matrix = c.matrix;
      cos.marks = c.marks;
    }
    setText(this.$('onehot-note'), o.note);
  }
}

definePanel('tp-embeddings-panel', TpEmbeddingsPanel);
