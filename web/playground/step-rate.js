// step-rate.js — how fast the run trains, as the training bar says it: steps per second over the
// last few seconds of the worker's progress, on the worker's own clock (the `workerTime` of its
// events, so the page's busy frames do not skew it); the training bar derives the time left to
// the planned total from it. Training that starts again (a start after a pause, a new run, another pace) starts
// the measurement again: the rate before it says nothing of the rate after it. No DOM.

const WINDOW_MS = 5000;  // the rate is over the last 5 s of progress (and at least two reports)
const MIN_SPAN_MS = 1000;  // no rate before a second of training has been seen

export class StepRate {
  constructor() {
    this.samples = [];  // [step, time (ms)], oldest first
  }

  reset() {
    this.samples = [];
  }

  // The run was at `step` at `time` (ms on the worker's clock).
  observe(step, time) {
    const s = this.samples, last = s.at(-1);
    if (!Number.isFinite(step) || !Number.isFinite(time)) return;
    if (last && (step < last[0] || time < last[1])) s.length = 0;  // another run, or the clock of another worker
    else if (last && step === last[0]) return;
    s.push([step, time]);
    while (s.length > 2 && time - s[1][1] >= WINDOW_MS) s.shift();
  }

  // Steps per second, or null while too little has been seen.
  get rate() {
    const s = this.samples;
    if (s.length < 2) return null;
    const [s0, t0] = s[0], [s1, t1] = s.at(-1);
    return t1 - t0 >= MIN_SPAN_MS ? ((s1 - s0) * 1000) / (t1 - t0) : null;
  }
}
