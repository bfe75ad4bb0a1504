// node:test — training sessions in Node: createTrainingSession() runs web/lib/worker.js on a
// worker_threads thread (web/lib/node/platform.js) with the process's compiled module, trains
// exactly as the page's Web Worker does, pauses at the step where a run first diverges, and its
// start-up handshake rejects with a clear Error when the worker's script throws or never answers,
// instead of waiting for ever.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { load, createTrainingSession, engineStats } from 'transformer-playground';

test('a session on worker_threads trains the Q&A toy to the same answer as the API, from the one compiled module', async () => {
  const tp = await load();
  // progressInterval 0: a progress event after every chunk of training, so they come however
  // fast the machine is (at the default 100 ms a fast one finishes the toy's 600 steps first).
  const session = await createTrainingSession({ progressInterval: 0 });
  try {
    await trainAndCompare(tp, session);
  } finally {
    session[Symbol.dispose]();  // what `using` calls (Node 20 has no `using` syntax yet)
  }
  assert.equal(engineStats().compilations, 1);
});

async function trainAndCompare(tp, session) {
  const configured = await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1 } });
  const progress = [];
  session.addEventListener('progress', (e) => progress.push(e.detail.step));
  const finished = new Promise((resolve) => session.addEventListener('state', (e) => e.detail.reason === 'finished' && resolve(e.detail)));
  await session.start();
  const end = await finished;
  assert.equal(end.step, configured.totalSteps);
  assert.ok(progress.length > 0, 'progress events arrived');
  assert.equal((await session.generate('how are you')).text, 'i am fine');
  // The same run through the API on this thread: the same loss to the last bit.
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1 });
  assert.equal(trainer.step(configured.totalSteps).loss, session.report.loss);
  for (const x of [trainer, model, task]) x.dispose();
}

test('a run that diverges pauses at the step that first diverged, with the weights that step left; start() trains on', async () => {
  const session = await createTrainingSession({ progressInterval: 0 });
  try {
    // lr 10 without warm-up: the Q&A toy's losses go to 10^3 and beyond within a few steps.
    await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1, lr: 10, warmup: 0 } });
    await session.setProbes({ probes: [{ key: 'main', input: null }] });
    const states = [];
    session.addEventListener('state', (e) => states.push(e.detail));
    // The next state that is not a start: a pause, the end, an error.
    const stopped = () => new Promise((resolve) => session.addEventListener('state', (e) => e.detail.reason !== 'started' && resolve(e.detail)));
    let end = stopped();
    await session.start();
    const paused = await end;
    assert.equal(paused.reason, 'diverged');
    assert.equal(paused.running, false);
    assert.ok(paused.report.diverged);
    assert.equal(paused.step, paused.report.divergedAt, 'paused at the step that diverged');
    assert.ok(paused.step < session.run.totalSteps / 10, `paused at step ${paused.step} of ${session.run.totalSteps}`);
    assert.equal(session.run.reason, 'diverged');
    assert.equal(session.run.snapshots.at(-1).step, paused.step, 'the history holds the model as it paused');
    // Going on anyway: it trains past that step (it never pauses for the same divergence again).
    end = stopped();
    await session.start();
    const finished = await end;
    assert.equal(finished.step, session.run.totalSteps);
    assert.equal(finished.report.divergedAt, paused.step);
    assert.deepEqual(states.map((d) => d.reason), ['started', 'diverged', 'started', 'finished']);
  } finally {
    session.dispose();
  }
});

test("the handshake rejects when the worker's script throws, and after startTimeout when it never answers", async () => {
  const dir = mkdtempSync(path.join(tmpdir(), 'tp-worker-'));
  try {
    const throws = path.join(dir, 'throws.mjs');
    writeFileSync(throws, "throw new Error('the script broke');\n");
    await assert.rejects(createTrainingSession({ workerUrl: pathToFileURL(throws) }), /^Error: the training worker could not start: the script broke$/);
    const silent = path.join(dir, 'silent.mjs');
    writeFileSync(silent, 'setInterval(() => {}, 1000);\n');
    await assert.rejects(createTrainingSession({ workerUrl: pathToFileURL(silent), startTimeout: 300 }),
      /^Error: the training worker could not start: no answer within 300 ms/);
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
});
