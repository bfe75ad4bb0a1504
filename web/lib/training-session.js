// training-session.js — createTrainingSession(): training in a Web Worker, driven from the page.
//
//   const session = await createTrainingSession();
//   await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1 } });
//   session.addEventListener('progress', (e) => draw(e.detail));   // at most every 100 ms
//   session.start();  ...  session.pause();  await session.step(10);  await session.reset();
//   const trace = await session.snapshot({ input: 'how are you' });  // attention etc.
//
// The page's thread never runs a training step; it only receives progress events and answers.
// The wasm module is compiled once per page and shared with every session's worker. In Node
// the worker is a worker_threads thread (node/platform.js), driven the same way.
import { compiledModule } from './engine.js';
import { platform } from './platform.js';

// How long the worker may take to load its script and instantiate the module before
// createTrainingSession() gives up (a worker that never loads sends no message at all).
const START_TIMEOUT_MS = 30000;

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
    worker.onmessageerror = () => {
      const error = new Error('a message from the training worker could not be read (messageerror)');
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

  // `using session = await createTrainingSession()` ends the worker at the end of the block.
  [Symbol.dispose]() {
    this.dispose();
  }
}

// The session's worker. In a browser, the literal `new Worker(new URL('./worker.js',
// import.meta.url), { type: 'module' })` — the one form Vite, webpack 5 and Rollup detect, bundle
// and emit; in Node, a worker_threads thread from node/platform.js.
function startWorker(workerUrl) {
  if (platform.createWorker) return platform.createWorker(workerUrl);
  if (workerUrl) return new Worker(workerUrl, { type: 'module' });
  return new Worker(new URL('./worker.js', import.meta.url), { type: 'module' });
}

// Listens to a new worker from the moment it exists (its script may fail while the module is
// still compiling) and, once `send(message)` posts the compiled module, waits for its answer.
// `answered` rejects with a clear Error when its script fails to load or throws at start-up
// ('error'), it cannot read the message ('messageerror'), or it says nothing within `timeout`
// ms of the message.
function handshake(worker, timeout) {
  let send;
  const answered = new Promise((resolve, reject) => {
    let timer, id;
    const finish = (settle, value) => {
      clearTimeout(timer);
      worker.removeEventListener('message', onMessage);
      worker.removeEventListener('error', onError);
      worker.removeEventListener('messageerror', onMessageError);
      settle(value);
    };
    const onMessage = (event) => {
      if (id === undefined || event.data?.id !== id) return;
      if (event.data.ok) finish(resolve);
      else finish(reject, new Error(`the training worker could not start: ${event.data.error}`));
    };
    const onError = (event) => {
      event.preventDefault?.();
      const why = event.message || 'its script failed to load or threw while loading (is worker.js served next to ' +
        'training-session.js? A bundler must see the literal new Worker(new URL(\'./worker.js\', import.meta.url)))';
      finish(reject, new Error(`the training worker could not start: ${why}`));
    };
    const onMessageError = () => finish(reject, new Error('the training worker could not start: it could not read the compiled module (messageerror)'));
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    worker.addEventListener('messageerror', onMessageError);
    send = (message) => {
      id = message.id;
      timer = setTimeout(() => finish(reject, new Error(`the training worker could not start: no answer within ${timeout} ms ` +
        '(its script may be missing or blocked, e.g. by a Content-Security-Policy without worker-src \'self\')')), timeout);
      worker.postMessage(message);
    };
  });
  answered.catch(() => {});  // awaited below; this only keeps an early failure from going unhandled
  return { answered, send };
}

// Starts a worker with the page's compiled wasm module. Options: { progressInterval (ms, default
// 100), startTimeout (ms, default 30000), wasmUrl, compiledModule, workerUrl }.
export async function createTrainingSession(options = {}) {
  const worker = startWorker(options.workerUrl);
  const session = new TrainingSession(worker);
  const start = handshake(worker, options.startTimeout ?? START_TIMEOUT_MS);
  try {
    // A worker that fails while the module compiles rejects at once, not after the compilation.
    const compiled = await Promise.race([compiledModule(options, 'createTrainingSession()'), start.answered]);
    start.send({ id: 0, type: 'init', compiledModule: compiled, interval: options.progressInterval ?? 100 });
    await start.answered;
  } catch (error) {
    session.dispose();
    throw error;
  }
  return session;
}
