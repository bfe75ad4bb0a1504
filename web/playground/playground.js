// playground.js — who owns which piece of the playground's state.
//
//   the run               the training worker's RunRecord; `run` is the session's read-only mirror
//                         of the last configure() or reset(), never copied here;
//   the set-up            `state` (state.js), mirrored in the URL hash when the playground is the
//                         page; changed only through set();
//   what the page adds    `shownStep` (the history's step shown, null: the newest), `page` (busy,
//                         errors, controls holding a value the core refuses, the status line), kept
//                         runs (runs.js), an imported model, what the history records (probes.js),
//                         task infos (task-infos.js), the training speed (step-rate.js).
// Events (EventTarget): 'state' ({ changed }), 'configured', 'progress', 'run', 'history',
// 'snapshot', 'lang', 'busy', 'invalid', 'error', 'kept', 'imported', 'ready' — the frequent ones
// at most once per animation frame (frames.js). Panels never see this object: app.js hands them
// derive()'s props and routes their intents here.
import { modelKey, sessionRequest, nextState } from './state.js';
import { setupOf, toHash } from './hash.js';
import { KeptRuns } from './runs.js';
import { TaskInfos } from './task-infos.js';
import { Probes } from './probes.js';
import { Frames } from './frames.js';
import { StepRate } from './step-rate.js';
import { SeenGate } from './seen.js';
import { comparedRuns } from './comparison.js';
import { t } from './strings/index.js';

export class Playground extends EventTarget {
  // standalone: the playground is the page (URL hash, document title and language); visible:
  // whether the element is on screen yet (nothing heavy loads before it is).
  constructor(state, { standalone = true, visible = true } = {}) {
    super();
    this.state = state;
    this.standalone = standalone;
    this.visible = visible;      // false while the element is scrolled out of view (training pauses)
    this.disposed = false;
    this.tp = null;
    this.session = null;
    this.info = null;            // the configured task's infos (task-infos.js)
    this.imported = null;        // an imported model: { files, name, tokenizer, info } (not in the URL: the files are the user's)
    this.shownStep = null;
    this.kept = new KeptRuns();
    this.runSetup = null;        // the set-up of the current run (hash.js setupOf), as it was configured
    this.configuredKey = null;   // modelKey() of the set-up the model was last built from (set() rebuilds when it differs)
    this.page = { busy: true, error: null, configError: null, invalid: new Map(), status: { key: 'status.loading' }, retracing: false };
    this.infos = new TaskInfos({ tp: () => this.tp, state: () => this.state, imported: () => this.imported });
    this.probes = new Probes();
    this.rate = new StepRate();  // steps per second while training, from the worker's progress
    this.pausedByView = false;   // training paused because the element scrolled away
    this.seenGate = new SeenGate();
    this._runId = 0;
    this._lastRun = null;
    this._configureTimer = 0;
    this._configuring = null;
    this._lastShown = null;
    this.frames = new Frames((type, detail) => this.emit(type, detail), (type, detail) => {
      if (type !== 'snapshot') return true;
      const shown = this.shown, fresh = shown !== this._lastShown || detail === 'force';
      this._lastShown = shown;
      return fresh;
    });
  }

  // ---- reading ------------------------------------------------------------------------------

  // The run of the last configure() or reset() that finished (the session may already mirror a
  // newer one whose set-up this page has not taken in yet).
  get run() {
    const run = this.session?.run ?? null;
    return run && run.id === this._runId ? run : null;
  }
  get config() {
    return this.page.configError ? null : this.run?.config ?? null;
  }
  // The snapshot of the history the views show, or null.
  get shown() {
    const run = this.run;
    if (!run?.snapshots.length) return null;
    return this.shownStep === null ? run.snapshots.at(-1) : run.snapshotAt(this.shownStep);
  }
  // The text the views trace: the state's input or the task's first sample.
  get input() {
    return this.state.input || this.info?.sampleInputs?.[0] || '';
  }
  infoFor(name) {
    return this.infos.get(name);
  }
  compared() {
    return comparedRuns({ kept: this.kept, run: this.run, runSetup: this.runSetup, infoFor: (task) => this.infos.get(task), t: (k, v) => this.t(k, v) });
  }
  t(key, vars) {
    return t(this.state.lang, key, vars);
  }

  // ---- events -------------------------------------------------------------------------------

  emit(type, detail) {
    this.dispatchEvent(new CustomEvent(type, { detail }));
  }
  on(type, fn) {
    this.addEventListener(type, (e) => fn(e.detail));
  }
  later(type, detail) {
    this.frames.later(type, detail);
  }

  // ---- changing -----------------------------------------------------------------------------

  // Merges a patch into the state (state.js nextState), mirrors it in the URL, and rebuilds the
  // model if the patch changed anything the model depends on.
  set(patch) {
    const before = modelKey(this.state), next = nextState(this.state, patch);
    const changed = [...new Set([...Object.keys(patch), 'label'])].filter((k) => JSON.stringify(this.state[k]) !== JSON.stringify(next[k]));
    // A task picked while an imported model is in use leaves it, even the task the state
    // already names (the imported model stood in for it).
    const leaving = Boolean(this.imported) && ('task' in patch || changed.some((k) => k === 'model' || k === 'seed'));
    if (!changed.length && !leaving) return;
    this.state = next;
    if (this.standalone) history.replaceState(null, '', toHash(this.state));
    if (changed.includes('lang')) this.emit('lang');
    if (leaving) this.setImported(null);
    this.emit('state', { changed });
    if (changed.includes('input')) this.sendProbes();
    const same = modelKey(this.state) === before;  // a new label names the same run
    if (changed.includes('label') && same && this.runSetup) this.kept.relabel(this.run, (this.runSetup = setupOf(this.state)).label ?? '');
    if (this.session && (leaving || !same)) this.scheduleConfigure();
  }

  // Shows step `step` of the history in every view (null: follow the newest).
  show(step) {
    if ((step ?? null) === this.shownStep) return;
    this.shownStep = step ?? null;
    this.later('snapshot');
  }

  // A control holds a value the core's table does not allow (why: the message), or not (null):
  // Train stays off while any does.
  setInvalid(key, why) {
    if (why) this.page.invalid.set(key, why);
    else this.page.invalid.delete(key);
    this.emit('invalid', this.page.invalid);
  }
  // The boxes were drawn again from the state's values, which are valid.
  clearInvalid() {
    this.page.invalid.clear();
    this.emit('invalid', this.page.invalid);
  }

  status(key, vars) {
    this.page.status = { key: key ?? '', vars };
    this.emit('status', this.page.status);
  }
  setBusy(busy) {
    this.page.busy = busy;
    this.emit('busy', busy);
  }

  // What the history records for `key` (a panel), sent by probes.js (page.retracing: while re-traced).
  record(key, what) {
    if (this.probes.record(key, what)) this.sendProbes();
  }
  sendProbes() {
    const retracing = (on) => ((this.page.retracing = on), this.later('snapshot', 'force'));
    if (this.session) this.probes.send(this.session, this.state.input, { retracing, failed: (e) => this.fail(e) });
  }

  // Keeps the current run (it goes on recording until the set-up changes).
  keepRun() {
    if (this.run && this.runSetup) this.kept.keep(this.runSetup, this.run);
  }

  // ---- the training session -----------------------------------------------------------------

  // The engine and the training session, once loaded.
  attach(tp, session) {
    this.tp = tp;
    this.session = session;
  }

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
      this.infos.dropImported();
      old.tokenizer.dispose();
    }
    this.emit('imported', imported);
  }

  async useImported(imported) {
    this.setImported(imported);
    clearTimeout(this._configureTimer);
    return this.configure();
  }

  // Builds the model of the state's set-up in the worker (from checkpoint bytes when given).
  async configure({ checkpoint } = {}) {
    clearTimeout(this._configureTimer);
    const key = modelKey(this.state);
    const base = sessionRequest(this.state);
    const request = this.imported ? { task: { text: this.state.text }, training: base.training, files: this.imported.files } : base;
    this.status('status.building');
    this.setBusy(true);
    let info;
    try {
      info = this.infos.get();
    } catch (error) {
      this.page.configError = error;
      return this.fail(error);
    }
    const job = (this._configuring = this.session.configure(checkpoint ? { ...request, checkpoint } : request));
    let result;
    try {
      result = await job;
    } catch (error) {
      if (job === this._configuring) {
        this.page.configError = error;
        this.fail(error);
      }
      return null;
    }
    if (job !== this._configuring) return null;  // a newer configure() superseded this one
    this.info = info;
    this.runSetup = setupOf(this.state);
    this.configuredKey = key;
    this.page.error = null;
    this.page.configError = null;
    this.started(result);
    this.setBusy(false);
    return result;
  }

  // A fresh model from the same set-up: a new run.
  async reset() {
    this.setBusy(true);
    try {
      this.started(await this.session.reset());
    } catch (e) {
      this.fail(e);
    }
    this.setBusy(false);
  }

  // A new run began (configure or reset): the last one is kept as it ended if it was kept.
  started(result) {
    if (this._lastRun) this.kept.freeze(this._lastRun);
    this.rate.reset();
    this._runId = result.run;
    this._lastRun = this.session.run;
    this.shownStep = null;
    this.page.error = null;
    this.emit('configured', result);
    this.status(result.notTrainable ? 'status.readyToExplore' : 'status.ready');
    this.later('snapshot', 'force');
  }

  // The element scrolled out of view (false) or back (true): training pauses while nobody can
  // see it and resumes where it stopped.
  setVisible(visible) {
    this.visible = visible;
    if (visible) this.seenGate.open();
    if (!this.session) return;
    if (!visible && this.run?.running) {
      this.pausedByView = true;
      this.session.pause().catch(() => {});
    } else if (visible && this.pausedByView) {
      this.pausedByView = false;
      this.session.start().catch((e) => this.fail(e));
    }
  }

  // Resolves once the element is on screen (at once when it is): nothing heavy loads before.
  seen() {
    return this.seenGate.wait(this.visible);
  }

  fail(error) {
    this.page.error = error;
    this.emit('error', error);
    this.setBusy(false);
    this.status('status.failed');
    return null;
  }

  // Stops the worker and frees this playground's objects (the element was removed).
  dispose() {
    this.disposed = true;
    this.frames.cancel();
    this.session?.dispose();
    this.infos.dispose();
    this.imported?.tokenizer.dispose();
    this.imported = null;
    this.emit('dispose');
  }
}
