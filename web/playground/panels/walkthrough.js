// panels/walkthrough.js — the seed's worked example, step by step, with real numbers: either a
// freshly initialised seed model (one forward pass on this thread, as cheap as it gets: 1,020
// parameters) or, when the session trains the seed's exact model, that model's current weights
// read from the worker.
import { buildSteps } from '../../components/shared/walkthrough-steps.js';
import { segmented } from '../../ui/dom.js';

const INPUT = 'how are you', TARGET = 'i am';
const NEEDED = ['tok_emb.weight', 'enc.0.self_attn.q.weight'];

export function initWalkthrough(app) {
  const $ = (id) => app.$(id);
  const wt = $('wt');
  let choice = null;            // the user's pick: 'fresh' | 'live' (null: live when possible)
  let fresh = null;             // { trace, params, vocab, seed }
  let live = null;              // { trace, params, vocab, step }
  let liveBusy = false, liveLast = 0;

  const liveAvailable = () => app.state.task === 'qa-toy' && Object.keys(app.state.model).length === 0 && app.config?.arch === 'encoder-decoder' && !app.error;
  const source = () => (liveAvailable() && choice !== 'fresh' ? 'live' : 'fresh');

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

  async function fetchLive() {
    if (liveBusy) return;
    liveBusy = true;
    liveLast = performance.now();
    try {
      const trace = await app.session.snapshot({ input: INPUT, target: TARGET });
      const params = Object.fromEntries(await Promise.all(NEEDED.map(async (n) => [n, await app.session.parameter(n)])));
      live = { trace, params, vocab: app.info.vocab.slice(0, app.config.vocabSize), step: trace.step };
    } catch {
      live = null;
    }
    liveBusy = false;
    render();
  }

  function render() {
    if (!app.tp) return;
    const src = source();
    segmented($('wt-source'), [
      { value: 'fresh', label: app.t('wt.source.fresh', { seed: app.state.seed }) },
      { value: 'live', label: app.t('wt.source.live', { step: live?.step ?? app.report?.step ?? 0 }), disabled: !liveAvailable() },
    ], src, (v) => {
      choice = v;
      if (v === 'live') fetchLive();
      render();
    });
    let data;
    if (src === 'live') {
      if (!live) {
        fetchLive();
        return;
      }
      data = live;
      $('wt-note').textContent = app.t('wt.note.live', { step: live.step });
    } else {
      data = freshData();
      $('wt-note').textContent = app.t('wt.note.fresh') + (liveAvailable() ? '' : ` ${app.t('wt.note.unavailable', { task: app.t('task.qa-toy') })}`);
    }
    wt.steps = buildSteps({ trace: data.trace, params: data.params, vocab: data.vocab, t: (k, v) => app.t(k, v) });
    if (wt.step !== app.state.wt) wt.step = Math.min(app.state.wt, wt.steps.length - 1);
  }

  wt.addEventListener('tp-step', (e) => app.set({ wt: e.detail.index }));
  app.on('ready', render);
  app.on('lang', render);
  app.on('configured', () => {
    live = null;
    render();
  });
  app.on('state', ({ changed }) => {
    if (changed.includes('seed') || changed.includes('task') || changed.includes('model')) render();
    else if (changed.includes('wt') && wt.step !== app.state.wt) wt.step = app.state.wt;
  });
  // The live model changes while it trains: re-read it at most once a second, and once more
  // after the last change.
  let trailing = 0;
  app.on('snapshot', () => {
    if (source() !== 'live') return;
    const wait = 1000 - (performance.now() - liveLast);
    clearTimeout(trailing);
    if (wait <= 0) fetchLive();
    else trailing = setTimeout(fetchLive, wait);
  });
}
