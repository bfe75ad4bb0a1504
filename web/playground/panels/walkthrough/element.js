// <tp-walkthrough-panel> — the Walk-through card: which model the example runs on (fresh, or
// the one training at the step shown) and <tp-walkthrough-view> with its steps. It draws
// walkthrough/derive.js's props. Intents: set { wt } (the step read), wt-source { value }.
import { segmented } from '../../../ui/dom.js';
import { panel, definePanel, setText } from '../../panel.js';

const MARKUP = `
<section id="walkthrough" class="card" aria-labelledby="wt-h">
  <div class="card-head"><h2 id="wt-h" data-i18n="wt.title"></h2><p class="lead" data-i18n="wt.lead"></p></div>
  <div class="controls-row">
    <div class="segmented" id="wt-source" role="radiogroup" data-i18n-aria="wt.source"></div>
  </div>
  <p class="hint" id="wt-note"></p>
  <tp-walkthrough-view id="wt"></tp-walkthrough-view>
</section>`;

export class TpWalkthroughPanel extends panel(MARKUP) {
  build() {
    this.$('wt').addEventListener('tp-step', (e) => this.emit('set', { wt: e.detail.index }));
  }

  render(props) {
    if (!props) return;
    segmented(this.$('wt-source'), props.sources, props.source, (v) => this.emit('wt-source', { value: v }));
    if (!props.steps) return;
    setText(this.$('wt-note'), props.note);
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
