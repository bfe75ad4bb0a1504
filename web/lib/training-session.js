// training-session.js — createTrainingSession(): training in a Web Worker, driven from the page.
//
//   const session = await createTrainingSession();
//   await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1 } });
//   session.addEventListener('progress', (e) => draw(e.detail));   // at most every 100 ms
//   session.start();  ...  session.pause();  await session.step(10);  await session.reset();
//   const trace = await session.snapshot({ input: 'how are you' });  // attention etc.
//
// The page's thread never runs a training step; it only receives progress events and answers.
// The wasm module is compiled once per page and shared with every session's worker.
import { compiledModule } from './engine.js';

export class TrainingSession extends EventTarget {
  #worker;
  #next = 1;
  #waiting = new Map();
  #disposed = false;

  constructor(worker) {
    super();
    this.#worker = worker;
    this.state = { running: false, step: 0, totalSteps: 0 };
    this.history = [];  // [step, loss, valLoss|null, metric|null]
    this.report = null;
    worker.onmessage = (event) => this.#receive(event.data);
    worker.onerror = (event) => {
      const error = new Error(`training worker failed: ${event.message ?? 'unknown error'}`);
      for (const { reject } of this.#waiting.values()) reject(error);
      this.#waiting.clear();
      this.dispatchEvent(new CustomEvent('error', { detail: error }));
    };
  }

  #receive(message) {
    if (message.id !== undefined) {
      const waiter = this.#waiting.get(message.id);
      if (!waiter) return;
      this.#waiting.delete(message.id);
      if (message.ok) waiter.resolve(message.result);
      else waiter.reject(new Error(message.error));
      return;
    }
    if (message.type === 'progress') {
      this.report = message.report;
      this.history.push(...message.history);
      this.state = { ...this.state, running: message.running, step: message.report.step, totalSteps: message.totalSteps };
      this.dispatchEvent(new CustomEvent('progress', { detail: { ...message.report, running: message.running, totalSteps: message.totalSteps, history: message.history } }));
    } else if (message.type === 'state') {
      if (message.report) this.report = message.report;
      if (message.history) this.history.push(...message.history);
      this.state = message.state;
      this.dispatchEvent(new CustomEvent('state', { detail: { ...message.state, reason: message.reason, error: message.error, report: message.report, history: message.history ?? [] } }));
    }
  }

  #request(type, args = {}, transfer = []) {
    if (this.#disposed) return Promise.reject(new Error('this training session has been disposed'));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      this.#waiting.set(id, { resolve, reject });
      this.#worker.postMessage({ id, type, ...args }, transfer);
    });
  }

  // { task: name | { pairs } | { text, tokenizer }, model: config overrides + seed, training:
  //   trainer options (+ totalSteps), checkpoint?: Uint8Array, files?: an imported model's
  //   files as for tp.importModel (then task is { text }) } -> { task, config, info, totalSteps }
  async configure(request) {
    const result = await this.#request('configure', request);
    this.history = [];
    this.report = null;
    this.state = { running: false, step: 0, totalSteps: result.totalSteps };
    return result;
  }
  start() { return this.#request('start'); }
  pause() { return this.#request('pause'); }
  step(n = 1) { return this.#request('step', { n }); }
  async reset() {
    const result = await this.#request('reset');
    this.history = [];
    this.report = null;
    this.state = { running: false, step: 0, totalSteps: result.totalSteps };
    return result;
  }
  evaluate() { return this.#request('evaluate'); }
  snapshot({ input, target, names, padTo } = {}) { return this.#request('snapshot', { input, target, names, padTo }); }
  // Raises (or lowers) the planned total without rebuilding the model; start() then continues.
  async setTotalSteps(n) {
    const state = await this.#request('setTotalSteps', { n });
    this.state = { ...this.state, totalSteps: n };
    return state;
  }
  generate(prompt, options = {}) { return this.#request('generate', { prompt, options }); }
  predict(input) { return this.#request('predict', { input }); }
  save() { return this.#request('save'); }
  parameter(name) { return this.#request('parameter', { name }); }

  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#worker.terminate();
    const error = new Error('this training session has been disposed');
    for (const { reject } of this.#waiting.values()) reject(error);
    this.#waiting.clear();
  }
}

// Starts a worker with the page's compiled wasm module. Options: { progressInterval (ms, default
// 100), wasmUrl, workerUrl }.
export async function createTrainingSession(options = {}) {
  const workerUrl = options.workerUrl ?? new URL('./worker.js', import.meta.url);
  const worker = new Worker(workerUrl, { type: 'module' });
  const session = new TrainingSession(worker);
  try {
    const compiled = await compiledModule(options);
    await new Promise((resolve, reject) => {
      const id = 0;
      const onMessage = (event) => {
        if (event.data?.id !== id) return;
        worker.removeEventListener('message', onMessage);
        if (event.data.ok) resolve();
        else reject(new Error(event.data.error));
      };
      worker.addEventListener('message', onMessage);
      worker.postMessage({ id, type: 'init', compiledModule: compiled, interval: options.progressInterval ?? 100 });
    });
  } catch (error) {
    session.dispose();
    throw error;
  }
  return session;
}
