// train-kept.js — "Train every kept run": the kept runs a link brought that this browser never
// trained (no record here) are set up and trained one after the other, at the page's pace, each
// kept with its record as it trains, so a class that opens a teacher's link gets the whole
// comparison with one click. `state` says how far it has got; it stops where the reader pauses
// a run, a run diverges or fails.
//
//   const training = new KeptTraining(app, changed);  await training.trainAll();  training.state
import { stateForSetup } from './hash.js';

export class KeptTraining {
  constructor(app, changed) {
    this.app = app;
    this.changed = changed;
    this.state = null;  // { running: true, i, n, key } while it trains; { running: false, done, n } after
  }

  async trainAll() {
    const { app } = this;
    if (this.state?.running) return;
    const todo = app.kept.entries.filter((e) => !e.record);
    let done = 0;
    try {
      for (const entry of todo) {
        if (!app.kept.find(entry.key) || app.kept.find(entry.key).record) continue;  // forgotten, or trained meanwhile
        this.state = { running: true, i: done + 1, n: todo.length, key: entry.key };
        this.changed();
        app.set(stateForSetup(app.state, entry.setup));
        if (!(await app.configure())) break;
        app.keepRun();  // kept as it trains: the list and the chart follow it
        const ended = this.#ended();
        await app.session.start();
        const reason = await ended;
        done += 1;
        if (reason !== 'finished') break;
      }
    } finally {
      this.state = { running: false, done, n: todo.length };
      this.changed();
    }
  }

  // Resolves with the reason the run stops for (finished, paused, diverged, error).
  #ended() {
    const { session } = this.app;
    return new Promise((resolve) => {
      const on = (e) => {
        if (e.detail.reason === 'started') return;
        session.removeEventListener('state', on);
        resolve(e.detail.reason);
      };
      session.addEventListener('state', on);
    });
  }
}
