// app.js — the playground page's entry point and its one piece of shared state.
//
// Data flows one way: state (state.js, mirrored in the URL hash) -> the training session in the
// Web Worker (createTrainingSession) and the cheap same-page API (tokenizers, the seed model's
// single forward pass) -> the views (web/components). Panels (./panels/*.js) subscribe to the
// App's events — 'state', 'configured', 'progress', 'run', 'snapshot', 'lang' — and call its
// methods; none of them talks to another panel.
//
// This file is the playground's public entry, the one module outside web/playground may import
// (docs/ARCHITECTURE.md): mountPlayground(), plus what an element needs to read its attributes,
// parseHash() and TASK_NAMES. mountPlayground(host, options) writes the markup (template.js)
// into `host`'s shadow root and starts the app there: <tp-playground>
// (web/widgets/tp-playground.js) is the only caller, and web/index.html is a page holding one
// <tp-playground standalone>. Panels find their elements with app.$(id) inside that root, so
// several playgrounds can share a page.
import { load, createTrainingSession } from '../lib/transformer-playground.js';
import '../components/tp-heatmap.js';
import '../components/tp-token-chips.js';
import '../components/tp-attention-grid.js';
import '../components/tp-head-view.js';
import '../components/tp-line-chart.js';
import '../components/tp-prob-bars.js';
import '../components/tp-rope-plot.js';
import '../components/tp-walkthrough-view.js';
import '../components/tp-self-check.js';
import { parseHash, toHash, sessionRequest, modelKey, defaultState, TASKS, CUSTOM_TASKS } from './state.js';
import { t } from './strings.js';
import { applyStrings } from '../ui/dom.js';
import { labelViews } from '../ui/lang.js';
import { viewLabels } from '../ui/strings.js';
import { TEMPLATE } from './template.js';
import { THEME_CSS } from '../ui/theme.js';
import { adoptStyles } from '../ui/sheets.js';
import { initSetup } from './panels/setup.js';
import { initTraining } from './panels/training.js';
import { initTokens } from './panels/tokens.js';
import { initEmbeddings } from './panels/embeddings.js';
import { initAttention } from './panels/attention.js';
import { initWalkthrough } from './panels/walkthrough.js';
import { initOutputs } from './panels/outputs.js';
import { initFiles } from './panels/files.js';
import { initImport } from './panels/import.js';
import { initAbout } from './panels/about.js';

// Every task the playground offers (built-in, then the user's own text / pairs), and the state a
// link's hash describes: for <tp-playground>'s task and state attributes.
export const TASK_NAMES = [...TASKS, ...CUSTOM_TASKS];
export { parseHash };

export class App extends EventTarget {
  // root: the Document or ShadowRoot holding the markup; host: the element whose `lang` the
  // components read; standalone: the page is the playground (URL hash, document title and lang).
  constructor(state, { root = document, host = document.documentElement, standalone = true } = {}) {
    super();
    this.state = state;
    this.root = root;
    this.host = host;
    this.standalone = standalone;
    this.visible = true;     // false while the element is scrolled out of view (training pauses)
    this.tp = null;
    this.session = null;
    this.info = null;        // the current task: { name, kind, metric, defaults, train, sampleInputs, classNames, tokenizer, vocab }
    this.config = null;      // the model's config, from the worker
    this.modelInfo = null;   // { parameterCount, ... }
    this.totalSteps = 0;
    this.report = null;      // the latest training report
    this.running = false;
    this.snapshot = null;    // the latest trace of the probe input
    this.imported = null;    // an imported model: { files, name, tokenizer, info } (not in the URL: files are the user's)
    this.error = null;
    this._infos = new Map();
    this._configured = '';
    this._configureTimer = 0;
    this._configuring = null;
    this._snap = { busy: false, again: false, last: 0, timer: 0 };
  }

  t(key, vars) {
    return t(this.state.lang, key, vars);
  }

  // An element of the playground by id, and the focused element, inside its root.
  $(id) {
    return this.root.getElementById(id);
  }

  get activeElement() {
    return this.root.activeElement;
  }

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }

  on(type, fn) {
    this.addEventListener(type, (e) => fn(e.detail));
  }

  // Merges a patch into the state, mirrors it in the URL, and rebuilds the model if the patch
  // changed anything the model depends on.
  set(patch) {
    const before = modelKey(this.state);
    const changed = Object.keys(patch).filter((k) => JSON.stringify(this.state[k]) !== JSON.stringify(patch[k]));
    if (!changed.length) return;
    this.state = { ...this.state, ...patch };
    if (this.standalone) history.replaceState(null, '', toHash(this.state));
    if (changed.includes('lang')) this.applyLang();
    if (this.imported && changed.some((k) => k === 'task' || k === 'model' || k === 'seed')) this.setImported(null);
    this.emit('state', { changed });
    if (this.session && modelKey(this.state) !== before) this.scheduleConfigure();
    else if (changed.includes('input')) this.requestSnapshot(true);
  }

  applyLang() {
    if (this.host.getAttribute('lang') !== this.state.lang) this.host.setAttribute('lang', this.state.lang);
    if (this.standalone) {
      document.documentElement.lang = this.state.lang;
      document.title = this.t('app.title');
    }
    applyStrings(this.root, (key) => this.t(key));
    labelViews(this.root, viewLabels(this.state.lang));
    this.emit('lang');
  }

  status(key, vars) {
    const el = this.$('status');
    el.textContent = key ? this.t(key, vars) : '';
    el.dataset.key = key ?? '';
  }

  // ---- the current task, on this thread (tokenizer and defaults) -------------------------------

  taskSpec(name = this.state.task) {
    // An imported model trains on the text through its own tokenizer.
    if (this.imported && name === this.state.task) return { text: this.state.text, tokenizer: this.imported.tokenizer };
    if (name === 'text') return { text: this.state.text, tokenizer: this.state.textTokenizer };
    if (name === 'pairs') return { pairs: sessionRequest(this.state).task.pairs };
    return name;
  }

  infoFor(name = this.state.task) {
    const spec = this.taskSpec(name);
    const key = spec.tokenizer === this.imported?.tokenizer && this.imported ? `imported ${this.imported.name} ${spec.text}` : JSON.stringify(spec);
    let info = this._infos.get(key);
    if (!info) {
      const task = this.tp.task(spec);
      try {
        const tokenizer = task.tokenizer();
        info = { name: task.name, kind: task.kind, metric: task.metric, defaults: task.defaults, train: task.train, sampleInputs: task.sampleInputs,
          classNames: task.classNames, tokenizer, vocab: tokenizer.vocabulary(Math.min(tokenizer.vocabSize, 1024)) };
      } finally {
        task.dispose();
      }
      if (this._infos.size > 12) {
        const [oldKey, old] = this._infos.entries().next().value;
        old.tokenizer.dispose();
        this._infos.delete(oldKey);
      }
      this._infos.set(key, info);
    }
    return info;
  }

  // The probe input: what the tokens, embeddings and attention views show.
  get input() {
    return this.state.input || this.info?.sampleInputs?.[0] || '';
  }

  // ---- the training session ------------------------------------------------------------------

  scheduleConfigure() {
    clearTimeout(this._configureTimer);
    this._configureTimer = setTimeout(() => this.configure(), 200);
  }

  // Switches to (imported = { files, name, tokenizer, info }) or away from (null) an imported
  // model; the page's copy of its tokenizer is disposed when it is left.
  setImported(imported) {
    const old = this.imported;
    this.imported = imported;
    if (old && old !== imported) {
      for (const [key, info] of this._infos) {
        if (key.startsWith('imported ')) {
          info.tokenizer.dispose();
          this._infos.delete(key);
        }
      }
      old.tokenizer.dispose();
    }
    this.emit('imported', imported);
  }

  async useImported(imported) {
    this.setImported(imported);
    clearTimeout(this._configureTimer);
    return this.configure();
  }

  async configure({ checkpoint } = {}) {
    const key = modelKey(this.state);
    const base = sessionRequest(this.state);
    const request = this.imported ? { task: { text: this.state.text }, training: base.training, files: this.imported.files } : base;
    this.status('status.building');
    this.emit('busy', true);
    let info;
    try {
      info = this.infoFor();
    } catch (error) {
      return this.fail(error);
    }
    const job = (this._configuring = this.session.configure(checkpoint ? { ...request, checkpoint } : request));
    let result;
    try {
      result = await job;
    } catch (error) {
      if (job === this._configuring) this.fail(error);
      return null;
    }
    if (job !== this._configuring) return null;  // a newer configure() superseded this one
    this.info = info;
    this._configured = key;
    this.config = result.config;
    this.modelInfo = result.info;
    this.totalSteps = result.totalSteps;
    this.report = null;
    this.running = false;
    this.error = null;
    this.snapshot = null;
    this.emit('configured', result);
    this.emit('busy', false);
    this.status('status.ready');
    this.requestSnapshot(true);
    return result;
  }

  // The element scrolled out of view (false) or back (true): training pauses while nobody can
  // see it and resumes where it stopped.
  setVisible(visible) {
    this.visible = visible;
    if (visible) this._shown?.();
    if (!this.session) return;
    if (!visible && this.running) {
      this.pausedByView = true;
      this.session.pause().catch(() => {});
    } else if (visible && this.pausedByView) {
      this.pausedByView = false;
      this.session.start().catch((e) => this.fail(e));
    }
  }

  // Stops the worker and frees this playground's objects (the element was removed).
  dispose() {
    this.disposed = true;
    this.session?.dispose();
    for (const info of this._infos.values()) info.tokenizer.dispose();
    this._infos.clear();
    this.imported?.tokenizer.dispose();
    this.imported = null;
  }

  fail(error) {
    this.error = error;
    this.emit('error', error);
    this.emit('busy', false);
    this.status('status.error', { message: error.message });
    return null;
  }

  // A new trace of the probe input, at most every 300 ms while training.
  requestSnapshot(now = false) {
    const s = this._snap;
    if (s.busy) {
      s.again = true;
      return;
    }
    const wait = now ? 0 : Math.max(0, 300 - (performance.now() - s.last));
    if (s.timer) return;
    s.timer = setTimeout(() => {
      s.timer = 0;
      this._snapshot();
    }, wait);
  }

  async _snapshot() {
    const s = this._snap;
    s.busy = true;
    s.last = performance.now();
    const input = this.input;
    try {
      if (input && this.config) {
        let target;
        // A decoder-only model on a source -> target task: show it answering.
        if (this.config.arch === 'decoder-only' && this.info.kind === 'seq2seq') {
          const g = await this.session.generate(input, { maxNewTokens: Math.max(1, this.config.maxLen - this.info.tokenizer.encode(input).ids.length - 1) });
          target = g.text;
        }
        const trace = await this.session.snapshot({ input, target });
        this.snapshot = { ...trace, probe: input, error: null };
      }
    } catch (error) {
      this.snapshot = { error, probe: input, names: [], tensors: {} };
    }
    s.busy = false;
    this.emit('snapshot', this.snapshot);
    if (s.again) {
      s.again = false;
      this.requestSnapshot();
    }
  }
}

// Writes the playground into host's shadow root and starts it. Options: { standalone (mirror the
// state in the URL hash, set the document's title and language), state (initial state object),
// onReady(app) }. Returns the App at once; it loads the engine and the worker in the background.
export function mountPlayground(host, { standalone = false, state, onReady, visible = true } = {}) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  const css = new URL('../styles/playground.css', import.meta.url);
  root.innerHTML = `<link rel="stylesheet" href="${css}">${TEMPLATE}`;
  adoptStyles(root, THEME_CSS);
  const app = new App(state ?? (standalone ? parseHash(location.hash) : defaultState()), { root, host, standalone });
  app.visible = visible;
  start(app, onReady);
  return app;
}

async function start(app, onReady) {
  const { root } = app;
  if (app.standalone) {
    window.addEventListener('hashchange', () => {
      const next = parseHash(location.hash);
      if (toHash(next) !== toHash(app.state)) app.set(next);
    });
  }
  // In-page links (the section menu, "skip to the panels") scroll inside the root: ids in a
  // shadow root are not the document's, and the URL hash holds the state.
  root.addEventListener('click', (e) => {
    const a = e.target.closest?.('a[href^="#"]');
    if (!a) return;
    const target = app.$(a.getAttribute('href').slice(1));
    if (!target) return;
    e.preventDefault();
    target.scrollIntoView({ block: 'start' });
    target.querySelector('h2, [tabindex], button, input, select')?.focus?.({ preventScroll: true });
  });
  app.applyLang();
  app.status('status.loading');
  const langButton = app.$('lang');
  const labelLang = () => {
    langButton.textContent = app.t('app.langButton');
    langButton.setAttribute('lang', app.state.lang === 'en' ? 'ko' : 'en');
  };
  langButton.addEventListener('click', () => app.set({ lang: app.state.lang === 'en' ? 'ko' : 'en' }));
  app.on('lang', labelLang);
  labelLang();
  // Views that do not need the model yet.
  initSetup(app);
  initTraining(app);
  initTokens(app);
  initEmbeddings(app);
  initAttention(app);
  initWalkthrough(app);
  initOutputs(app);
  initFiles(app);
  initImport(app);
  initAbout(app);
  // Hover a token anywhere: light it up everywhere.
  root.addEventListener('tp-hover', (e) => {
    for (const el of root.querySelectorAll('tp-heatmap, tp-token-chips, tp-attention-grid, tp-head-view')) el.highlight = e.detail;
  });
  // Nothing heavy (the engine, the worker) until the playground is first seen.
  if (!app.visible) await new Promise((resolve) => (app._shown = resolve));
  if (app.disposed) return;
  try {
    const [tp, session] = await Promise.all([load(), createTrainingSession()]);
    app.tp = tp;
    app.session = session;
  } catch (error) {
    app.fail(error);
    return;
  }
  if (app.disposed) {
    app.session.dispose();
    return;
  }
  app.session.addEventListener('progress', (e) => {
    app.report = e.detail;
    app.running = e.detail.running;
    app.emit('progress', e.detail);
    app.requestSnapshot();
  });
  app.session.addEventListener('state', (e) => {
    const d = e.detail;
    app.running = d.running;
    if (d.report) app.report = d.report;
    app.emit('run', d);
    if (d.reason === 'error') app.status('status.error', { message: d.error });
    else if (d.reason === 'finished') app.status('status.finished');
    else if (d.reason === 'paused') app.status(app.pausedByView ? 'status.offscreen' : 'status.paused');
    else if (d.reason === 'started') app.status('status.training');
    app.requestSnapshot(true);
  });
  app.session.addEventListener('error', (e) => app.fail(e.detail));
  app.emit('ready');
  await app.configure();
  if (app.standalone) document.body.dataset.ready = 'true';
  app.host.dataset.ready = 'true';
  onReady?.(app);
}
