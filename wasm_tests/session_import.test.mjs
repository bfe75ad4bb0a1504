// node:test — another project's files read in a training session's worker, never on the calling
// thread: session.describeModelFiles() and session.importTokenizer() (whose saved text
// tp.loadTokenizer() turns into the same tokenizer here), an AbortSignal that rejects at once
// even while the worker waits, and what structured cloning would lose or refuse on the way to the
// worker (a Symbol key, a detached checkpoint) refused with a message that says so.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { load, createTrainingSession } from 'transformer-playground';

const dir = new URL('../native_tests/data/import/llama/', import.meta.url);
const files = () => readdirSync(dir).filter((f) => f !== 'expected.json').map((f) => ({ name: f, bytes: new Uint8Array(readFileSync(new URL(f, dir))) }));
let tp, session, server, base;
const open = new Set();

before(async () => {
  tp = await load();
  session = await createTrainingSession();
  // A server that answers nothing: an import of it waits until it is aborted.
  server = createServer(() => {});
  server.on('connection', (socket) => open.add(socket));
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  session.dispose();
  for (const socket of open) socket.destroy();
  server.close();
});

test('the worker describes the files and imports their tokenizer; loadTokenizer gives the same one here', async () => {
  const info = await session.describeModelFiles(files());
  assert.deepEqual(info, await tp.describeModelFiles(files()));
  const saved = await session.importTokenizer(files());
  assert.equal(typeof saved, 'string');
  const there = tp.loadTokenizer(saved), here = await tp.importTokenizer(files());
  for (const text of ['hello world', 'a b  c', 'ünïcödé ✓']) assert.deepEqual(there.encode(text), here.encode(text));
  assert.deepEqual(there.vocabulary(), here.vocabulary());
  assert.deepEqual(there.specials, here.specials);
  there.dispose();
  here.dispose();
  assert.throws(() => tp.loadTokenizer('{"kind":"gpt2"}'), /^Error: loadTokenizer: not a valid tokenizer: /);
  assert.throws(() => tp.loadTokenizer(new Uint8Array(3)), /loadTokenizer\(saved\): saved must be the string tokenizer\.save\(\) gave, got a Uint8Array/);
});

test('an AbortSignal rejects a session import at once, and the session keeps working', async () => {
  const controller = new AbortController();
  const waiting = session.importTokenizer([{ name: 'config.json', url: `${base}/config.json` }, { name: 'tokenizer.json', url: `${base}/tokenizer.json` }],
    { signal: controller.signal });
  setTimeout(() => controller.abort(new Error('changed my mind')), 100);
  await assert.rejects(waiting, (error) => error.name === 'AbortError' && error.message === 'importTokenizer: aborted (changed my mind)');
  await assert.rejects(session.describeModelFiles(files(), { signal: AbortSignal.abort() }), /^AbortError: describeModelFiles: aborted/);
  // The worker stopped the download (its stall timer would otherwise still be running) and answers.
  assert.equal((await session.describeModelFiles(files())).format, 'huggingface');
  await assert.rejects(session.importTokenizer(files(), { stallTimeout: 0 }), /importTokenizer option 'stallTimeout' must be a whole number of milliseconds >= 1/);
});

test('configure() refuses what the trip to the worker would lose: a Symbol key, a detached checkpoint', async () => {
  await assert.rejects(session.configure({ task: 'qa-toy', [Symbol('model')]: {} }),
    /^Error: configure\(\) request key Symbol\(model\) is a Symbol, not a string; the keys allowed are task, model, training, checkpoint, files$/);
  await assert.rejects(session.configure({ task: 'qa-toy', training: { [Symbol('lr')]: 1 } }), /^Error: training option key Symbol\(lr\) is a Symbol/);
  await assert.rejects(session.configure({ task: 'qa-toy', model: { [Symbol('seed')]: 1 } }), /^Error: model config key Symbol\(seed\) is a Symbol/);
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const bytes = model.save();
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  await assert.rejects(session.configure({ task: 'qa-toy', checkpoint: bytes }),
    /^Error: configure\(\{ checkpoint \}\): the checkpoint is detached, so it holds no bytes: its ArrayBuffer was transferred .*pass a copy \(bytes\.slice\(\)\)$/);
  for (const o of [model, task]) o.dispose();
  assert.equal((await session.configure({ task: 'qa-toy', model: { seed: 1 } })).task.name, 'qa-toy');
});
