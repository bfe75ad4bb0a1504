// platform.js — the two things that differ between a browser and Node: how the .wasm file's
// bytes are read, and how a training session's worker is started.
//
// In browsers and Web Workers both stay null: engine.js fetches the file and
// training-session.js starts a module Worker. Node's entry (web/lib/node/platform.js, chosen by
// the package's "node" export condition) fills them in with node:fs and node:worker_threads, so
// the browser files never name a `node:` module and a browser bundle never sees one.
export const platform = {
  // (url: URL) => Promise<Uint8Array>: the bytes of the .wasm file at a file: URL.
  readWasm: null,
  // (url?: URL | string) => a Worker-like object (postMessage, terminate, onmessage, onerror and
  // addEventListener for 'message', 'messageerror' and 'error'), running web/lib/worker.js.
  createWorker: null,
  // Node's pthreads for the threaded module (node/pthreads.js): { available, cores, install(),
  // settle() }.
  pthreads: null,
};
