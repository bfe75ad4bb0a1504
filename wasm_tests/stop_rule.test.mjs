// node:test — stopping when the task is learned (web/lib/stop-rule.js, and the session that
// applies it in its worker): the rule on real training histories (met, not met, never for a
// language model, the loss window), and the Q&A toy's session pausing with reason 'met' well
// before its 600 steps with the right answer, then training on to the end with start().
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, createTrainingSession } from 'transformer-playground';
import { metAt, bestMetric, LOSS_WINDOW, LOSS_BELOW } from '../web/lib/stop-rule.js';
import { pointOf } from '../web/lib/run-record.js';

// The history points of `steps` steps of a task trained on this thread through the API.
async function history(name, steps, training = {}) {
  const tp = await load();
  const task = tp.task(name);
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task, { seed: 1, ...training });
  const points = [];
  try {
    for (let i = 0; i < steps; ++i) points.push(pointOf(trainer.step(1)));
    return { points, metric: task.metric };
  } finally {
    for (const x of [trainer, model, task]) x.dispose();
  }
}

test('the best value of each metric: 1 for exact match and the accuracies, none for perplexity', () => {
  assert.equal(bestMetric('exact_match'), 1);
  assert.equal(bestMetric('token_accuracy'), 1);
  assert.equal(bestMetric('accuracy'), 1);
  assert.equal(bestMetric('perplexity'), null);
  assert.equal(bestMetric('constructor'), null);
  assert.equal(bestMetric(undefined), null);
});

test('the Q&A toy is met at the first step where its exact match is 1 and its last 10 losses average below 0.02', async () => {
  const { points, metric } = await history('qa-toy', 600);
  assert.equal(metric, 'exact_match');
  // The first prefix of the history that meets the rule, found by the rule itself …
  let first = -1;
  for (let n = 1; n <= points.length && first < 0; ++n) if (metAt(metric, points.slice(0, n))) first = n;
  assert.ok(first > LOSS_WINDOW && first < 600, `met after ${first} steps`);
  // … is where both conditions first hold, checked here from the points directly.
  const met = metAt(metric, points.slice(0, first));
  const window = points.slice(first - LOSS_WINDOW, first);
  const mean = window.reduce((s, p) => s + p[1], 0) / LOSS_WINDOW;
  assert.equal(met.step, points[first - 1][0]);
  assert.ok(Math.abs(met.loss - mean) < 1e-12 && mean < LOSS_BELOW, `mean loss ${mean}`);
  const latestEval = points.slice(0, first).findLast((p) => p[3] !== null);
  assert.equal(latestEval[3], 1);
  assert.equal(met.metric, 1);
  // One step earlier it was not met: the loss window or the evaluation was not there yet.
  assert.equal(metAt(metric, points.slice(0, first - 1)), null);
  // Before the first evaluation nothing is met, however low the loss.
  const low = points.slice(0, 5).map((p) => [p[0], 0.001, null, null]);
  assert.equal(metAt(metric, [...low, ...low]), null);
});

test('the loss window: a right answer with one high loss among the last 10 steps is not met; fewer than 10 steps never are', async () => {
  const { points, metric } = await history('qa-toy', 300);
  assert.ok(metAt(metric, points), 'the toy is met by step 300');
  // One loss of 0.2 within the window raises its mean to at least 0.02.
  const spiked = points.map((p, i) => (i === points.length - 3 ? [p[0], 0.2, p[2], p[3]] : p));
  assert.equal(metAt(metric, spiked), null);
  // The same spike just before the window does not count.
  const before = points.map((p, i) => (i === points.length - LOSS_WINDOW - 1 ? [p[0], 0.2, p[2], p[3]] : p));
  assert.ok(metAt(metric, before));
  assert.equal(metAt(metric, points.slice(-LOSS_WINDOW + 1)), null);
  // A latest evaluation below 1 is not met, whatever came before it.
  const wrong = [...points.slice(0, -1), [points.at(-1)[0], points.at(-1)[1], 0.5, 0.5]];
  assert.equal(metAt(metric, wrong), null);
});

test('a language model is never met, however low its loss', async () => {
  const { points, metric } = await history('lm-char', 30);
  assert.equal(metric, 'perplexity');
  const perfect = points.map((p, i) => [p[0], 0, i % 10 === 9 ? 0 : null, i % 10 === 9 ? 1 : null]);
  assert.equal(metAt(metric, perfect), null);
});

test('a session with stopWhenMet pauses the Q&A toy with reason met before its 600 steps, answering right; start() trains on to the end', async (t) => {
  const session = await createTrainingSession({ progressInterval: 0 });
  try {
    const configured = await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1 }, stopWhenMet: true });
    assert.equal(configured.totalSteps, 600);
    await session.setProbes({ probes: [{ key: 'main', input: null }] });
    const stopped = () => new Promise((resolve) => {
      const on = (e) => {
        if (e.detail.reason === 'started') return;
        session.removeEventListener('state', on);
        resolve(e.detail);
      };
      session.addEventListener('state', on);
    });
    let end = stopped();
    await session.start();
    const met = await end;
    assert.equal(met.reason, 'met');
    assert.equal(met.running, false);
    assert.ok(met.step < configured.totalSteps, `met at step ${met.step}`);
    t.diagnostic(`met at step ${met.step}, mean loss ${metAt(session.run.task.metric, session.run.points).loss}`);
    assert.equal(session.run.reason, 'met');
    // It stopped at the first step the rule holds for, on the run's own history.
    assert.ok(metAt(session.run.task.metric, session.run.points));
    assert.equal(metAt(session.run.task.metric, session.run.points.slice(0, -1)), null);
    assert.equal(session.run.snapshots.at(-1).step, met.step, 'the model where it stopped is in the history');
    assert.equal((await session.generate('how are you')).text, 'i am fine');
    // Keep training: on to the end, without stopping at the rule again.
    end = stopped();
    await session.start();
    const finished = await end;
    assert.equal(finished.reason, 'finished');
    assert.equal(finished.step, configured.totalSteps);
    // reset() keeps stopWhenMet: the new run stops again at the same step (same seed).
    await session.reset();
    end = stopped();
    await session.start();
    const again = await end;
    assert.equal(again.reason, 'met');
    assert.equal(again.step, met.step);
  } finally {
    session.dispose();
  }
});

test('without stopWhenMet a session trains to totalSteps; a stopWhenMet that is not a boolean is refused by name', async () => {
  const session = await createTrainingSession({ progressInterval: 0 });
  try {
    await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1, totalSteps: 200 } });
    const end = new Promise((resolve) => session.addEventListener('state', (e) => e.detail.reason !== 'started' && resolve(e.detail)));
    await session.start();
    const done = await end;
    assert.equal(done.reason, 'finished');
    assert.equal(done.step, 200);
    assert.ok(metAt(session.run.task.metric, session.run.points), 'the rule held, but the session was not asked to stop');
    await assert.rejects(session.configure({ task: 'qa-toy', stopWhenMet: 'yes' }), /configure\(\{ stopWhenMet \}\): true or false, got the string 'yes'/);
  } finally {
    session.dispose();
  }
});

test('the playground asks for the stop unless its link says stop=false, and a bad value is named', async () => {
  const { defaultState, sessionRequest } = await import('../web/playground/state.js');
  const { readHash, toHash } = await import('../web/playground/hash.js');
  assert.equal(sessionRequest(defaultState()).stopWhenMet, true);
  const off = readHash('#stop=false');
  assert.deepEqual(off.problems, []);
  assert.equal(off.state.stop, false);
  assert.equal(sessionRequest(off.state).stopWhenMet, false);
  assert.equal(toHash(off.state), '#stop=false');
  assert.equal(toHash(defaultState()), '#', 'the default stays out of links');
  const bad = readHash('#stop=no');
  assert.equal(bad.state.stop, true);
  assert.deepEqual(bad.problems.map((p) => [p.key, p.value]), [['stop', 'no']]);
  assert.match(bad.problems[0].reason, /true .* or false/);
});
