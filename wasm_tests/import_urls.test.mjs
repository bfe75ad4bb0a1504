// node:test — importModel() from URLs served by a server that is not to be believed: one that
// announces 2 GB (Content-Length), one that stalls after its headers (or before them), one that
// sends more than the config implies (no Content-Length), one that drops the connection, and
// an AbortSignal. Each rejects promptly with a message naming the call and the file, the wasm
// heap does not grow by the bytes announced or sent, and the module keeps working. Files and
// Blobs larger than their config implies are refused before they are allocated.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { createServer } from 'node:http';
import { readFileSync, readdirSync } from 'node:fs';
import { load } from 'transformer-playground';
import { trainedToy, assertModuleWorks } from './helpers.mjs';

const dir = new URL('../native_tests/data/import/gpt2/', import.meta.url);
const FILES = Object.fromEntries(readdirSync(dir).filter((f) => f !== 'expected.json').map((f) => [f, new Uint8Array(readFileSync(new URL(f, dir)))]));
const MB = 1 << 20;

let tp, toy, server, base;
const open = new Set();  // the server's sockets, closed at the end (a stalled one never ends itself)
let stalling = null;     // called once /stall/ has sent its first bytes (a test waiting for that sets it)

// path -> how the server answers it (the real files under /good/).
const routes = {
  // The real weights' first bytes, then silence, under a Content-Length of 2 GB.
  '/liar/model.safetensors': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream', 'content-length': String(2 ** 31) });
    res.write(FILES['model.safetensors'].subarray(0, 1024));
  },
  // The right Content-Length, half the body, then nothing more.
  '/stall/model.safetensors': (req, res) => {
    res.writeHead(200, { 'content-length': String(FILES['model.safetensors'].length) });
    res.write(FILES['model.safetensors'].subarray(0, 4096), () => stalling?.());
  },
  // No answer at all, not even headers.
  '/silent/config.json': () => {},
  // No Content-Length (chunked) and no end: zeros for as long as anyone reads.
  '/flood/model.safetensors': (req, res) => {
    res.writeHead(200, { 'content-type': 'application/octet-stream' });
    const block = new Uint8Array(256 * 1024);
    const pump = () => {
      while (res.write(block)) if (res.destroyed) return;
      res.once('drain', pump);
    };
    res.on('close', () => res.removeAllListeners('drain'));
    pump();
  },
  // Half the body, then the connection is dropped.
  '/drop/model.safetensors': (req, res) => {
    res.writeHead(200, { 'content-length': String(FILES['model.safetensors'].length) });
    res.write(FILES['model.safetensors'].subarray(0, 4096), () => res.socket.destroy());
  },
};

before(async () => {
  tp = await load();
  ({ model: toy } = await trainedToy());
  server = createServer((req, res) => {
    const path = new URL(req.url, 'http://x').pathname;
    const route = routes[path];
    if (route) return route(req, res);
    const name = path.split('/').pop();
    if (path.startsWith('/good/') && FILES[name]) {
      res.writeHead(200, { 'content-length': String(FILES[name].length) });
      return res.end(FILES[name]);
    }
    res.writeHead(404).end();
  });
  server.on('connection', (socket) => {
    open.add(socket);
    socket.on('close', () => open.delete(socket));
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${server.address().port}`;
});

after(() => {
  for (const socket of open) socket.destroy();
  server.close();
});

// The gpt2 fixture with `weights` (or `config`) at a route of the server.
const files = ({ weights = '/good/model.safetensors', config = '/good/config.json' } = {}) => [
  { name: 'config.json', url: base + config },
  { name: 'model.safetensors', url: base + weights },
  { name: 'tokenizer.json', url: `${base}/good/tokenizer.json` },
];

// Runs `fn`, returns how far the wasm heap grew meanwhile.
async function heapGrowth(fn) {
  const before = tp.heapStats().heapSize;
  await fn();
  return tp.heapStats().heapSize - before;
}

test('a model imports from URLs as it does from bytes', async () => {
  const fromUrls = await tp.importModel(files());
  const fromBytes = await tp.importModel(Object.entries(FILES).map(([name, bytes]) => ({ name, bytes })));
  assert.deepEqual(fromUrls.generate('the', { maxNewTokens: 8 }).ids, fromBytes.generate('the', { maxNewTokens: 8 }).ids);
  fromUrls.dispose();
  fromBytes.dispose();
});

test('a Content-Length of 2 GB is refused before anything is allocated', { timeout: 20000 }, async () => {
  const grew = await heapGrowth(() => assert.rejects(tp.importModel(files({ weights: '/liar/model.safetensors' })),
    /^Error: importModel: 'model\.safetensors': http:\/\/[^ ]+ announces 2048 MB \(Content-Length\), more than config\.json implies at most \d+\.\d MB \(12688 parameters as F32 with their header\); nothing was read$/));
  assert.ok(grew < 8 * MB, `the heap grew by ${grew} bytes`);
  assertModuleWorks(tp, toy);
});

// The stall timer runs on every file of an import, the healthy ones too: 3 s, not less, so that
// a loaded machine that leaves this process unscheduled for a moment does not make a healthy
// file look stalled (at 0.3 s, config.json once "sent no answer").
test('a server that stalls after its headers rejects after stallTimeout, naming the file', { timeout: 30000 }, async () => {
  const grew = await heapGrowth(() => assert.rejects(tp.importModel(files({ weights: '/stall/model.safetensors' }), { stallTimeout: 3000 }),
    /^Error: importModel: 'model\.safetensors': no bytes arrived from http:\/\/\S+\/stall\/model\.safetensors for 3 s; the server stopped sending \(stallTimeout\)$/));
  assert.ok(grew < 8 * MB, `the heap grew by ${grew} bytes`);
  // Before its headers, too (and from describeModelFiles).
  await assert.rejects(tp.describeModelFiles(files({ config: '/silent/config.json' }), { stallTimeout: 3000 }),
    /^Error: describeModelFiles: 'config\.json': http:\/\/\S+ sent no answer for 3 s; the server stopped sending \(stallTimeout\)$/);
  assertModuleWorks(tp, toy);
});

test('a server that sends more than the config implies is stopped there, and the heap does not grow', { timeout: 30000 }, async () => {
  const grew = await heapGrowth(() => assert.rejects(tp.importModel(files({ weights: '/flood/model.safetensors' })),
    /^Error: importModel: 'model\.safetensors': http:\/\/\S+ sent more than config\.json implies at most \d+\.\d MB \(12688 parameters as F32 with their header\); the download was stopped there$/));
  assert.ok(grew < 8 * MB, `the heap grew by ${grew} bytes`);
  assertModuleWorks(tp, toy);
});

test('a dropped connection says which file and what happened, not only "terminated"', { timeout: 20000 }, async () => {
  await assert.rejects(tp.importModel(files({ weights: '/drop/model.safetensors' })),
    /^Error: importModel: 'model\.safetensors': the download from http:\/\/\S+ failed: terminated \(.+\)$/);
  assertModuleWorks(tp, toy);
});

test('an AbortSignal stops an import that waits for a stalled server', { timeout: 20000 }, async () => {
  const controller = new AbortController();
  // Aborted once the import waits on the stalled weights (it reads config.json first, then asks
  // for them), however long the machine takes to get there.
  const waiting = new Promise((resolve) => { stalling = resolve; });
  const importing = tp.importModel(files({ weights: '/stall/model.safetensors' }), { signal: controller.signal, stallTimeout: Infinity });
  await waiting;
  stalling = null;
  controller.abort(new Error('the reader left'));
  await assert.rejects(importing, (error) => {
    assert.equal(error.name, 'AbortError');
    assert.equal(error.message, "importModel: 'model.safetensors': aborted (the reader left)");
    return true;
  });
  // An aborted signal refuses at once.
  await assert.rejects(tp.importModel(files(), { signal: AbortSignal.abort() }), /^AbortError: importModel: 'config\.json': aborted/);
  assertModuleWorks(tp, toy);
});

test('files and Blobs larger than their config implies are refused before they are allocated', async () => {
  const huge = new Blob([new Uint8Array(64 * MB)]);
  const grew = await heapGrowth(() => assert.rejects(tp.importModel([{ name: 'config.json', bytes: FILES['config.json'] }, { name: 'model.safetensors', blob: huge },
    { name: 'tokenizer.json', bytes: FILES['tokenizer.json'] }]),
  /^Error: importModel: 'model\.safetensors': has 64\.0 MB, more than config\.json implies at most \d+\.\d MB \(12688 parameters as F32 with their header\)$/));
  assert.ok(grew < 8 * MB, `the heap grew by ${grew} bytes`);
  await assert.rejects(tp.importTokenizer([{ name: 'config.json', blob: new Blob([new Uint8Array(2 * MB)]) }]),
    /^Error: importTokenizer: 'config\.json': has 2\.0 MB, more than a config\.json is at most 1 MB$/);
  assertModuleWorks(tp, toy);
});

test('bytes whose ArrayBuffer was transferred away are refused, saying so', async () => {
  const bytes = FILES['config.json'].slice();
  structuredClone(bytes.buffer, { transfer: [bytes.buffer] });
  for (const given of [bytes, bytes.buffer]) {
    await assert.rejects(tp.importModel([{ name: 'config.json', bytes: given }]),
      /^Error: importModel: 'config\.json': its bytes are detached: the ArrayBuffer was transferred .* transfer a copy \(bytes\.slice\(\)\)$/);
  }
});

test('import options are checked', async () => {
  await assert.rejects(tp.importModel(files(), { signal: {} }), /importModel option 'signal' must be an AbortSignal/);
  await assert.rejects(tp.importModel(files(), { stallTimeout: -1 }), /importModel option 'stallTimeout' must be a whole number of milliseconds >= 1, or Infinity, got the number -1/);
  await assert.rejects(tp.importModel(files(), { timeout: 5 }), /unknown importModel option 'timeout'; allowed: signal, stallTimeout/);
  await assert.rejects(tp.importModel(files(), { [Symbol('signal')]: 1 }), /importModel option key Symbol\(signal\) is a Symbol, not a string; the keys allowed are signal, stallTimeout/);
});
