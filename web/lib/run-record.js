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

export class RunRecord {
  // header: { id, request, task, config, info, totalSteps, createdAt }
  constructor(header) {
    this.id = header.id;
    this.request = header.request ?? null;   // what configure() was asked (no checkpoint bytes)
    this.task = header.task ?? null;         // { name, kind, metric, ... }
    this.config = header.config ?? null;
    this.info = header.info ?? null;         // { parameterCount, ... }
    this.totalSteps = header.totalSteps ?? 0;
    this.createdAt = header.createdAt ?? Date.now();
    this.running = false;
    this.reason = null;                      // why the state last changed: started, paused, finished, error
    this.error = null;
    this.pace = 0;                           // steps per second, 0 = as fast as possible
    this.report = null;                      // the latest StepReport
    this.points = [];                        // history points, one per step
    this.snapshots = [];                     // { step, probes: { key: { input, decoderInput, tensors } }, params, bytes }, by step
    this.thin = 0;                           // times the snapshots were thinned to stay in budget
    this.bytes = 0;
  }

  get step() {
    return this.report?.step ?? 0;
  }

  get finished() {
    return this.totalSteps > 0 && this.step >= this.totalSteps;
  }

  header() {
    const { id, request, task, config, info, totalSteps, createdAt } = this;
    return { id, request, task, config, info, totalSteps, createdAt };
  }

  // The snapshot shown for training step `step`: the last one recorded at or before it.
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

  // Applies a delta from the worker (see Recorder.take()): the mirror's only writer.
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
    if (delta.cleared) {
      this.snapshots = [];
      this.bytes = 0;
    }
    if (delta.dropped?.length) {
      const gone = new Set(delta.dropped);
      this.snapshots = this.snapshots.filter((s) => !gone.has(s.step));
    }
    for (const s of delta.snapshots ?? []) insertSnapshot(this.snapshots, s);
    if (delta.thin !== undefined) this.thin = delta.thin;
    this.bytes = this.snapshots.reduce((n, s) => n + s.bytes, 0);
  }

  // Plain data: structured-cloneable (IndexedDB, postMessage). `snapshots`: 'all', 'none', or
  // a number (at most that many, evenly over the run's steps, always the first and last).
  toJSON({ snapshots = 'all' } = {}) {
    let snaps = this.snapshots;
    if (snapshots === 'none') snaps = [];
    else if (typeof snapshots === 'number' && snaps.length > snapshots) snaps = evenly(snaps, snapshots);
    return { ...this.header(), running: false, reason: this.reason, error: this.error, pace: this.pace, report: this.report, points: this.points,
      snapshots: snaps, thin: this.thin };
  }

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
    return d.points.length > 0 || d.snapshots.length > 0 || d.dropped.length > 0 || d.state !== undefined || d.cleared === true;
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

  // Forgets the snapshots (the probe changed: the old ones show another input).
  clearSnapshots() {
    const r = this.record;
    r.snapshots = [];
    r.bytes = 0;
    this.#delta.snapshots = [];
    this.#delta.dropped = [];
    this.#delta.cleared = true;
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
    if (d.cleared) delta.cleared = true;
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
