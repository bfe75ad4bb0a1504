// node/platform.js — what Node lacks of a browser, for the same API: the .wasm file is read from
// disk (node:fs), and a training session's worker is a worker_threads thread running
// node/worker.js, wrapped so that training-session.js drives it exactly like a Web Worker.
// Imported by the package's Node entry (node/transformer-playground.js) before anything else.
import { readFile } from 'node:fs/promises';
import { fileURLToPath } from 'node:url';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { platform } from '../platform.js';
import * as pthreads from './pthreads.js';
import { threadArgv } from './pthreads.js';

// A worker_threads Worker seen as a Web Worker: MessageEvents with `data`, an 'error' event with
// the thrown Error's `message`, onmessage / onerror / onmessageerror handlers, terminate().
class ThreadWorker extends EventTarget {
  onmessage = null;
  onmessageerror = null;
  onerror = null;
  #thread;

  constructor(url) {
    super();
    this.#thread = new Worker(url, { execArgv: threadArgv() });
    this.#thread.on('message', (data) => this.#fire(new MessageEvent('message', { data })));
    this.#thread.on('messageerror', (error) => this.#fire(Object.assign(new Event('messageerror'), { error })));
    this.#thread.on('error', (error) => this.#fire(Object.assign(new Event('error'), { message: error.message, error })));
  }

  #fire(event) {
    this[`on${event.type}`]?.(event);
    this.dispatchEvent(event);
  }

  postMessage(message, transfer = []) {
    this.#thread.postMessage(message, transfer);
  }

  terminate() {
    this.#thread.terminate();
  }
}

// A bundler may hand over its own URL object (Turbopack rewrites `new URL('./x.wasm',
// import.meta.url)` into one that node:fs refuses), a URL string or a path: read them all.
export function filePath(url) {
  if (url instanceof URL && url.protocol === 'file:') return fileURLToPath(url);
  const text = String(url);
  if (/^[a-z][a-z\d+.-]*:/i.test(text) && !/^[a-z]:[\\/]/i.test(text)) {
    const parsed = new URL(text);
    if (parsed.protocol !== 'file:') throw new Error(`${text} is not a file: Node reads the module from disk (a file: URL or a path)`);
    return fileURLToPath(parsed);
  }
  return text;
}

// The module's file beside this one, found from this file's own location (no bundler rewrites
// that): where a bundler's server build turned the engine's URL into one that is no file here —
// Turbopack gives '/_next/static/media/transformer_playground.<hash>.wasm' — the package's own
// .wasm of that name is read instead.
const ownWasm = (name) => path.join(path.dirname(fileURLToPath(import.meta.url)), '..', 'wasm', name);

platform.readWasm = async (url) => {
  const file = filePath(url);
  try {
    return await readFile(file);
  } catch (error) {
    const own = /^(transformer_playground(?:_threads)?)(?:\.[^./\\]+)?\.wasm$/.exec(path.basename(file));
    if (error.code !== 'ENOENT' || !own) throw error;
    return readFile(ownWasm(`${own[1]}.wasm`)).catch(() => {
      throw error;
    });
  }
};
platform.pthreads = pthreads;
platform.createWorker = (url) => new ThreadWorker(url === undefined ? new URL('./worker.js', import.meta.url) : filePath(url));
