// <tp-train> — a compact trainer: Train / Pause / Reset, progress, the loss curve and the model's
// answer to a prompt, refreshed while it learns. Training runs in the widget's own Worker.
//
//   <tp-train task="qa-toy" prompt="how are you"></tp-train>
//   <tp-train task="reverse" steps="800" d-model="48" heads="4" pos="rope" autoplay></tp-train>
//
// Attributes: task (a built-in task; default qa-toy), prompt (default the task's first sample),
// autoplay (start when first on screen instead of waiting for Train), stop-when-met (pause once
// where the run has learned its task, and say so; Resume trains on), max-new-tokens, height
// (of the chart, px), label; the model: arch, d-model, heads, kv-heads, layers, d-ff, max-len,
// pos, norm, norm-placement, ffn, window, dropout, seed; training: steps, lr, batch-size,
// warmup, schedule, weight-decay, clip. Any change rebuilds the model from its seed. Training
// pauses while the widget is out of view and resumes when it is back.
// Events: tp-ready, tp-error, tp-progress ({ step, totalSteps, loss }), tp-finished ({ step, loss }).
import { TpWidget } from './shared/widget.js';
import { int, flag, text } from './shared/attrs.js';
import { sessionRequest, checkTask, task as taskInfo } from './shared/runtime.js';
import { SessionDriver } from './shared/session-driver.js';
import { ROLE_COLORS } from '../components/shared/colormap.js';
import { formatLoss, formatMetric } from '../components/shared/format.js';
import '../components/tp-line-chart.js';
import { attributeNames } from './shared/manifest.js';
import { defineElement } from '../ui/element.js';

export class TpTrain extends TpWidget {
  static observedAttributes = attributeNames('tp-train');
  static css = `
    .bar { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; margin: 0 0 8px; }
    .progress { flex: 1 1 160px; min-width: 120px; }
    .track { height: 6px; background: var(--_rule); border-radius: 3px; overflow: hidden; margin-top: 3px; }
    .track > div { height: 100%; width: 0; background: var(--_accent); transition: width .15s linear; }
    .numbers { font: 12.5px/1.3 var(--_mono); color: var(--_muted); font-variant-numeric: tabular-nums; }
    form { display: flex; flex-wrap: wrap; gap: 8px; margin: 10px 0 0; }
    .out { margin: 8px 0 0; padding: 8px 12px; border-radius: 8px; background: var(--_panel); border: 1px solid var(--_rule); min-height: 2.4em; }
    .out .k { display: block; font-size: 11px; text-transform: uppercase; letter-spacing: .05em; color: var(--_muted); }
    output { font-weight: 650; font-size: 17px; word-break: break-word; }
    output .echo { color: var(--_muted); font-weight: 400; }
    @media (prefers-reduced-motion: reduce) { .track > div { transition: none; } }
  `;

  template() {
    return `<div class="head"><span class="title" part="title"></span><span class="sub" part="subtitle"></span></div>
      <div class="bar" part="controls">
        <button type="button" class="primary" data-role="toggle" data-testid="widget-train" disabled></button>
        <button type="button" data-role="reset" disabled></button>
        <div class="progress"><div class="numbers" data-role="numbers" aria-live="off"></div><div class="track" aria-hidden="true"><div></div></div></div>
      </div>
      <tp-line-chart part="chart" log-y height="170"></tp-line-chart>
      <form part="prompt"><label class="sr-only" for="prompt"></label><input id="prompt" type="text" spellcheck="false" autocomplete="off"><button type="submit" data-role="go" disabled></button></form>
      <div class="out"><span class="k" data-role="out-label"></span><output for="prompt" aria-live="polite"></output></div>
      <p class="status" part="status" role="status" aria-live="polite"></p>`;
  }

  constructor() {
    super();
    this.driver = null;
    this.info = null;
    this._answerAt = 0;
    this._answering = false;
    this.$('[data-role=toggle]').addEventListener('click', () => this.toggle());
    this.$('[data-role=reset]').addEventListener('click', () => this.reset());
    this.$('form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.answer(true);
    });
  }

  async update(changed, first) {
    this.buttonNames();
    const taskName = text(this, 'task', 'qa-toy').trim();
    await checkTask(taskName);
    const request = sessionRequest(this, taskName);
    int(this, 'max-new-tokens', { min: 1, max: 512 });
    const height = int(this, 'height', { min: 80, max: 800, fallback: 170 });
    this.$('tp-line-chart').setAttribute('height', String(height));
    this.info = await taskInfo(taskName);
    this.labels();
    const prompt = this.$('#prompt');
    if (first || changed.has('prompt') || changed.has('task')) prompt.value = this.getAttribute('prompt') ?? this.info.sampleInputs[0] ?? '';
    this.driver ??= new SessionDriver({
      onProgress: (d) => {
        this.draw();
        this.dispatchEvent(new CustomEvent('tp-progress', { bubbles: true, composed: true, detail: { step: d.step, totalSteps: d.totalSteps, loss: d.loss } }));
        if (performance.now() - this._answerAt > 1500) this.answer();
      },
      onState: (d) => {
        this.draw();
        if (d.reason === 'error') this.showError(new Error(d.error));
        if (d.reason === 'met') this.answer(true);
        if (d.reason === 'finished') {
          this.answer(true);
          this.dispatchEvent(new CustomEvent('tp-finished', { bubbles: true, composed: true, detail: { step: d.step, loss: this.driver.report?.loss } }));
        }
      },
    });
    const d = this.driver;
    if (!d.session) this.$('.status').textContent = this.t('w.building');
    const rebuilt = await d.configure(request);
    if (rebuilt) {
      this.$('output').textContent = '';
      if (flag(this, 'autoplay')) {
        if (this.visible) await d.start();
        else d.pausedByView = true;
      }
      this.answer(true);
    }
    this.draw();
  }

  // Its buttons are named from the moment it is on the page, in its language: also while it
  // waits to be scrolled into view (no update has run yet), and when its language changes.
  nameControls() {
    this.buttonNames();
  }

  // Every button has its name from the first update on, in the widget's language, also when an
  // attribute is refused before there is a task or a run to draw (the buttons stay off then).
  buttonNames() {
    const d = this.driver;
    if (!d?.session || !d.config) this.$('[data-role=toggle]').textContent = this.t('w.train');
    this.$('[data-role=reset]').textContent = this.t('w.reset');
    const info = this.info;
    this.$('[data-role=go]').textContent = this.t(info && (info.kind === 'classify' || info.kind === 'tag') ? 'w.predict' : 'w.generate');
  }

  labels() {
    const info = this.info;
    const classify = info && (info.kind === 'classify' || info.kind === 'tag');
    this.$('[data-role=reset]').textContent = this.t('w.reset');
    this.$('[data-role=go]').textContent = this.t(classify ? 'w.predict' : 'w.generate');
    this.$('label[for=prompt]').textContent = this.t('w.prompt');
    this.$('[data-role=out-label]').textContent = this.t('w.output');
    const chart = this.$('tp-line-chart');
    chart.setAttribute('x-label', this.t('w.stepAxis'));
    chart.setAttribute('y-label', this.t('training.lossAxis'));
  }

  toggle() {
    const d = this.driver;
    if (!d?.session) return;
    const go = d.running ? d.pause() : d.finished ? d.reset().then(() => this.clearOutput()).then(() => d.start()) : d.start();
    go.then(() => this.draw(), (e) => this.showError(e));
  }

  reset() {
    const d = this.driver;
    if (!d?.session) return;
    d.reset().then(() => {
      this.clearOutput();
      this.draw();
      this.answer(true);
    }, (e) => this.showError(e));
  }

  clearOutput() {
    this.$('output').textContent = '';
  }

  visibilityChanged(visible) {
    this.driver?.setVisible(visible);
    this.draw();
  }

  // The model's answer to the prompt now (at most every 1.5 s while training).
  async answer(force = false) {
    const d = this.driver;
    if (!d?.session || !d.config || (this._answering && !force)) return;
    const input = this.$('#prompt').value.trim();
    if (!input) return;
    this._answering = true;
    this._answerAt = performance.now();
    const out = this.$('output');
    try {
      if (d.config.arch === 'encoder-only') {
        const p = await d.session.predict(input);
        out.textContent = p.classes ? p.classes.slice(0, 2).map((c) => `${c.label} ${(c.p * 100).toFixed(0)}%`).join(' · ')
          : p.input.tokens.map((tok, i) => `${tok}/${p.positions[i]?.[0]?.label ?? '?'}`).join(' ');
      } else {
        const maxNewTokens = int(this, 'max-new-tokens', { min: 1, max: 512, fallback: this.info?.kind === 'text' ? 80 : 32 });
        const r = await d.session.generate(input, { maxNewTokens });
        if (this.info?.kind === 'text') {
          const echo = document.createElement('span');
          echo.className = 'echo';
          echo.textContent = input;
          out.replaceChildren(echo, r.text);
        } else {
          out.textContent = r.text;
        }
      }
      this.dataset.output = out.textContent;
    } catch (error) {
      out.textContent = '';
      this.$('.status').textContent = error.message;
    } finally {
      this._answering = false;
    }
  }

  draw() {
    const d = this.driver;
    if (!d) return;
    const toggle = this.$('[data-role=toggle]');
    const ready = Boolean(d.session && d.config);
    toggle.disabled = !ready;
    this.$('[data-role=reset]').disabled = !ready || (d.step === 0 && !d.running);
    this.$('[data-role=go]').disabled = !ready;
    toggle.textContent = d.running ? this.t('w.pause') : d.finished ? this.t('w.train') : d.step > 0 || d.pausedByView ? this.t('w.resume') : this.t('w.train');
    const r = d.report;
    const loss = r ? formatLoss(r.loss) : '–';
    let numbers = this.t('w.stepLoss', { step: d.step, total: d.totalSteps, loss });
    if (r && r.evaluatedAt > 0 && Number.isFinite(r.metric)) {
      const m = this.info?.metric;
      numbers += this.t('w.metric', { metric: this.t(`metric.${m}`), value: formatMetric(m, r.metric, 0) });
    }
    this.$('[data-role=numbers]').textContent = numbers;
    this.$('.track > div').style.width = d.totalSteps ? `${Math.min(100, (100 * d.step) / d.totalSteps)}%` : '0';
    const task = this.getAttribute('task') ?? 'qa-toy';
    const title = this.getAttribute('label') ?? this.t(`task.${task}`);
    this.$('.title').textContent = title;
    // The chart's title (and its PNG/SVG export's) names what this widget trains.
    const chart = this.$('tp-line-chart');
    const chartLabel = this.t('w.lossTitle', { title });
    if (chart.getAttribute('label') !== chartLabel) chart.setAttribute('label', chartLabel);
    this.$('.sub').textContent = d.info ? this.t('w.params', { params: d.info.parameterCount.toLocaleString(this.lang) }) : '';
    // The session pauses by itself where the run diverges (state reason 'diverged') and, with
    // stop-when-met, where it has learned its task ('met').
    const why = d.running ? null : d.run?.reason;
    this.$('.status').textContent = d.pausedByView ? this.t('w.offscreen') : d.running ? this.t('w.training') : d.finished ? this.t('w.finished', { step: d.step })
      : why === 'diverged' ? this.t('w.diverged', { step: r.divergedAt }) : why === 'met' ? this.t('w.met', { step: d.step })
        : d.step > 0 ? this.t('w.paused') : ready ? this.t('w.ready') : this.t('w.building');
    // The loss curve: every step, and its moving average.
    const points = d.history;
    if (points.length !== this._drawn) {
      this._drawn = points.length;
      const train = [], smooth = [], val = [];
      let ema = null;
      for (const [step, l, v] of points) {
        if (Number.isFinite(l)) {
          train.push([step, l]);
          ema = ema === null ? l : 0.9 * ema + 0.1 * l;
          smooth.push([step, ema]);
        }
        if (v !== null && Number.isFinite(v)) val.push([step, v]);
      }
      this.$('tp-line-chart').series = [
        { name: this.t('w.loss'), color: ROLE_COLORS.x, points: train, width: 1, opacity: 0.5 },
        { name: this.t('w.lossSmoothed'), color: ROLE_COLORS.q, points: smooth, width: 2.2 },
        { name: this.t('w.valLoss'), color: ROLE_COLORS.k, points: val, width: 2, dots: true },
      ];
    }
    this.dataset.step = String(d.step);
    this.dataset.state = d.pausedByView ? 'offscreen' : d.running ? 'training' : d.finished ? 'finished' : why === 'diverged' || why === 'met' ? why : d.step > 0 ? 'paused' : 'ready';
  }

  disposeWidget() {
    this.driver?.dispose();
    this.driver = null;
  }
}

defineElement('tp-train', TpTrain);
