// <tp-training-panel> — the Training card: the kept runs, the loss and metric charts, the plan
// of the run, a divergence and the threads it trains on, and the current run's label. It draws training/derive.js's props.
// Intents: keep-run, forget-runs, forget-run { key }, train-kept, set (a kept run's set-up), isolate,
// set-option { group: 'train', key: 'lr', value } (the divergence's "lower the learning rate").
import { h } from '../../../ui/dom.js';
import { panel, definePanel, setText } from '../../panel.js';
import { LABEL_LIMIT, cleanLabel } from '../../state.js';

const MARKUP = `
<section id="training" class="card" aria-labelledby="training-h">
  <div class="card-head"><h2 id="training-h" data-i18n="training.title"></h2><p class="lead" data-i18n="training.lead"></p></div>
  <div class="runs">
    <div class="runs-head">
      <button type="button" id="pin-run" class="small" data-testid="pin-run" data-i18n="runs.keep" disabled></button>
      <button type="button" id="forget-runs" class="link" data-testid="forget-runs" data-i18n="runs.forget" hidden></button>
      <span class="holds" id="runs-holds" data-testid="runs-holds"></span>
    </div>
    <div class="run-label">
      <label for="run-label" data-i18n="runs.label"></label>
      <input id="run-label" data-testid="run-label" type="text" autocomplete="off" spellcheck="false" aria-describedby="run-label-hint">
      <p class="hint" id="run-label-hint" data-i18n="runs.labelHint"></p>
    </div>
    <ul class="run-list" id="run-list" data-testid="run-list" data-i18n-aria="runs.list"></ul>
    <div class="train-all">
      <button type="button" id="train-kept" class="small" data-testid="train-kept" hidden></button>
      <p class="hint" id="train-kept-progress" data-testid="train-kept-progress" role="status"></p>
    </div>
  </div>
  <tp-line-chart id="loss-chart" data-testid="loss-chart" height="230" log-y></tp-line-chart>
  <tp-line-chart id="metric-chart" height="150"></tp-line-chart>
  <p class="hint" id="training-note"></p>
  <p class="error" id="diverged" data-testid="diverged" role="status" hidden></p>
  <button type="button" id="lower-lr" data-testid="lower-lr" hidden></button>
  <p class="hint" id="threads-note" data-testid="threads-note"></p>
  <button type="button" id="isolate" data-testid="isolate" data-i18n="threads.isolate" hidden></button>
</section>`;

const CSS = `
.runs { margin: 0 0 8px; }
.runs-head { display: flex; flex-wrap: wrap; gap: 8px 14px; align-items: center; }
.runs-head .holds { font-size: 12.5px; color: var(--_muted); }
.run-label { display: flex; flex-wrap: wrap; gap: 4px 8px; align-items: center; margin-top: 6px; }
.run-label label { font-size: 13px; }
.run-label input { flex: 1 1 12em; min-width: 0; }
.run-label .hint { flex: 1 1 100%; margin: 0; }
.run-list { list-style: none; margin: 6px 0 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.run-list:empty { display: none; }
.run-list li { display: flex; align-items: center; gap: 8px; font-size: 13px; min-width: 0; }
.run-list .swatch { flex: none; width: 14px; height: 4px; border-radius: 2px; background: currentColor; }
.run-list .name { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
.train-all { display: flex; flex-wrap: wrap; gap: 4px 10px; align-items: center; margin-top: 6px; }
.train-all .hint { margin: 0; }
.train-all .hint:empty { display: none; }
.run-list .tag { font-size: 12px; color: var(--_muted); white-space: nowrap; }
.run-list .loss { font: 12px/1.3 var(--_mono); color: var(--_muted); white-space: nowrap; }
.run-list button { min-height: 26px; padding: 2px 8px; font-size: 12px; }
#metric-chart { margin-top: 8px; }
/* Long labels ("Use every core (reloads the page once)", a divergence's advice) wrap inside the
   card on a narrow screen instead of running to its edge (buttons do not wrap elsewhere). */
#isolate, #lower-lr { white-space: normal; text-align: start; max-width: 100%; }`;

export class TpTrainingPanel extends panel(MARKUP, CSS) {
  build() {
    this.clicks({ 'pin-run': 'keep-run', 'forget-runs': 'forget-runs', 'train-kept': 'train-kept', isolate: 'isolate' });
    // The label is the state's (cleanLabel's text), set as the reader types; maxlength bounds the box.
    this.$('run-label').maxLength = LABEL_LIMIT;
    this.$('run-label').addEventListener('input', (e) => this.emit('set', { label: cleanLabel(e.target.value) }));
    this.$('lower-lr').addEventListener('click', () => this.emit('set-option', { group: 'train', key: 'lr', value: this.props.lowerLr.value }));
  }

  render(props) {
    this.props = props;
    this.runs(props.runs);
    this.charts(props.charts);
    if (props.note !== null) setText(this.$('training-note'), props.note);
    const diverged = this.$('diverged');
    diverged.hidden = props.diverged === null;
    if (props.diverged) setText(diverged, props.diverged);
    const lower = this.$('lower-lr');
    lower.hidden = props.lowerLr === null;
    if (props.lowerLr) {
      setText(lower, props.lowerLr.text);
      lower.disabled = props.lowerLr.disabled;
    }
    if (props.threads) {
      setText(this.$('threads-note'), props.threads.text);
      this.$('isolate').hidden = !props.threads.isolate;
    }
  }

  // The list is drawn again only when it changes (a button in it may have the focus).
  runs(r) {
    this.$('pin-run').disabled = r.keep.disabled;
    setText(this.$('pin-run'), r.keep.text);
    this.$('forget-runs').hidden = r.forgetHidden;
    setText(this.$('runs-holds'), r.holds);
    const all = this.$('train-kept');
    all.hidden = r.trainAll.hidden;
    all.disabled = r.trainAll.disabled;
    setText(all, r.trainAll.text);
    setText(this.$('train-kept-progress'), r.trainAll.progress);
    const box = this.$('run-label');
    // The box keeps what is being typed (spaces the label drops come back only once it is left).
    if (this.getRootNode().activeElement !== box && box.value !== r.label.value) box.value = r.label.value;
    box.placeholder = r.label.placeholder;
    const sig = JSON.stringify(r.list);
    if (sig === this._runs) return;
    this._runs = sig;
    const list = this.$('run-list');
    list.replaceChildren(...r.list.map((e) => h('li', { 'data-key': e.key, 'data-current': String(e.here), 'data-kept': String(e.kept) },
      h('span', { class: 'swatch', 'aria-hidden': 'true' }),
      h('span', { class: 'name', text: e.name }),
      e.tag ? h('span', { class: 'tag', text: e.tag }) : null,
      h('span', { class: 'loss', text: e.loss }),
      e.open ? h('button', { type: 'button', class: 'small', text: e.open.label, 'aria-label': e.open.aria, onclick: () => this.emit('set', e.open.state) }) : null,
      e.forget ? h('button', { type: 'button', class: 'small', text: '×', 'aria-label': e.forget, title: e.forget, onclick: () => this.emit('forget-run', { key: e.key }) }) : null)));
    list.querySelectorAll('li').forEach((li, i) => (li.querySelector('.swatch').style.color = r.list[i].color));
  }

  charts({ loss, metric }) {
    const chart = this.$('loss-chart'), m = this.$('metric-chart');
    chart.setAttribute('label', loss.label);
    chart.setAttribute('x-label', loss.x);
    chart.setAttribute('y-label', loss.y);
    chart.series = loss.series;
    chart.dataset.series = String(loss.series.filter((s) => s.points.length).length);
    m.setAttribute('label', metric.label);
    m.setAttribute('x-label', metric.x);
    m.setAttribute('y-label', metric.y);
    if (metric.range) {
      m.setAttribute('y-min', String(metric.range[0]));
      m.setAttribute('y-max', String(metric.range[1]));
      m.removeAttribute('log-y');
    } else {
      m.removeAttribute('y-min');
      m.removeAttribute('y-max');
      m.setAttribute('log-y', '');
    }
    m.series = metric.series;
  }
}

definePanel('tp-training-panel', TpTrainingPanel);
