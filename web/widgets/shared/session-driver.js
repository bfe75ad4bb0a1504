// session-driver.js — one widget's training Worker: created the first time the widget needs it
// (when it is first on screen), configured from the widget's attributes, paused while the
// widget is out of view and resumed when it is back, disposed with the widget. Every widget that
// trains owns at most one; each instantiates the page's already compiled module (no second
// fetch, no second compilation). The run's state is the session's mirror of the worker's record
// (`session.run`): the driver reads it and keeps no copy.
//
//   const driver = new SessionDriver(widget, { onProgress, onState, onConfigured });
//   await driver.configure(request);   // a no-op when the request did not change
//   driver.start(); driver.pause(); driver.setVisible(false);

export class SessionDriver {
  constructor({ onProgress, onState, onConfigured } = {}) {
    this.session = null;
    this._creating = null;
    this.key = '';
    this.configured = false;
    this.pausedByView = false;
    this.disposed = false;
    this.handlers = { onProgress, onState, onConfigured };
  }

  get run() {
    return this.session?.run ?? null;
  }
  get config() {
    return this.configured ? this.run?.config ?? null : null;
  }
  get info() {
    return this.run?.info ?? null;
  }
  get task() {
    return this.run?.task ?? null;
  }
  get totalSteps() {
    return this.run?.totalSteps ?? 0;
  }
  get step() {
    return this.run?.step ?? 0;
  }
  get running() {
    return this.run?.running ?? false;
  }
  get finished() {
    return this.run?.finished ?? false;
  }
  get report() {
    return this.run?.report ?? null;
  }
  get history() {
    return this.run?.points ?? [];
  }

  async ensure() {
    if (this.session) return this.session;
    // The training modules load with the first widget that trains (a page that only tokenizes
    // or traces never fetches them).
    this._creating ??= import('../../lib/training-session.js').then(({ createTrainingSession }) => createTrainingSession({ progressInterval: 120 })).then((session) => {
      if (this.disposed) {
        session.dispose();
        throw new Error('the widget was removed');
      }
      session.addEventListener('progress', (e) => this.handlers.onProgress?.(e.detail));
      session.addEventListener('state', (e) => this.handlers.onState?.(e.detail));
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
      this.configured = false;
      throw error;
    }
    if (key !== this.key) return false;  // a newer configure() superseded this one
    this.configured = true;
    this.pausedByView = false;
    this.handlers.onConfigured?.(result);
    return true;
  }

  start() {
    if (!this.session || this.finished) return Promise.resolve();
    this.pausedByView = false;
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
    this.handlers.onConfigured?.(result);
  }

  // Out of view: stop computing (and remember to resume); back in view: carry on.
  setVisible(visible) {
    if (!this.session) return;
    if (!visible && this.running) {
      this.pausedByView = true;
      this.session.pause().catch(() => {});
    } else if (visible && this.pausedByView) {
      this.pausedByView = false;
      this.session.start().catch(() => {});
    }
  }

  dispose() {
    this.disposed = true;
    this.session?.dispose();
    this.session = null;
  }
}
