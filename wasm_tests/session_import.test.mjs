// node:test — another project's files read in a training session's worker, never on the calling
// thread: session.describeModelFiles() and session.importTokenizer() (whose saved text
// tp.loadTokenizer() turns into the same tokenizer here), an AbortSignal that rejects at once
// even while the worker waits, and what structured cloning would lose or refuse on the way to the
// worker (a Symbol key, a detached checkpoint) refused with a message that says so; and an
// imported model whose training does not fit, loaded to generate and be traced without a trainer
// (notTrainable says why; start() and step() refuse with it), trained once its options fit.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { load, createTrainingSession } from 'transformer-playground';
import { writeHfFolder } from '../bench/import/hf_folder.mjs';

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
    /^Error: configure\(\) request key Symbol\(model\) is a Symbol, not a string; the keys allowed are task, model, training, checkpoint, files, stopWhenMet$/);
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

test('an imported model whose training does not fit loads to generate and be traced; fine-tuning is offered once it fits', async () => {
  // GPT-2 small's width and heads, one layer, the GPT-2 fixture's 317 tokens, 1,024 positions
  // (16 MB in F16): 16 training windows of 1,024 tokens need gigabytes of activations.
  const shape = { name: 'gpt2-wide-1-layer', family: 'gpt2', layers: 1, d: 768, heads: 12, ffn: 3072, vocab: 317, context: 1024 };
  const base = mkdtempSync(path.join(tmpdir(), 'tp-session-import-'));
  try {
    const folder = await writeHfFolder(base, shape, 'F16', { tokenizer: new URL('../native_tests/data/import/gpt2/tokenizer.json', import.meta.url).pathname });
    const wide = ['config.json', 'model.safetensors', 'tokenizer.json'].map((name) => ({ name, bytes: new Uint8Array(readFileSync(path.join(folder, name))) }));
    const text = 'the cat sat on the mat. the dog sat on the log. the cat saw the dog.\n'.repeat(4);
    const long = await session.configure({ task: { text }, training: { seqLen: 1024 }, files: wide });
    assert.match(long.notTrainable, /^batchSize × length × dModel = 16 × 1024 × 768 is out of range for training: a step needs about \d+ MB of activations.*the limit is 1024 MB in all/);
    assert.equal(session.run.notTrainable, long.notTrainable);
    assert.equal(long.config.dModel, 768);
    assert.equal(long.config.nLayers, 1);
    const out = await session.generate('the cat', { maxNewTokens: 4, temperature: 0 });
    assert.equal(out.steps.length, 4);
    assert.ok(out.ids.every((id) => id >= 0 && id < 317), String(out.ids));
    const trace = await session.snapshot({ input: 'the cat sat' });
    const T = trace.input.tokens.length;
    assert.deepEqual(trace.tensors['dec.0.self_attn.probs'].shape, [12, T, T]);
    // The history records the model as it is (step 0), as for any other.
    await session.setProbes({ probes: [{ key: 'main', input: 'the cat sat' }] });
    assert.equal(session.run.snapshots.length, 1);
    assert.deepEqual(session.run.snapshots[0].probes.main.tensors['dec.0.self_attn.probs'].shape, [12, T, T]);
    for (const [name, call] of [['start', () => session.start()], ['step', () => session.step(1)], ['evaluate', () => session.evaluate()]]) {
      await assert.rejects(call(), new RegExp(`^Error: ${name}\\(\\): this model generates and can be inspected here, but not trained: batchSize × length × dModel = 16 × 1024 × 768`));
    }
    // Windows of 32 tokens fit: the same files get a trainer.
    const short = await session.configure({ task: { text }, training: { seqLen: 32 }, files: wide });
    assert.equal(short.notTrainable, null);
    assert.equal(session.run.notTrainable, null);
    const report = await session.step(1);
    assert.ok(Number.isFinite(report.loss), JSON.stringify(report));
    await session.setProbes({ probes: [] });
  } finally {
    rmSync(base, { recursive: true, force: true });
  }
});
