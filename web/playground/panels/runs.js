// panels/runs.js — the kept runs above the loss chart: "Keep this run", one line per kept run
// (its colour, its name — how its set-up differs from the others —, its last loss, a button to
// go back to its set-up and one to forget it) and "Forget kept runs". The runs themselves are
// app.kept's (runs.js); the curves are the training panel's, the attention side by side the
// attention panel's.
import { h } from '../../ui/dom.js';
import { formatLoss } from '../../components/shared/format.js';
import { defaultState } from '../state.js';

export function initRuns(app) {
  const $ = (id) => app.$(id);
  const list = $('run-list'), pin = $('pin-run'), forget = $('forget-runs');

  function render() {
    const labels = new Map(app.compared().map((r) => [r.key, r.label]));
    list.replaceChildren(...app.kept.entries.map((e) => {
      const last = e.record?.report;
      const here = e.live && e.record === app.run;
      const name = labels.get(e.key) ?? app.t('runs.elsewhere');
      return h('li', { 'data-key': e.key, 'data-current': String(here) },
        h('span', { class: 'swatch', 'aria-hidden': 'true' }),
        h('span', { class: 'name', text: e.record ? name : `${name} — ${app.t('runs.notHere')}` }),
        h('span', { class: 'loss', text: last ? app.t('runs.at', { step: last.step, loss: formatLoss(last.loss) }) : '' }),
        here ? null : h('button', { type: 'button', class: 'small', text: app.t('runs.open'), 'aria-label': app.t('runs.openAria', { name }),
          onclick: () => app.set({ ...defaultState(), lang: app.state.lang, pace: app.state.pace, runs: app.state.runs, task: e.setup.task, seed: e.setup.seed,
            model: { ...e.setup.model }, train: { ...e.setup.train }, ...(e.setup.textTokenizer ? { textTokenizer: e.setup.textTokenizer, text: app.state.text } : {}),
            ...(e.setup.task === 'pairs' ? { pairs: app.state.pairs } : {}) }) }),
        h('button', { type: 'button', class: 'small', text: '×', 'aria-label': app.t('runs.forgetOne', { name }), title: app.t('runs.forgetOne', { name }),
          onclick: () => app.kept.forget(e.key) }));
    }));
    list.querySelectorAll('li').forEach((li, i) => (li.querySelector('.swatch').style.color = app.kept.entries[i].color));
    const keptHere = app.kept.entries.some((e) => e.live && e.record === app.run);
    pin.disabled = !app.run || keptHere || !(app.run.points.length > 0);
    pin.textContent = app.t(keptHere ? 'runs.kept' : 'runs.keep');
    forget.hidden = app.kept.entries.length === 0;
  }

  pin.addEventListener('click', () => app.keepRun());
  forget.addEventListener('click', () => app.kept.forget());
  app.on('kept', render);
  app.on('configured', render);
  app.on('run', render);
  app.on('progress', () => {
    if (pin.disabled && app.run?.points.length > 0 && !app.kept.entries.some((e) => e.live && e.record === app.run)) render();
  });
  app.on('lang', render);
  app.on('ready', render);
}
