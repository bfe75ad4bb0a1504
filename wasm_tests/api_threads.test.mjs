// node:test — threads in Node: the threaded module runs its pthreads on worker_threads
// (web/lib/node/pthreads.js). threadSupport() reports the machine's cores; load({ threads: 2 })
// and createTrainingSession({ threads: 2 }) train the seed's toy to "i am fine" with every step's
// loss equal to one thread's; a process that loaded the threaded module exits when it is done;
// a bad thread count still says what is allowed, and the module keeps working after it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { availableParallelism } from 'node:os';
import { createTrainingSession, threadSupport } from 'transformer-playground';

// Each session is a worker_threads thread with an engine of its own: one on one thread, one on two.
async function trainToy(threads) {
  const session = await createTrainingSession({ threads });
  try {
    const configured = await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1 } });
    const finished = new Promise((resolve) => session.addEventListener('state', (e) => e.detail.reason === 'finished' && resolve()));
    await session.start();
    await finished;
    return { threads: session.threads, steps: configured.totalSteps, losses: session.history.map((p) => p.loss), answer: (await session.generate('how are you')).text };
  } finally {
    session.dispose();
  }
}

test('in Node: threadSupport() reports the cores, and threads must be a whole number from 1', () => {
  assert.deepEqual(threadSupport(), { available: true, reason: null, cores: Math.min(64, availableParallelism()) });
  return assert.rejects(createTrainingSession({ threads: 1.5 }), { message: 'threads must be a whole number from 1 to 64, got the number 1.5' });
});

test('createTrainingSession({ threads: 2 }) trains the toy to "i am fine" with the losses of one thread, step for step', async () => {
  const two = await trainToy(2);
  const one = await trainToy(1);
  assert.equal(two.threads, 2);
  assert.equal(one.threads, 1);
  assert.equal(two.answer, 'i am fine');
  assert.equal(one.answer, 'i am fine');
  assert.equal(two.losses.length, two.steps);
  assert.deepEqual(two.losses, one.losses);
});

// A fresh process: load() on its own thread, as a script does.
function node(code) {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', code], { encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.error, undefined, 'the process ended by itself');
  return r;
}

test('load({ threads: 2 }) in a script trains on two threads, equals one thread, and the process exits when done', () => {
  const script = (threads) => `
    import { load } from 'transformer-playground';
    const tp = await load({ threads: ${threads} });
    const task = tp.task('qa-toy');
    const model = tp.model({ ...task.defaults, seed: 1 });
    const trainer = tp.trainer(model, task, { seed: 1 });
    const losses = [];
    for (let i = 0; i < 200; ++i) losses.push(trainer.step(1).loss);
    console.log(JSON.stringify({ threads: tp.threads, losses, answer: (trainer.step(400), model.generate('how are you').text) }));
    tp.setThreads(1);
    tp.setThreads(2);
    try { tp.setThreads(3); } catch (e) { console.log(JSON.stringify({ error: e.message })); }`;
  const two = node(script(2)), one = node(script(1));
  assert.equal(two.status, 0, two.stderr);
  assert.equal(two.stderr, '');
  const [result, refused] = two.stdout.trim().split('\n').map((l) => JSON.parse(l));
  assert.equal(result.threads, 2);
  assert.equal(result.answer, 'i am fine');
  assert.deepEqual(result.losses, JSON.parse(one.stdout.split('\n')[0]).losses);
  assert.equal(refused.error, 'threads = 3 is out of range; allowed: 1 .. 2');
});
