// panels/walkthrough.js — the seed's worked example, step by step, with real numbers: either a
// freshly initialised seed model (one forward pass on this thread, as cheap as it gets: 1,020
// parameters) or, when the session trains the seed's exact model, that model at the step the
// timeline shows: the history records the example's trace and weights with every snapshot.
import { buildSteps } from '../../components/shared/walkthrough-steps.js';
import { segmented } from '../../ui/dom.js';

const INPUT = 'how are you', TARGET = 'i am';
const NEEDED = ['tok_emb.weight', 'enc.0.self_attn.q.weight'];

export function initWalkthrough(app) {
  const $ = (id) => app.$(id);
  const wt = $('wt');
  let choice = null;            // the user's pick: 'fresh' | 'live' (null: live when possible)
  let fresh = null;             // { trace, params, vocab, seed }

  const liveAvailable = () => app.state.task === 'qa-toy' && Object.keys(app.state.model).length === 0 && app.config?.arch === 'encoder-decoder' && !app.error;
  const source = () => (liveAvailable() && choice !== 'fresh' ? 'live' : 'fresh');
  // The history records the example when the session trains the seed's model.
  const wanted = () => app.state.task === 'qa-toy' && Object.keys(app.state.model).length === 0;
  const record = () => app.record('walkthrough', wanted() ? { probe: { input: INPUT, target: TARGET, full: true }, params: NEEDED.map((name) => ({ name })) } : {});
  record();

  function freshData() {
    if (fresh?.seed === app.state.seed) return fresh;
    const tp = app.tp;
    const task = tp.task('qa-toy');
    const model = tp.model({ ...task.defaults, seed: app.state.seed });
    const trainer = tp.trainer(model, task, { seed: app.state.seed });  // attaches the task's tokenizer; no step is taken
    try {
      const trace = model.trace(INPUT, { target: TARGET });
      const params = Object.fromEntries(NEEDED.map((n) => [n, model.parameter(n)]));
      const vocab = task.tokenizer();
      fresh = { trace, params, vocab: vocab.vocabulary(), seed: app.state.seed };
      vocab.dispose();
    } finally {
      trainer.dispose();
      model.dispose();
      task.dispose();
    }
    return fresh;
  }

  // The example at the shown step of the history, or null.
  function liveData() {
    const t = app.traceOf('walkthrough');
    if (!t || t.error || !NEEDED.every((n) => t.params?.[n])) return null;
    return { trace: t, params: t.params, vocab: app.info.vocab.slice(0, app.config.vocabSize), step: t.step };
  }

  let shownKey = null;
  function render() {
    if (!app.tp) return;
    const src = source();
    const live = src === 'live' ? liveData() : null;
    segmented($('wt-source'), [
      { value: 'fresh', label: app.t('wt.source.fresh', { seed: app.state.seed }) },
      { value: 'live', label: app.t('wt.source.live', { step: live?.step ?? app.shown?.step ?? 0 }), disabled: !liveAvailable() },
    ], src, (v) => {
      choice = v;
      render();
    });
    let data;
    if (src === 'live') {
      if (!live) return;
      data = live;
      $('wt-note').textContent = app.t('wt.note.live', { step: live.step });
    } else {
      data = freshData();
      $('wt-note').textContent = app.t('wt.note.fresh') + (liveAvailable() ? '' : ` ${app.t('wt.note.unavailable', { task: app.t('task.qa-toy') })}`);
    }
    const key = `${src}|${src === 'live' ? `${app.run?.id}.${data.step}` : data.seed}|${app.state.lang}`;
    if (key === shownKey) return;
    shownKey = key;
    wt.steps = buildSteps({ trace: data.trace, params: data.params, vocab: data.vocab, t: (k, v) => app.t(k, v) });
    if (wt.step !== app.state.wt) wt.step = Math.min(app.state.wt, wt.steps.length - 1);
  }

  wt.addEventListener('tp-step', (e) => app.set({ wt: e.detail.index }));
  app.on('ready', render);
  app.on('lang', render);
  app.on('configured', render);
  app.on('state', ({ changed }) => {
    if (changed.includes('task') || changed.includes('model')) record();
    if (changed.includes('seed') || changed.includes('task') || changed.includes('model')) render();
    else if (changed.includes('wt') && wt.step !== app.state.wt) wt.step = app.state.wt;
  });
  // The live example follows the history, when the panel is in view, at most 4 times a second.
  const follow = app.whenVisible('walkthrough', render, { every: 250 });
  app.on('snapshot', () => {
    if (source() === 'live') follow();
  });
}
