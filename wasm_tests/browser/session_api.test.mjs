// Browser: the whole createTrainingSession() API in the browser — step, start/pause (no progress
// after a pause), progress and state events, snapshot/evaluate/parameter with typed arrays,
// reset, save -> load on the page thread, configure from a checkpoint (and reset back to it),
// errors that reject with the API's messages while the session keeps working, and predict on an
// encoder-only task. session.test.mjs covers the long-task and compile-once guarantees.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForText } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const suite = useBrowser({ root });
let page, problems;

suite.before(async () => {
  ({ page, problems } = await openPage(suite.browser, `${suite.url}wasm_tests/browser/pages/session_api.html`));
  await waitForText(page, '#status', /ready/);
});

test('step, start, pause, events, snapshot, evaluate, parameter, reset and dispose', { timeout: 60_000 }, async () => {
  const r = await page.evaluate(() => window.lifecycle());
  assert.equal(r.isSession, true);
  assert.equal(r.configured.task.name, 'lm-char');
  assert.equal(r.configured.config.nLayers, 1);
  assert.equal(r.configured.totalSteps, 100000);
  assert.equal(r.configured.info.task, 'lm-char');
  assert.equal(r.stepped.step, 3);
  assert.equal(r.stepped.state, 3);
  assert.ok(r.stepped.loss > 0);
  assert.equal(r.startAnswer.running, true);
  assert.equal(r.startedEvent.reason, 'started');
  assert.equal(r.paused.running, false);
  assert.deepEqual({ newEvents: r.afterPause.newEvents, running: r.afterPause.running }, { newEvents: 0, running: false });
  assert.equal(r.afterPause.stepLater, r.afterPause.stepAtPause, 'no training after pause()');
  assert.ok(r.afterPause.stepAtPause > 3);
  assert.deepEqual(r.progress.keys, ['diverged', 'divergedAt', 'evaluated', 'evaluatedAt', 'gradNorm', 'history', 'loss', 'lr', 'metric', 'running', 'step',
    'tokenAccuracy', 'tokensPerSec', 'tokensSeen', 'totalSteps', 'valLoss', 'workerTime']);
  assert.equal(r.progress.running, true);
  assert.equal(r.progress.totalSteps, 100000);
  // Every step is in the history, in order, from the first.
  assert.equal(r.history.first[0], 1);
  assert.deepEqual(r.history.steps, Array.from({ length: r.history.length }, (_, i) => i + 1));
  assert.equal(r.history.length, r.afterPause.stepAtPause);
  assert.deepEqual(r.snapshot.names, ['dec.0.self_attn.probs', 'probs']);
  assert.deepEqual(r.snapshot.shape, [4, 9, 9]);
  assert.equal(r.snapshot.isFloat32, true);
  assert.equal(r.snapshot.step, r.afterPause.stepAtPause);
  assert.deepEqual(r.snapshot.inputTokens, ['t', 'h', 'e', '▁', 'd', 'e', 'v', 'i', 'l']);
  assert.ok(Math.abs(r.evaluation.perplexity - Math.exp(r.evaluation.loss)) < 1e-6 * r.evaluation.perplexity);
  assert.deepEqual(r.parameter, { shape: [89, 128], isFloat32: true, length: 89 * 128 });
  assert.equal(r.generated, 5);
  assert.equal(r.reset.totalSteps, 100000);
  assert.deepEqual(r.afterReset, { state: { running: false, step: 0, totalSteps: 100000 }, history: 0, report: null });
  assert.equal(r.stepAfterReset, 1);
  assert.equal(r.afterDispose, 'this training session has been disposed');
  assert.deepEqual(problems, []);
});

test('a trained session saves a checkpoint that loads on the page and starts a new session', { timeout: 60_000 }, async () => {
  const r = await page.evaluate(() => window.checkpoint());
  assert.equal(r.finishedAt, 600);
  assert.equal(r.running, false);
  assert.equal(r.isBytes, true);
  assert.equal(r.trained, 'i am fine');
  assert.equal(r.pageThread, 'i am fine');
  assert.deepEqual(r.fromCheckpoint, { step: 0, task: 'qa-toy', dModel: 6, answer: 'i am fine' });
  assert.deepEqual(r.afterReset, { step: 0, answer: 'how about yourself' }, 'reset() returns to the checkpoint');
  assert.equal(r.stats.compilations, 1, 'the page and every worker share one compilation');
  assert.deepEqual(problems, []);
});

test('bad requests reject with messages that name the problem; the session keeps working', { timeout: 60_000 }, async () => {
  const r = await page.evaluate(() => window.errors());
  assert.equal(r.beforeConfigure, 'configure() the session before step()');
  assert.match(r.unknownTask, /there is no task named 'nope'; built-in tasks: qa-toy/);
  assert.match(r.unknownKey, /unknown model config key 'dmodel'; allowed: arch, vocabSize, dModel/);
  assert.match(r.badTraining, /lr = -1 is out of range/);
  assert.match(r.badCheckpoint, /safetensors: the file is 3 bytes/);
  assert.match(r.badStep, /step\(n\): n must be a whole number from 1 to 100000, got the number 0/);
  assert.match(r.badSnapshot, /word "hello" at byte offset 0 is not in the vocabulary/);
  assert.match(r.badGenerate, /unknown generate option key 'maxTokens'/);
  assert.match(r.predictOnSeq2seq, /predict\(\) is for encoder-only models/);
  assert.equal(r.stillWorks, 2);
  assert.deepEqual(problems, []);
});

test('the run is recorded by the worker and mirrored in session.run: steps, snapshots on schedule, a new run on reset, the pace', { timeout: 60_000 }, async () => {
  const r = await page.evaluate(() => window.runRecord());
  assert.equal(r.configured.run, r.atStart.id);
  assert.deepEqual(r.atStart, { id: r.configured.run, snapshots: [0], points: 0 }, 'configure() records the untrained model');
  assert.deepEqual(r.finished, { running: false, reason: 'finished', step: 600, finished: true });
  assert.equal(r.points, 600);
  assert.ok(r.pointSteps, 'one point per step, in order');
  assert.deepEqual(r.evaluations, [...Array.from({ length: 60 }, (_, i) => 1 + i * 10), 600], "the seed toy evaluates every 10 steps");
  // Log-spaced: every step up to 64, then every 2nd, 4th, 8th, 16th, and the last step.
  const want = [];
  for (let s = 0; s <= 600; ++s) if (s <= 64 || s % (2 ** Math.ceil(Math.log2(s / 64))) === 0) want.push(s);
  assert.deepEqual(r.snapshotSteps, [...want, ...(want.at(-1) === 600 ? [] : [600])]);
  assert.ok(r.snapshotEvents > 3, `${r.snapshotEvents} snapshot events`);
  assert.equal(r.first.step, 0);
  assert.equal(r.last.step, 600);
  assert.deepEqual(r.last.probeTokens, ['how', 'are', 'you']);
  assert.ok(r.last.names.includes('enc.0.self_attn.probs') && r.last.names.includes('dec.0.cross_attn.q') && r.last.names.includes('enc.embed.sum'), r.last.names.join());
  assert.ok(!r.last.names.includes('enc.0.ffn.hidden'), 'the views\' probe keeps only what they draw');
  assert.ok(r.last.wtNames > 40, 'a full probe keeps every entry');
  assert.deepEqual(r.last.params, ['enc.0.self_attn.q.weight', 'pos_emb.weight', 'tok_emb.weight'].filter((n) => n !== 'pos_emb.weight'), 'sinusoidal: no learned table');
  assert.deepEqual(r.last.top, [5, 5 * 4]);
  assert.equal(r.at50, 50);
  assert.ok(r.differ, 'the attention at step 1 is not the final one');
  assert.ok(r.bytes > 0 && r.json);
  assert.deepEqual(r.kept, [0, r.snapshotSteps[Math.round(0.25 * (r.snapshotSteps.length - 1))], r.snapshotSteps[Math.round(0.5 * (r.snapshotSteps.length - 1))],
    r.snapshotSteps[Math.round(0.75 * (r.snapshotSteps.length - 1))], 600]);
  assert.deepEqual(r.newProbe, { snapshots: r.snapshotSteps, probes: ['i am fine'], points: 600,
    answer: { snapshots: r.snapshotSteps.length, retraced: r.snapshotSteps.length, stopped: false } });
  assert.deepEqual(r.reset, { id: r.configured.run + 1, oldId: r.configured.run, oldPoints: 600, points: 0 });
  assert.equal(r.pace, 10);
  assert.ok(r.paced.steps >= 10 && r.paced.steps <= Math.ceil((10 * r.paced.workerMs) / 1000) + 1, `${r.paced.steps} steps in ${r.paced.workerMs} ms of the worker's clock at 10 steps/s`);
  assert.match(r.badPace, /setPace\(stepsPerSecond\): a number from 0 \(as fast as possible\) to 100000, got -1/);
  assert.deepEqual(problems, []);
});

test('an encoder-only session predicts classes', { timeout: 60_000 }, async () => {
  const r = await page.evaluate(() => window.classifier());
  assert.deepEqual(r.labels, ['positive', 'negative']);
  assert.ok(r.p > 0.5);
  assert.deepEqual(problems, []);
});

test("a worker that cannot start rejects createTrainingSession() with a clear message: a missing script, a script that never answers", { timeout: 60_000 }, async () => {
  // A page of its own: the missing script's 404 is the point here, not a problem of the others.
  const { page: own, problems: seen } = await openPage(suite.browser, `${suite.url}wasm_tests/browser/pages/session_api.html`);
  await waitForText(own, '#status', /ready/);
  const r = await own.evaluate(async () => {
    const { createTrainingSession } = await import(new URL('../../../web/lib/transformer-playground.js', location.href));
    const failure = (options) => createTrainingSession(options).then(() => 'started', (e) => e.message);
    // A time-out far beyond the test's own: the load error is the only answer that can come.
    const missing = await failure({ workerUrl: new URL('no-such-worker.js', location.href), startTimeout: 3_600_000 });
    // A module that loads but never answers the handshake (it sets no onmessage).
    const silent = await failure({ workerUrl: new URL('../../../web/lib/platform.js', location.href), startTimeout: 400 });
    return { missing, silent };
  });
  // The error came at once, from the failed load (the time-out's message says "no answer within").
  assert.match(r.missing, /^the training worker could not start: its script failed to load or threw while loading/);
  assert.match(r.silent, /^the training worker could not start: no answer within 400 ms/);
  assert.deepEqual(seen.filter((p) => !p.includes('no-such-worker.js') && !/status of 404/.test(p)), []);
  await own.close();
});
