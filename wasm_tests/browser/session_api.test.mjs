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
  assert.deepEqual(r.progress.keys, ['evaluated', 'evaluatedAt', 'gradNorm', 'history', 'loss', 'lr', 'metric', 'running', 'step',
    'tokenAccuracy', 'tokensPerSec', 'tokensSeen', 'totalSteps', 'valLoss']);
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
    const started = performance.now();
    const missing = await failure({ workerUrl: new URL('no-such-worker.js', location.href) });
    const missingMs = performance.now() - started;
    // A module that loads but never answers the handshake (it sets no onmessage).
    const silent = await failure({ workerUrl: new URL('../../../web/lib/platform.js', location.href), startTimeout: 400 });
    return { missing, missingMs, silent };
  });
  assert.match(r.missing, /^the training worker could not start: its script failed to load or threw while loading/);
  assert.ok(r.missingMs < 10_000, `the error came at once, not after the time-out (${r.missingMs} ms)`);
  assert.match(r.silent, /^the training worker could not start: no answer within 400 ms/);
  assert.deepEqual(seen.filter((p) => !p.includes('no-such-worker.js') && !/status of 404/.test(p)), []);
  await own.close();
});
