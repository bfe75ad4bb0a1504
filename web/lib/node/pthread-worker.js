// node/pthread-worker.js — one thread of the threaded wasm module in Node: a worker_threads
// thread that runs Emscripten's own pthread script (wasm/transformer_playground_threads.worker.js)
// as a browser would, given the Web Worker globals it uses (self, postMessage, onmessage) over
// parentPort. That script is a classic script that import()s the module's glue (at the absolute
// URL the main thread passes as mainScriptUrlOrBlob); it runs as a function body, where Node's
// own loader serves that import(). (Node only: the browser build never evaluates text.)
// Started by node/pthreads.js.
import { parentPort, workerData } from 'node:worker_threads';
import { readFileSync } from 'node:fs';

globalThis.self = globalThis;
globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
let handler = null;
parentPort.on('message', (data) => handler?.({ data }));
Object.defineProperty(globalThis, 'onmessage', {
  get: () => handler,
  set: (fn) => {
    handler = fn;
  },
});

const source = readFileSync(workerData.script, 'utf8');
new Function(`${source}\n//# sourceURL=${workerData.script}`)();
