// <tp-trainbar-panel> — the sticky training bar: Train / Pause / Step / Reset, the progress and
// the status line, the latest numbers, why a model cannot be trained here (when it cannot), that
// training stopped because the task is learned (with Keep training: the start intent), and
// the history's timeline with Play and its speed, and the training pace. It draws
// trainbar/derive.js's props and keeps only a replay (Play: the shown step moves from where it is
// to the newest at the replay speed's steps per second) and that speed.
// Intents: start, pause, step, reset, seek { step } (null: follow the newest), set { pace }.
import { h } from '../../../ui/dom.js';
import { panel, definePanel, setText } from '../../panel.js';
import { REPLAY_DEFAULT } from './timeline.js';

const ICON = (d) => `<svg class="icon" viewBox="0 0 16 16" aria-hidden="true">${d}</svg>`;
const MARKUP = `
<div class="trainbar" id="trainbar" role="region" data-i18n-aria="train.region">
  <div class="buttons">
    <button type="button" id="train" class="primary" data-testid="train" disabled>${ICON('<path d="M4 2.5v11l9-5.5z" fill="currentColor"/>')} <span data-i18n="train.start"></span></button>
    <button type="button" id="pause" data-testid="pause" disabled>${ICON('<rect x="3.5" y="2.5" width="3" height="11" rx="1" fill="currentColor"/><rect x="9.5" y="2.5" width="3" height="11" rx="1" fill="currentColor"/>')} <span data-i18n="train.pause"></span></button>
    <button type="button" id="step" data-testid="step" disabled>${ICON('<path d="M3 2.5v11l7-5.5z" fill="currentColor"/><rect x="11" y="2.5" width="2.5" height="11" rx="1" fill="currentColor"/>')} <span data-i18n="train.step"></span></button>
    <button type="button" id="reset" data-testid="reset" disabled>${ICON('<path d="M3.2 8a4.8 4.8 0 1 0 1.6-3.6" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round"/><path d="M2.5 1.8v3.6h3.6" fill="none" stroke="currentColor" stroke-width="1.8" stroke-linecap="round" stroke-linejoin="round"/>')} <span data-i18n="train.reset"></span></button>
  </div>
  <div class="progress-wrap">
    <div class="progress-text"><span id="step-text"></span><span id="status" role="status" aria-live="polite"></span></div>
    <div class="progress" aria-hidden="true"><div id="progress-bar"></div></div>
  </div>
  <dl class="stats">
    <div><dt data-i18n="train.loss"></dt><dd class="big" data-testid="loss" id="loss">–</dd></div>
    <div><dt data-i18n="train.valLoss"></dt><dd id="val-loss">–</dd></div>
    <div><dt id="metric-name" data-i18n="train.metric"></dt><dd id="metric">–</dd></div>
    <div class="wide-only"><dt data-i18n="train.tokensPerSec"></dt><dd id="tps">–</dd></div>
    <div class="wide-only"><dt data-i18n="train.threads"></dt><dd id="threads" data-testid="threads">–</dd></div>
    <div class="wide-only"><dt data-i18n="train.lr"></dt><dd id="lr">–</dd></div>
    <div class="wide-only"><dt data-i18n="train.gradNorm"></dt><dd id="grad-norm">–</dd></div>
  </dl>
  <div class="timeline" id="timeline-row">
    <button type="button" id="play" class="icon-button" data-testid="play" data-i18n-aria="time.play">${ICON('<path id="play-icon" d="M4 2.5v11l9-5.5z" fill="currentColor"/>')}</button>
    <label class="sr-only" for="timeline" data-i18n="time.label"></label>
    <input type="range" id="timeline" data-testid="timeline" min="0" max="0" value="0" step="1" data-step="0">
    <output id="timeline-step" for="timeline" aria-live="off"></output>
    <label class="speed"><span data-i18n="time.replay"></span> <select id="replay-speed" data-testid="replay-speed"></select></label>
    <label class="speed"><span data-i18n="time.speed"></span> <select id="speed" data-testid="speed"></select></label>
  </div>
  <p class="train-note" id="train-note" data-testid="train-note" role="status" hidden></p>
  <p class="train-met" id="train-met" data-testid="train-met" role="status" hidden><span id="met-text"></span> <button type="button" id="keep" data-testid="keep-training"></button></p>
  <p class="train-error" id="train-error" role="alert" hidden></p>
</div>`;

const CSS = `
.trainbar { position: sticky; top: var(--tp-sticky-top, 0); z-index: 20; display: flex; flex-wrap: wrap; align-items: center; gap: 10px 22px; padding: 10px 24px;
  background: var(--_bg); border-bottom: 1px solid var(--_rule); box-shadow: 0 2px 10px color-mix(in srgb, var(--_shadow) 4%, transparent); }
.trainbar .buttons { display: flex; gap: 6px; flex-wrap: wrap; }
.progress-wrap { flex: 1 1 200px; min-width: 160px; }
.progress-text { display: flex; justify-content: space-between; gap: 8px; font-size: 12.5px; color: var(--_muted); font-variant-numeric: tabular-nums; }
#status { overflow: hidden; text-overflow: ellipsis; white-space: nowrap; }
.progress { height: 6px; background: var(--_rule); border-radius: 3px; overflow: hidden; margin-top: 4px; }
#progress-bar { height: 100%; width: 0; background: var(--_accent); transition: width .15s linear; }
.stats { display: flex; flex-wrap: wrap; gap: 4px 18px; margin: 0; }
.stats div { min-width: 64px; }
.stats dt { font-size: 11px; color: var(--_muted); text-transform: uppercase; letter-spacing: .04em; }
.stats dd { margin: 0; font: 600 14px/1.3 var(--_mono); font-variant-numeric: tabular-nums; }
.stats dd.big { font-size: 17px; color: var(--_accent); }
.timeline { flex: 1 1 100%; display: flex; align-items: center; gap: 8px 12px; flex-wrap: wrap; }
.timeline input[type=range] { flex: 1 1 240px; min-width: 140px; accent-color: var(--_accent); margin: 0; }
.timeline output { font: 12.5px/1.3 var(--_mono); color: var(--_muted); font-variant-numeric: tabular-nums; min-width: 14ch; }
.timeline .speed { display: inline-flex; align-items: center; gap: 6px; font-size: 12.5px; color: var(--_muted); }
.icon-button { min-width: 34px; min-height: 32px; padding: 4px 8px; justify-content: center; }
.train-error { flex: 1 1 100%; margin: 0; color: var(--_danger); font-size: 13px; white-space: normal; overflow-wrap: anywhere; }
.train-error[hidden], .train-note[hidden], .train-met[hidden], .train-met button[hidden] { display: none; }
.train-met { flex: 1 1 100%; margin: 0; font-size: 13px; white-space: normal; overflow-wrap: anywhere; display: flex; flex-wrap: wrap; align-items: center; gap: 4px 10px; }
.train-note { flex: 1 1 100%; margin: 0; color: var(--_muted); font-size: 13px; white-space: normal; overflow-wrap: anywhere; }
@container app (max-width: 640px) {
  .trainbar { padding: 8px 12px; gap: 6px 10px; }
  .trainbar .buttons { gap: 4px; }
  .trainbar .buttons button { padding: 6px 10px; min-height: 34px; }
  .trainbar .buttons button [data-i18n] { display: none; }
  .trainbar .stats { order: 2; gap: 2px 12px; }
  .trainbar .stats dd.big { font-size: 15px; }
  .progress-wrap { order: 3; flex-basis: 100%; }
  .progress-text { font-size: 11.5px; }
  .wide-only, .trainbar .stats div:nth-child(2) { display: none; }
  /* Train is an icon here too: the replay's ▶ goes after the slider, not right under it. */
  .timeline #play { order: 1; }
  .timeline output, .timeline .speed { order: 2; }
}
@media (prefers-reduced-motion: reduce) { * { animation: none !important; transition: none !important; } }`;

const PLAY = 'M4 2.5v11l9-5.5z', PAUSE = 'M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z';
const STATS = { loss: 'loss', valLoss: 'val-loss', metricName: 'metric-name', metric: 'metric', tps: 'tps', threads: 'threads', lr: 'lr', gradNorm: 'grad-norm' };

export class TpTrainbarPanel extends panel(MARKUP, CSS) {
  build() {
    this.props = null;
    this.replay = null;  // { step, last (ms), frame } while playing
    this.replaySpeed = REPLAY_DEFAULT;  // steps of the history per second
    for (const name of ['train', 'pause', 'step', 'reset']) this.$(name).addEventListener('click', () => this.emit(name === 'train' ? 'start' : name));
    this.$('keep').addEventListener('click', () => this.emit('start'));
    const slider = this.$('timeline');
    slider.addEventListener('input', () => {
      this.stop();
      const steps = this.props.timeline.steps, i = Number(slider.value);
      this.emit('seek', { step: i >= steps.length - 1 ? null : steps[i] ?? null });
    });
    this.$('play').addEventListener('click', () => (this.replay ? this.stop() : this.play()));
    this.$('replay-speed').addEventListener('change', (e) => (this.replaySpeed = Number(e.target.value)));
    this.$('speed').addEventListener('change', (e) => {
      const v = Number(e.target.value);
      this.emit('set', { pace: v === this.props.timeline.defaultPace ? null : v });
    });
  }

  render(props) {
    this.props = props;
    for (const [name, b] of Object.entries(props.buttons)) {
      this.$(name).disabled = b.disabled;
      this.$(name).setAttribute('aria-label', b.label);
    }
    setText(this.$('step-text'), props.stepText);
    this.$('progress-bar').style.width = props.progress;
    const status = this.$('status');
    setText(status, props.status.text);
    status.dataset.key = props.status.key;
    for (const [key, id] of Object.entries(STATS)) setText(this.$(id), props.stats[key]);
    const error = this.$('train-error');
    setText(error, props.error);
    error.hidden = !props.error;
    const note = this.$('train-note');
    setText(note, props.notTrainable);
    note.hidden = !props.notTrainable;
    this.$('train-met').hidden = !props.met;
    setText(this.$('met-text'), props.met?.text ?? '');
    setText(this.$('keep'), props.met?.keep ?? '');
    this.$('keep').hidden = !props.met?.keep;
    this.speeds(props.timeline);
    this.timeline(props.timeline);
  }

  speeds(tl) {
    const sig = JSON.stringify([tl.speeds, tl.replaySpeeds]);
    if (sig === this._speeds) return;
    this._speeds = sig;
    this.$('speed').replaceChildren(...tl.speeds.map((s) => h('option', { value: String(s.value), selected: s.selected, text: s.text })));
    this.$('speed').setAttribute('aria-label', tl.speedLabel);
    this.$('replay-speed').replaceChildren(...tl.replaySpeeds.map((s) => h('option', { value: String(s.value), selected: s.value === this.replaySpeed, text: s.text })));
    this.$('replay-speed').setAttribute('aria-label', tl.replayLabel);
  }

  // The slider over the snapshots, at the shown one; its data-step is the training step shown.
  timeline(tl) {
    const slider = this.$('timeline'), play = this.$('play');
    slider.max = String(Math.max(0, tl.count - 1));
    slider.disabled = tl.count < 2;
    if (this.getRootNode().activeElement !== slider || this.replay) slider.value = String(tl.index);
    slider.dataset.step = String(tl.step);
    setText(this.$('timeline-step'), tl.text);
    slider.setAttribute('aria-valuetext', tl.text);
    play.disabled = tl.count < 2;
    play.querySelector('path').setAttribute('d', this.replay ? PAUSE : PLAY);
    play.setAttribute('aria-label', this.replay ? tl.stopLabel : tl.playLabel);
    play.setAttribute('aria-pressed', String(Boolean(this.replay)));
  }

  // Replays from the shown step (or the start, when at the end) to the newest.
  play() {
    const tl = this.props.timeline;
    if (tl.count < 2) return;
    const from = this.props.timeline.following ? tl.steps[0] : tl.step;
    this.replay = { step: from, last: performance.now(), frame: 0 };
    this.emit('seek', { step: from });
    const tick = (now) => {
      if (!this.replay) return;
      const { steps } = this.props.timeline;
      this.replay.step += (this.replaySpeed * (now - this.replay.last)) / 1000;
      this.replay.last = now;
      if (this.replay.step >= (steps.at(-1) ?? 0)) {
        this.stop();
        this.emit('seek', { step: null });
      } else {
        this.emit('seek', { step: Math.floor(this.replay.step) });
        this.replay.frame = requestAnimationFrame(tick);
      }
      this.timeline(this.props.timeline);
    };
    this.replay.frame = requestAnimationFrame(tick);
    this.timeline(tl);
  }

  stop() {
    if (!this.replay) return;
    cancelAnimationFrame(this.replay.frame);
    this.replay = null;
    this.timeline(this.props.timeline);
  }

  // A new run: no replay goes on into it.
  newRun() {
    this.stop();
  }
}

definePanel('tp-trainbar-panel', TpTrainbarPanel);
