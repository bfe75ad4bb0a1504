// node/platform.js — what Node lacks of a browser, for the same API: the .wasm file is read from
// disk (node:fs), and a training session's worker is a worker_threads thread running
// node/worker.js, wrapped so that training-session.js drives it exactly like a Web Worker.
// Imported by the package's Node entry (node/transformer-playground.js) before anything else.
import { readFile } from 'node:fs/promises';
import { Worker } from 'node:worker_threads';
import { platform } from '../platform.js';

// A worker_threads Worker seen as a Web Worker: MessageEvents with `data`, an 'error' event with
// the thrown Error's `message`, onmessage / onerror / onmessageerror handlers, terminate().
class ThreadWorker extends EventTarget {
  onmessage = null;
  onmessageerror = null;
  onerror = null;
  #thread;

  constructor(url) {
    super();
    this.#thread = new Worker(url);
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

platform.readWasm = (url) => readFile(url);
platform.createWorker = (url) => new ThreadWorker(url ?? new URL('./worker.js', import.meta.url));
