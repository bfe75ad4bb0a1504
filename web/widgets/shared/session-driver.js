// session-driver.js — one widget's training Worker: created the first time the widget needs it
// (when it is first on screen), configured from the widget's attributes, paused while the
// widget is out of view and resumed when it is back, disposed with the widget. Every widget that
// trains owns at most one; each instantiates the page's already compiled module (no second
// fetch, no second compilation).
//
//   const driver = new SessionDriver(widget, { onProgress, onState, onConfigured });
//   await driver.configure(request);   // a no-op when the request did not change
//   driver.start(); driver.pause(); driver.setVisible(false);
import { createTrainingSession } from './runtime.js';

export class SessionDriver {
  constructor({ onProgress, onState, onConfigured } = {}) {
    this.session = null;
    this._creating = null;
    this.key = '';
    this.config = null;
    this.info = null;
    this.task = null;
    this.totalSteps = 0;
    this.step = 0;
    this.running = false;
    this.finished = false;
    this.pausedByView = false;
    this.report = null;
    this.history = [];
    this.disposed = false;
    this.handlers = { onProgress, onState, onConfigured };
  }

  async ensure() {
    if (this.session) return this.session;
    this._creating ??= createTrainingSession({ progressInterval: 120 }).then((session) => {
      if (this.disposed) {
        session.dispose();
        throw new Error('the widget was removed');
      }
      session.addEventListener('progress', (e) => {
        const d = e.detail;
        this.report = d;
        this.step = d.step;
        this.running = d.running;
        this.history.push(...d.history);
        this.handlers.onProgress?.(d);
      });
      session.addEventListener('state', (e) => {
        const d = e.detail;
        this.running = d.running;
        this.step = d.step;
        if (d.report) this.report = d.report;
        this.history.push(...(d.history ?? []));
        this.finished = d.reason === 'finished' || (d.totalSteps > 0 && d.step >= d.totalSteps);
        this.handlers.onState?.(d);
      });
      this.session = session;
      return session;
    });
    return this._creating;
  }

  // (Re)builds the model when the request differs from the last one; resolves with whether it did.
  async configure(request) {
    const key = JSON.stringify(request);
    if (key === this.key && this.config) return false;
    const session = await this.ensure();
    this.key = key;
    let result;
    try {
      result = await session.configure(request);
    } catch (error) {
      this.key = '';
      throw error;
    }
    if (key !== this.key) return false;  // a newer configure() superseded this one
    Object.assign(this, { config: result.config, info: result.info, task: result.task, totalSteps: result.totalSteps, step: 0, running: false,
      finished: false, pausedByView: false, report: null, history: [] });
    this.handlers.onConfigured?.(result);
    return true;
  }

  start() {
    if (!this.session || this.finished) return Promise.resolve();
    this.pausedByView = false;
    this.running = true;
    return this.session.start();
  }

  pause() {
    if (!this.session) return Promise.resolve();
    this.pausedByView = false;
    return this.session.pause();
  }

  async reset() {
    if (!this.session) return;
    const result = await this.session.reset();
    Object.assign(this, { config: result.config, info: result.info, totalSteps: result.totalSteps, step: 0, running: false, finished: false, report: null, history: [] });
    this.handlers.onConfigured?.(result);
  }

  // Out of view: stop computing (and remember to resume); back in view: carry on.
  setVisible(visible) {
    if (!this.session) return;
    if (!visible && this.running) {
      this.pausedByView = true;
      this.running = false;
      this.session.pause().catch(() => {});
    } else if (visible && this.pausedByView) {
      this.pausedByView = false;
      this.running = true;
      this.session.start().catch(() => {});
    }
  }

  dispose() {
    this.disposed = true;
    this.session?.dispose();
    this.session = null;
  }
}
