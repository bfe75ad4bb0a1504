// run-record.js — one training run as a record: its configuration, every step's loss and
// evaluation, the latest report and state, and a history of what the views show (snapshots of the
// probe input's trace on a log-spaced schedule). The training worker (worker.js) is the one
// owner: it writes the record and sends what changed as a delta; the page's TrainingSession
// applies each delta to its mirror (`session.run`), which everything on the page reads and
// nothing else writes. A record is plain data (`toJSON()` / `RunRecord.from()`), so a run can be
// kept, stored (IndexedDB) and compared with others.
//
// Snapshot schedule: every step up to DENSE_STEPS, then every 2nd step up to twice that, every
// 4th up to four times that, … (the same number of snapshots in each doubling of the step), plus
// the run's first (step 0) and last step, and a snapshot wherever training paused. A run's
// snapshots stay under SNAPSHOT_BUDGET bytes, counted by their tensors' bytes: one snapshot may
// take at most SNAPSHOT_LIMIT (the budget ÷ 8; the worker shortens its probe inputs to fit, and
// a larger one is kept without its tensors, with a note saying why), and past the budget the
// snapshots off the schedule (a pause's) go first, then the schedule thins: its intervals double
// and the snapshots off it go (the history stays log-spaced over the whole run, just sparser;
// the first and the last snapshot always stay). A pause never thins the schedule.

/**
 * @import { ModelConfig, StepReport } from './generated/schema.js'
 * @import { TaskSpec, ModelOptions, TrainerOptions, ModelInfo, TaskInfo, Encoding, TensorData } from './types.js'
 */

/**
 * A training-history point: [step, loss, valLoss (when evaluated), metric (when evaluated)].
 * @typedef {[step: number, loss: number, valLoss: number | null, metric: number | null]} HistoryPoint
 */

/**
 * One probe's trace in a snapshot: the probe's text and target, what the stacks read, the
 * tensors, the k most likely outputs at each position (ids and p, k per position); `error` when
 * the probe could not be traced (e.g. a word the vocabulary lacks) or its trace was too large to
 * keep (then `skipped`); `shortened` when the trace was too large for one snapshot and shows the
 * first `tokens` of the probe's `of` (`limit`: a snapshot's most bytes).
 * @typedef {object} ProbeTrace
 * @property {string} probe
 * @property {string | null} target
 * @property {Encoding} [input]
 * @property {Encoding | null} [decoderInput]
 * @property {{ ids: Int32Array, tokens: string[] } | null} [output]
 * @property {Record<string, TensorData>} tensors
 * @property {{ k: number, ids: Int32Array, p: Float32Array } | null} [top]
 * @property {string} [error]
 * @property {boolean} [skipped]
 * @property {{ tokens: number, of: number, limit: number }} [shortened]
 */

/**
 * What the views showed at one training step.
 * @typedef {object} RunSnapshot
 * @property {number} step
 * @property {Record<string, ProbeTrace>} probes
 * @property {Record<string, TensorData>} params
 * @property {number} bytes
 */

/**
 * A run's set-up: what configure() was asked (no checkpoint bytes), the task, the config and
 * info of the model it built, why it cannot be trained (null: it can), the planned steps and
 * when it began.
 * @typedef {{ id: number, request: { task: TaskSpec, model?: ModelOptions, training?: TrainerOptions, fromCheckpoint: boolean } | null, task: Pick<TaskInfo, 'name' | 'description' | 'kind' | 'metric' | 'classNames' | 'sampleInputs'> | null, config: ModelConfig | null, info: ModelInfo | null, notTrainable: string | null, totalSteps: number, createdAt: number }} RunHeader
 */

export const DENSE_STEPS = 64;
export const SNAPSHOT_BUDGET = 24 * 2 ** 20;  // bytes of tensors per run, in the worker and in its mirror
export const SNAPSHOT_LIMIT = SNAPSHOT_BUDGET / 8;  // bytes of one snapshot's tensors

// Steps between snapshots around `step`, for a run whose snapshots were thinned `thin` times.
export function snapshotInterval(step, thin = 0) {
  const octave = step > DENSE_STEPS ? Math.ceil(Math.log2(step / DENSE_STEPS)) : 0;
  return 2 ** (octave + thin);
}

export function onSchedule(step, thin = 0) {
  return step <= 0 || step % snapshotInterval(step, thin) === 0;
}

// Bytes of the tensors of a snapshot.
export function snapshotBytes(snapshot) {
  let n = 0;
  const add = (tensors) => {
    for (const t of Object.values(tensors ?? {})) n += t.data.byteLength;
  };
  for (const probe of Object.values(snapshot.probes ?? {})) add(probe.tensors);
  add(snapshot.params);
  return n;
}

// A history point: [step, loss, valLoss | null, metric | null].
export function pointOf(report) {
  return [report.step, report.loss, report.evaluated ? report.valLoss : null, report.evaluated ? report.metric : null];
}

/** A run: one configure() (or reset()) and the training after it, as the worker records it. */
export class RunRecord {
  /** Made by the session (and RunRecord.from()). @private @param {Partial<RunHeader> & { id: number }} header */
  constructor(header) {
    /** The run's id (`configure()` and `reset()` resolve with it). @readonly @type {number} */
    this.id = header.id;
    /** What configure() was asked (no checkpoint bytes). @readonly @type {RunHeader['request']} */
    this.request = header.request ?? null;
    /** The task the run trains on. @readonly @type {RunHeader['task']} */
    this.task = header.task ?? null;
    /** The model's configuration. @readonly @type {ModelConfig | null} */
    this.config = header.config ?? null;
    /** The model's info (as `model.info`). @readonly @type {ModelInfo | null} */
    this.info = header.info ?? null;
    /** Why this model cannot be trained here, in the core's words (an imported model whose training does not fit: it still generates and every view shows it), or null when it can. @readonly @type {string | null} */
    this.notTrainable = header.notTrainable ?? null;
    /** Where training stops. @readonly @type {number} */
    this.totalSteps = header.totalSteps ?? 0;
    /** When the run began (ms since the epoch). @readonly @type {number} */
    this.createdAt = header.createdAt ?? Date.now();
    /** Whether it is training now. @readonly @type {boolean} */
    this.running = false;
    /** Why the state last changed ('diverged': training paused at the step where the run first diverged, `report.divergedAt`; 'met': training paused where the run learned its task, stop-rule.js). @readonly @type {'started' | 'paused' | 'finished' | 'diverged' | 'met' | 'error' | null} */
    this.reason = null;
    /** reason 'error': the message. @readonly @type {string | null} */
    this.error = null;
    /** Steps per second (0: as fast as possible). @readonly @type {number} */
    this.pace = 0;
    /** The latest step report. @readonly @type {StepReport | null} */
    this.report = null;
    /** One `[step, loss, valLoss | null, metric | null]` per step (the trainer decides when to evaluate). @readonly @type {HistoryPoint[]} */
    this.points = [];
    /** `[{ step, probes: { key: { probe, input, decoderInput, output, tensors, top } }, params, bytes }]`, by step: step 0, every step up to 64, then every 2nd step up to 128, every 4th up to 256, … (as many per doubling of the step), and the step where training paused or ended. `top` is the 5 most likely outputs at each position (`{ k, ids, p }`). A run's snapshots stay under 24 MB of tensors, in the worker and in the page's mirror alike: one snapshot may take at most an eighth of that (3 MB) — a probe whose trace is larger is traced again on its first tokens, as many as fit (`shortened: { tokens, of, limit }` says how many of how many; the playground's attention view says so), and what still does not fit is kept without tensors, its `error` saying why. Past the budget the snapshots off the schedule (a pause's, a `step()`'s) go first, then the schedule thins: its intervals double (`thin` counts how often) and the history stays log-spaced over the whole run. There is always room for the snapshot of a pause beside a full schedule, so a pause never thins it. @readonly @type {RunSnapshot[]} */
    this.snapshots = [];
    /** Times the snapshots were thinned to stay in budget. @readonly @type {number} */
    this.thin = 0;
    /** Bytes of the snapshots' tensors. @readonly @type {number} */
    this.bytes = 0;
  }

  /** The latest report's step. @returns {number} */
  get step() {
    return this.report?.step ?? 0;
  }

  /** Whether it reached `totalSteps`. @returns {boolean} */
  get finished() {
    return this.totalSteps > 0 && this.step >= this.totalSteps;
  }

  /** What `configure()` was asked and built (no checkpoint bytes). @returns {RunHeader} */
  header() {
    const { id, request, task, config, info, notTrainable, totalSteps, createdAt } = this;
    return { id, request, task, config, info, notTrainable, totalSteps, createdAt };
  }

  /** The snapshot shown for training step `step`: the last one recorded at or before it. @param {number} step @returns {RunSnapshot | null} */
  snapshotAt(step) {
    const s = this.snapshots;
    let lo = 0, hi = s.length - 1, best = -1;
    while (lo <= hi) {
      const mid = (lo + hi) >> 1;
      if (s[mid].step <= step) {
        best = mid;
        lo = mid + 1;
      } else {
        hi = mid - 1;
      }
    }
    return best >= 0 ? s[best] : s[0] ?? null;
  }

  /** Applies a delta from the worker (see Recorder.take()): the mirror's only writer. @internal @param {any} delta @returns {void} */
  apply(delta) {
    if (delta.points?.length) this.points.push(...delta.points);
    if (delta.report !== undefined) this.report = delta.report;
    if (delta.state) {
      const { running, reason, error, totalSteps, pace } = delta.state;
      if (running !== undefined) this.running = running;
      if (reason !== undefined) this.reason = reason;
      if (error !== undefined) this.error = error;
      if (totalSteps !== undefined) this.totalSteps = totalSteps;
      if (pace !== undefined) this.pace = pace;
    }
    if (delta.dropped?.length) {
      const gone = new Set(delta.dropped);
      this.snapshots = this.snapshots.filter((s) => !gone.has(s.step));
    }
    for (const s of delta.snapshots ?? []) insertSnapshot(this.snapshots, s);
    if (delta.thin !== undefined) this.thin = delta.thin;
    this.bytes = this.snapshots.reduce((n, s) => n + s.bytes, 0);
  }

  /**
   * Plain data: structured-cloneable (IndexedDB, postMessage). `snapshots`: 'all', 'none', or a
   * number (at most that many, evenly over the run's steps, always the first and last). It holds
   * the snapshots' traces, never the model's weights: those stay in the training worker
   * (snapshot-weights.js), so a kept or stored run can be shown at any step but not traced again.
   * @param {{ snapshots?: 'all' | 'none' | number }} [options]
   * @returns {object}
   */
  toJSON({ snapshots = 'all' } = {}) {
    let snaps = this.snapshots;
    if (snapshots === 'none') snaps = [];
    else if (typeof snapshots === 'number' && snaps.length > snapshots) snaps = evenly(snaps, snapshots);
    return { ...this.header(), running: false, reason: this.reason, error: this.error, pace: this.pace, report: this.report, points: this.points,
      snapshots: snaps, thin: this.thin };
  }

  /** A record from its plain data (toJSON()'s). @param {any} data @returns {RunRecord} */
  static from(data) {
    const r = new RunRecord(data);
    r.reason = data.reason ?? null;
    r.error = data.error ?? null;
    r.pace = data.pace ?? 0;
    r.report = data.report ?? null;
    r.points = data.points ?? [];
    r.snapshots = [...(data.snapshots ?? [])].sort((a, b) => a.step - b.step);
    r.thin = data.thin ?? 0;
    r.bytes = r.snapshots.reduce((n, s) => n + (s.bytes ?? snapshotBytes(s)), 0);
    return r;
  }
}

function insertSnapshot(list, s) {
  let i = list.length;
  while (i > 0 && list[i - 1].step > s.step) --i;
  if (i > 0 && list[i - 1].step === s.step) list[i - 1] = s;
  else list.splice(i, 0, s);
}

// At most n of `list`, spread evenly by index, keeping the first and the last.
function evenly(list, n) {
  if (n <= 1) return list.slice(-1);
  const out = [];
  for (let i = 0; i < n; ++i) out.push(list[Math.round((i * (list.length - 1)) / (n - 1))]);
  return [...new Set(out)];
}

// The worker's side: keeps the authoritative record and collects what changed since the last
// take(), which becomes the next message to the page.
export class Recorder {
  constructor(header, { budget = SNAPSHOT_BUDGET } = {}) {
    this.record = new RunRecord(header);
    this.budget = budget;
    this.#reset();
  }

  #delta;
  #reset() {
    this.#delta = { points: [], snapshots: [], dropped: [] };
  }

  get changed() {
    const d = this.#delta;
    return d.points.length > 0 || d.snapshots.length > 0 || d.dropped.length > 0 || d.state !== undefined;
  }

  step(report) {
    const p = pointOf(report);
    this.record.points.push(p);
    this.record.report = report;
    this.#delta.points.push(p);
    this.#delta.report = report;
  }

  state(patch) {
    this.record.apply({ state: patch });
    this.#delta.state = { ...this.#delta.state, ...patch };
  }

  wants(step) {
    const last = this.record.snapshots.at(-1);
    return !last || (last.step !== step && onSchedule(step, this.record.thin));
  }

  // Adds a snapshot (replacing one at the same step) and keeps the run inside its budget. One
  // larger than the budget allows a snapshot (budget ÷ 8) keeps its step, inputs and notes but
  // not its tensors: each probe says why instead (its `error`, which the views show).
  snapshot(s) {
    s.bytes = snapshotBytes(s);
    const limit = this.budget / 8;
    if (s.bytes > limit) s = withoutTensors(s, limit);
    const r = this.record;
    insertSnapshot(r.snapshots, s);
    this.#delta.snapshots = this.#delta.snapshots.filter((x) => x.step !== s.step);
    this.#delta.snapshots.push(s);
    this.#fit();
  }

  // Keeps the snapshots within the budget, a snapshot's worth of room always free for the model
  // as it is now: the snapshots on the schedule (and the first) take at most budget − limit, so
  // the last one, when it is off the schedule (a pause's, a step()'s), always fits beside them and
  // never thins the schedule. Over that, the older snapshots off the schedule go first; then the
  // schedule thins (its intervals double) and those off it go. The first and the last stay, and
  // they alone fit (2 × limit <= budget), so this ends.
  #fit() {
    const r = this.record, room = this.budget - this.budget / 8;
    for (;;) {
      const list = r.snapshots, n = list.length;
      const lastOff = n > 1 && !onSchedule(list[n - 1].step, r.thin);
      const counted = list.reduce((sum, x, i) => sum + (lastOff && i === n - 1 ? 0 : x.bytes), 0);
      if (counted <= room || n <= 2) break;
      const gone = list.filter((x, i) => i !== 0 && i !== n - 1 && !onSchedule(x.step, r.thin)).map((x) => x.step);
      if (!gone.length) {
        r.thin += 1;
        this.#delta.thin = r.thin;
        continue;
      }
      const dropped = new Set(gone);
      r.snapshots = list.filter((x) => !dropped.has(x.step));
      this.#delta.dropped.push(...gone);
      this.#delta.snapshots = this.#delta.snapshots.filter((x) => !dropped.has(x.step));
    }
    r.bytes = r.snapshots.reduce((sum, x) => sum + x.bytes, 0);
  }

  // What changed since the last take(), as a delta for RunRecord.apply(), and the buffers to
  // transfer (copies: the worker keeps its own).
  take() {
    const d = this.#delta;
    this.#reset();
    const snapshots = d.snapshots.map(cloneSnapshot);
    const transfer = [];
    for (const s of snapshots) {
      for (const probe of Object.values(s.probes)) for (const t of Object.values(probe.tensors)) transfer.push(t.data.buffer);
      for (const t of Object.values(s.params ?? {})) transfer.push(t.data.buffer);
    }
    const delta = { run: this.record.id, points: d.points, snapshots, dropped: d.dropped };
    if ('report' in d) delta.report = d.report;
    if (d.state) delta.state = d.state;
    if (d.thin !== undefined) delta.thin = d.thin;
    return { delta, transfer };
  }
}

// `s` without its tensors, each probe (and the parameter tables) saying why.
function withoutTensors(s, limit) {
  const mb = (n) => (n / 2 ** 20).toFixed(1);
  const note = `this snapshot's tensors take ${mb(s.bytes)} MB, more than one snapshot may keep (${mb(limit)} MB); the history keeps its step without them`;
  const probes = Object.fromEntries(Object.entries(s.probes ?? {}).map(([k, p]) => [k, { ...p, tensors: {}, top: null, error: p.error ?? note, skipped: true }]));
  return { ...s, probes, params: {}, bytes: 0, skipped: note };
}

const copyTensors = (tensors) => Object.fromEntries(Object.entries(tensors ?? {}).map(([k, t]) => [k, { shape: t.shape, data: t.data.slice() }]));

function cloneSnapshot(s) {
  return { ...s, probes: Object.fromEntries(Object.entries(s.probes).map(([k, p]) => [k, { ...p, tensors: copyTensors(p.tensors) }])), params: copyTensors(s.params) };
}
