// worker.js — the training Web Worker behind createTrainingSession() (training-session.js).
//
// It owns one task, one model and one trainer inside its own wasm instance (made from the
// compiled module the page sends, so nothing is fetched or compiled twice: the threaded build
// when the session runs on more than one thread), and the record of the run they make
// (run-record.js): every step's loss, the state, and snapshots of the probe inputs' traces on a
// log-spaced schedule. An imported model is built for inference first: when its training does
// not fit, there is no trainer, the record's notTrainable says why in the core's words, and
// generation, traces and snapshots work as for any model. The page mirrors that record from
// the deltas sent here; it never writes it. Training runs in short chunks sized to ~25 ms,
// yielding between them so pause/step/snapshot messages are handled promptly, and at a chosen
// pace (steps per second) when one is set; it pauses by itself at the step where the run first
// diverges (state reason 'diverged') and, when configured with stopWhenMet, once at the step where
// the run has learned its task (stop-rule.js; state reason 'met': a start() then trains on to the end). Deltas go to the page at most every `progressInterval` ms
// (and at once on a state change). The page's thread never runs a training step.
//
// Protocol: the page posts { id, type, ...args }; the worker answers { id, ok: true, result } or
// { id, ok: false, error } and also posts unsolicited { type: 'run', header?, delta, at } (header: a
// new run began; delta: RunRecord.apply()'s input; at: when it was sent, on this worker's clock,
// its performance.now() in ms — the clock the progress interval and the pace are kept by).
// { type: 'abort', target } from the page stops what request `target` reads (an import's
// downloads); it is not answered.
import { load } from './api.js';
import { Recorder, SNAPSHOT_LIMIT, snapshotBytes } from './run-record.js';
import { SnapshotWeights } from './snapshot-weights.js';
import { attentionKinds, attentionName, traceName } from './trace-names.js';
import { metAt } from './stop-rule.js';

let tp = null;
let task = null, model = null, trainer = null;
let notTrainable = null;  // why there is no trainer (an imported model too large to fine-tune), or null
let spec = null;        // the last configure() request, for reset()
let recorder = null;    // the current run
let weights = new SnapshotWeights();  // the model's checkpoint at the history's steps (this run's)
let scratch = null;     // { step, model }: a model loaded from one step's weights, reused while that step is asked for
let retracing = 0;      // the generation of the re-tracing of the history: a newer setProbes() stops an older one
let runs = 0;
let progressInterval = 100;
let chunk = 1;          // steps per chunk, adapted to the model's speed
let probes = [];        // [{ key, input (null: the task's first sample), target?, full? }]
let params = [];        // [{ name, rows?, maxRows? }]: parameter tables each snapshot also keeps
let paceClock = { t0: 0, done: 0 };
let loop = 0;          // the training loop's generation: a start() after a pause() never runs two loops
let stopWhenMet = false;  // pause once where the run meets its task (configure({ stopWhenMet }))
let metStopped = false;   // this run already paused there: training goes on to the end

const now = () => performance.now();
const running = () => recorder?.record.running ?? false;

function post(message, transfer = []) {
  self.postMessage(message, transfer);
}

function disposeAll() {
  for (const o of [trainer, model, task]) o?.dispose();
  trainer = model = task = null;
  notTrainable = null;
  dropScratch();
  weights.clear();
}

function dropScratch() {
  scratch?.model.dispose();
  scratch = null;
}

function describeState() {
  return { running: running(), step: trainer?.stepCount ?? 0, totalSteps: recorder?.record.totalSteps ?? 0, config: model?.config ?? null };
}

// ---- sending the record's changes ---------------------------------------------------------

let lastFlush = -Infinity, flushTimer = 0;
// Sends what changed now when `now` or the interval has passed; otherwise once it has.
function flush(immediate = false) {
  if (!recorder?.changed) return;
  const wait = progressInterval - (now() - lastFlush);
  if (!immediate && wait > 0) {
    flushTimer ||= setTimeout(() => {
      flushTimer = 0;
      flush(true);
    }, wait);
    return;
  }
  clearTimeout(flushTimer);
  flushTimer = 0;
  lastFlush = now();
  const { delta, transfer } = recorder.take();
  post({ type: 'run', delta, at: lastFlush }, transfer);
}

function setState(reason, error) {
  recorder.state({ running: running(), reason, error: error ?? null });
  flush(true);
}

// ---- snapshots ----------------------------------------------------------------------------

// The trace entries the views draw: every attention's stages, the embeddings; `full` probes keep
// everything (the walk-through reads all of layer 0).
function viewNames(config) {
  const names = [];
  for (const stack of attentionKinds(config.arch).includes('enc') ? ['enc', 'dec'] : ['dec']) {
    for (const part of ['tokens', 'positions', 'sum']) names.push(traceName(`{stack}.embed.${part}`, { stack }));
  }
  for (const kind of attentionKinds(config.arch)) {
    for (let layer = 0; layer < config.nLayers; ++layer) {
      for (const stage of ['q', 'k', 'scores', 'scaled', 'masked', 'probs']) names.push(attentionName(kind, layer, stage));
    }
  }
  return new Set(names);
}

const TOP_K = 5;
// The k most likely outputs per position of a (T, V) probability table.
function topK({ shape: [T, V], data }, k = TOP_K) {
  const kk = Math.min(k, V);
  const ids = new Int32Array(T * kk), p = new Float32Array(T * kk);
  for (let t = 0; t < T; ++t) {
    const row = data.subarray(t * V, (t + 1) * V);
    const order = Array.from(row.keys()).sort((a, b) => row[b] - row[a]).slice(0, kk);
    order.forEach((id, j) => {
      ids[t * kk + j] = id;
      p[t * kk + j] = row[id];
    });
  }
  return { k: kk, ids, p };
}

// The bytes of a trace entry's tensors.
const entryBytes = (entry) => Object.values(entry.tensors).reduce((n, t) => n + t.data.byteLength, 0);

// One probe's trace as the history keeps it: its view tensors (every tensor for a `full` one)
// and the top outputs.
function traceEntry(m, probe, input, target, keep) {
  const trace = m.trace(input, target === undefined ? {} : { target });
  const tensors = {};
  for (const name of trace.names) if (probe.full || keep.has(name)) tensors[name] = trace.tensors[name];
  const probs = trace.tensors[traceName('probs')];
  return { input: trace.input, decoderInput: trace.decoderInput ?? null, output: trace.output ?? null, probe: input, target: target ?? null,
    tensors, top: probs ? topK(probs) : null };
}

// `text` cut after its first `n` tokens (by the model's tokenizer's spans; without the specials
// an imported tokenizer puts around a text, which a trace's input does not have).
function firstTokens(tokenizer, text, n) {
  const spans = tokenizer.encode(text, { addSpecialTokens: false }).spans;
  return spans.length / 2 <= n ? text : text.slice(0, spans[2 * n - 1]);
}

// The probe's entry within `limit` bytes: traced whole, or again on its first tokens (the
// attention maps grow with the square of the length) until it fits — `shortened` then says how
// many of how many tokens it shows — or, when not even a few tokens fit, without tensors and a
// note saying why (`error`, which the views show).
function probeEntry(m, probe, input, keep, limit, whole = traceEntry(m, probe, input, probe.target, keep)) {
  let entry = whole;
  let bytes = entryBytes(entry);
  if (bytes <= limit) return entry;
  const of = entry.input.tokens.length;
  const tokenizer = m.tokenizer();
  try {
    let text = input, target = probe.target;
    for (let tries = 0; tries < 8 && bytes > limit; ++tries) {
      const n = Math.floor(entry.input.tokens.length * Math.min(0.9, Math.sqrt(limit / bytes)));
      if (n < 1 || !tokenizer) break;
      text = firstTokens(tokenizer, text, n);
      if (target !== undefined && target !== null) target = firstTokens(tokenizer, target, Math.max(1, n - 1));
      entry = traceEntry(m, probe, text, target ?? undefined, keep);
      bytes = entryBytes(entry);
    }
  } finally {
    tokenizer?.dispose();
  }
  const mb = (n) => (n / 2 ** 20).toFixed(1);
  if (bytes > limit) {
    return { probe: input, target: probe.target ?? null, tensors: {}, top: null, skipped: true,
      error: `the trace of this input takes ${mb(bytes)} MB even when shortened, more than a snapshot of the history may keep (${mb(limit)} MB); it is not kept` };
  }
  entry.probe = input;  // what was asked for; entry.input holds the tokens kept
  entry.shortened = { tokens: entry.input.tokens.length, of, limit: SNAPSHOT_LIMIT };
  return entry;
}

// The model as it is now, into the history, with its weights (so the step can be traced again
// on another input, and generate at it).
function takeSnapshot() {
  if (!model || !probes.length) return;
  const step = trainer?.stepCount ?? 0;
  recorder.snapshot(traceSnapshot(model, step));
  // A model whose checkpoint alone would take half the budget (a large imported one) keeps none:
  // its history shows what it recorded, and setProbes() traces only the model as it is now.
  // A model whose save() fails keeps no weights either; its history still records.
  if (4 * (model.info?.parameterCount ?? Infinity) <= weights.budget / 2) {
    try {
      weights.put(step, model.save());
    } catch {
      weights.keepOnly([]);
    }
  }
  weights.keepOnly(recorder.record.snapshots.map((x) => x.step));
  if (scratch?.step === step) dropScratch();  // that step's weights changed (a snapshot again after a pause at the same step)
}

// What the views draw of model `m` at `step`: the probes' traces and the parameter tables.
function traceSnapshot(m, step) {
  const keep = viewNames(m.config);
  const out = { step, probes: {}, params: {} };
  // The parameter tables first (small: rows and maxRows bound them), then the probes share what
  // is left of one snapshot's limit.
  for (const { name, rows, maxRows } of params) {
    let p;
    try {
      p = m.parameter(name);
    } catch {
      continue;  // not a parameter of this model (a learned table of another position encoding)
    }
    if (maxRows !== undefined && p.shape[0] > maxRows) continue;
    if (rows !== undefined && p.shape[0] > rows) {
      const width = p.data.length / p.shape[0];
      p = { shape: [rows, ...p.shape.slice(1)], data: p.data.slice(0, rows * width) };
    }
    out.params[name] = p;
  }
  // Each probe traced whole; if together they take more than is left, the smallest keep theirs
  // and the larger ones share the rest evenly, each shortened to its share.
  let left = Math.max(0, SNAPSHOT_LIMIT - Object.values(out.params).reduce((n, t) => n + t.data.byteLength, 0));
  const traced = [];
  for (const probe of probes) {
    const input = probe.input ?? task?.sampleInputs?.[0] ?? '';
    if (!input) continue;
    try {
      const entry = traceEntry(m, probe, input, probe.target, keep);
      traced.push({ probe, input, entry, bytes: entryBytes(entry) });
    } catch (error) {
      out.probes[probe.key] = { probe: input, error: error.message, tensors: {} };
    }
  }
  traced.sort((a, b) => a.bytes - b.bytes);
  traced.forEach(({ probe, input, entry }, i) => {
    const share = left / (traced.length - i);
    try {
      out.probes[probe.key] = probeEntry(m, probe, input, keep, share, entry);
    } catch (error) {
      out.probes[probe.key] = { probe: input, error: error.message, tensors: {} };
    }
    left -= entryBytes(out.probes[probe.key]);
  });
  return out;
}

// The model as it was at history step `step` (`what`: the request, for the error): the live
// model when it has not trained past it, else one loaded from that step's weights.
function modelAt(step, what) {
  if (step === undefined || step === null) return model;
  if (!Number.isInteger(step) || step < 0) throw new Error(`${what}: atStep must be a whole number of steps from 0, got ${JSON.stringify(step)}`);
  if (step === (trainer?.stepCount ?? 0)) return model;
  if (scratch?.step === step) return scratch.model;
  const bytes = weights.get(step);
  if (!bytes) {
    const kept = weights.steps();
    throw new Error(`${what}: the history keeps no weights for step ${step}; it keeps them for ${kept.length} steps` +
      (kept.length ? ` (${kept.length > 6 ? `${kept.slice(0, 3).join(', ')}, …, ${kept.slice(-3).join(', ')}` : kept.join(', ')})` : ''));
  }
  dropScratch();
  scratch = { step, model: tp.loadModel(bytes) };
  return scratch.model;
}

// The history's snapshots traced again on the probes just set, each from its step's weights,
// newest first, yielding between snapshots so the worker keeps answering (and training). Those
// whose weights were dropped keep the traces they recorded (their `probe` says of which input).
// Stops when another setProbes() starts its own.
async function retraceHistory(generation) {
  const steps = recorder.record.snapshots.map((x) => x.step).filter((step) => weights.has(step)).reverse();
  let done = 0;
  for (const step of steps) {
    if (generation !== retracing) return { retraced: done, stopped: true };
    if (!weights.has(step) || !recorder.record.snapshots.some((x) => x.step === step)) continue;
    recorder.snapshot(traceSnapshot(modelAt(step, 'setProbes()'), step));
    weights.keepOnly(recorder.record.snapshots.map((x) => x.step));
    ++done;
    flush();
    await new Promise((resolve) => setTimeout(resolve, 0));
  }
  dropScratch();
  flush(true);
  return { retraced: done, stopped: false };
}

// One optimizer step per call, so the history has every step and evaluations fall on the same
// steps however the run is cut into chunks (the trainer decides when to evaluate and measures
// tokens/s).
function stepOnce() {
  const report = trainer.step(1);
  recorder.step(report);
  if (recorder.wants(report.step)) takeSnapshot();
  return report;
}

// ---- training loop ------------------------------------------------------------------------

function finish(reason, error) {
  recorder.state({ running: false });
  // The model as it is now is always in the history.
  if (recorder.record.snapshots.at(-1)?.step !== trainer?.stepCount) takeSnapshot();
  setState(reason, error);
}

function trainChunk(generation) {
  if (generation !== loop || !running() || !trainer) return;
  const total = recorder.record.totalSteps;
  const remaining = total > 0 ? total - trainer.stepCount : Infinity;
  if (remaining <= 0) {
    finish('finished');
    return;
  }
  const pace = recorder.record.pace;
  let n = Math.max(1, Math.min(chunk, remaining));
  if (pace > 0) {
    const due = Math.floor(((now() - paceClock.t0) * pace) / 1000) - paceClock.done;
    if (due <= 0) {
      setTimeout(trainChunk, Math.max(1, (1000 * (paceClock.done + 1)) / pace - (now() - paceClock.t0)), generation);
      return;
    }
    if (due > pace) paceClock = { t0: now(), done: 0 };  // more than a second behind: do not race to catch up
    n = Math.min(n, due);
  }
  const start = now();
  let done = 0, stop = null;
  try {
    // The step where the run first diverges ends the chunk: training pauses there, the weights
    // as that step left them, so the page can say so before going on would waste the run. So
    // does the step where it has learned its task (once a run: Keep training goes on).
    while (done < n && !stop) {
      const report = stepOnce();
      ++done;
      if (report.divergedAt === report.step) stop = 'diverged';
      else if (stopWhenMet && !metStopped && metAt(task.metric, recorder.record.points)) stop = 'met';
    }
  } catch (error) {
    finish('error', error.message);
    return;
  }
  paceClock.done += done;
  if (stop) {
    if (stop === 'met') metStopped = true;
    finish(stop);
    return;
  }
  const elapsed = now() - start;
  // Aim for ~25 ms chunks: long enough to amortise messages, short enough to pause promptly.
  chunk = Math.max(1, Math.min(1000, Math.round(chunk * (elapsed > 0 ? Math.min(2, Math.max(0.5, 25 / elapsed)) : 2))));
  if (trainer.stepCount >= total && total > 0) {
    finish('finished');
    return;
  }
  flush();
  setTimeout(trainChunk, 0, generation);
}

// ---- requests -----------------------------------------------------------------------------

// What a request that trains needs: a trainer, or an Error saying why there is none.
function needTrainer(what) {
  if (trainer) return;
  if (model && notTrainable) throw new Error(`${what}: this model generates and can be inspected here, but not trained: ${notTrainable}`);
  throw new Error(`configure() the session before ${what}`);
}

const handlers = {
  async init({ compiledModule, threads, interval }) {
    tp = await load({ compiledModule, threads });  // the threaded module when threads > 1
    if (interval !== undefined) progressInterval = interval;
    return { version: tp.version, threads: tp.threads };
  },
  async configure(request, { signal } = {}) {
    if (recorder) recorder.state({ running: false });
    ++retracing;  // a re-tracing of the old run's history stops
    const { task: taskSpec, model: modelConfig, training = {}, checkpoint, files, stallTimeout, stopWhenMet: stopMet = false } = request;
    if (typeof stopMet !== 'boolean') throw new Error(`configure({ stopWhenMet }): true or false, got ${typeof stopMet === 'string' ? `the string '${stopMet}'` : String(stopMet)}`);
    // An imported model (files: Files/Blobs, { name, bytes } or { name, url } from the page, read
    // here in slices) trains on the task's text through its own tokenizer.
    // Its config alone says first whether its weights and optimizer state can be trained here.
    const described = files ? await tp.describeModelFiles(files, importOptions(signal, stallTimeout)) : null;
    let newModel = files ? await tp.importModel(files, importOptions(signal, stallTimeout)) : null;
    let newTask;
    try {
      if (files) {
        const tokenizer = newModel.tokenizer();
        try {
          newTask = tp.task({ text: taskSpec.text, tokenizer });
        } finally {
          tokenizer.dispose();
        }
      } else {
        newTask = tp.task(taskSpec);
      }
    } catch (error) {
      newModel?.dispose();
      throw error;
    }
    try {
      newModel ??= checkpoint ? tp.loadModel(checkpoint) : tp.model({ ...newTask.defaults, ...modelConfig });
      // Someone else's model is loaded to generate and to be looked at; fine-tuning it is offered
      // when the core finds that its training fits: its parameters' training state (describe())
      // and a step's activations with these options (the trainer refuses before it allocates).
      let newTrainer = null, why = described && !described.trainable ? described.reason : null;
      if (!why) {
        try {
          newTrainer = tp.trainer(newModel, newTask, training);
        } catch (error) {
          if (!files) throw error;
          why = error.message;
        }
      }
      disposeAll();
      task = newTask;
      model = newModel;
      trainer = newTrainer;
      notTrainable = why;
    } catch (error) {
      newModel?.dispose();
      newTask.dispose();
      throw error;
    }
    spec = { task: taskSpec, model: modelConfig, training, checkpoint, files, stallTimeout, stopWhenMet: stopMet };  // reset() returns to this state
    stopWhenMet = stopMet;
    metStopped = false;
    const pace = recorder?.record.pace ?? 0;
    const { name, description, kind, metric, classNames, sampleInputs } = task;
    const taskInfo = { name, description, kind, metric, classNames, sampleInputs };
    const header = { id: ++runs, request: { task: taskSpec, model: modelConfig, training, fromCheckpoint: Boolean(checkpoint) }, task: taskInfo,
      config: model.config, info: model.info, notTrainable, totalSteps: training.totalSteps ?? task.train.totalSteps, createdAt: Date.now() };
    recorder = new Recorder(header);
    recorder.state({ running: false, pace });
    chunk = 1;
    takeSnapshot();
    const { delta, transfer } = recorder.take();
    post({ type: 'run', header, delta, at: now() }, transfer);
    return { task: taskInfo, config: model.config, info: model.info, notTrainable, totalSteps: header.totalSteps, run: header.id };
  },
  // Another project's files, read here so that a hostile one never holds up the page.
  describeModelFiles({ files, stallTimeout }, { signal }) {
    return tp.describeModelFiles(files, importOptions(signal, stallTimeout));
  },
  async importTokenizer({ files, stallTimeout }, { signal }) {
    const tokenizer = await tp.importTokenizer(files, importOptions(signal, stallTimeout));
    try {
      return tokenizer.save();
    } finally {
      tokenizer.dispose();
    }
  },
  start() {
    needTrainer('start()');
    if (!running()) {
      recorder.state({ running: true });
      paceClock = { t0: now(), done: 0 };
      setState('started');
      setTimeout(trainChunk, 0, ++loop);
    }
    return describeState();
  },
  pause() {
    if (recorder) {
      const was = running();
      recorder.state({ running: false });
      if (was) finish('paused');
      else setState('paused');
    }
    return describeState();
  },
  step({ n = 1 }) {
    needTrainer('step()');
    if (!Number.isInteger(n) || n < 1 || n > 100000) {
      const got = typeof n === 'number' ? `the number ${n}` : typeof n === 'string' ? `the string '${n}'` : typeof n;
      throw new Error(`step(n): n must be a whole number from 1 to 100000, got ${got}`);
    }
    recorder.state({ running: false });
    let report;
    for (let i = 0; i < n; ++i) report = stepOnce();
    if (recorder.record.snapshots.at(-1)?.step !== trainer.stepCount) takeSnapshot();
    flush(true);
    return report;
  },
  reset(args, context) {
    if (!spec) throw new Error('configure() the session before reset()');
    return handlers.configure(spec, context);
  },
  evaluate() {
    needTrainer('evaluate()');
    return trainer.evaluate();
  },
  setTotalSteps({ n }) {
    needTrainer('setTotalSteps()');
    trainer.setTotalSteps(n);
    recorder.state({ totalSteps: n });
    if (spec) spec = { ...spec, training: { ...spec.training, totalSteps: n } };
    flush(true);
    return describeState();
  },
  // Steps per second while training (0: as fast as possible).
  setPace({ stepsPerSecond }) {
    if (!(Number.isFinite(stepsPerSecond) && stepsPerSecond >= 0 && stepsPerSecond <= 100000)) {
      throw new Error(`setPace(stepsPerSecond): a number from 0 (as fast as possible) to 100000, got ${JSON.stringify(stepsPerSecond)}`);
    }
    paceClock = { t0: now(), done: 0 };
    if (recorder) {
      recorder.state({ pace: stepsPerSecond });
      flush(true);
    }
    return stepsPerSecond;
  },
  // What each snapshot of the run's history records: probes [{ key, input (null: the task's
  // first sample), target?, full? }] and small parameter tables [{ name, rows? (the first rows
  // only), maxRows? (none when larger) }]. On a change every snapshot whose weights are kept is
  // traced again from them (retraceHistory); the others keep what they recorded. Resolves once
  // done with { snapshots, retraced, stopped (a newer setProbes() took over) }.
  async setProbes({ probes: list = [], params: names = [] }) {
    if (!Array.isArray(list) || list.some((p) => typeof p?.key !== 'string' || (p.input !== null && typeof p.input !== 'string'))) {
      throw new Error('setProbes({ probes }): probes must be [{ key: string, input: string | null, target?, full? }]');
    }
    const next = list.map(({ key, input, target, full }) => ({ key, input, target, full: Boolean(full) }));
    const nextParams = names.map(({ name, rows, maxRows }) => ({ name, rows, maxRows }));
    const sameInputs = JSON.stringify(next) === JSON.stringify(probes), sameParams = JSON.stringify(nextParams) === JSON.stringify(params);
    probes = next;
    params = nextParams;
    const generation = ++retracing;
    if (!recorder || (sameInputs && sameParams)) return { snapshots: recorder?.record.snapshots.length ?? 0, retraced: 0, stopped: false };
    const { retraced, stopped } = await retraceHistory(generation);
    // The model as it is now is traced on the new inputs too: as a new snapshot when the newest is
    // of an earlier step, and again at its step when the history kept no weights to trace it
    // from (a large imported model keeps none, and is never traced otherwise).
    const current = trainer?.stepCount ?? 0;
    if (!stopped && (recorder.record.snapshots.at(-1)?.step !== current || !weights.has(current))) {
      takeSnapshot();
      flush(true);
    }
    return { snapshots: recorder.record.snapshots.length, retraced, stopped };
  },
  // The trace of one input; `names` (prefixes) limits what is sent. Buffers are transferred.
  snapshot({ input, target, names, padTo, atStep }) {
    if (!model) throw new Error('configure() the session before snapshot()');
    const trace = modelAt(atStep, 'snapshot()').trace(input, { target, padTo });
    const keep = names ? trace.names.filter((n) => names.some((p) => n.startsWith(p))) : trace.names;
    const tensors = Object.fromEntries(keep.map((n) => [n, trace.tensors[n]]));
    return { result: { ...trace, names: keep, tensors, step: atStep ?? trainer?.stepCount ?? 0 }, transfer: keep.map((n) => trace.tensors[n].data.buffer) };
  },
  // atStep: as the model was at that step of the history (its kept weights), else now.
  generate({ prompt, options, atStep }) {
    if (!model) throw new Error('configure() the session before generate()');
    return modelAt(atStep, 'generate()').generate(prompt, options);
  },
  predict({ input, atStep }) {
    if (!model) throw new Error('configure() the session before predict()');
    return modelAt(atStep, 'predict()').predict(input);
  },
  save() {
    if (!model) throw new Error('configure() the session before save()');
    const bytes = model.save();
    return { result: bytes, transfer: [bytes.buffer] };
  },
  parameter({ name }) {
    if (!model) throw new Error('configure() the session before parameter()');
    const p = model.parameter(name);
    return { result: p, transfer: [p.data.buffer] };
  },
  // What the worker holds: the run's snapshots and their tensors' bytes (counted from the arrays
  // themselves), and its wasm heap.
  stats() {
    const snapshots = recorder?.record.snapshots ?? [];
    return { snapshots: snapshots.length, bytes: snapshots.reduce((n, x) => n + snapshotBytes(x), 0), weights: { snapshots: weights.size, bytes: weights.bytes },
      heap: tp.heapStats() };
  },
  dispose() {
    if (recorder) recorder.state({ running: false });
    disposeAll();
    return true;
  },
};

// The import options of a request: the page's AbortSignal is this request's controller here.
const importOptions = (signal, stallTimeout) => (stallTimeout === undefined ? { signal } : { signal, stallTimeout });

const aborts = new Map();  // request id -> AbortController, while the request runs

self.onmessage = async (event) => {
  const { id, type, ...args } = event.data ?? {};
  // { type: 'abort', target, reason }: the page gave up on request `target` (its promise has
  // already rejected); what it is reading stops. Not a request: nothing is answered.
  if (type === 'abort') {
    aborts.get(args.target)?.abort(new Error(String(args.reason ?? 'aborted')));
    return;
  }
  const handler = handlers[type];
  if (!handler) {
    post({ id, ok: false, error: `unknown request '${type}'; allowed: ${Object.keys(handlers).join(', ')}` });
    return;
  }
  const controller = new AbortController();
  aborts.set(id, controller);
  try {
    const value = await handler(args, { signal: controller.signal });
    if (value && typeof value === 'object' && 'transfer' in value && 'result' in value) {
      post({ id, ok: true, result: value.result }, value.transfer);
    } else {
      post({ id, ok: true, result: value });
    }
  } catch (error) {
    post({ id, ok: false, error: error.message });
  } finally {
    aborts.delete(id);
  }
};
