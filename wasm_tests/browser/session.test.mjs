// Browser: createTrainingSession() trains in a Web Worker — the seed's toy learns, the worker
// sends progress at most every 100 ms by its own clock, the page never instantiates the module (so
// no training step can run on its thread), and the wasm module is compiled once for the page and
// the worker together.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForText } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const suite = useBrowser({ root });

test('a training session learns the seed toy off the main thread', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}wasm_tests/browser/pages/session.html`);
  await waitForText(page, '#status', /ready/);
  const r = await page.evaluate(() => window.sessionTest());
  assert.equal(r.configured, 'qa-toy');
  assert.equal(r.state.step, 4000);
  assert.equal(r.answer, 'i am fine');
  assert.ok(r.history >= 4000, `history has ${r.history} points`);
  assert.deepEqual(r.traceNames, ['enc.0.self_attn.probs']);
  assert.deepEqual(r.traceShape, [2, 3, 3]);
  // The page paces the 4000 steps at 5,000 a second, so they span at least 0.8 s on any machine:
  // several progress events, whose spacing is seen.
  // It is read on the worker's clock (each event carries the worker's performance.now()): the
  // worker keeps the interval, the page may receive the events bunched while its thread is busy.
  // 2 ms below the interval: browsers round performance.now() (Firefox to 1 ms).
  assert.ok(r.progressEvents >= 3, `only ${r.progressEvents} progress events`);
  assert.ok(r.workerMinGap >= 98, `progress events sent ${r.workerMinGap} ms apart by the worker's clock`);
  // The page never instantiated the module itself (training cannot have run on its thread); the
  // worker used the page's compilation. (Main-thread long tasks are measured by the benchmark's
  // drawing section, not asserted here: a loaded machine stretches any task.)
  assert.deepEqual(r.stats, { compilations: 1, instantiations: 0 });
  assert.deepEqual(problems, []);
  await page.close();
});
