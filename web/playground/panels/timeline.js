// panels/timeline.js — the run's history under the training bar: a slider over the recorded
// snapshots (drag to any step and every view shows the model as it was then), Play to replay the
// history at the chosen speed, and the speed itself, which is also the training pace (steps per
// second, or as fast as possible). Works while training (the end of the slider follows the newest
// snapshot) and afterwards. The history is the run's record (app.run.snapshots); this panel owns
// only which step is shown (app.show) and the replay.
import { PACES, defaultPace } from '../state.js';
import { h } from '../../ui/dom.js';

// Steps per second of a replay at speed 0 ("as fast as possible"): still slow enough to see.
const REPLAY_MAX = 200;
const PLAY = 'M4 2.5v11l9-5.5z', PAUSE = 'M3.5 2.5h3v11h-3zM9.5 2.5h3v11h-3z';

export function initTimeline(app) {
  const $ = (id) => app.$(id);
  const slider = $('timeline'), play = $('play'), speed = $('speed'), label = $('timeline-step');
  let replay = null;   // { step, last (ms) } while playing

  const pace = () => app.state.pace ?? defaultPace(app.info?.train);
  const snapshots = () => app.run?.snapshots ?? [];

  function renderSpeed() {
    const value = pace();
    speed.replaceChildren(...PACES.map((p) => h('option', { value: String(p), selected: p === value,
      text: p === 0 ? app.t('time.max') : p === PACES[0] ? app.t('time.every', { n: p }) : app.t('time.pace', { n: p }) })));
    speed.setAttribute('aria-label', app.t('time.speed'));
  }

  // The slider over the snapshots, at the shown one; its data-step is the training step shown.
  function render() {
    const list = snapshots();
    const n = list.length;
    slider.max = String(Math.max(0, n - 1));
    slider.disabled = n < 2;
    const shown = app.shown;
    const index = shown ? list.indexOf(shown) : 0;
    if (app.activeElement !== slider || replay) slider.value = String(Math.max(0, index));
    const step = shown?.step ?? 0;
    slider.dataset.step = String(step);
    const last = list.at(-1)?.step ?? 0;
    const text = app.shownStep === null ? app.t('time.now', { step, n }) : app.t('time.at', { step, last, n });
    label.textContent = text;
    slider.setAttribute('aria-valuetext', text);
    play.disabled = n < 2;
    play.querySelector('path').setAttribute('d', replay ? PAUSE : PLAY);
    play.setAttribute('aria-label', app.t(replay ? 'time.stop' : 'time.play'));
    play.setAttribute('aria-pressed', String(Boolean(replay)));
  }

  slider.addEventListener('input', () => {
    stop();
    const list = snapshots();
    const i = Number(slider.value);
    app.show(i >= list.length - 1 ? null : list[i]?.step ?? null);
    render();
  });

  // Replays from the shown step (or the start, when at the end) to the newest, at the speed's
  // steps per second.
  function tick(now) {
    if (!replay) return;
    const list = snapshots();
    const rate = pace() || REPLAY_MAX;
    replay.step += (rate * (now - replay.last)) / 1000;
    replay.last = now;
    const last = list.at(-1)?.step ?? 0;
    if (replay.step >= last) {
      stop();
      app.show(null);
    } else {
      app.show(Math.floor(replay.step));
      replay.frame = requestAnimationFrame(tick);
    }
    render();
  }

  function start() {
    const list = snapshots();
    if (list.length < 2) return;
    const from = app.shownStep === null ? list[0].step : app.shownStep;
    replay = { step: from, last: performance.now(), frame: 0 };
    app.show(from);
    replay.frame = requestAnimationFrame(tick);
    render();
  }

  function stop() {
    if (!replay) return;
    cancelAnimationFrame(replay.frame);
    replay = null;
    render();
  }

  play.addEventListener('click', () => (replay ? stop() : start()));
  speed.addEventListener('change', () => {
    const v = Number(speed.value);
    app.set({ pace: v === defaultPace(app.info?.train) ? null : v });
  });

  const sendPace = () => app.session?.setPace(pace()).catch((e) => app.fail(e));
  app.on('configured', () => {
    stop();
    renderSpeed();
    sendPace();
    render();
  });
  app.on('state', ({ changed }) => {
    if (changed.includes('pace')) {
      renderSpeed();
      sendPace();
    }
  });
  app.on('snapshot', render);
  app.on('history', render);
  app.on('lang', () => {
    renderSpeed();
    render();
  });
  renderSpeed();
  render();
}
