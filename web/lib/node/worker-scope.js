// node/worker-scope.js — the Web Worker globals web/lib/worker.js uses (self, postMessage,
// onmessage), made from worker_threads' parentPort. Imported by node/worker.js before the worker
// itself, so that one worker.js serves browsers and Node.
import { parentPort } from 'node:worker_threads';

globalThis.self = globalThis;
globalThis.postMessage = (message, transfer) => parentPort.postMessage(message, transfer);
Object.defineProperty(globalThis, 'onmessage', {
  get: () => parentPort.onmessage,
  set: (handler) => {
    parentPort.onmessage = handler;
  },
});
