// node:test — a run's history survives a new probe input, and answers for any of its steps: the
// worker keeps the model's weights at each snapshot (web/lib/snapshot-weights.js), so
// setProbes() with another input traces every snapshot again from that step's weights instead of
// forgetting the history, and generate()/predict()/snapshot() with `atStep` answer as the model
// was at that step. Checked against the same training run through the API on this thread (the
// session's steps are bit-identical to it: session_node.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, createTrainingSession } from 'transformer-playground';
import { SnapshotWeights } from '../web/lib/snapshot-weights.js';

const NEW_INPUT = 'i am you';

// The toy trained through the API to `step`, with the session's seeds.
function trainedTo(tp, step) {
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  if (step > 0) trainer.step(step);
  trainer.dispose();
  task.dispose();
  return model;
}

const sameTensors = (kept, fresh, what) => {
  const names = Object.keys(kept);
  assert.ok(names.length > 10, `${what}: ${names.length} tensors kept`);
  for (const name of names) assert.deepEqual(kept[name].data, fresh.tensors[name].data, `${what}: ${name}`);
};

test('a new probe input after training keeps every snapshot and traces each again from its own weights; atStep answers as that step', async () => {
  const tp = await load();
  const session = await createTrainingSession({ progressInterval: 0 });
  try {
    await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1 } });
    await session.setProbes({ probes: [{ key: 'main', input: null }] });
    const finished = new Promise((resolve) => session.addEventListener('state', (e) => e.detail.reason === 'finished' && resolve(e.detail)));
    await session.start();
    const end = await finished;
    const before = session.run.snapshots.map((s) => s.step);
    assert.ok(before.length > 100, `${before.length} snapshots`);
    const stats = await session.stats();
    assert.equal(stats.weights.snapshots, before.length, 'the toy keeps the weights of every snapshot');
    assert.ok(stats.weights.bytes < 4 * 2 ** 20, `${stats.weights.bytes} bytes of weights`);

    const answer = await session.setProbes({ probes: [{ key: 'main', input: NEW_INPUT }] });
    assert.deepEqual(answer, { snapshots: before.length, retraced: before.length, stopped: false });
    assert.deepEqual(session.run.snapshots.map((s) => s.step), before, 'the same snapshots, none lost');
    for (const s of session.run.snapshots) assert.equal(s.probes.main.probe, NEW_INPUT, `step ${s.step} shows the new input`);

    const early = session.run.snapshotAt(2), last = session.run.snapshots.at(-1);
    assert.equal(early.step, 2);
    assert.equal(last.step, end.step);
    const probs = Object.keys(early.probes.main.tensors).find((n) => n.endsWith('.probs'));
    assert.notDeepEqual(early.probes.main.tensors[probs].data, last.probes.main.tensors[probs].data, 'the attention on the new input changed while it learned');

    // Each equals a fresh trace of the model as it was at that step.
    for (const step of [2, end.step]) {
      const model = trainedTo(tp, step);
      try {
        sameTensors(session.run.snapshotAt(step).probes.main.tensors, model.trace(NEW_INPUT), `step ${step}`);
        const at = await session.generate('how are you', { atStep: step });
        assert.equal(at.text, model.generate('how are you').text, `generate at step ${step}`);
        const traced = await session.snapshot({ input: NEW_INPUT, atStep: step });
        assert.equal(traced.step, step);
        assert.deepEqual(traced.tensors[probs].data, model.trace(NEW_INPUT).tensors[probs].data);
      } finally {
        model.dispose();
      }
    }
    const now = await session.generate('how are you');
    assert.equal(now.text, 'i am fine');
    assert.notEqual((await session.generate('how are you', { atStep: 2 })).text, now.text, 'step 2 answers otherwise than now');
    await assert.rejects(session.generate('how are you', { atStep: 7 * end.step }), new RegExp(`no weights for step ${7 * end.step}`));
    await assert.rejects(session.predict('how are you', { atStep: -1 }), /atStep must be a whole number/);
  } finally {
    session.dispose();
  }
});

test('a new probe input while the toy trains keeps the history and goes on training', async () => {
  const session = await createTrainingSession({ progressInterval: 0 });
  try {
    await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1, totalSteps: 300 } });
    await session.setProbes({ probes: [{ key: 'main', input: null }] });
    const finished = new Promise((resolve) => session.addEventListener('state', (e) => e.detail.reason === 'finished' && resolve(e.detail)));
    await session.setPace(200);
    await session.start();
    while (session.run.snapshots.length < 20) await new Promise((resolve) => setTimeout(resolve, 20));
    const answer = await session.setProbes({ probes: [{ key: 'main', input: NEW_INPUT }] });
    assert.ok(answer.retraced >= 20, `${answer.retraced} retraced`);
    await session.setPace(0);
    await finished;
    for (const s of session.run.snapshots) assert.equal(s.probes.main.probe, NEW_INPUT, `step ${s.step} shows the new input`);
    assert.equal(session.run.snapshots[0].step, 0);
  } finally {
    session.dispose();
  }
});

test('past the weights budget every other checkpoint goes, evenly over the run, the first and the newest kept', () => {
  const w = new SnapshotWeights({ budget: 10 * 100 });
  for (let step = 0; step < 40; ++step) w.put(step, new Uint8Array(100));
  assert.ok(w.bytes <= 1000);
  const steps = w.steps();
  assert.equal(steps[0], 0);
  assert.equal(steps.at(-1), 39);
  assert.ok(steps.length >= 5, `${steps.join(',')}`);
  // Evenly spread: no gap more than twice another (the thinning halves the whole run at once).
  const gaps = steps.slice(1, -1).map((s, i) => s - steps[i]);
  assert.ok(Math.max(...gaps) <= 2 * Math.min(...gaps), `gaps ${gaps.join(',')}`);
  w.keepOnly([0, 39]);
  assert.deepEqual(w.steps(), [0, 39]);
  assert.equal(w.bytes, 200);
});
