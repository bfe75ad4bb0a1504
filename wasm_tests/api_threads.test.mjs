// node:test — the threads option where threads are not available: Node runs the single-threaded
// module, so threadSupport() says why, load({ threads: 2 }) rejects saying what is allowed, the
// module reports one thread, and asking it for more gives the C++ side's message — after which
// the module keeps working. (Threaded runs: wasm_tests/browser/threads.test.mjs and the
// [threads] Catch2 suites, natively and in the threaded wasm build.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { load, threadSupport } from 'transformer-playground';
import { assertModuleWorks, trainedToy } from './helpers.mjs';

test('in Node: one thread, and asking for more says why and what is allowed', async () => {
  assert.deepEqual(threadSupport(), { available: false, reason: 'node', cores: 1 });
  await assert.rejects(load({ threads: 2 }), { message: 'threads: 2 is not possible here: Node runs the single-threaded module; allowed here: threads: 1' });
  await assert.rejects(load({ threads: 1.5 }), { message: 'threads must be a whole number from 1 to 64, got the number 1.5' });
  const tp = await load({ threads: 1 });
  assert.equal(tp.threads, 1);
  tp.setThreads(1);
  assert.throws(() => tp.setThreads(2), { message: 'threads = 2 is not available: this build is single-threaded; allowed: 1' });
  assert.throws(() => tp.setThreads('2'), { message: "setThreads(n): n must be a whole number, got the string '2'" });
  assert.equal(tp.threads, 1);
  const { model } = await trainedToy();
  assertModuleWorks(tp, model);
});
