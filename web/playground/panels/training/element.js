// <tp-training-panel> — the Training card: the kept runs, the loss and metric charts, the plan
// of the run, a divergence and the threads it trains on. It draws training/derive.js's props.
// Intents: keep-run, forget-runs, forget-run { key }, set (a kept run's set-up), isolate,
// set-option { group: 'train', key: 'lr', value } (the divergence's "lower the learning rate").
import { h } from '../../../ui/dom.js';
import { panel, definePanel, setText } from '../../panel.js';

const MARKUP = `
<section id="training" class="card" aria-labelledby="training-h">
  <div class="card-head"><h2 id="training-h" data-i18n="training.title"></h2><p class="lead" data-i18n="training.lead"></p></div>
  <div class="runs">
    <div class="runs-head">
      <button type="button" id="pin-run" class="small" data-testid="pin-run" data-i18n="runs.keep" disabled></button>
      <button type="button" id="forget-runs" class="link" data-testid="forget-runs" data-i18n="runs.forget" hidden></button>
    </div>
    <ul class="run-list" id="run-list" data-testid="run-list" data-i18n-aria="runs.list"></ul>
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
.run-list { list-style: none; margin: 6px 0 0; padding: 0; display: flex; flex-direction: column; gap: 4px; }
.run-list:empty { display: none; }
.run-list li { display: flex; align-items: center; gap: 8px; font-size: 13px; min-width: 0; }
.run-list .swatch { flex: none; width: 14px; height: 4px; border-radius: 2px; background: currentColor; }
.run-list .name { flex: 1 1 auto; min-width: 0; overflow-wrap: anywhere; }
.run-list .loss { font: 12px/1.3 var(--_mono); color: var(--_muted); white-space: nowrap; }
.run-list button { min-height: 26px; padding: 2px 8px; font-size: 12px; }
#metric-chart { margin-top: 8px; }`;

export class TpTrainingPanel extends panel(MARKUP, CSS) {
  build() {
    this.clicks({ 'pin-run': 'keep-run', 'forget-runs': 'forget-runs', isolate: 'isolate' });
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
    const sig = JSON.stringify(r.list);
    if (sig === this._runs) return;
    this._runs = sig;
    const list = this.$('run-list');
    list.replaceChildren(...r.list.map((e) => h('li', { 'data-key': e.key, 'data-current': String(e.here) },
      h('span', { class: 'swatch', 'aria-hidden': 'true' }),
      h('span', { class: 'name', text: e.name }),
      h('span', { class: 'loss', text: e.loss }),
      e.open ? h('button', { type: 'button', class: 'small', text: e.open.label, 'aria-label': e.open.aria, onclick: () => this.emit('set', e.open.state) }) : null,
      h('button', { type: 'button', class: 'small', text: '×', 'aria-label': e.forget, title: e.forget, onclick: () => this.emit('forget-run', { key: e.key }) }))));
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
