// worker.js — the training Web Worker behind createTrainingSession() (training-session.js).
//
// It owns one task, one model and one trainer inside its own wasm instance (made from the
// compiled module the page sends, so nothing is fetched or compiled twice). Training runs in
// short chunks sized to ~25 ms, yielding between them so pause/step/snapshot messages are
// handled promptly; progress goes to the page at most every `progressInterval` ms. The page's
// thread never runs a training step.
//
// Protocol: the page posts { id, type, ...args }; the worker answers { id, ok: true, result } or
// { id, ok: false, error } and also posts unsolicited { type: 'progress' | 'state', ... }.
import { load } from './transformer-playground.js';

let tp = null;
let task = null, model = null, trainer = null;
let spec = null;        // the last configure() request, for reset()
let running = false;
let totalSteps = 0;
let progressInterval = 100;
let lastProgress = 0;
let pending = [];       // loss history not yet sent: [step, loss, valLoss|null, metric|null]
let lastReport = null;
let chunk = 1;          // steps per chunk, adapted to the model's speed

const now = () => performance.now();

function post(message, transfer = []) {
  self.postMessage(message, transfer);
}

function disposeAll() {
  for (const o of [trainer, model, task]) o?.dispose();
  trainer = model = task = null;
}

function taskFrom(taskSpec) {
  return tp.task(taskSpec);
}

function describeState() {
  return { running, step: trainer?.stepCount ?? 0, totalSteps, config: model?.config ?? null };
}

// Posts progress when `progressInterval` has passed since the last post. `force` (a pause, a
// single step, the end) posts as soon as the interval allows instead of waiting for more steps.
let forced = null;
function sendProgress(force = false) {
  if (!lastReport) return;
  const wait = progressInterval - (now() - lastProgress);
  if (wait > 0) {
    if (force && !forced) forced = setTimeout(() => {
      forced = null;
      sendProgress(true);
    }, wait);
    return;
  }
  lastProgress = now();
  post({ type: 'progress', report: lastReport, history: pending, running, totalSteps });
  pending = [];
}

// A state change carries the history not yet sent, so it is never behind the progress stream.
function postState(reason, error) {
  post({ type: 'state', state: describeState(), reason, error, report: lastReport, history: pending });
  pending = [];
}

function record(report) {
  lastReport = report;
  pending.push([report.step, report.loss, report.evaluated ? report.valLoss : null, report.evaluated ? report.metric : null]);
}

// Runs one chunk of steps, then schedules the next while running.
function trainChunk() {
  if (!running || !trainer) return;
  const remaining = totalSteps > 0 ? totalSteps - trainer.stepCount : Infinity;
  if (remaining <= 0) {
    running = false;
    postState('finished');
    return;
  }
  const n = Math.max(1, Math.min(chunk, remaining));
  const start = now();
  try {
    // One step per call, so the loss curve has every step and evaluations fall on the same steps
    // however the run is cut into chunks (the trainer decides when to evaluate and measures
    // tokens/s).
    for (let i = 0; i < n; ++i) record(trainer.step(1));
  } catch (error) {
    running = false;
    postState('error', error.message);
    return;
  }
  const elapsed = now() - start;
  // Aim for ~25 ms chunks: long enough to amortise messages, short enough to pause promptly.
  chunk = Math.max(1, Math.min(1000, Math.round(chunk * (elapsed > 0 ? Math.min(2, Math.max(0.5, 25 / elapsed)) : 2))));
  sendProgress();
  setTimeout(trainChunk, 0);
}

const handlers = {
  async init({ compiledModule, interval }) {
    tp = await load({ compiledModule });
    if (interval !== undefined) progressInterval = interval;
    return { version: tp.version };
  },
  async configure(request) {
    running = false;
    const { task: taskSpec, model: modelConfig, training = {}, checkpoint, files } = request;
    // An imported model (files: Files/Blobs or { name, bytes } from the page, read here in
    // slices) trains on the task's text through its own tokenizer.
    let newModel = files ? await tp.importModel(files) : null;
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
        newTask = taskFrom(taskSpec);
      }
    } catch (error) {
      newModel?.dispose();
      throw error;
    }
    try {
      newModel ??= checkpoint ? tp.loadModel(checkpoint) : tp.model({ ...newTask.defaults, ...modelConfig });
      const newTrainer = tp.trainer(newModel, newTask, training);
      disposeAll();
      task = newTask;
      model = newModel;
      trainer = newTrainer;
    } catch (error) {
      newModel?.dispose();
      newTask.dispose();
      throw error;
    }
    spec = { task: taskSpec, model: modelConfig, training, checkpoint, files };  // reset() returns to this state
    totalSteps = training.totalSteps ?? task.train.totalSteps;
    pending = [];
    lastReport = null;
    chunk = 1;
    const { name, description, kind, metric, classNames, sampleInputs } = task;
    return { task: { name, description, kind, metric, classNames, sampleInputs }, config: model.config, info: model.info, totalSteps };
  },
  start() {
    if (!trainer) throw new Error('configure() the session before start()');
    if (!running) {
      running = true;
      postState('started');
      setTimeout(trainChunk, 0);
    }
    return describeState();
  },
  pause() {
    running = false;
    postState('paused');
    return describeState();
  },
  step({ n = 1 }) {
    if (!trainer) throw new Error('configure() the session before step()');
    if (!Number.isInteger(n) || n < 1 || n > 100000) {
      const got = typeof n === 'number' ? `the number ${n}` : typeof n === 'string' ? `the string '${n}'` : typeof n;
      throw new Error(`step(n): n must be a whole number from 1 to 100000, got ${got}`);
    }
    running = false;
    // One step per call, so the history has every step (as while running).
    for (let i = 0; i < n; ++i) record(trainer.step(1));
    sendProgress(true);
    return lastReport;
  },
  reset() {
    if (!spec) throw new Error('configure() the session before reset()');
    return handlers.configure(spec);
  },
  evaluate() {
    if (!trainer) throw new Error('configure() the session before evaluate()');
    return trainer.evaluate();
  },
  setTotalSteps({ n }) {
    if (!trainer) throw new Error('configure() the session before setTotalSteps()');
    trainer.setTotalSteps(n);
    totalSteps = n;
    if (spec) spec = { ...spec, training: { ...spec.training, totalSteps: n } };
    return describeState();
  },
  // The trace of one input; `names` (prefixes) limits what is sent. Buffers are transferred.
  snapshot({ input, target, names, padTo }) {
    if (!model) throw new Error('configure() the session before snapshot()');
    const trace = model.trace(input, { target, padTo });
    const keep = names ? trace.names.filter((n) => names.some((p) => n.startsWith(p))) : trace.names;
    const tensors = Object.fromEntries(keep.map((n) => [n, trace.tensors[n]]));
    return { result: { ...trace, names: keep, tensors, step: trainer?.stepCount ?? 0 }, transfer: keep.map((n) => trace.tensors[n].data.buffer) };
  },
  generate({ prompt, options }) {
    if (!model) throw new Error('configure() the session before generate()');
    return model.generate(prompt, options);
  },
  predict({ input }) {
    if (!model) throw new Error('configure() the session before predict()');
    return model.predict(input);
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
  dispose() {
    running = false;
    disposeAll();
    return true;
  },
};

self.onmessage = async (event) => {
  const { id, type, ...args } = event.data ?? {};
  const handler = handlers[type];
  if (!handler) {
    post({ id, ok: false, error: `unknown request '${type}'; allowed: ${Object.keys(handlers).join(', ')}` });
    return;
  }
  try {
    const value = await handler(args);
    if (value && typeof value === 'object' && 'transfer' in value && 'result' in value) {
      post({ id, ok: true, result: value.result }, value.transfer);
    } else {
      post({ id, ok: true, result: value });
    }
  } catch (error) {
    post({ id, ok: false, error: error.message });
  }
};
