// Browser: createTrainingSession() trains in a Web Worker — the seed's toy learns, progress
// arrives at most every ~100 ms, the page never instantiates the module (so no training step can
// run on its thread), and the wasm module is compiled once for the page and the worker together.
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
  // The page asks for progress at most every 50 ms: 4000 steps (~0.8 s here, a few times less
  // on a quiet machine) give several events, and no more than the interval allows over their
  // span (a throttle, not a speed). Counted over the span rather than gap by gap: on a loaded
  // machine two messages sent 50 ms apart can reach the page closer together, and the last one
  // (the state change) is sent at once.
  assert.ok(r.progressEvents >= 3, `only ${r.progressEvents} progress events`);
  assert.ok(r.progressEvents <= r.spanMs / 50 + 3, `${r.progressEvents} progress events in ${r.spanMs} ms (interval 50 ms; closest ${r.minGap} ms apart)`);
  // The page never instantiated the module itself (training cannot have run on its thread); the
  // worker used the page's compilation. (Main-thread long tasks are measured by the benchmark's
  // drawing section, not asserted here: a loaded machine stretches any task.)
  assert.deepEqual(r.stats, { compilations: 1, instantiations: 0 });
  assert.deepEqual(problems, []);
  await page.close();
});
