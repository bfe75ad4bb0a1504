// app.js — the playground's entry point and its wiring: where each panel goes, when it is drawn,
// and which intent of a panel calls what. The state and the run are the Playground's
// (playground.js says who owns what); the panels (panels/index.js) draw derive()'s props and
// emit intents (`tp-intent` events), routed by INTENTS below to the owner of what they change.
//
// This file is the playground's public entry, the one module outside web/playground may import
// (docs/ARCHITECTURE.md): mountPlayground(), plus what an element needs to read its attributes,
// parseHash() and TASK_NAMES. mountPlayground(host, options) builds the playground in `host`'s
// shadow root: <tp-playground> (web/widgets/tp-playground.js) is the only caller, and
// web/index.html is a page holding one <tp-playground standalone>. Ids are local to that root,
// so several playgrounds can share a page.
import { load, createTrainingSession } from '../lib/transformer-playground.js';
import { isolatePage, isolatingWorker, isolationStatus, unisolatePage } from '../lib/isolation.js';
import '../components/tp-heatmap.js';
import '../components/tp-token-chips.js';
import '../components/tp-attention-grid.js';
import '../components/tp-head-view.js';
import '../components/tp-line-chart.js';
import '../components/tp-prob-bars.js';
import '../components/tp-kv-cache.js';
import '../components/tp-rope-plot.js';
import '../components/tp-walkthrough-view.js';
import '../components/tp-self-check.js';
import '../components/tp-score-explain.js';
import { h, applyStrings } from '../ui/dom.js';
import { labelViews } from '../ui/lang.js';
import { viewLabels } from '../ui/strings.js';
import { THEME_CSS } from '../ui/theme.js';
import { adoptStyles } from '../ui/sheets.js';
import { PLAYGROUND_CSS } from '../styles/playground-css.js';
import { defaultState, applyPreset, TASKS, CUSTOM_TASKS, defaultPace } from './state.js';
import { parseHash, readHash, toHash } from './hash.js';
import { Playground } from './playground.js';
import { Resources } from './resources.js';
import { whenVisible } from './frames.js';
import { PANELS } from './panels/index.js';
import { RECORD as EMBEDDINGS_RECORD } from './panels/embeddings/derive.js';
import { recordWalkthrough } from './panels/walkthrough/record.js';
import { modelPatch, trainPatch, resetPatch } from './panels/setup/patches.js';
import { OutputsActions } from './panels/outputs/actions.js';
import { FilesActions } from './panels/files/actions.js';
import { KeptTraining } from './train-kept.js';

// Every task the playground offers (built-in, then the user's own text / pairs), and the state a
// link's hash describes: for <tp-playground>'s task and state attributes.
export const TASK_NAMES = [...TASKS, ...CUSTOM_TASKS];
export { parseHash };

// Where each panel goes. The panels are the page's <main> only when the playground is the page
// (standalone); embedded in a documentation page, whose own <main> holds it, a plain container.
function layout(standalone) {
  const panel = (name) => h(PANELS.find((p) => p.name === name).tag);
  return h('div', { class: 'tp-app', part: 'app' },
    h('p', { class: 'error widget-error', id: 'widget-error', role: 'alert', hidden: true }),
    h('p', { class: 'error widget-error', id: 'link-error', 'data-testid': 'link-error', role: 'alert', hidden: true }),
    panel('masthead'), panel('trainbar'),
    h('div', { class: 'layout' }, panel('setup'),
      h(standalone ? 'main' : 'div', { id: 'main' },
        h('div', { class: 'duo' }, panel('training'), panel('outputs')),
        ...['attention', 'tokens', 'embeddings', 'walkthrough', 'files', 'about'].map(panel))));
}

// Builds the playground in host's shadow root and starts it. Options: { standalone (mirror the
// state in the URL hash, set the document's title and language), state (initial state object),
// visible (false: wait until setVisible(true) to load the engine), onReady(app) }. Returns the
// Playground at once; it loads the engine and the worker in the background.
export function mountPlayground(host, { standalone = false, state, onReady, visible = true } = {}) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  root.replaceChildren();
  adoptStyles(root, THEME_CSS, PLAYGROUND_CSS);
  root.append(layout(standalone));
  const app = new Playground(state ?? (standalone ? parseHash(location.hash) : defaultState()), { standalone, visible });
  start(app, { root, host }, onReady);
  return app;
}

// What the panels read besides the state, the run and the shown snapshot (derive()'s `page`).
function pageView(app, local) {
  let compared = null;
  return {
    ...app.page, ...local,
    tp: app.tp, shownStep: app.shownStep, standalone: app.standalone, kept: app.kept, pausedByView: app.pausedByView,
    imported: app.imported ? { name: app.imported.name, info: app.imported.info } : null,
    rate: app.rate.rate,
    infoFor: (task) => app.infoFor(task),
    get compared() {
      return (compared ??= app.compared());
    },
    // The state's task, or the configured one while the state's is refused.
    get taskInfo() {
      try {
        return app.tp ? app.infoFor() : null;
      } catch {
        return app.info;
      }
    },
  };
}

// Draws every panel after its events; returns draw(name) for what a panel's actions change.
function drawPanels(app, root, local) {
  const draws = new Map();
  for (const p of PANELS) {
    const el = root.querySelector(p.tag);
    const draw = () => el.render(p.derive(app.state, app.run, app.shown, app.info, pageView(app, local)));
    const lazy = p.lazy ? whenVisible(el.firstElementChild, draw, { every: p.every }) : null;
    for (const type of p.on) app.on(type, p.lazy?.includes(type) ? lazy : draw);
    draws.set(p.name, draw);
    draw();
  }
  return (name) => draws.get(name)();
}

// What each intent of a panel does, and who does it.
function intents(app, { local, outputs, files, keptTraining, redraw }) {
  const fail = (e) => app.fail(e);
  const promptText = (value = '') => value.trim() || app.state.prompt || app.info?.sampleInputs?.[0] || '';
  const taskInfo = () => pageView(app, local).taskInfo;
  return {
    set: (patch) => app.set(patch),
    'set-option': ({ group, key, value }) => app.set(group === 'seed' ? { seed: value } : (group === 'model' ? modelPatch : trainPatch)(app.state, taskInfo(), key, value)),
    'reset-option': ({ group, key }) => app.set(group === 'seed' ? { seed: 1 } : resetPatch(app.state, group, key)),
    preset: ({ name }) => app.set(applyPreset(app.state, name, (task) => app.infoFor(task))),
    invalid: ({ clear, key, why }) => (clear ? app.clearInvalid() : app.setInvalid(key, why)),
    start: () => app.session.start().catch(fail),
    pause: () => app.session.pause().catch(fail),
    step: () => app.session.step(1).catch(fail),
    reset: () => app.reset(),
    seek: ({ step }) => app.show(step),
    'keep-run': () => app.keepRun(),
    'forget-runs': () => app.kept.forget(),
    'forget-run': ({ key }) => app.kept.forget(key),
    'train-kept': () => keptTraining.trainAll(),
    isolate: async () => {
      try {
        local.isolateFailed = await isolatePage();  // reloads the page when it works
      } catch (e) {
        local.isolateFailed = e.message;
      }
      redraw('training');
    },
    unisolate: () => unisolatePage(),  // unregisters the service worker, reloads the page
    generate: ({ prompt, sample }) => {
      const first = app.info?.sampleInputs?.[0] ?? '';
      app.set({ prompt: sample ? prompt : prompt.trim() === first ? '' : prompt.trim() });
      return outputs.answer(promptText(prompt));
    },
    preview: ({ moved, prompt }) => outputs.preview(moved, promptText(prompt)),
    'measure-kv': ({ prompt }) => outputs.measureKv(promptText(prompt)),
    'compare-run': ({ key }) => Object.assign(local, { compareKey: key }) && redraw('attention'),
    'wt-source': ({ value }) => Object.assign(local, { wtSource: value }) && redraw('walkthrough'),
    'wt-pick': ({ layer, head, token }) => (local.wtPick = { layer, head, token }) && redraw('walkthrough'),
    save: () => files.save(),
    'load-file': ({ file }) => files.loadFile(file),
    'load-shipped': ({ name }) => files.loadShipped(name),
    'copy-link': () => files.copyLink(),
    'save-run': () => files.saveRun(),
    'open-run': ({ file }) => files.openRun(file),
    'import-files': ({ files: list, name }) => files.importFiles(list, name),
    'import-url': ({ text }) => files.importUrl(text),
  };
}

async function start(app, { root, host }, onReady) {
  const local = { compareKey: null, wtSource: null, wtPick: null, wtGenerated: null, isolateFailed: null, threads: null, isolation: null, isolationScopes: [] };
  const resources = (local.resources = new Resources({ tp: () => app.tp, infoFor: (task) => app.infoFor(task) }));
  let redraw = () => {};
  const outputs = new OutputsActions(app, () => app.emit('outputs'));
  const files = new FilesActions(app, () => app.emit('files'));
  const keptTraining = new KeptTraining(app, () => app.emit('kept'));
  Object.defineProperties(local, { outputs: { get: () => outputs.out, enumerable: true }, files: { get: () => files.state, enumerable: true },
    keptTraining: { get: () => keptTraining.state, enumerable: true } });
  const routes = intents(app, { local, outputs, files, keptTraining, redraw: (name) => redraw(name) });
  root.addEventListener('tp-intent', (e) => {
    const { intent, ...detail } = e.detail;
    if (!Object.hasOwn(routes, intent)) throw new Error(`a panel asked for '${intent}', which no one does (app.js INTENTS)`);
    Promise.resolve(routes[intent](detail)).catch((error) => app.fail(error));
  });
  listenToPage(app, root, host);
  // A new run: no answer or replay of the last one goes on into it (before the panels draw it).
  app.on('configured', () => {
    outputs.reset();
    root.querySelector('tp-trainbar-panel').newRun();
    app.session.setPace(app.state.pace ?? defaultPace(app.info?.train)).catch((e) => app.fail(e));
  });
  redraw = drawPanels(app, root, local);
  // The isolation service worker's undo (About), shown while one is registered on this origin.
  if (app.standalone) {
    isolatingWorker().then((found) => {
      local.isolationScopes = found.map((r) => r.scope);
      redraw('about');
    }, () => {});
  }
  app.status('status.loading');
  app.on('state', ({ changed }) => {
    if (changed.includes('pace')) app.rate.reset();
    if (changed.includes('pace')) app.session?.setPace(app.state.pace ?? defaultPace(app.info?.train)).catch((e) => app.fail(e));
  });
  app.on('imported', (imported) => imported || files.left());
  app.record('embeddings', EMBEDDINGS_RECORD);
  recordWalkthrough(app, root, local);
  app.addEventListener('dispose', () => resources.dispose());
  // Nothing heavy (the engine, the worker) until the playground is first seen.
  await app.seen();
  if (app.disposed) return;
  try {
    app.attach(...(await Promise.all([load(), createTrainingSession()])));
  } catch (error) {
    app.fail(error);
    return;
  }
  if (app.disposed) return app.session.dispose();
  listenToSession(app);
  local.threads = { threads: app.session.threads, support: app.session.threadSupport };
  local.isolation = isolationStatus();
  await app.kept.load(app.state.runs);
  app.emit('ready');
  app.sendProbes();
  await app.configure();
  if (app.standalone) document.body.dataset.ready = 'true';
  host.dataset.ready = 'true';
  onReady?.(app);
}

// The page around the panels: the language, a link's problems, in-page links, hover sync.
function listenToPage(app, root, host) {
  const linkProblems = app.standalone ? readHash(location.hash).problems : [];
  const applyLang = () => {
    if (host.getAttribute('lang') !== app.state.lang) host.setAttribute('lang', app.state.lang);
    if (app.standalone) {
      document.documentElement.lang = app.state.lang;
      document.title = app.t('app.title');
    }
    applyStrings(root, (key) => app.t(key));
    labelViews(root, viewLabels(app.state.lang));
    // What a hand-edited link held that the page could not use, said once at the top.
    const el = root.getElementById('link-error');
    el.hidden = linkProblems.length === 0;
    el.textContent = linkProblems.length ? app.t('app.linkProblems', { list: linkProblems.map((p) => `${p.key}=${p.value} (${p.reason})`).join('; ') }) : '';
  };
  app.on('lang', applyLang);
  applyLang();
  if (app.standalone) {
    window.addEventListener('hashchange', () => {
      const next = parseHash(location.hash);
      if (toHash(next) !== toHash(app.state)) app.set(next);
    });
  }
  // In-page links (the section menu) and the "skip to the panels" button scroll inside the root:
  // ids in a shadow root are not the document's, and the URL hash holds the state. (The skip is
  // a button: a link's target in a shadow root is out of reach of the document it is read in.)
  root.addEventListener('click', (e) => {
    const a = e.target.closest?.('a[href^="#"], [data-skip-to]');
    const target = a && root.getElementById(a.dataset.skipTo ?? a.getAttribute('href').slice(1));
    if (!target) return;
    e.preventDefault();
    target.scrollIntoView({ block: 'start' });
    // Focus moves there too (so the next Tab goes on from there): the section itself.
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  });
  // Hover a token anywhere: light it up everywhere.
  root.addEventListener('tp-hover', (e) => {
    for (const el of root.querySelectorAll('tp-heatmap, tp-token-chips, tp-attention-grid, tp-head-view')) el.highlight = e.detail;
  });
}

// The worker's news: progress and snapshots at most once a frame, its state changes at once.
function listenToSession(app) {
  const { session } = app;
  session.addEventListener('progress', (e) => {
    app.rate.observe(e.detail.step, e.detail.workerTime);
    app.later('progress', e.detail);
  });
  session.addEventListener('snapshot', () => {
    app.later('history');
    app.later('snapshot');
  });
  session.addEventListener('state', (e) => {
    const d = e.detail;
    // The rate is measured from each start on (a pause's or the end's time says nothing of it).
    app.rate.reset();
    if (d.reason === 'started') app.rate.observe(d.step, d.workerTime);
    app.emit('run', d);
    if (d.reason === 'error') app.status('status.failed');
    else if (d.reason === 'finished') app.status('status.finished');
    else if (d.reason === 'diverged' || d.reason === 'met') app.status(`status.${d.reason}`, { step: d.reason === 'met' ? d.step : d.report?.divergedAt ?? d.step });
    else if (d.reason === 'paused') app.status(app.pausedByView ? 'status.offscreen' : 'status.paused');
    else if (d.reason === 'started') app.status('status.training');
    // A kept run that is still the current one is stored as it is now.
    if (d.reason !== 'started') for (const k of app.kept.entries) if (k.live && k.record === session.run) app.kept.save(k);
  });
  session.addEventListener('error', (e) => app.fail(e.detail));
  app.kept.addEventListener('change', () => {
    app.set({ runs: app.kept.setups });
    app.emit('kept');
  });
}
