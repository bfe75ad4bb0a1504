// <tp-walkthrough-panel> — the Walk-through card: which model the example runs on (fresh, or
// the one training at the step shown), the layer, head and token its derived steps show, and
// <tp-walkthrough-view> with its steps. It draws walkthrough/derive.js's props. Intents: set { wt }
// (the step read), wt-source { value }, wt-pick { layer, head, token }.
import { segmented, h } from '../../../ui/dom.js';
import { panel, definePanel, setText } from '../../panel.js';

const MARKUP = `
<section id="walkthrough" class="card" aria-labelledby="wt-h">
  <div class="card-head"><h2 id="wt-h" data-i18n="wt.title"></h2><p class="lead" data-i18n="wt.lead"></p></div>
  <div class="controls-row">
    <div class="segmented" id="wt-source" role="radiogroup" data-i18n-aria="wt.source"></div>
  </div>
  <div class="controls-row" id="wt-pick" role="group" data-i18n-aria="wt.pick" hidden>
    <label class="inline"><span data-i18n="wt.layerPick"></span> <select id="wt-layer" data-testid="walkthrough-layer"></select></label>
    <label class="inline"><span data-i18n="wt.headPick"></span> <select id="wt-head" data-testid="walkthrough-head"></select></label>
    <label class="inline"><span data-i18n="wt.tokenPick"></span> <select id="wt-token" data-testid="walkthrough-token"></select></label>
  </div>
  <p class="hint" id="wt-note"></p>
  <tp-walkthrough-view id="wt"></tp-walkthrough-view>
</section>`;

export class TpWalkthroughPanel extends panel(MARKUP) {
  build() {
    this.$('wt').addEventListener('tp-step', (e) => this.emit('set', { wt: e.detail.index }));
    const pick = (key) => (e) => this.emit('wt-pick', { ...this._pick, [key]: Number(e.target.value) });
    for (const key of ['layer', 'head', 'token']) this.$(`wt-${key}`).addEventListener('change', pick(key));
  }

  render(props) {
    if (!props) return;
    segmented(this.$('wt-source'), props.sources, props.source, (v) => this.emit('wt-source', { value: v }));
    const p = props.pick;
    this.$('wt-pick').hidden = !p;
    if (p) {
      this._pick = { layer: p.layer, head: p.head, token: p.token };
      const options = (id, list) => this.$(id).replaceChildren(...list.map((o) => h('option', { value: o.value, text: o.text, selected: o.selected })));
      options('wt-layer', p.layers);
      options('wt-head', p.heads);
      options('wt-token', p.tokens);
    }
    setText(this.$('wt-note'), props.note);
    if (!props.steps) return;
    const wt = this.$('wt');
    if (props.key !== this._key) {
      this._key = props.key;
      wt.steps = props.steps();
      if (wt.step !== props.step) wt.step = Math.min(props.step, wt.steps.length - 1);
    } else if (props.step !== this._step && wt.step !== props.step) {
      wt.step = props.step;  // the state's step changed (a link, the view's own arrows)
    }
    this._step = props.step;
  }
}

definePanel('tp-walkthrough-panel', TpWalkthroughPanel);
