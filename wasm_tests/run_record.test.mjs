// node:test — the run record's budget (web/lib/run-record.js), on made-up snapshots of a chosen
// size: a run keeps its snapshots within SNAPSHOT_BUDGET bytes however large each is (one above
// budget ÷ 8 is kept without its tensors, with a note), a pause never thins the schedule, and a
// long run with many pauses keeps a history spread over all of it (not its first few snapshots).
// The mirror a page applies the deltas to holds exactly what the worker's record holds.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { Recorder, RunRecord, SNAPSHOT_BUDGET, onSchedule, snapshotBytes } from '../web/lib/run-record.js';

const MB = 2 ** 20;

// A snapshot at `step` whose one probe holds `bytes` bytes of tensors.
const snapshot = (step, bytes) => ({ step, probes: { main: { probe: 'x', tensors: { t: { shape: [bytes / 4], data: new Float32Array(bytes / 4) } } } }, params: {} });

// A recorder with its page-side mirror, fed by take()'s deltas as the session feeds it.
function run() {
  const recorder = new Recorder({ id: 1 });
  const mirror = new RunRecord({ id: 1 });
  const sync = () => mirror.apply(recorder.take().delta);
  return { recorder, mirror, sync };
}

// Trains (on paper) to `to`, a snapshot wherever the schedule wants one, and one at every pause.
function train({ recorder, sync }, from, to, { bytes, pauses = [] }) {
  for (let step = from; step <= to; ++step) {
    if (recorder.wants(step)) recorder.snapshot(snapshot(step, bytes));
    if (pauses.includes(step) && recorder.record.snapshots.at(-1)?.step !== step) recorder.snapshot(snapshot(step, bytes));
    sync();
  }
}

const bytesOf = (record) => record.snapshots.reduce((n, s) => n + snapshotBytes(s), 0);

test('snapshots of 2.5 MB (8 layers × 8 heads × a 100-token probe): the record and its mirror stay within 24 MB', () => {
  const r = run();
  train(r, 0, 5000, { bytes: 2.5 * MB, pauses: [10, 100, 700, 3000] });
  for (const record of [r.recorder.record, r.mirror]) {
    assert.ok(bytesOf(record) <= SNAPSHOT_BUDGET, `${bytesOf(record) / MB} MB`);
    assert.ok(record.snapshots.length >= 8, `${record.snapshots.length} snapshots`);
  }
  assert.deepEqual(r.mirror.snapshots.map((s) => s.step), r.recorder.record.snapshots.map((s) => s.step));
});

test('a snapshot larger than budget ÷ 8 is kept without its tensors, with a note', () => {
  const r = run();
  r.recorder.snapshot(snapshot(0, 4 * MB));
  r.sync();
  const [s] = r.mirror.snapshots;
  assert.equal(snapshotBytes(s), 0);
  assert.equal(s.probes.main.skipped, true);
  assert.equal(s.probes.main.error, "this snapshot's tensors take 4.0 MB, more than one snapshot may keep (3.0 MB); the history keeps its step without them");
});

test('a pause does not thin the schedule: its snapshot fits beside a full history, and older pauses make room for newer ones', () => {
  const r = run();
  train(r, 0, 400, { bytes: 2.9 * MB });  // the schedule full: the history at its budget
  const { thin } = r.recorder.record;
  const before = r.recorder.record.snapshots.map((s) => s.step);
  r.recorder.snapshot(snapshot(401, 2.9 * MB));  // a pause at step 401, off the schedule
  r.sync();
  assert.equal(r.recorder.record.thin, thin, 'the schedule did not thin');
  assert.deepEqual(r.mirror.snapshots.map((s) => s.step), [...before, 401]);
  assert.ok(bytesOf(r.mirror) <= SNAPSHOT_BUDGET);
  for (const step of [403, 405, 407, 409, 411]) {  // more pauses: the older pauses' snapshots go, the schedule stays
    r.recorder.snapshot(snapshot(step, 2.9 * MB));
    r.sync();
    assert.equal(r.recorder.record.thin, thin, `thinned at the pause at ${step}`);
    const steps = r.mirror.snapshots.map((s) => s.step);
    assert.deepEqual(steps.filter((x) => x <= 400), before, `the pause at ${step} dropped part of the schedule`);
    assert.equal(steps.at(-1), step);
    assert.ok(bytesOf(r.mirror) <= SNAPSHOT_BUDGET);
  }
});

test('a long run paused often keeps snapshots across all of it, on the log-spaced schedule', () => {
  const r = run();
  const pauses = Array.from({ length: 60 }, (_, i) => 37 + 53 * i);
  train(r, 0, 3200, { bytes: 2 * MB, pauses });
  const steps = r.mirror.snapshots.map((s) => s.step);
  // Every doubling of the step past the dense start still has a snapshot, and all but the last
  // are on the schedule.
  for (let from = 64; from < 3200; from *= 2) assert.ok(steps.some((s) => s >= from && s < 2 * from), `none in [${from}, ${2 * from}): ${steps}`);
  assert.ok(steps.slice(0, -1).every((s) => onSchedule(s, r.mirror.thin)), `off the schedule: ${steps}`);
  assert.ok(bytesOf(r.mirror) <= SNAPSHOT_BUDGET);
});
