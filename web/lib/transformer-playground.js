// transformer-playground.js — the public JavaScript API (the npm package's entry point).
//
//   import { load } from 'transformer-playground';
//   const tp = await load();                      // one wasm instance per page or process
//   const model = tp.model({ ...tp.tasks().find((t) => t.name === 'qa-toy').defaults, seed: 1 });
//   const trainer = tp.trainer(model, tp.task('qa-toy'), { seed: 1 });
//   trainer.step(600);
//   model.generate('how are you').text;          // 'i am fine'
//
// Every object owns memory inside the wasm module: call dispose() when done (a
// FinalizationRegistry frees what is forgotten, eventually). Every array returned is a copy the
// caller may keep. Errors are JS Errors whose message says what was wrong and what is allowed;
// the module keeps working after them. Full reference: docs/API.md.
import { loadEngine, call } from './engine.js';
import { fillImport } from './model-files.js';
import { MODEL_CONFIG, TRAIN_OPTIONS, GENERATE_OPTIONS, TOKENIZER_OPTIONS } from './generated/schema.js';

// The keys each kind of option object takes, from the C++ tables (generated/schema.js).
const keysOf = (table) => Object.freeze(table.map((f) => f.js));
const CONFIG_KEYS = keysOf(MODEL_CONFIG);
const TRAIN_KEYS = keysOf(TRAIN_OPTIONS);
const GENERATE_KEYS = keysOf(GENERATE_OPTIONS);
const TOKENIZER_KEYS = keysOf(TOKENIZER_OPTIONS);
// positionalTable's keys per kind (besides kind itself).
const POSITIONAL_KEYS = { sinusoidal: ['maxLen', 'dim', 'base'], rope: ['maxLen', 'dim', 'base'], alibi: ['maxLen', 'heads'] };

function isPlainObject(value) {
  return value !== null && typeof value === 'object' && !Array.isArray(value) && !ArrayBuffer.isView(value);
}

// {options} → their JSON for the core, rejecting unknown keys and non-JSON values here, so the
// message names the key as the caller wrote it.
function optionsJson(options, keys, what, { allow = [] } = {}) {
  if (options === undefined) return '{}';
  if (!isPlainObject(options)) throw new Error(`${what} must be an object, got ${describe(options)}`);
  const out = {};
  for (const [key, value] of Object.entries(options)) {
    if (allow.includes(key)) continue;
    if (!keys.includes(key)) {
      throw new Error(`unknown ${what} key '${key}'; allowed: ${[...keys, ...allow].join(', ')}`);
    }
    if (value === undefined) continue;
    if (!['number', 'string', 'boolean'].includes(typeof value) || (typeof value === 'number' && !Number.isFinite(value))) {
      throw new Error(`${what} key '${key}' must be a finite number, a string or a boolean, got ${describe(value)}`);
    }
    out[key] = value;
  }
  return JSON.stringify(out);
}

// A short description of a bad argument for error messages: its value when short, else its type.
function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'string') return `the string '${value.slice(0, 40)}'`;
  if (typeof value === 'object') {
    const name = value.constructor?.name;
    if (!name || name === 'Object') return 'an object';
    return `${/^[AEIOU]/.test(name) ? 'an' : 'a'} ${name}`;
  }
  return typeof value;
}

// Token ids as every call takes them (the core's ids_from): a plain array, an Int32Array or a
// Uint32Array.
function isTokenIds(value) {
  return Array.isArray(value) || value instanceof Int32Array || value instanceof Uint32Array;
}

function checkIndex(value, what) {
  if (!Number.isInteger(value) || value < 0 || value > 0x7fffffff) {
    throw new Error(`${what} must be a whole number >= 0, got ${describe(value)}`);
  }
}

const registry = new FinalizationRegistry((handle) => {
  try {
    handle.delete();
  } catch {
    // already freed with the module
  }
});

// Common base: owns one embind handle, frees it once.
class Owned {
  #handle;
  #kind;
  constructor(module, handle, kind) {
    // Not enumerable, so console.log(model) shows the object, not the whole Emscripten module.
    Object.defineProperty(this, 'module', { value: module });
    this.#handle = handle;
    this.#kind = kind;
    registry.register(this, handle, this);
  }
  get handle() {
    if (!this.#handle) throw new Error(`this ${this.#kind} has been disposed; create a new one`);
    return this.#handle;
  }
  get disposed() {
    return this.#handle === null;
  }
  dispose() {
    if (!this.#handle) return;
    registry.unregister(this);
    this.#handle.delete();
    this.#handle = null;
  }
  // `using model = tp.model(...)` (explicit resource management) disposes at the end of the block.
  [Symbol.dispose]() {
    this.dispose();
  }
  run(fn) {
    const handle = this.handle;
    return call(this.module, () => fn(handle));
  }
}

export class Tokenizer extends Owned {
  constructor(module, handle) {
    super(module, handle, 'Tokenizer');
    const info = this.run((h) => h.info());
    this.kind = info.kind;
    this.vocabSize = info.vocabSize;
    this.numSpecials = info.numSpecials;
    // { sos, eos, pad, unk, cls, mask }: the id of each special token, or null where it has none.
    this.specials = Object.freeze(this.run((h) => h.specials()));
  }
  // { ids: Int32Array, tokens: string[], spans: Int32Array of [begin, end) UTF-16 pairs, byteSpans }
  encode(text) {
    if (typeof text !== 'string') throw new Error(`encode(text): text must be a string, got ${describe(text)}`);
    return this.run((h) => h.encode(text));
  }
  decode(ids) {
    if (!isTokenIds(ids)) {
      throw new Error(`decode(ids): ids must be an array, Int32Array or Uint32Array of token ids, got ${describe(ids)}`);
    }
    return this.run((h) => h.decode(ids));
  }
  // Display text of ids 0 .. limit−1.
  vocabulary(limit = this.vocabSize) {
    checkIndex(limit, 'vocabulary(limit): limit');
    return this.run((h) => h.vocabulary(Math.min(limit, this.vocabSize)));
  }
}

export class Task extends Owned {
  constructor(module, handle) {
    super(module, handle, 'Task');
    Object.assign(this, this.run((h) => h.info()));
  }
  tokenizer() {
    return new Tokenizer(this.module, this.run((h) => h.tokenizer()));
  }
  // A validation example as text: { input, target?, label?, tags? }.
  example(index = 0) {
    checkIndex(index, 'example(index): index');
    return this.run((h) => h.example(index));
  }
}

export class Model extends Owned {
  constructor(module, handle) {
    super(module, handle, 'Model');
  }
  get config() {
    return this.run((h) => h.config());
  }
  // { task, taskKind, tokenizer: { kind, vocabSize, numSpecials } | null, classNames, parameterCount }
  get info() {
    return this.run((h) => h.info());
  }
  parameters() {
    return this.run((h) => h.parameters());
  }
  // The model's tokenizer (from its task or checkpoint) as a new Tokenizer object the caller
  // disposes, or null when the model has none yet.
  tokenizer() {
    const handle = this.run((h) => h.tokenizer());
    return handle ? new Tokenizer(this.module, handle) : null;
  }
  // { shape, data: Float32Array } — a copy of the named weight tensor.
  parameter(name) {
    if (typeof name !== 'string') throw new Error(`parameter(name): name must be a string, got ${describe(name)}`);
    return this.run((h) => h.parameter(name));
  }
  // -> { text, ids, steps: [{ id, token, topk: [{ id, token, p, pSample }] }], msPerToken, stopReason }
  generate(prompt, options = {}) {
    if (typeof prompt !== 'string' && !isTokenIds(prompt)) {
      throw new Error(`generate(prompt): prompt must be a string, or an array, Int32Array or Uint32Array of token ids, got ${describe(prompt)}`);
    }
    const json = optionsJson(options, GENERATE_KEYS, 'generate option');
    return this.run((h) => h.generate(prompt, json));
  }
  // Every intermediate of one forward pass: { input, output, decoderInput?, names, tensors:
  // { [name]: { shape, data } } } in the order the forward pass produced them.
  // Options: target (the decoder's text; default: the model's own greedy answer), padTo (pad the
  // input with <PAD> to this length, to see the padding mask with the model's numbers).
  trace(input, options = {}) {
    if (typeof input !== 'string') throw new Error(`trace(input): input must be a string, got ${describe(input)}`);
    if (!isPlainObject(options)) throw new Error(`trace(input, options): options must be an object, got ${describe(options)}`);
    const { target, padTo = 0, ...rest } = options;
    const unknown = Object.keys(rest);
    if (unknown.length) throw new Error(`unknown trace option '${unknown[0]}'; allowed: target, padTo`);
    if (target !== undefined && typeof target !== 'string') throw new Error(`trace(input, { target }): target must be a string, got ${describe(target)}`);
    if (!Number.isInteger(padTo) || padTo < 0) throw new Error(`trace(input, { padTo }): padTo must be a whole number >= 0, got ${describe(padTo)}`);
    const raw = this.run((h) => h.trace(input, target, padTo));
    const tensors = {};
    for (const e of raw.entries) tensors[e.name] = { shape: e.shape, data: e.data };
    return { input: raw.input, output: raw.output, decoderInput: raw.decoderInput, names: raw.entries.map((e) => e.name), tensors };
  }
  // Encoder-only models: { classes: [{ label, p }] } or { positions: [[{ label, p }]] }.
  predict(input) {
    if (typeof input !== 'string') throw new Error(`predict(input): input must be a string, got ${describe(input)}`);
    return this.run((h) => h.predict(input));
  }
  // The model as a safetensors file (Uint8Array), with its tokenizer and task.
  save() {
    return this.run((h) => h.save());
  }
}

export class Trainer extends Owned {
  constructor(module, handle) {
    super(module, handle, 'Trainer');
  }
  // n optimizer steps -> { step, loss, tokenAccuracy, valLoss, metric, evaluated, evaluatedAt,
  // tokensPerSec, lr, gradNorm, tokensSeen }
  step(n = 1) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`step(n): n must be a whole number >= 1, got ${describe(n)}`);
    return this.run((h) => h.step(n));
  }
  // -> { loss, perplexity, tokenAccuracy, exactMatch, metric, targets, sequences }
  evaluate() {
    return this.run((h) => h.evaluate());
  }
  get stepCount() {
    return this.run((h) => h.stepCount());
  }
  // Changes the planned number of steps (the cosine schedule's length) without touching the
  // weights, e.g. to keep training a model that reached its total.
  setTotalSteps(n) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`setTotalSteps(n): n must be a whole number >= 1, got ${describe(n)}`);
    this.run((h) => h.setTotalSteps(n));
  }
}

function makeApi(module) {
  const own = (handle, Class) => new Class(module, handle);
  // Runs use(handle) on an ImportHandle holding `files`, then frees the files' bytes.
  const withImport = async (files, options, use) => {
    const handle = await fillImport(module, files, options);
    try {
      return use(handle);
    } finally {
      handle.delete();
    }
  };
  let taskInfos = null;  // built once: the built-in tasks never change
  const api = {
    version: module.version(),
    // The built-in tasks' names, descriptions and kinds, without building any of them (cheap).
    taskList() {
      return call(module, (m) => m.builtinTasks());
    },
    // [{ name, description, kind, metric, defaults (a model config), train, classNames, ... }]
    // Builds every task once (BPE training included), then answers from a cache.
    tasks() {
      taskInfos ??= call(module, (m) => m.builtinTasks()).map(({ name }) => {
        const task = api.task(name);
        const { description, kind, metric, defaults, train, classNames, sampleInputs, source, trainSize, valSize, synthetic } = task;
        task.dispose();
        return Object.freeze({ name, description, kind, metric, defaults, train, classNames, sampleInputs, source, trainSize, valSize, synthetic });
      });
      return taskInfos.map((t) => ({
        ...t, defaults: { ...t.defaults }, train: { ...t.train }, classNames: [...t.classNames], sampleInputs: [...t.sampleInputs],
      }));
    },
    // A built-in task by name, or your own data: { pairs: [[source, target], ...] } or
    // { text, tokenizer: 'char' | 'word' | 'bpe' | 'byte' | { kind, vocabSize } }.
    task(spec) {
      if (typeof spec === 'string') return own(call(module, (m) => m.builtinTask(spec)), Task);
      if (!isPlainObject(spec)) throw new Error(`task(spec): spec must be a task name or { pairs } or { text }, got ${describe(spec)}`);
      const keys = Object.keys(spec);
      if (keys.includes('pairs')) {
        if (keys.length !== 1) throw new Error(`task({ pairs }) takes only 'pairs', got ${keys.join(', ')}`);
        return own(call(module, (m) => m.pairsTask(spec.pairs)), Task);
      }
      if (keys.includes('text')) {
        const extra = keys.filter((k) => k !== 'text' && k !== 'tokenizer');
        if (extra.length) throw new Error(`unknown task key '${extra[0]}'; allowed with text: text, tokenizer`);
        if (typeof spec.text !== 'string') throw new Error(`task({ text }): text must be a string, got ${describe(spec.text)}`);
        // A Tokenizer object (an imported model's) is used as it is: the task fine-tunes that model.
        if (spec.tokenizer instanceof Tokenizer) return own(call(module, (m) => m.textTaskWith(spec.text, spec.tokenizer.handle)), Task);
        const tokenizer = typeof spec.tokenizer === 'string' ? { kind: spec.tokenizer } : spec.tokenizer ?? { kind: 'char' };
        const json = optionsJson(tokenizer, TOKENIZER_KEYS, 'tokenizer option');
        return own(call(module, (m) => m.textTask(spec.text, json)), Task);
      }
      throw new Error(`task(spec): an object spec needs 'pairs' or 'text', got keys ${keys.join(', ') || '(none)'}`);
    },
    // { kind: 'char' | 'word' | 'bpe' | 'byte', vocabSize, lowercase, text }
    tokenizer(options) {
      if (!isPlainObject(options)) throw new Error(`tokenizer(options) needs an object like { kind: 'char', text }, got ${describe(options)}`);
      const { text = '', ...rest } = options;
      if (typeof text !== 'string') throw new Error(`tokenizer option 'text' must be a string, got ${describe(text)}`);
      const json = optionsJson(rest, TOKENIZER_KEYS, 'tokenizer option');
      return own(call(module, (m) => m.createTokenizer(json, text)), Tokenizer);
    },
    // A model config (camelCase, see docs/API.md) plus `seed`.
    model(config) {
      if (!isPlainObject(config)) throw new Error(`model(config): config must be an object, got ${describe(config)}`);
      const { seed = 0, ...rest } = config;
      if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`model config key 'seed' must be a whole number >= 0, got ${describe(seed)}`);
      const json = optionsJson(rest, CONFIG_KEYS, 'model config');
      return own(call(module, (m) => m.createModel(json, seed)), Model);
    },
    // Trains `model` on `task`; options { lr, batchSize, warmup, schedule, totalSteps, clip,
    // weightDecay, labelSmoothing, seed, evalEvery, beta1, beta2 } default to the task's.
    trainer(model, task, options = {}) {
      if (!(model instanceof Model)) throw new Error('trainer(model, task): model must be a Model from tp.model() or tp.loadModel()');
      if (!(task instanceof Task)) throw new Error('trainer(model, task): task must be a Task from tp.task()');
      const json = optionsJson(options, TRAIN_KEYS, 'training option');
      return own(call(module, (m) => m.createTrainer(model.handle, task.handle, json)), Trainer);
    },
    // A model from safetensors bytes (Uint8Array or ArrayBuffer).
    loadModel(bytes) {
      const array = bytes instanceof ArrayBuffer ? new Uint8Array(bytes) : bytes;
      if (!(array instanceof Uint8Array)) throw new Error(`loadModel(bytes): bytes must be a Uint8Array or ArrayBuffer, got ${describe(bytes)}`);
      return own(call(module, (m) => m.loadModel(array)), Model);
    },
    // A position table from the core, of any size, with the very numbers a model uses:
    //   { kind: 'sinusoidal', maxLen, dim, base? } -> { kind, shape: [maxLen, dim], data }
    //   { kind: 'rope', maxLen, dim (an even head size), base? } -> { kind, shape: [maxLen, dim / 2], cos, sin }
    //   { kind: 'alibi', maxLen, heads } -> { kind, shape: [heads, maxLen, maxLen], slopes, data (the biases) }
    positionalTable(options) {
      if (!isPlainObject(options)) throw new Error(`positionalTable(options) needs an object like { kind: 'sinusoidal', maxLen: 16, dim: 8 }, got ${describe(options)}`);
      const { kind } = options;
      const keys = POSITIONAL_KEYS[kind];
      if (!keys) {
        const hint = kind === 'learned' ? " (a learned table is the model's parameter 'pos_emb.weight': model.parameter('pos_emb.weight'))" : '';
        throw new Error(`positionalTable: kind must be ${Object.keys(POSITIONAL_KEYS).join(', ')}, got ${describe(kind)}${hint}`);
      }
      for (const key of Object.keys(options)) {
        if (key !== 'kind' && !keys.includes(key)) throw new Error(`unknown positionalTable key '${key}' for kind '${kind}'; allowed: kind, ${keys.join(', ')}`);
      }
      const { maxLen, base = 10000 } = options;
      const size = kind === 'alibi' ? options.heads : options.dim;
      for (const [key, value] of [['maxLen', maxLen], [kind === 'alibi' ? 'heads' : 'dim', size]]) {
        if (!Number.isInteger(value)) throw new Error(`positionalTable: ${key} must be a whole number, got ${describe(value)}`);
      }
      if (typeof base !== 'number' || !Number.isFinite(base)) throw new Error(`positionalTable: base must be a finite number, got ${describe(base)}`);
      return call(module, (m) => m.positionalTable(kind, maxLen, size, base));
    },
    // Another project's model (docs/API.md "Your own model"): a Hugging Face-style folder of the
    // GPT-2 or Llama family (config.json, model.safetensors, tokenizer.json or vocab.json +
    // merges.txt) or llama2.c's model .bin with its tokenizer.bin. `files`: Files or Blobs (a file
    // or folder picker's), or { name, bytes } / { name, blob } / { name, url } objects. Large
    // files stream into the module's memory in slices, never held twice.
    importModel(files) {
      return withImport(files, {}, (handle) => own(call(module, () => handle.model()), Model));
    },
    // What importModel(files) would build, from config.json (or a .bin's header) alone:
    // { format, config, parameterCount, memory: { parameters, inference, training }, limits,
    // trainable, reason } — bytes, so a page can say what fits before it reads the weights.
    describeModelFiles(files) {
      return withImport(files, { configOnly: true }, (handle) => call(module, () => handle.describe()));
    },
    // Only the tokenizer of such files (config.json + tokenizer.json or vocab.json + merges.txt,
    // or a tokenizer.bin alone); the weights among `files` are not read.
    importTokenizer(files) {
      return withImport(files, { tokenizerOnly: true }, (handle) => own(call(module, () => handle.tokenizer()), Tokenizer));
    },
    // The SIMD kernels against the scalar reference, in this runtime.
    kernelSelfCheck(seed = 1) {
      if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`kernelSelfCheck: seed must be a non-negative integer, got ${seed}`);
      return call(module, (m) => m.kernelSelfCheck(seed));
    },
    // { heapSize, allocated } in bytes: the wasm memory and what malloc holds of it.
    heapStats() {
      return call(module, (m) => m.heapStats());
    },
    // The threads training and generation run on (results are the same at any count).
    get threads() {
      return call(module, (m) => m.threadInfo()).threads;
    },
    // From 1 to the count load({ threads }) prepared (1 in the single-threaded module).
    setThreads(n) {
      if (!Number.isInteger(n)) throw new Error(`setThreads(n): n must be a whole number, got ${describe(n)}`);
      call(module, (m) => m.setThreads(n));
    },
  };
  return Object.freeze(api);
}

let apiPromise = null;
const LOAD_KEYS = ['wasmUrl', 'compiledModule', 'threads'];

// The API over the page's (or process's) one wasm instance. Options: { wasmUrl } to serve the
// .wasm file from elsewhere, { compiledModule } to instantiate one compiled already, { threads }
// (default 1) to load the threaded module and run on that many threads — possible only where
// threadSupport().available (a cross-origin isolated page or its workers), otherwise the promise
// rejects with an Error saying why. Only the first call's options choose the module; a later
// call asking for another one rejects.
export function load(options = {}) {
  if (!isPlainObject(options)) return Promise.reject(new Error(`load(options): options must be an object, got ${describe(options)}`));
  const unknown = Object.keys(options).find((k) => !LOAD_KEYS.includes(k));
  if (unknown) return Promise.reject(new Error(`unknown load option '${unknown}'; allowed: ${LOAD_KEYS.join(', ')}`));
  if (apiPromise) return loadEngine(options).then(() => apiPromise);
  apiPromise = loadEngine(options).then(makeApi, (error) => {
    apiPromise = null;
    throw error;
  });
  return apiPromise;
}

export { engineStats, compiledModule, threadSupport } from './engine.js';
export { MODEL_CONFIG, TRAIN_OPTIONS, GENERATE_OPTIONS, TOKENIZER_OPTIONS, STEP_REPORT, EVALUATION, TRACE_NAMES } from './generated/schema.js';
export { createTrainingSession, TrainingSession } from './training-session.js';
export { RunRecord } from './run-record.js';
export { traceName, parseTraceName } from './trace-names.js';
