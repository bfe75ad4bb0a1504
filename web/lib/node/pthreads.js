// node/pthreads.js — the threaded wasm module in Node: its pthreads as worker_threads threads.
//
// The module's glue is built for browsers (-sENVIRONMENT=web,worker) and starts each pthread with
// the browser's `new Worker(url)`, which Node lacks. While engine.js instantiates the threaded
// module (and sizes its pool), `install()` lends the glue a global Worker that starts
// node/pthread-worker.js on a worker_threads thread and speaks to it as a Web Worker is spoken
// to; the global goes again afterwards. Once the module is ready, `settle()` unrefs the threads:
// a Node program that is done exits (the glue would otherwise keep it alive for ever, as it has no
// EXIT_RUNTIME), while threads that are computing keep the calling thread blocked as they should.
import { Worker as Thread } from 'node:worker_threads';
import { availableParallelism } from 'node:os';
import { fileURLToPath } from 'node:url';

const started = new Set();

// The process's Node options for a thread, but --input-type (for `node -e` code, which a thread's
// file is not: with it, no thread would start).
export const threadArgv = () => process.execArgv.filter((a) => !a.startsWith('--input-type'));

class PthreadWorker {
  onmessage = null;
  onerror = null;
  #thread;

  constructor(url) {
    const script = fileURLToPath(new URL(String(url)));
    this.#thread = new Thread(new URL('./pthread-worker.js', import.meta.url), { workerData: { script }, execArgv: threadArgv() });
    this.#thread.on('message', (data) => this.onmessage?.({ data }));
    this.#thread.on('error', (error) => this.onerror?.(Object.assign(error, { filename: script, lineno: 0 })));
    started.add(this);
  }

  postMessage(message, transfer) {
    this.#thread.postMessage(message, transfer);
  }

  terminate() {
    started.delete(this);
    this.#thread.terminate();
  }

  unref() {
    this.#thread.unref();
  }
}

export const available = true;
export const cores = availableParallelism();

// Lends the glue a global Worker while it starts its threads; returns the undo. The glue also
// asks navigator.hardwareConcurrency, which Node has from version 21: Node 20 gets that one
// property, as later versions have it.
export function install() {
  globalThis.navigator ??= { hardwareConcurrency: cores };
  if (globalThis.Worker !== undefined) return () => {};
  globalThis.Worker = PthreadWorker;
  return () => {
    if (globalThis.Worker === PthreadWorker) delete globalThis.Worker;
  };
}

// The module is ready: its threads no longer keep the process alive.
export function settle() {
  for (const w of started) w.unref();
}
