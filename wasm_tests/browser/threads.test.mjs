// Browser: training sessions on the threaded module. Served cross-origin isolated (COOP + COEP on
// every response, as `npm start` serves), a session runs on every core by default and gives the
// same losses, evaluation, weights and generation probabilities — bit for bit — at 1, 2 and 3
// threads, through the threaded wasm build in a module worker. Served plain (as static hosts
// serve), the page is not isolated: sessions run on one thread, and asking for more rejects with
// an Error that says why and what is allowed.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, useBrowser, waitForText } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

// The repository root served twice: cross-origin isolated, and plain.
const suite = useBrowser({ root, isolated: true }, { root, isolated: false });

async function threadsPage(isolated) {
  const { url } = suite.servers[isolated ? 0 : 1];
  const opened = await openPage(suite.browser, `${url}wasm_tests/browser/pages/threads.html`);
  await waitForText(opened.page, '#status', /ready/);
  return opened;
}

test('cross-origin isolated: sessions run threaded and give one thread\'s bits at 1, 2 and 3 threads', { timeout: 180_000 }, async () => {
  const { page, problems } = await threadsPage(true);
  const { isolated, support, cores } = await page.evaluate(() => window.support());
  assert.equal(isolated, true);
  assert.deepEqual(support, { available: true, reason: null, cores: Math.min(cores, 64) });
  const one = await page.evaluate(() => window.train(1));
  assert.equal(one.threads, 1);
  const auto = await page.evaluate(() => window.train(undefined));
  assert.equal(auto.threads, support.cores, 'by default a session runs on every core');
  if (cores >= 2) assert.ok(auto.threads >= 2);
  const three = await page.evaluate(() => window.train(3));
  assert.equal(three.threads, 3);
  for (const [name, run] of [['every core', auto], ['3 threads', three]]) {
    assert.deepEqual(run.losses, one.losses, `${name}: losses`);
    assert.deepEqual(run.evaluation, one.evaluation, `${name}: evaluation`);
    assert.deepEqual(run.weight, one.weight, `${name}: tok_emb.weight after training`);
    assert.deepEqual(run.generated, one.generated, `${name}: generation probabilities`);
  }
  assert.ok(one.losses[5] < one.losses[0], 'and it trains');
  assert.deepEqual(problems, []);
});

test('not isolated: one thread, and asking for more says why', { timeout: 120_000 }, async () => {
  const { page, problems } = await threadsPage(false);
  const { isolated, support } = await page.evaluate(() => window.support());
  assert.equal(isolated, false);
  assert.equal(support.available, false);
  assert.equal(support.reason, 'not-isolated');
  const run = await page.evaluate(() => window.train(undefined, 'qa-toy'));
  assert.equal(run.threads, 1);
  const refusals = await page.evaluate(() => window.refusals());
  assert.match(refusals.session, /^threads: 2 is not possible here: this page is not cross-origin isolated .*Cross-Origin-Opener-Policy: same-origin.*; allowed here: threads: 1$/);
  assert.equal(refusals.load, refusals.session);
  assert.equal(refusals.badCount, 'threads must be a whole number from 1 to 64, got the number 0');
  assert.deepEqual(problems, []);
});
