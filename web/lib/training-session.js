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
/**
 * @import { ModelConfig, StepReport, Evaluation, GenerateOptions, TaskKind, Metric } from './generated/schema.js'
 * @import { TaskSpec, ModelOptions, TrainerOptions, ModelFileInput, ImportOptions, ModelFilesInfo, HeapStats, ModelInfo, TaskInfo, GenerateResult, PredictResult, TensorData, TraceResult, TokenIds, ThreadSupport } from './types.js'
 * @import { HistoryPoint } from './run-record.js'
 */
import { compiledModule, resolveThreads, threadSupport } from './engine.js';
import { platform } from './platform.js';
import { crossOriginAdvice, isCrossOrigin, workerBlobUrl } from './cross-origin.js';
import { RunRecord } from './run-record.js';
import { importOptions, isDetached, isPlainObject, refuseSymbolKeys } from './arguments.js';
import { MODEL_CONFIG, TRAIN_OPTIONS } from './generated/schema.js';

/**
 * What `session.configure()` takes: the task, config overrides over its defaults and the seed
 * (ignored with a checkpoint), trainer options (totalSteps also sets where start() stops;
 * default: the task's), a saved model to start from, or an imported model's files (then `task`
 * is `{ text }`, trained through the model's tokenizer), and whether `start()` pauses once where
 * the run has learned its task (`stopWhenMet`, default false: see stop-rule.js's `metAt()`).
 * @typedef {object} SessionConfig
 * @property {TaskSpec} task
 * @property {ModelOptions} [model]
 * @property {TrainerOptions} [training]
 * @property {Uint8Array | ArrayBuffer} [checkpoint]
 * @property {ModelFileInput[]} [files]
 * @property {boolean} [stopWhenMet]
 */

/**
 * What `session.configure()` and `session.reset()` resolve with; `run` is the id of the run it
 * began; `notTrainable` says why the model cannot be trained here (an imported model whose
 * training does not fit in the page's memory: it still generates and is traced; start() and
 * step() then reject with this reason), or is null.
 * @typedef {object} SessionConfigured
 * @property {Pick<TaskInfo, 'name' | 'description' | 'kind' | 'metric' | 'classNames' | 'sampleInputs'>} task
 * @property {ModelConfig} config
 * @property {ModelInfo} info
 * @property {string | null} notTrainable
 * @property {number} totalSteps
 * @property {number} run
 */

/**
 * An input the run's history traces at every snapshot (input null: the task's first sample
 * input; full: keep every entry of the trace, not only the attention stages and the embeddings).
 * @typedef {object} ProbeSpec
 * @property {string} key
 * @property {string | null} input
 * @property {string} [target]
 * @property {boolean} [full]
 */

/**
 * A parameter table each snapshot keeps: the first `rows` rows, or none when it has more than `maxRows`.
 * @typedef {object} ProbeParam
 * @property {string} name
 * @property {number} [rows]
 * @property {number} [maxRows]
 */

/**
 * The latest known state of a session (updated by events and answers).
 * @typedef {object} SessionState
 * @property {boolean} running
 * @property {number} step
 * @property {number} totalSteps
 * @property {ModelConfig | null} [config]
 */

/**
 * `session.snapshot()` options: the input (and target) to trace, only tensors whose names start
 * with one of `names`, padding with `<PAD>` to `padTo` (see TraceOptions), and `atStep`: trace the
 * model as it was at that step of the run's history (see AtStep).
 * @typedef {object} SnapshotOptions
 * @property {string} input
 * @property {string} [target]
 * @property {string[]} [names]
 * @property {number} [padTo]
 * @property {number} [atStep]
 */

/**
 * `atStep`: answer as the model was at that training step of the run's history (a step of
 * `session.run.snapshots`), from the weights the worker keeps for it, instead of as it is now. The
 * worker keeps the weights of every snapshot within 64 MB, evenly thinned over the run past that
 * (the first and the newest always); a step without them rejects with an Error naming the step.
 * @typedef {object} AtStep
 * @property {number} [atStep]
 */

/**
 * What `session.setProbes()` resolves with: the run's snapshots, how many of them were traced
 * again on the new inputs (from their kept weights; the others show what they recorded, their
 * probes' `probe` says which input), and whether a newer setProbes() stopped this one.
 * @typedef {object} ProbesSet
 * @property {number} snapshots
 * @property {number} retraced
 * @property {boolean} stopped
 */

/** A trace taken by the session, with the training step it was taken at. @typedef {TraceResult & { step: number }} Snapshot */

/**
 * A `progress` event's detail: the latest step report, the history points since the previous
 * event, and when the worker sent it on its own clock (its performance.now(), ms): consecutive
 * events are at least progressInterval apart on that clock, whenever the page receives them.
 * @typedef {StepReport & { running: boolean, totalSteps: number, history: HistoryPoint[], workerTime: number }} ProgressDetail
 */

/**
 * A `state` event's detail: why the state changed (reason 'error': `error` is the message;
 * 'diverged': training paused at the step where the run first diverged; 'met': training paused
 * at the step where the run learned its task, with `stopWhenMet`), the
 * latest report, the history points since the previous event, and when the worker sent it on
 * its own clock (ms).
 * @typedef {SessionState & { reason: 'started' | 'paused' | 'finished' | 'diverged' | 'met' | 'error', error?: string, report: StepReport | null, history: HistoryPoint[], workerTime: number }} StateDetail
 */

/**
 * The events a session dispatches: progress (at most every progressInterval ms), state changes,
 * a new run (configure() or reset(); detail: session.run), the history of snapshots changed
 * (detail: session.run), errors.
 * @typedef {{ progress: CustomEvent<ProgressDetail>, state: CustomEvent<StateDetail>, run: CustomEvent<RunRecord>, snapshot: CustomEvent<RunRecord>, error: CustomEvent<Error> }} TrainingSessionEventMap
 */

/**
 * `createTrainingSession()` options: the least time between progress events (ms, default 100),
 * how long the worker may take to start (ms, default 30000), the threads it trains on (1 to 64;
 * default: every core where the page is cross-origin isolated — the threaded module, or one
 * thread if it cannot start there — else 1, and 1 in Node; more than 1 where it is not possible
 * rejects with an Error saying why), where the .wasm and the worker's script are, a compiled
 * module.
 * @typedef {object} TrainingSessionOptions
 * @property {number} [progressInterval]
 * @property {number} [startTimeout]
 * @property {number} [threads]
 * @property {string | URL} [wasmUrl]
 * @property {string | URL} [workerUrl]
 * @property {WebAssembly.Module} [compiledModule]
 */

// How long the worker may take to load its script and instantiate the module before
// createTrainingSession() gives up (a worker that never loads sends no message at all).
const START_TIMEOUT_MS = 30000;

/**
 * Training in a Web Worker (a worker_threads thread in Node); the page's thread only sends
 * requests and receives events. Disposable: `using session = await createTrainingSession()`.
 */
export class TrainingSession extends EventTarget {
  #worker;
  #next = 1;
  #waiting = new Map();
  #disposed = false;

  #run = null;

  /** The threads the worker trains on. @readonly @type {number} */ threads = 1;
  /** Whether the page could run the threaded module, and why not. @readonly @type {ThreadSupport} */ threadSupport = threadSupport();

  /** Made by createTrainingSession(). @private @param {Worker} worker */
  constructor(worker) {
    super();
    this.#worker = worker;
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
  #mirror({ header, delta, at }) {
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
      this.dispatchEvent(new CustomEvent('progress', { detail: { ...run.report, running: run.running, totalSteps: run.totalSteps, history, workerTime: at } }));
    }
    if (delta.snapshots?.length || delta.dropped?.length) this.dispatchEvent(new CustomEvent('snapshot', { detail: run }));
    if (reason) {
      this.dispatchEvent(new CustomEvent('state', { detail: { ...this.state, config: run.config, reason, error: run.error ?? undefined, report: run.report, history, workerTime: at } }));
    }
  }

  /** The current run: the page's read-only mirror of the worker's record, or null before configure(). @returns {RunRecord | null} */
  get run() {
    return this.#run;
  }
  /** The latest known state. @returns {SessionState} */
  get state() {
    const r = this.#run;
    return { running: r?.running ?? false, step: r?.step ?? 0, totalSteps: r?.totalSteps ?? 0 };
  }
  /** Every history point received since the last configure() or reset(). @returns {HistoryPoint[]} */
  get history() {
    return this.#run?.points ?? [];
  }
  /** The latest step report, or null before the first step. @returns {StepReport | null} */
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

  /**
   * Replaces any previous task, model and trainer and starts a new run (`session.run`). `task`: a
   * name, `{ pairs }` or `{ text, tokenizer }` as for `tp.task()`. `model`: config keys over
   * `task.defaults`, plus `seed`. `training`: trainer options; `totalSteps` also sets where
   * `start()` stops (default `task.train.totalSteps`). `checkpoint`: start from saved bytes
   * instead of a new model (then `model` is ignored). `files`: an imported model's files as for
   * `tp.importModel` (Files and Blobs pass to the worker without a copy and are read there in
   * slices); `task` is then `{ text }`, which the model is fine-tuned on through its own
   * tokenizer when its training fits (else it loads without a trainer, and the answer's
   * `notTrainable` says why); `options` (`{ signal, stallTimeout }`, as for `tp.importModel`) apply to their import.
   * `stopWhenMet: true`: `start()` pauses once where the run has learned its task (state reason `'met'`; kept by `reset()`).
   * @param {SessionConfig} config
   * @param {ImportOptions} [options]
   * @returns {Promise<SessionConfigured>}
   */
  configure(config, options = {}) {
    let importing;
    try {
      checkRequest(config);
      importing = importOptions(options, 'configure');
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#request('configure', { ...config, stallTimeout: importing.stallTimeout }, [], importing.signal);
  }
  // Another project's model files, read in the worker (never on the page's thread).
  /**
   * `tp.describeModelFiles()` in the worker: someone else's files are never read on the page's thread.
   * @param {Iterable<ModelFileInput> | ArrayLike<ModelFileInput>} files
   * @param {ImportOptions} [options]
   * @returns {Promise<ModelFilesInfo>}
   */
  describeModelFiles(files, options = {}) {
    return this.#importRequest('describeModelFiles', files, options);
  }
  /**
   * `tp.importTokenizer()` in the worker, then `tokenizer.save()`: give it to `tp.loadTokenizer()`.
   * With `signal`, an abort rejects at once (an `AbortError`) and the worker stops its downloads.
   * @param {Iterable<ModelFileInput> | ArrayLike<ModelFileInput>} files
   * @param {ImportOptions} [options]
   * @returns {Promise<string>}
   */
  importTokenizer(files, options = {}) {
    return this.#importRequest('importTokenizer', files, options);
  }
  /** @param {string} type @param {Iterable<ModelFileInput> | ArrayLike<ModelFileInput>} files @param {ImportOptions} options */
  #importRequest(type, files, options) {
    let importing;
    try {
      importing = importOptions(options, type);
    } catch (error) {
      return Promise.reject(error);
    }
    return this.#request(type, { files, stallTimeout: importing.stallTimeout }, [], importing.signal);
  }
  /** Trains until `totalSteps`, `pause()`, or the step where the run first diverges (it pauses there: state reason `'diverged'`; `start()` again trains on). Configured with `stopWhenMet`, it also pauses once at the step where the run has learned its task (state reason `'met'`: its metric at the latest evaluation is the best it can be and the mean loss of the last 10 steps is below 0.02; never for a language model); `start()` then trains on to `totalSteps` without stopping there again. @returns {Promise<SessionState>} */
  start() { return this.#request('start'); }
  /** Stops after the current chunk of steps (a few tens of ms at most). @returns {Promise<SessionState>} */
  pause() { return this.#request('pause'); }
  /** Pauses, then runs `n` steps (1 … 100,000; default 1). @param {number} [n] @returns {Promise<StepReport>} */
  step(n = 1) { return this.#request('step', { n }); }
  /** Back to the last `configure()`: a fresh model from the same seed (or the checkpoint again), step 0. @returns {Promise<SessionConfigured>} */
  reset() { return this.#request('reset'); }
  /** As `trainer.evaluate()`. @returns {Promise<Evaluation>} */
  evaluate() { return this.#request('evaluate'); }
  /** `model.trace()` now, or at `atStep` of the history. `names` keeps only tensors whose names start with one of these prefixes (names from `traceName()`). Its buffers are transferred, not copied. @param {SnapshotOptions} options @returns {Promise<Snapshot>} */
  snapshot({ input, target, names, padTo, atStep } = /** @type {SnapshotOptions} */ ({})) { return this.#request('snapshot', { input, target, names, padTo, atStep }); }
  /** Raises (or lowers) the planned total without rebuilding the model; `start()` then trains on from where it stopped. @param {number} n @returns {Promise<SessionState>} */
  setTotalSteps(n) { return this.#request('setTotalSteps', { n }); }
  /** Training speed in steps per second: 0 (the default) is as fast as possible; 2 draws every step. Kept across `configure()`. @param {number} stepsPerSecond @returns {Promise<number>} */
  setPace(stepsPerSecond) { return this.#request('setPace', { stepsPerSecond }); }
  /**
   * What each snapshot of the run's history records: `probes` `[{ key, input, target?, full? }]`
   * (`input: null` is the task's first sample; `full` keeps every trace entry, else the attention
   * stages `q k scores scaled masked probs` and the embeddings) and small parameter tables
   * `params` `[{ name, rows?, maxRows? }]` (the first `rows` rows; none when it has more than
   * `maxRows`). New inputs keep the history: every snapshot whose weights the worker kept is
   * traced again on them (newest first, a `snapshot` event as each arrives; the worker answers
   * other requests meanwhile), the others keep what they recorded. Resolves when done.
   * @param {{ probes?: ProbeSpec[], params?: ProbeParam[] }} [options]
   * @returns {Promise<ProbesSet>}
   */
  setProbes({ probes, params } = {}) { return this.#request('setProbes', { probes, params }); }
  /** As `model.generate()`; with `atStep`, as the model was at that step of the history. @param {string | TokenIds} prompt @param {GenerateOptions & AtStep} [options] @returns {Promise<GenerateResult>} */
  generate(prompt, options = {}) {
    const { atStep, ...rest } = options ?? {};
    return this.#request('generate', { prompt, options: rest, atStep });
  }
  /** As `model.predict()`; with `atStep`, as the model was at that step of the history. @param {string} input @param {AtStep} [options] @returns {Promise<PredictResult>} */
  predict(input, { atStep } = {}) { return this.#request('predict', { input, atStep }); }
  /** The checkpoint (transferred). @returns {Promise<Uint8Array>} */
  save() { return this.#request('save'); }
  /** What the worker holds: the run's snapshots, the bytes of their tensors (counted from the arrays), the snapshots whose weights it keeps and their bytes, and its `heapStats()`. @returns {Promise<{ snapshots: number, bytes: number, weights: { snapshots: number, bytes: number }, heap: HeapStats }>} */
  stats() { return this.#request('stats'); }
  /** One weight tensor (transferred). @param {string} name @returns {Promise<TensorData>} */
  parameter(name) { return this.#request('parameter', { name }); }

  /**
   * @template {keyof TrainingSessionEventMap} K
   * @overload
   * @param {K} type
   * @param {(this: TrainingSession, event: TrainingSessionEventMap[K]) => unknown} listener
   * @param {boolean | AddEventListenerOptions} [options]
   * @returns {void}
   */
  /**
   * @overload
   * @param {string} type
   * @param {EventListenerOrEventListenerObject | null} listener
   * @param {boolean | AddEventListenerOptions} [options]
   * @returns {void}
   */
  /**
   * @param {string} type
   * @param {any} listener
   * @param {boolean | AddEventListenerOptions} [options]
   * @returns {void}
   */
  addEventListener(type, listener, options) {
    super.addEventListener(type, listener, options);
  }

  /** Stops the worker at once; pending requests reject with `this training session has been disposed`. @returns {void} */
  dispose() {
    if (this.#disposed) return;
    this.#disposed = true;
    this.#worker.terminate();
    const error = new Error('this training session has been disposed');
    for (const { reject } of this.#waiting.values()) reject(error);
    this.#waiting.clear();
  }

  // `using session = await createTrainingSession()` ends the worker at the end of the block.
  /** The same as dispose(), for `using`. @returns {void} */
  [Symbol.dispose]() {
    this.dispose();
  }
}

const REQUEST_KEYS = ['task', 'model', 'training', 'checkpoint', 'files', 'stopWhenMet'];
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

/**
 * Starts a training worker that shares the page's compiled wasm module.
 * @param {TrainingSessionOptions} [options]
 * @returns {Promise<TrainingSession>}
 */
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
