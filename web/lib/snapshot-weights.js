// snapshot-weights.js — the model's weights at the steps of the run's history (checkpoints:
// `model.save()` bytes), kept in the training worker beside its RunRecord so that a snapshot can
// be traced again on a new probe input, and generation can run as the model was at that step.
// They never leave the worker and are never part of a record's plain data (run-record.js
// toJSON(): kept runs and files carry traces, not weights).
//
// Budget: WEIGHTS_BUDGET bytes. Past it the weights of every other snapshot go (counted in the
// order they came, as the timeline lists them), the first and the newest always kept, and from
// then on only every 2nd new one stays (4th, 8th, … after later passes), so a long run keeps an
// evenly thinned set; a snapshot whose weights went is still shown with its recorded traces, it
// just cannot be traced again.

export const WEIGHTS_BUDGET = 64 * 2 ** 20;

export class SnapshotWeights {
  #byStep = new Map();  // step -> { bytes: Uint8Array, seq: the how-manieth put it was }
  #bytes = 0;
  #seq = 0;
  #stride = 1;          // the puts kept: every stride-th (and the newest)

  constructor({ budget = WEIGHTS_BUDGET } = {}) {
    this.budget = budget;
  }

  get bytes() {
    return this.#bytes;
  }
  get size() {
    return this.#byStep.size;
  }
  // The steps that have weights, in order.
  steps() {
    return [...this.#byStep.keys()].sort((a, b) => a - b);
  }
  has(step) {
    return this.#byStep.has(step);
  }
  get(step) {
    return this.#byStep.get(step)?.bytes ?? null;
  }

  // Keeps `bytes` for `step` (replacing what it had), then thins to the budget.
  put(step, bytes) {
    const seq = this.#byStep.get(step)?.seq ?? this.#seq++;
    this.#drop(step);
    // The newest before this one stays only if it is on the stride.
    const newest = this.steps().at(-1);
    if (newest !== undefined && newest < step && this.#byStep.get(newest).seq % this.#stride !== 0) this.#drop(newest);
    this.#byStep.set(step, { bytes, seq });
    this.#bytes += bytes.byteLength;
    this.#fit();
  }

  // Keeps only the steps still in the history (`steps`: the record's snapshots' steps).
  keepOnly(steps) {
    const wanted = new Set(steps);
    for (const step of [...this.#byStep.keys()]) if (!wanted.has(step)) this.#drop(step);
  }

  clear() {
    this.#byStep.clear();
    this.#bytes = 0;
    this.#seq = 0;
    this.#stride = 1;
  }

  #drop(step) {
    const old = this.#byStep.get(step);
    if (!old) return;
    this.#bytes -= old.bytes.byteLength;
    this.#byStep.delete(step);
  }

  // Over the budget the stride doubles and the puts off it go (never the first or the newest),
  // as often as needed: what stays is spread evenly over the run, not only its latest part. With
  // two left nothing more goes, so a checkpoint larger than half the budget still keeps the
  // first and the newest.
  #fit() {
    while (this.#bytes > this.budget && this.#byStep.size > 2) {
      this.#stride *= 2;
      const steps = this.steps();
      for (const step of steps.slice(1, -1)) if (this.#byStep.get(step).seq % this.#stride !== 0) this.#drop(step);
    }
  }
}
