// app.js — the playground page's entry point and its one piece of shared state.
//
// Data flows one way: state (state.js, mirrored in the URL hash) -> the training session in the
// Web Worker (createTrainingSession) and the cheap same-page API (tokenizers, the seed model's
// single forward pass) -> the views (web/components). The run — its steps, losses, state and the
// history of snapshots the views draw — is the worker's; `app.run` is the session's read-only
// mirror of it, and nothing here copies it. The App owns only what the page adds: which step of
// the history is shown (`app.shownStep`, null = the newest) and which inputs the history
// records (`app.probe()`). Panels (./panels/*.js) subscribe to the App's events — 'state',
// 'configured', 'progress', 'run', 'history' (the snapshots recorded), 'snapshot' (the one shown
// changed), 'lang' — the frequent ones at most once per animation frame — and
// call its methods; none of them talks to another panel.
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
import '../components/tp-kv-cache.js';
import '../components/tp-rope-plot.js';
import '../components/tp-walkthrough-view.js';
import '../components/tp-self-check.js';
import '../components/tp-score-explain.js';
import { parseHash, readHash, toHash, sessionRequest, modelKey, defaultState, setupOf, setupKey, ARCH_FIELDS, TRAIN_FIELDS, TASKS, CUSTOM_TASKS } from './state.js';
import { KeptRuns, differenceLabels } from './runs.js';
import { headColor } from '../components/shared/colormap.js';
import { t } from './strings.js';
import { applyStrings } from '../ui/dom.js';
import { labelViews } from '../ui/lang.js';
import { viewLabels } from '../ui/strings.js';
import { template } from './template.js';
import { THEME_CSS } from '../ui/theme.js';
import { adoptStyles } from '../ui/sheets.js';
import { PLAYGROUND_CSS } from '../styles/playground-css.js';
import { initSetup } from './panels/setup.js';
import { initTraining } from './panels/training.js';
import { initTimeline } from './panels/timeline.js';
import { initRuns } from './panels/runs.js';
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
    this.imported = null;    // an imported model: { files, name, tokenizer, info } (not in the URL: files are the user's)
    this.error = null;
    this.configError = null; // the set-up the worker refused (Train stays off until it is fixed)
    this.shownStep = null;   // the step of the run's history the views show (null: the newest)
    this.kept = new KeptRuns();   // the runs pinned to compare (runs.js)
    this.runSetup = null;    // the set-up of the current run (state.js setupOf), as it was configured
    this._probes = new Map();   // panel -> { input, target?, full? }: what the history traces
    this._params = new Map();   // panel -> [{ name, rows?, maxRows? }]: the small tables it keeps
    this._infos = new Map();
    this._configured = '';
    this._runId = 0;
    this._lastRun = null;
    this._configureTimer = 0;
    this._configuring = null;
    this._frame = 0;
    this._due = new Map();     // event type -> detail, emitted at the next animation frame
    this._lastShown = null;
  }

  // ---- the run (the worker's record, mirrored by the session) ------------------------------

  // The run of the last configure() or reset() that finished (the session may already mirror a
  // newer one whose set-up this page has not taken in yet).
  get run() {
    const run = this.session?.run ?? null;
    return run && run.id === this._runId ? run : null;
  }
  get config() {
    return this.configError ? null : this.run?.config ?? null;
  }
  get modelInfo() {
    return this.run?.info ?? null;
  }

  // The snapshot of the history the views show, or null.
  get shown() {
    const run = this.run;
    if (!run?.snapshots.length) return null;
    return this.shownStep === null ? run.snapshots.at(-1) : run.snapshotAt(this.shownStep);
  }

  // The shown snapshot's trace of the probe input: { input, decoderInput, tensors, probe, top,
  // step, params, error? }, or null.
  get snapshot() {
    return this.traceOf('main');
  }

  traceOf(key, snapshot = this.shown) {
    const p = snapshot?.probes?.[key];
    if (!p) return null;
    return { ...p, step: snapshot.step, params: snapshot.params, error: p.error ? new Error(p.error) : null };
  }

  // Shows step `step` of the history in every view (null: follow the newest).
  show(step) {
    const next = step === null || step === undefined ? null : step;
    if (next === this.shownStep) return;
    this.shownStep = next;
    this.later('snapshot');
  }

  // `render`, run now when the section `id` is on screen (or near it), else once it scrolls into
  // view, and at most every `every` ms: panels out of sight cost nothing while the run goes on.
  whenVisible(id, render, { every = 0 } = {}) {
    const section = this.$(id);
    let visible = true, dirty = false, last = 0, timer = 0;
    const run = () => {
      dirty = false;
      last = performance.now();
      render();
    };
    const request = () => {
      dirty = true;
      if (!visible || timer) return;
      const wait = every - (performance.now() - last);
      if (wait <= 0) run();
      else timer = setTimeout(() => {
        timer = 0;
        if (dirty && visible) run();
      }, wait);
    };
    if (section && typeof IntersectionObserver !== 'undefined') {
      new IntersectionObserver((entries) => {
        visible = entries.at(-1).isIntersecting;
        if (visible && dirty) request();
      }, { rootMargin: '200px 0px' }).observe(section);
    }
    return request;
  }

  // Emits `type` at the next animation frame, once however often it is asked for: views redraw
  // at most once a frame whatever the worker sends.
  later(type, detail) {
    this._due.set(type, detail);
    if (this._frame) return;
    this._frame = requestAnimationFrame(() => {
      this._frame = 0;
      const due = [...this._due];
      this._due.clear();
      for (const [t, d] of due) {
        if (t === 'snapshot') {
          const shown = this.shown;
          if (shown === this._lastShown && d !== 'force') continue;
          this._lastShown = shown;
          this.emit('snapshot', this.snapshot);
        } else {
          this.emit(t, d);
        }
      }
    });
  }

  // A control holds a value the core's table does not allow (why: the message), or not (null):
  // Train stays off while any does.
  setInvalid(key, why) {
    this.invalid ??= new Map();
    if (why) this.invalid.set(key, why);
    else this.invalid.delete(key);
    this.emit('invalid', this.invalid);
  }

  // ---- kept runs ---------------------------------------------------------------------------

  // Keeps the current run (it goes on recording until the set-up changes).
  keepRun() {
    if (this.run && this.runSetup) this.kept.keep(this.runSetup, this.run);
  }

  // The runs the comparison views draw — every kept run that has a record here, then the current
  // run unless it is kept — with their labels (what differs between them) and colours.
  compared() {
    const list = this.kept.entries.filter((e) => e.record).map((e) => ({ key: e.key, setup: e.setup, record: e.record, color: e.color, kept: true,
      current: e.live && e.record === this.run }));
    if (this.run && this.runSetup && !list.some((r) => r.current)) {
      list.push({ key: setupKey(this.runSetup), setup: this.runSetup, record: this.run, color: headColor(this.kept.entries.length), kept: false, current: true });
    }
    const labels = differenceLabels(list, (r) => this.runValues(r), (k, v) => this.settingLabel(k, v), (n) => this.t('runs.same', { n }));
    return list.map((r, i) => ({ ...r, label: labels[i] }));
  }

  // A run's effective settings: the task, seed, every architecture and training option.
  runValues({ setup, record }) {
    let info = null;
    try {
      info = CUSTOM_TASKS.includes(setup.task) ? null : this.infoFor(setup.task);
    } catch {
      info = null;
    }
    const config = record?.config ?? { ...info?.defaults, ...setup.model };
    const train = { ...info?.train, ...setup.train };
    const out = { task: setup.task, seed: setup.seed };
    if (setup.data) out.data = setup.data;
    for (const f of ARCH_FIELDS) if (config[f.key] !== undefined) out[f.key] = config[f.key];
    for (const f of TRAIN_FIELDS) if (train[f.key] !== undefined) out[f.key] = train[f.key];
    return out;
  }

  settingLabel(key, value) {
    if (key === 'task') return this.t(`task.${value}`);
    if (key === 'seed') return this.t('runs.seed', { seed: value });
    if (key === 'data') return this.t('runs.data', { data: value });
    const v = typeof value === 'string' || typeof value === 'boolean' ? this.t(`value.${value}`) : typeof value === 'number' && !Number.isInteger(value) ? String(Number(value.toPrecision(3))) : String(value);
    return `${this.t(`field.${key}`)}: ${v}`;
  }

  // What the history records at every snapshot for `key` (a panel): an input to trace (`probe`:
  // { input, target?, full? }) and small parameter tables ([{ name, rows?, maxRows? }]). The
  // views' own probe, 'main', is the state's input.
  record(key, { probe = null, params = [] } = {}) {
    const before = JSON.stringify([this._probes.get(key), this._params.get(key)]);
    if (probe) this._probes.set(key, probe);
    else this._probes.delete(key);
    this._params.set(key, params);
    if (JSON.stringify([this._probes.get(key), this._params.get(key)]) !== before) this.sendProbes();
  }

  sendProbes() {
    if (!this.session) return;
    const probes = [{ key: 'main', input: this.state.input || null }, ...[...this._probes].map(([key, p]) => ({ key, ...p }))];
    const params = [...new Map([...this._params.values()].flat().map((p) => [p.name, p])).values()];
    this.session.setProbes({ probes, params }).catch((e) => this.fail(e));
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
    if (changed.includes('input')) this.sendProbes();
    if (this.session && modelKey(this.state) !== before) this.scheduleConfigure();
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
      this.configError = error;
      return this.fail(error);
    }
    const job = (this._configuring = this.session.configure(checkpoint ? { ...request, checkpoint } : request));
    let result;
    try {
      result = await job;
    } catch (error) {
      if (job === this._configuring) {
        this.configError = error;
        this.fail(error);
      }
      return null;
    }
    if (job !== this._configuring) return null;  // a newer configure() superseded this one
    this.info = info;
    this._configured = key;
    if (this._lastRun) this.kept.freeze(this._lastRun);
    this._runId = result.run;
    this._lastRun = this.session.run;
    this.runSetup = setupOf(this.state);
    this.error = null;
    this.configError = null;
    this.shownStep = null;
    this.emit('configured', result);
    this.emit('busy', false);
    this.status('status.ready');
    this.later('snapshot', 'force');
    return result;
  }

  // A fresh model from the same set-up: a new run.
  async reset() {
    this.emit('busy', true);
    try {
      const result = await this.session.reset();
      if (this._lastRun) this.kept.freeze(this._lastRun);
      this._runId = result.run;
      this._lastRun = this.session.run;
      this.shownStep = null;
      this.emit('configured', result);
      this.status('status.ready');
      this.later('snapshot', 'force');
    } catch (e) {
      this.fail(e);
    }
    this.emit('busy', false);
  }

  // The element scrolled out of view (false) or back (true): training pauses while nobody can
  // see it and resumes where it stopped.
  setVisible(visible) {
    this.visible = visible;
    if (visible) this._shown?.();
    if (!this.session) return;
    if (!visible && this.run?.running) {
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
    this.status('status.failed');
    return null;
  }

}

// Writes the playground into host's shadow root and starts it. Options: { standalone (mirror the
// state in the URL hash, set the document's title and language), state (initial state object),
// onReady(app) }. Returns the App at once; it loads the engine and the worker in the background.
export function mountPlayground(host, { standalone = false, state, onReady, visible = true } = {}) {
  const root = host.shadowRoot ?? host.attachShadow({ mode: 'open' });
  root.innerHTML = template({ standalone });
  adoptStyles(root, THEME_CSS, PLAYGROUND_CSS);
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
  // In-page links (the section menu) and the "skip to the panels" button scroll inside the root:
  // ids in a shadow root are not the document's, and the URL hash holds the state. (The skip is
  // a button: a link's target in a shadow root is out of reach of the document it is read in.)
  root.addEventListener('click', (e) => {
    const a = e.target.closest?.('a[href^="#"], [data-skip-to]');
    if (!a) return;
    const target = app.$(a.dataset.skipTo ?? a.getAttribute('href').slice(1));
    if (!target) return;
    e.preventDefault();
    target.scrollIntoView({ block: 'start' });
    // Focus moves there too (so the next Tab goes on from there): the section itself.
    if (!target.hasAttribute('tabindex')) target.setAttribute('tabindex', '-1');
    target.focus({ preventScroll: true });
  });
  app.applyLang();
  app.status('status.loading');
  // What a hand-edited link held that the page could not use, said once at the top.
  const linkProblems = app.standalone ? readHash(location.hash).problems : [];
  const showLinkProblems = () => {
    const el = app.$('link-error');
    el.hidden = linkProblems.length === 0;
    el.textContent = linkProblems.length ? app.t('app.linkProblems', { list: linkProblems.map((p) => `${p.key}=${p.value} (${p.reason})`).join('; ') }) : '';
  };
  app.on('lang', showLinkProblems);
  showLinkProblems();
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
  initTimeline(app);
  initRuns(app);
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
  app.session.addEventListener('progress', (e) => app.later('progress', e.detail));
  app.session.addEventListener('snapshot', () => {
    app.later('history');
    app.later('snapshot');
  });
  app.session.addEventListener('state', (e) => {
    const d = e.detail;
    app.emit('run', d);
    if (d.reason === 'error') app.status('status.failed');
    else if (d.reason === 'finished') app.status('status.finished');
    else if (d.reason === 'paused') app.status(app.pausedByView ? 'status.offscreen' : 'status.paused');
    else if (d.reason === 'started') app.status('status.training');
    // A kept run that is still the current one is stored as it is now.
    if (d.reason !== 'started') for (const e of app.kept.entries) if (e.live && e.record === app.session.run) app.kept.save(e);
  });
  app.session.addEventListener('error', (e) => app.fail(e.detail));
  app.kept.addEventListener('change', () => {
    app.set({ runs: app.kept.setups });
    app.emit('kept');
  });
  await app.kept.load(app.state.runs);
  app.emit('ready');
  app.sendProbes();
  await app.configure();
  if (app.standalone) document.body.dataset.ready = 'true';
  app.host.dataset.ready = 'true';
  onReady?.(app);
}
