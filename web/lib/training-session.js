// training-session.js — createTrainingSession(): training in a Web Worker, driven from the page.
//
//   const session = await createTrainingSession();
//   await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1 } });
//   session.addEventListener('progress', (e) => draw(e.detail));   // at most every 100 ms
//   session.start();  ...  session.pause();  await session.step(10);  await session.reset();
//   const trace = await session.snapshot({ input: 'how are you' });  // attention etc.
//
// The page's thread never runs a training step; it only receives progress events and answers.
// The wasm module is compiled once per page and shared with every session's worker (in Node a
// worker_threads thread, node/platform.js, driven the same way). On a cross-origin isolated
// page the worker runs the threaded module on every core (or `threads`), in Node on `threads`;
// elsewhere the single-threaded one (session.threads and session.threadSupport say which, and why). The worker
// owns the run's record (run-record.js); `session.run` is this page's read-only mirror of it,
// updated from the worker's deltas before each event is dispatched.
import { compiledModule, resolveThreads, threadSupport } from './engine.js';
import { platform } from './platform.js';
import { crossOriginAdvice, isCrossOrigin, workerBlobUrl } from './cross-origin.js';
import { RunRecord } from './run-record.js';
import { importOptions, isDetached, isPlainObject, refuseSymbolKeys } from './arguments.js';
import { MODEL_CONFIG, TRAIN_OPTIONS } from './generated/schema.js';

// How long the worker may take to load its script and instantiate the module before
// createTrainingSession() gives up (a worker that never loads sends no message at all).
const START_TIMEOUT_MS = 30000;

export class TrainingSession extends EventTarget {
  #worker;
  #next = 1;
  #waiting = new Map();
  #disposed = false;

  #run = null;

  constructor(worker) {
    super();
    this.#worker = worker;
    this.threads = 1;  // what the worker runs on, set when it has started
    this.threadSupport = threadSupport();  // { available, reason, cores } on this page
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
    if (message.type === 'run') this.#mirror(message);
  }

  // Applies a delta of the worker's record, then tells listeners what changed: 'run' (a new run
  // began), 'progress' (steps), 'snapshot' (history of the views), 'state' (started, paused, …).
  #mirror({ header, delta }) {
    if (header) {
      this.#run?.apply({ state: { running: false } });
      this.#run = new RunRecord(header);
    }
    const run = this.#run;
    if (!run || delta.run !== run.id) return;
    run.apply(delta);
    if (header) this.dispatchEvent(new CustomEvent('run', { detail: run }));
    // Points arrive with a 'progress' event (at most every progressInterval ms), or with the
    // 'state' event of a state change (a pause, the end), as before the record existed.
    const history = delta.points ?? [];
    const reason = delta.state?.reason;
    if (history.length && run.report && !reason) {
      this.dispatchEvent(new CustomEvent('progress', { detail: { ...run.report, running: run.running, totalSteps: run.totalSteps, history } }));
    }
    if (delta.snapshots?.length || delta.dropped?.length || delta.cleared) this.dispatchEvent(new CustomEvent('snapshot', { detail: run }));
    if (reason) {
      this.dispatchEvent(new CustomEvent('state', { detail: { ...this.state, config: run.config, reason, error: run.error ?? undefined, report: run.report, history } }));
    }
  }

  // The current run's record (a mirror of the worker's; read it, never write it), or null.
  get run() {
    return this.#run;
  }
  get state() {
    const r = this.#run;
    return { running: r?.running ?? false, step: r?.step ?? 0, totalSteps: r?.totalSteps ?? 0 };
  }
  get history() {
    return this.#run?.points ?? [];
  }
  get report() {
    return this.#run?.report ?? null;
  }

  // `signal`: an AbortSignal; once it aborts, the promise rejects at once (an AbortError) and the
  // worker is told to stop what it reads for this request.
  #request(type, args = {}, transfer = [], signal = undefined) {
    if (this.#disposed) return Promise.reject(new Error('this training session has been disposed'));
    if (signal?.aborted) return Promise.reject(abortError(type, signal));
    const id = this.#next++;
    return new Promise((resolve, reject) => {
      const onAbort = () => {
        if (!this.#waiting.delete(id)) return;
        this.#worker.postMessage({ type: 'abort', target: id, reason: abortError(type, signal).message });
        reject(abortError(type, signal));
      };
      const done = (settle) => (value) => {
        signal?.removeEventListener('abort', onAbort);
        settle(value);
      };
      this.#waiting.set(id, { resolve: done(resolve), reject: done(reject) });
      signal?.addEventListener('abort', onAbort, { once: true });
      this.#worker.postMessage({ id, type, ...args }, transfer);
    });
  }

  // { task: name | { pairs } | { text, tokenizer }, model: config overrides + seed, training:
  //   trainer options (+ totalSteps), checkpoint?: Uint8Array, files?: an imported model's
  //   files as for tp.importModel
  //   (then task is { text }) } -> { task, config, info, totalSteps }. options: { signal,
  //   stallTimeout } for the files' import, as for tp.importModel.
  configure(request, options = {}) {
    let importing;
    try {
      checkRequest(request);
      importing = importOptions(options, 'configure');
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#request('configure', { ...request, stallTimeout: importing.stallTimeout }, [], importing.signal);
  }
  // Another project's model files, read in the worker (never on the page's thread), with the
  // options of tp.describeModelFiles / tp.importTokenizer ({ signal, stallTimeout }).
  // describeModelFiles -> what the model needs (ModelFilesInfo); importTokenizer -> the
  // tokenizer's saved text, for tp.loadTokenizer() on the page.
  describeModelFiles(files, options = {}) {
    return this.#importRequest('describeModelFiles', files, options);
  }
  importTokenizer(files, options = {}) {
    return this.#importRequest('importTokenizer', files, options);
  }
  #importRequest(type, files, options) {
    let importing;
    try {
      importing = importOptions(options, type);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#request(type, { files, stallTimeout: importing.stallTimeout }, [], importing.signal);
  }
  start() { return this.#request('start'); }
  pause() { return this.#request('pause'); }
  step(n = 1) { return this.#request('step', { n }); }
  reset() { return this.#request('reset'); }
  evaluate() { return this.#request('evaluate'); }
  snapshot({ input, target, names, padTo } = {}) { return this.#request('snapshot', { input, target, names, padTo }); }
  // Raises (or lowers) the planned total without rebuilding the model; start() then continues.
  setTotalSteps(n) { return this.#request('setTotalSteps', { n }); }
  // Training speed in steps per second (0: as fast as possible); kept across configure().
  setPace(stepsPerSecond) { return this.#request('setPace', { stepsPerSecond }); }
  // What the run's history records at each snapshot: probes [{ key, input (null: the task's
  // first sample), target?, full? }] and small parameter tables by name (see worker.js).
  setProbes({ probes, params } = {}) { return this.#request('setProbes', { probes, params }); }
  generate(prompt, options = {}) { return this.#request('generate', { prompt, options }); }
  predict(input) { return this.#request('predict', { input }); }
  save() { return this.#request('save'); }
  // The worker's memory: { snapshots, bytes (of the run's snapshot tensors), heap: { heapSize, allocated } }.
  stats() { return this.#request('stats'); }
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

const REQUEST_KEYS = ['task', 'model', 'training', 'checkpoint', 'files'];
function abortError(type, signal) {
  const reason = signal?.reason;
  const error = new Error(`${type}: aborted${reason?.message ? ` (${reason.message})` : typeof reason === 'string' ? ` (${reason})` : ''}`);
  error.name = 'AbortError';
  return error;
}

// What structured cloning would lose or refuse on the way to the worker, said here: a Symbol key
// (dropped without a word) and a detached checkpoint ("could not be cloned").
function checkRequest(request) {
  if (!isPlainObject(request)) return;  // the worker's own checks answer the rest
  refuseSymbolKeys(request, 'configure() request', REQUEST_KEYS);
  if (isPlainObject(request.model)) refuseSymbolKeys(request.model, 'model config', [...MODEL_CONFIG.map((f) => f.js), 'seed']);
  if (isPlainObject(request.training)) refuseSymbolKeys(request.training, 'training option', TRAIN_OPTIONS.map((f) => f.js));
  const bytes = request.checkpoint;
  if (bytes && isDetached(bytes instanceof ArrayBuffer ? bytes : bytes.buffer)) {
    throw new Error('configure({ checkpoint }): the checkpoint is detached, so it holds no bytes: its ArrayBuffer was transferred ' +
      '(to a worker with postMessage, or by structuredClone with transfer); configure before transferring it, or pass a copy (bytes.slice())');
  }
}

// The session's worker. In a browser, the literal `new Worker(new URL('./worker.js',
// import.meta.url), { type: 'module' })` — the one form Vite, webpack 5 and Rollup detect, bundle
// and emit; where this file came from another origin than the page (a CDN), the same script
// through a same-origin blob: module (cross-origin.js); in Node, a worker_threads thread from
// node/platform.js. Returns { worker, crossOrigin: the script's URL when it came through a blob }.
function startWorker(workerUrl) {
  if (platform.createWorker) return { worker: platform.createWorker(workerUrl) };
  const own = !workerUrl && !isCrossOrigin(import.meta.url);
  if (own) return { worker: new Worker(new URL('./worker.js', import.meta.url), { type: 'module' }) };
  // The file next to this one, found without a second `new URL('./worker.js', …)` (which a
  // bundler would copy as a raw asset).
  const url = workerUrl ? new URL(String(workerUrl), globalThis.location?.href) : new URL(import.meta.url.replace(/[^/?#]*([?#].*)?$/, 'worker.js'));
  if (!isCrossOrigin(url)) return { worker: new Worker(url, { type: 'module' }) };
  try {
    return { worker: new Worker(workerBlobUrl(url, 'module'), { type: 'module' }), crossOrigin: url.href };
  } catch (error) {
    throw new Error(`the training worker could not start: ${crossOriginAdvice(url.href)} (${error.message})`);
  }
}

// Listens to a new worker from the moment it exists (its script may fail while the module is
// still compiling) and, once `send(message)` posts the compiled module, waits for its answer.
// `answered` rejects with a clear Error when its script fails to load or throws at start-up
// ('error'), it cannot read the message ('messageerror'), or it says nothing within `timeout`
// ms of the message.
function handshake(worker, timeout, crossOrigin) {
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
      if (event.data.ok) finish(resolve, event.data.result);
      else finish(reject, new Error(`the training worker could not start: ${event.data.error}`));
    };
    const onError = (event) => {
      event.preventDefault?.();
      const why = event.message || (crossOrigin ? crossOriginAdvice(crossOrigin)
        : 'its script failed to load or threw while loading (is worker.js served next to ' +
          'training-session.js? A bundler must see the literal new Worker(new URL(\'./worker.js\', import.meta.url)))');
      finish(reject, new Error(`the training worker could not start: ${why}`));
    };
    const onMessageError = () => finish(reject, new Error('the training worker could not start: it could not read the compiled module (messageerror)'));
    worker.addEventListener('message', onMessage);
    worker.addEventListener('error', onError);
    worker.addEventListener('messageerror', onMessageError);
    send = (message) => {
      id = message.id;
      timer = setTimeout(() => finish(reject, new Error(`the training worker could not start: no answer within ${timeout} ms ` +
        (crossOrigin ? `(${crossOriginAdvice(crossOrigin)})` : '(its script may be missing or blocked, e.g. by a Content-Security-Policy without worker-src \'self\')'))), timeout);
      worker.postMessage(message);
    };
  });
  answered.catch(() => {});  // awaited below; this only keeps an early failure from going unhandled
  return { answered, send };
}

// Starts a worker with the page's compiled wasm module. Options: { progressInterval (ms, default
// 100), startTimeout (ms, default 30000), threads (default: every core where the page is
// cross-origin isolated, else 1, and 1 in Node; more than 1 where it is not possible rejects,
// saying why), wasmUrl,
// workerUrl, compiledModule (of the build the thread count needs) }.
export async function createTrainingSession(options = {}) {
  const support = threadSupport();
  // In Node one thread unless asked (a process often has other work; `threads: N` for more).
  if (options.threads !== undefined || !support.available || support.cores < 2 || platform.readWasm) {
    return startSession(options, resolveThreads(options.threads, support));
  }
  try {
    return await startSession(options, support.cores);
  } catch (error) {
    // Every core was the default, not asked for: where the threaded module cannot start (a
    // bundled page keeps no copy of its pthread workers beside it), train on one thread, and say so.
    const session = await startSession(options, 1);
    session.threadSupport = { available: false, reason: 'failed', cores: support.cores, error: error.message };
    return session;
  }
}

async function startSession(options, threads) {
  const { worker, crossOrigin } = startWorker(options.workerUrl);
  const session = new TrainingSession(worker);
  const start = handshake(worker, options.startTimeout ?? START_TIMEOUT_MS, crossOrigin);
  try {
    // A worker that fails while the module compiles rejects at once, not after the compilation.
    const compiled = await Promise.race([compiledModule({ ...options, threads }, 'createTrainingSession()'), start.answered]);
    start.send({ id: 0, type: 'init', compiledModule: compiled, threads, interval: options.progressInterval ?? 100 });
    const result = await start.answered;
    session.threads = result.threads;
  } catch (error) {
    session.dispose();
    throw error;
  }
  return session;
}
