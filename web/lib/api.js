// api.js — the public JavaScript API's objects over the one engine: load(), Tokenizer, Task,
// Model, Trainer (transformer-playground.js, the package's entry, adds the training sessions; a
// page that only tokenizes or traces — the widgets' runtime — imports this file alone and never
// loads the training modules).
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
// the module keeps working after them. Every argument is checked and copied before it enters
// the module (arguments.js). Full reference: docs/API.md.
//
// The JSDoc types here and in types.js are the API's one description: `npm run generate` emits
// the TypeScript declarations from them (tsc --declaration --emitDeclarationOnly) and writes
// docs/API.md's reference tables from those.
/**
 * @import { ModelConfig, GenerateOptions, LoadOptions, TokenizerKind, TaskKind, Metric, TrainOptions, StepReport, Evaluation, BuiltinTaskName } from './generated/schema.js'
 * @import { EngineOptions, Encoding, SpecialTokens, TokenIds, TaskInfo, TaskExample, ModelInfo, ParameterInfo, TensorData, GenerateResult, TraceOptions, TraceResult, PredictResult, TaskSpec, TokenizerOptions, ModelOptions, TrainerOptions, PositionalTableOptions, SinusoidalTable, RopeTable, AlibiTable, ModelFileInput, ImportOptions, ModelFilesInfo, SelfCheckReport, HeapStats, AttentionMaskOptions, AttentionMask, KvLayerLayout, WasmObject } from './types.js'
 */
import { loadEngine, call } from './engine.js';
import { withImport, describeFiles } from './model-files.js';
import { MODEL_CONFIG, TRAIN_OPTIONS, GENERATE_OPTIONS, TOKENIZER_OPTIONS, LOAD_OPTIONS } from './generated/schema.js';
import { describe, isPlainObject, ownValue, refuseSymbolKeys, importOptions, wellFormed, checkWhole, typedKind, idsCopy, bytesCopy, pairsCopy, optionsJson } from './arguments.js';

// The keys each kind of option object takes, from the C++ tables (generated/schema.js).
const keysOf = (table) => Object.freeze(table.map((f) => f.js));
const CONFIG_KEYS = keysOf(MODEL_CONFIG);
const TRAIN_KEYS = keysOf(TRAIN_OPTIONS);
const GENERATE_KEYS = keysOf(GENERATE_OPTIONS);
const TOKENIZER_KEYS = keysOf(TOKENIZER_OPTIONS);
const LOAD_MODEL_KEYS = keysOf(LOAD_OPTIONS);
// positionalTable's keys per kind (besides kind itself).
const POSITIONAL_KEYS = { sinusoidal: ['maxLen', 'dim', 'base'], rope: ['maxLen', 'dim', 'base'], alibi: ['maxLen', 'heads'] };

const registry = new FinalizationRegistry((handle) => {
  try {
    handle.delete();
  } catch {
    // already freed with the module
  }
});

// Common base: owns one embind handle, frees it once.
/** @implements {WasmObject} */
class Owned {
  #handle;
  #kind;
  /** @internal @param {object} module @param {object} handle @param {string} kind */
  constructor(module, handle, kind) {
    // Not enumerable, so console.log(model) shows the object, not the whole Emscripten module.
    Object.defineProperty(this, 'module', { value: module });
    this.#handle = handle;
    this.#kind = kind;
    registry.register(this, handle, this);
  }
  // Whether `value` is itself (not a Proxy around, a copy of, or an object inheriting from) an
  // object of this API of kind `kind`.
  /** @internal @param {unknown} value @param {string} kind @returns {boolean} */
  static is(value, kind) {
    return value !== null && typeof value === 'object' && #handle in value && value.#kind === kind;
  }
  /** @internal */
  get handle() {
    if (!this.#handle) throw new Error(`this ${this.#kind} has been disposed; create a new one`);
    return this.#handle;
  }
  /** Whether dispose() was called. @returns {boolean} */
  get disposed() {
    return this.#handle === null;
  }
  /** Frees its memory now; later calls do nothing, any other call throws. @returns {void} */
  dispose() {
    if (!this.#handle) return;
    registry.unregister(this);
    this.#handle.delete();
    this.#handle = null;
  }
  // `using model = tp.model(...)` (explicit resource management) disposes at the end of the block.
  /** The same as dispose(), for `using`. @returns {void} */
  [Symbol.dispose]() {
    this.dispose();
  }
}

const MADE_BY = { Tokenizer: 'tp.tokenizer() or task.tokenizer()', Task: 'tp.task()', Model: 'tp.model() or tp.loadModel()', Trainer: 'tp.trainer()' };

// Runs fn(handle) for method `method` of class `kind` called on `self`. A method taken off its
// object (`const { generate } = model`), called on another kind of object, or on a Proxy around
// the object (a framework's reactive state wraps objects in one) cannot reach the object's wasm
// memory; the error says so instead of "h.generate is not a function" or "Cannot read private
// member #handle".
function run(self, kind, method, fn) {
  if (!Owned.is(self, kind)) {
    const got = self === undefined ? 'undefined (the method was called without its object, e.g. after `const { ' + method + ' } = x`)'
      : Object.getPrototypeOf(self ?? {}) !== null && self instanceof Owned
        ? `${describe(self)} that is a Proxy, a copy or a subclass object rather than the object itself (keep the API's objects out of reactive state, e.g. Vue's markRaw())`
        : describe(self);
    throw new Error(`${kind}.${method}() must be called on a ${kind} from ${MADE_BY[kind]}, got ${got}`);
  }
  const handle = self.handle;
  return call(self.module, () => fn(handle));
}

/** A tokenizer: text to token ids and back, from `tp.tokenizer()`, `task.tokenizer()` or `model.tokenizer()`. */
export class Tokenizer extends Owned {
  /** What it splits text into: characters, words, learned sub-words, bytes, or an imported model's pieces. @readonly @type {TokenizerKind} */ kind;
  /** Total tokens, specials included. @readonly @type {number} */ vocabSize;
  /** How many special tokens it has: the built-in tokenizers' 3 to 6, at ids `0 … numSpecials−1`. @readonly @type {number} */ numSpecials;
  /** The id of each special token, or null where this tokenizer has none: what batches and generation use. @readonly @type {SpecialTokens} */ specials;

  /** Made by the API (tp.tokenizer(), task.tokenizer(), model.tokenizer()). @private @param {object} module @param {object} handle */
  constructor(module, handle) {
    super(module, handle, 'Tokenizer');
    const info = run(this, 'Tokenizer', 'info', (h) => h.info());
    this.kind = info.kind;
    this.vocabSize = info.vocabSize;
    this.numSpecials = info.numSpecials;
    this.specials = Object.freeze(run(this, 'Tokenizer', 'specials', (h) => h.specials()));
  }
  /**
   * The tokens of `text` with their ids and spans (below). A lone surrogate in `text` is read as
   * U+FFFD (length kept, so spans index `text` itself). An imported tokenizer puts the special
   * tokens its files say around the text (Llama's and llama2.c's `<s>` first), as the model's own
   * tokenizer does; `{ addSpecialTokens: false }` leaves them out. The built-in kinds add none
   * either way.
   * @param {string} text
   * @param {{ addSpecialTokens?: boolean }} [options]
   * @returns {Encoding}
   */
  encode(text, options = {}) {
    if (typeof text !== 'string') throw new Error(`encode(text): text must be a string, got ${describe(text)}`);
    const wf = wellFormed(text);
    const { addSpecialTokens = true } = JSON.parse(optionsJson(options, ['addSpecialTokens'], 'encode option'));
    if (typeof addSpecialTokens !== 'boolean') {
      throw new Error(`encode option addSpecialTokens must be a boolean, got ${describe(addSpecialTokens)}`);
    }
    return run(this, 'Tokenizer', 'encode', (h) => h.encode(wf, addSpecialTokens));
  }
  /**
   * The text of `ids` (an array, `Int32Array` or `Uint32Array` of ids in `[0, vocabSize)`);
   * specials are skipped. Byte tokens that form no character (a character cut short) decode as
   * U+FFFD, as `TextDecoder` does: the string is always well-formed.
   * @param {TokenIds} ids
   * @returns {string}
   */
  decode(ids) {
    const copy = idsCopy(ids, 'decode(ids): ids');
    return run(this, 'Tokenizer', 'decode', (h) => h.decode(copy));
  }
  /**
   * The tokenizer as text (JSON, the form a checkpoint stores it in), for `tp.loadTokenizer()`:
   * e.g. to hand a tokenizer imported in a worker to the page without importing it again.
   * @returns {string}
   */
  save() {
    return run(this, 'Tokenizer', 'save', (h) => h.save());
  }
  /**
   * Display text of ids 0 … limit−1 (default: the whole vocabulary).
   * @param {number} [limit]
   * @returns {string[]}
   */
  vocabulary(limit = this.vocabSize) {
    checkWhole(limit, 'vocabulary(limit): limit');
    return run(this, 'Tokenizer', 'vocabulary', (h) => h.vocabulary(Math.min(limit, this.vocabSize)));
  }
}

/**
 * A task: its data, tokenizer and the model and training options that suit it, from `tp.task()`.
 * @implements {TaskInfo}
 */
export class Task extends Owned {
  /** @readonly @type {string} */ name;
  /** @readonly @type {string} */ description;
  /** @readonly @type {TaskKind} */ kind;
  /** @readonly @type {Metric} */ metric;
  /** Where its data comes from. @readonly @type {string} */ source;
  /** A model configuration that fits the task (vocabSize matches its tokenizer). @readonly @type {ModelConfig} */ defaults;
  /** The training options that suit the task. @readonly @type {TrainOptions} */ train;
  /** classify and tag tasks: the label names, by id. @readonly @type {string[]} */ classNames;
  /** Inputs worth trying. @readonly @type {string[]} */ sampleInputs;
  /** Training examples (text tasks: tokens; generated tasks: 0). @readonly @type {number} */ trainSize;
  /** Validation examples (text tasks: tokens). @readonly @type {number} */ valSize;
  /** Whether its examples are generated on the fly (copy, reverse, sort, addition). @readonly @type {boolean} */ synthetic;

  /** Made by tp.task(). @private @param {object} module @param {object} handle */
  constructor(module, handle) {
    super(module, handle, 'Task');
    Object.assign(this, run(this, 'Task', 'info', (h) => h.info()));
  }
  /** A new Tokenizer object for the task's vocabulary (dispose it too). @returns {Tokenizer} */
  tokenizer() {
    return new Tokenizer(this.module, run(this, 'Task', 'tokenizer', (h) => h.tokenizer()));
  }
  /**
   * Validation example `index` (wrapping around), as text.
   * @param {number} [index]
   * @returns {TaskExample}
   */
  example(index = 0) {
    checkWhole(index, 'example(index): index');
    return run(this, 'Task', 'example', (h) => h.example(index));
  }
}

/** A model: its configuration and weights, from `tp.model()`, `tp.loadModel()` or `tp.importModel()`. */
export class Model extends Owned {
  /** What `tp.loadModel()` accepted with a warning: metadata keys it does not read, weights that are not finite (with `allowNonFinite`) ([Checkpoints](#checkpoints)); empty for a new model. @readonly @type {readonly string[]} */ warnings;

  /** Made by tp.model(), tp.loadModel() or tp.importModel(). @private @param {object} module @param {object} handle */
  constructor(module, handle) {
    super(module, handle, 'Model');
    this.warnings = Object.freeze(run(this, 'Model', 'warnings', (h) => h.warnings()));
  }
  /** A copy of the full configuration. @returns {ModelConfig} */
  get config() {
    return run(this, 'Model', 'config', (h) => h.config());
  }
  /** `{ task, taskKind, tokenizer, classNames, parameterCount }`: `task` is `''` and `tokenizer` (`{ kind, vocabSize, numSpecials }`) is `null` until a trainer or checkpoint provides them. @returns {ModelInfo} */
  get info() {
    return run(this, 'Model', 'info', (h) => h.info());
  }
  /** Every weight tensor's name, shape and size, in checkpoint order (names in [FORMAT.md](FORMAT.md)). @returns {ParameterInfo[]} */
  parameters() {
    return run(this, 'Model', 'parameters', (h) => h.parameters());
  }
  /** The model's tokenizer (from the task it was trained on or its checkpoint) as a new object to dispose; `null` until a trainer or checkpoint provides one. @returns {Tokenizer | null} */
  tokenizer() {
    const handle = run(this, 'Model', 'tokenizer', (h) => h.tokenizer());
    return handle ? new Tokenizer(this.module, handle) : null;
  }
  /**
   * A copy of one weight tensor, row-major ([FORMAT.md](FORMAT.md) lists the names).
   * @param {string} name
   * @returns {TensorData}
   */
  parameter(name) {
    if (typeof name !== 'string') throw new Error(`parameter(name): name must be a string, got ${describe(name)}`);
    const wf = wellFormed(name);
    return run(this, 'Model', 'parameter', (h) => h.parameter(wf));
  }
  /**
   * New tokens after `prompt` (below). Text needs the model's tokenizer (from a trainer or a
   * checkpoint); ids work always.
   * @param {string | TokenIds} prompt
   * @param {GenerateOptions} [options]
   * @returns {GenerateResult}
   */
  generate(prompt, options = {}) {
    if (typeof prompt !== 'string' && !Array.isArray(prompt) && typedKind(prompt) !== 'Int32Array' && typedKind(prompt) !== 'Uint32Array') {
      throw new Error(`generate(prompt): prompt must be a string, or an array, Int32Array or Uint32Array of token ids, got ${describe(prompt)}`);
    }
    const input = typeof prompt === 'string' ? wellFormed(prompt) : idsCopy(prompt, 'generate(prompt): prompt');
    const json = optionsJson(options, GENERATE_KEYS, 'generate option');
    return run(this, 'Model', 'generate', (h) => h.generate(input, json));
  }
  /**
   * Every intermediate of one forward pass, in the order the pass produced them (below).
   * @param {string} input
   * @param {TraceOptions} [options]
   * @returns {TraceResult}
   */
  trace(input, options = {}) {
    if (typeof input !== 'string') throw new Error(`trace(input): input must be a string, got ${describe(input)}`);
    if (!isPlainObject(options)) throw new Error(`trace(input, options): options must be a plain object, got ${describe(options)}`);
    refuseSymbolKeys(options, 'trace option', ['target', 'padTo']);
    const unknown = Object.keys(options).filter((k) => k !== 'target' && k !== 'padTo');
    if (unknown.length) throw new Error(`unknown trace option '${wellFormed(unknown[0])}'; allowed: target, padTo`);
    const target = ownValue(options, 'target'), padTo = ownValue(options, 'padTo') ?? 0;
    if (target !== undefined && typeof target !== 'string') throw new Error(`trace(input, { target }): target must be a string, got ${describe(target)}`);
    // The core checks the upper bound (the model's maxLen) with the number as given (a double).
    if (!Number.isInteger(padTo) || padTo < 0) throw new Error(`trace(input, { padTo }): padTo must be a whole number >= 0, got ${describe(padTo)}`);
    const text = wellFormed(input), answer = target === undefined ? undefined : wellFormed(target);
    const raw = run(this, 'Model', 'trace', (h) => h.trace(text, answer, padTo));
    const tensors = {};
    for (const e of raw.entries) tensors[e.name] = { shape: e.shape, data: e.data };
    return { input: raw.input, output: raw.output, decoderInput: raw.decoderInput, names: raw.entries.map((e) => e.name), tensors };
  }
  /**
   * An encoder-only model's classes (cls, mean heads) or per-position labels (token, mlm) (below).
   * @param {string} input
   * @returns {PredictResult}
   */
  predict(input) {
    if (typeof input !== 'string') throw new Error(`predict(input): input must be a string, got ${describe(input)}`);
    const text = wellFormed(input);
    return run(this, 'Model', 'predict', (h) => h.predict(text));
  }
  /**
   * How generation lays out this model's KV cache: `tp.kvLayout(model.config, positions)`.
   * @param {number} positions
   * @returns {KvLayerLayout[]}
   */
  kvLayout(positions) {
    const config = this.config;
    return kvLayoutOf(this.module, config, positions);
  }
  /** The model (config, weights, tokenizer, task) as a safetensors file ([Checkpoints](#checkpoints)). @returns {Uint8Array} */
  save() {
    return run(this, 'Model', 'save', (h) => h.save());
  }
}

/** AdamW training of a model on a task, from `tp.trainer()`. */
export class Trainer extends Owned {
  /** Made by tp.trainer(). @private @param {object} module @param {object} handle */
  constructor(module, handle) {
    super(module, handle, 'Trainer');
  }
  /**
   * Runs n optimizer steps (1 … 100000; default 1) and reports the last (below).
   * @param {number} [n]
   * @returns {StepReport}
   */
  step(n = 1) {
    // The core checks the upper bound with the number as given (a double: nothing wraps).
    if (!Number.isInteger(n) || n < 1) throw new Error(`step(n): n must be a whole number >= 1, got ${describe(n)}`);
    return run(this, 'Trainer', 'step', (h) => h.step(n));
  }
  /** A pass over the validation set now: `{ loss, perplexity, tokenAccuracy, exactMatch, metric, targets, sequences }`. @returns {Evaluation} */
  evaluate() {
    return run(this, 'Trainer', 'evaluate', (h) => h.evaluate());
  }
  /** Steps taken so far. @returns {number} */
  get stepCount() {
    return run(this, 'Trainer', 'stepCount', (h) => h.stepCount());
  }
  /**
   * Changes the planned total (the cosine schedule's length); weights and optimizer state stay,
   * e.g. to keep training a model that reached its total.
   * @param {number} n
   * @returns {void}
   */
  setTotalSteps(n) {
    if (!Number.isInteger(n) || n < 1) throw new Error(`setTotalSteps(n): n must be a whole number >= 1, got ${describe(n)}`);
    run(this, 'Trainer', 'setTotalSteps', (h) => h.setTotalSteps(n));
  }
}

// A model config (as model.config gives it) as the JSON the core reads, checked to be one.
/** @param {unknown} config @param {string} what @returns {string} */
function configJson(config, what) {
  if (!isPlainObject(config)) throw new Error(`${what}: config must be a model's config ({ arch, dModel, … }, as model.config or session.run.config give it), got ${describe(config)}`);
  return optionsJson(config, CONFIG_KEYS, 'model config');
}

/** @param {object} module @param {ModelConfig} config @param {number} positions @returns {KvLayerLayout[]} */
function kvLayoutOf(module, config, positions) {
  const json = configJson(config, 'kvLayout(config, positions)');
  if (!Number.isInteger(positions) || positions < 0) throw new Error(`kvLayout(config, positions): positions must be a whole number >= 0, got ${describe(positions)}`);
  return call(module, (m) => m.kvLayout(json, positions));
}

const MASK_KEYS = ['kind', 'layer', 'queries', 'keyIds', 'padId'];

/** @param {object} module */
function makeApi(module) {
  const own = (handle, Class) => new Class(module, handle);
  let taskInfos = null;  // built once: the built-in tasks never change
  const api = {
    /** The package version, e.g. '0.1.0'. @type {string} */
    version: module.version(),
    /** The built-in tasks' names, descriptions and kinds, without building any of them (cheap). @returns {Array<{ name: BuiltinTaskName, description: string, kind: TaskKind }>} */
    taskList() {
      return call(module, (m) => m.builtinTasks());
    },
    /** The built-in tasks ([Task](#task)), as fresh copies. Builds every task once (BPE training included), then answers from a cache. @returns {TaskInfo[]} */
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
    /**
     * A built-in task by name, or your own data: `{ pairs: [[source, target], …] }` or
     * `{ text, tokenizer }`.
     * @param {TaskSpec} spec
     * @returns {Task}
     */
    task(spec) {
      if (typeof spec === 'string') {
        const name = wellFormed(spec);
        return own(call(module, (m) => m.builtinTask(name)), Task);
      }
      if (!isPlainObject(spec)) throw new Error(`task(spec): spec must be a task name or { pairs } or { text }, got ${describe(spec)}`);
      refuseSymbolKeys(spec, 'task', ['pairs', 'text', 'tokenizer']);
      const keys = Object.keys(spec);
      if (keys.includes('pairs')) {
        if (keys.length !== 1) throw new Error(`task({ pairs }) takes only 'pairs', got ${keys.map(wellFormed).join(', ')}`);
        const pairs = pairsCopy(spec.pairs);
        return own(call(module, (m) => m.pairsTask(pairs)), Task);
      }
      if (keys.includes('text')) {
        const extra = keys.filter((k) => k !== 'text' && k !== 'tokenizer');
        if (extra.length) throw new Error(`unknown task key '${wellFormed(extra[0])}'; allowed with text: text, tokenizer`);
        if (typeof spec.text !== 'string') throw new Error(`task({ text }): text must be a string, got ${describe(spec.text)}`);
        const given = ownValue(spec, 'tokenizer');
        // A Tokenizer object (an imported model's) is used as it is: the task fine-tunes that model.
        if (given instanceof Tokenizer) {
          const text = wellFormed(spec.text);
          return own(call(module, (m) => m.textTaskWith(text, given.handle)), Task);
        }
        const tokenizer = typeof given === 'string' ? { kind: given } : given ?? { kind: 'char' };
        const json = optionsJson(tokenizer, TOKENIZER_KEYS, 'tokenizer option');
        const text = wellFormed(spec.text);
        return own(call(module, (m) => m.textTask(text, json)), Task);
      }
      throw new Error(`task(spec): an object spec needs 'pairs' or 'text', got keys ${keys.join(', ') || '(none)'}`);
    },
    /** A tokenizer learned from text. @param {TokenizerOptions} options @returns {Tokenizer} */
    tokenizer(options) {
      if (!isPlainObject(options)) throw new Error(`tokenizer(options) needs a plain object like { kind: 'char', text }, got ${describe(options)}`);
      const text = ownValue(options, 'text') ?? '';
      if (typeof text !== 'string') throw new Error(`tokenizer option 'text' must be a string, got ${describe(text)}`);
      const json = optionsJson(options, TOKENIZER_KEYS, 'tokenizer option', { allow: ['text'] });
      const wf = wellFormed(text);
      return own(call(module, (m) => m.createTokenizer(json, wf)), Tokenizer);
    },
    /** A new model with random weights from `config.seed`: any subset of a config (the rest takes defaults). @param {ModelOptions} config @returns {Model} */
    model(config) {
      if (!isPlainObject(config)) throw new Error(`model(config): config must be a plain object ({ dModel: 64, … }), got ${describe(config)}`);
      const seed = ownValue(config, 'seed') ?? 0;
      if (!Number.isSafeInteger(seed) || seed < 0) throw new Error(`model config key 'seed' must be a whole number >= 0, got ${describe(seed)}`);
      const json = optionsJson(config, CONFIG_KEYS, 'model config', { allow: ['seed'] });
      return own(call(module, (m) => m.createModel(json, seed)), Model);
    },
    /**
     * An AdamW trainer of `model` on `task` (options default to the task's); also gives the model
     * the task's tokenizer, so generate() and trace() accept text.
     * @param {Model} model
     * @param {Task} task
     * @param {TrainerOptions} [options]
     * @returns {Trainer}
     */
    trainer(model, task, options = {}) {
      if (!Owned.is(model, 'Model')) throw new Error(`trainer(model, task): model must be a Model from tp.model() or tp.loadModel(), got ${describe(model)}`);
      if (!Owned.is(task, 'Task')) throw new Error(`trainer(model, task): task must be a Task from tp.task(), got ${describe(task)}`);
      const json = optionsJson(options, TRAIN_KEYS, 'training option');
      return own(call(module, (m) => m.createTrainer(model.handle, task.handle, json)), Trainer);
    },
    /**
     * A model from a checkpoint (`model.save()`'s bytes); `{ allowNonFinite }` loads weights that
     * are NaN or infinite (refused otherwise), and `model.warnings` lists what was accepted with a
     * warning ([Checkpoints](#checkpoints)).
     * @param {Uint8Array | ArrayBuffer} bytes
     * @param {LoadOptions} [options]
     * @returns {Model}
     */
    loadModel(bytes, options = {}) {
      const array = bytesCopy(bytes, 'loadModel(bytes): bytes');
      const json = optionsJson(options, LOAD_MODEL_KEYS, 'loadModel option');
      return own(call(module, (m) => m.loadModel(array, json)), Model);
    },
    /**
     * A position table of any size, computed by the core: equal bit for bit to what a model of that
     * kind uses ([below](#tppositionaltableoptions--positionaltable)).
     * @template {PositionalTableOptions} O
     * @param {O} options
     * @returns {O extends { kind: 'sinusoidal' } ? SinusoidalTable : O extends { kind: 'rope' } ? RopeTable : AlibiTable}
     */
    positionalTable(options) {
      if (!isPlainObject(options)) throw new Error(`positionalTable(options) needs a plain object like { kind: 'sinusoidal', maxLen: 16, dim: 8 }, got ${describe(options)}`);
      const kind = ownValue(options, 'kind');
      const keys = Object.hasOwn(POSITIONAL_KEYS, kind) ? POSITIONAL_KEYS[kind] : undefined;
      if (!keys) {
        const hint = kind === 'learned' ? " (a learned table is the model's parameter 'pos_emb.weight': model.parameter('pos_emb.weight'))" : '';
        throw new Error(`positionalTable: kind must be ${Object.keys(POSITIONAL_KEYS).join(', ')}, got ${describe(kind)}${hint}`);
      }
      refuseSymbolKeys(options, 'positionalTable', ['kind', ...keys]);
      for (const key of Object.keys(options)) {
        if (key !== 'kind' && !keys.includes(key)) throw new Error(`unknown positionalTable key '${key}' for kind '${kind}'; allowed: kind, ${keys.join(', ')}`);
      }
      const maxLen = ownValue(options, 'maxLen'), base = ownValue(options, 'base') ?? 10000;
      const size = ownValue(options, kind === 'alibi' ? 'heads' : 'dim');
      for (const [key, value] of [['maxLen', maxLen], [kind === 'alibi' ? 'heads' : 'dim', size]]) {
        if (!Number.isInteger(value)) throw new Error(`positionalTable: ${key} must be a whole number, got ${describe(value)}`);
      }
      if (typeof base !== 'number' || !Number.isFinite(base)) throw new Error(`positionalTable: base must be a finite number, got ${describe(base)}`);
      return call(module, (m) => m.positionalTable(kind, maxLen, size, base));
    },
    /**
     * Which keys each query may see in attention `kind` of `layer`, by the rule the model masks
     * with ([below](#tpattentionmaskconfig-options--attentionmask)).
     * @param {ModelConfig} config
     * @param {AttentionMaskOptions} options
     * @returns {AttentionMask}
     */
    attentionMask(config, options) {
      const json = configJson(config, 'attentionMask(config, options)');
      if (!isPlainObject(options)) throw new Error(`attentionMask(config, options): options must be a plain object like { kind: 'enc', layer: 0, queries: 3, keyIds: [5, 6, 7], padId: 2 }, got ${describe(options)}`);
      for (const key of Object.keys(options)) if (!MASK_KEYS.includes(key)) throw new Error(`unknown attentionMask option '${wellFormed(key)}'; allowed: ${MASK_KEYS.join(', ')}`);
      const kind = ownValue(options, 'kind'), layer = ownValue(options, 'layer'), queries = ownValue(options, 'queries'), padId = ownValue(options, 'padId') ?? -1;
      if (typeof kind !== 'string') throw new Error(`attentionMask: kind must be 'enc', 'dec' or 'cross', got ${describe(kind)}`);
      for (const [key, value] of [['layer', layer], ['queries', queries], ['padId', padId]]) {
        if (!Number.isInteger(value)) throw new Error(`attentionMask: ${key} must be a whole number, got ${describe(value)}`);
      }
      const keyIds = idsCopy(ownValue(options, 'keyIds'), 'attentionMask: keyIds');
      const k = wellFormed(kind);
      return call(module, (m) => m.attentionMask(json, k, layer, queries, keyIds, padId));
    },
    /**
     * How generation lays out the KV cache of a model with `config` (what the core's
     * `start_decoding()` builds), per decoder layer, for the first `positions` positions
     * ([below](#tpkvlayoutconfig-positions--kvlayerlayout)).
     * @param {ModelConfig} config
     * @param {number} positions
     * @returns {KvLayerLayout[]}
     */
    kvLayout(config, positions) {
      return kvLayoutOf(module, config, positions);
    },
    // Another project's model (docs/API.md "Your own model"): a Hugging Face-style folder of the
    // GPT-2 or Llama family (config.json, model.safetensors, tokenizer.json or vocab.json +
    // merges.txt) or llama2.c's model .bin with its tokenizer.bin. `files`: Files or Blobs (a file
    // or folder picker's), or { name, bytes } / { name, blob } / { name, url } objects. Large
    // files stream into the module's memory in slices, never held twice; each file is limited to
    // the size its config implies (model-files.js).
    /**
     * Another project's model: a GPT-2- or Llama-family Hugging Face folder, or llama2.c's files ([Your own model](#your-own-model)); `{ signal, stallTimeout }`.
     * @param {Iterable<ModelFileInput> | ArrayLike<ModelFileInput>} files
     * @param {ImportOptions} [options]
     * @returns {Promise<Model>}
     */
    async importModel(files, options = {}) {
      const opts = importOptions(options, 'importModel');
      return withImport(module, files, 'importModel', opts, (handle) => own(call(module, () => handle.model()), Model));
    },
    // What importModel(files) would build, from config.json (or a .bin's header) alone:
    // { format, config, parameterCount, memory: { parameters, inference, training }, limits,
    // trainable, reason } — bytes, so a page can say what fits before it reads the weights.
    /**
     * What `importModel` would build and whether it fits, from the config alone.
     * @param {Iterable<ModelFileInput> | ArrayLike<ModelFileInput>} files
     * @param {ImportOptions} [options]
     * @returns {Promise<ModelFilesInfo>}
     */
    async describeModelFiles(files, options = {}) {
      return describeFiles(module, files, 'describeModelFiles', importOptions(options, 'describeModelFiles'));
    },
    // Only the tokenizer of such files (config.json + tokenizer.json or vocab.json + merges.txt,
    // or a tokenizer.bin alone); the weights among `files` are not read.
    /**
     * Only the tokenizer of such files (the weights are not read).
     * @param {Iterable<ModelFileInput> | ArrayLike<ModelFileInput>} files
     * @param {ImportOptions} [options]
     * @returns {Promise<Tokenizer>}
     */
    async importTokenizer(files, options = {}) {
      const opts = importOptions(options, 'importTokenizer');
      return withImport(module, files, 'importTokenizer', opts, (handle) => own(call(module, () => handle.tokenizer()), Tokenizer), { tokenizerOnly: true });
    },
    /**
     * A tokenizer from `tokenizer.save()`'s text.
     * @param {string} saved
     * @returns {Tokenizer}
     */
    loadTokenizer(saved) {
      if (typeof saved !== 'string') throw new Error(`loadTokenizer(saved): saved must be the string tokenizer.save() gave, got ${describe(saved)}`);
      const text = wellFormed(saved);
      return own(call(module, (m) => m.loadTokenizer(text)), Tokenizer);
    },
    /** The SIMD kernels checked against the scalar reference in this runtime (seed 1 unless given). @param {number} [seed] @returns {SelfCheckReport} */
    kernelSelfCheck(seed = 1) {
      if (!Number.isInteger(seed) || seed < 0 || seed > 0xffffffff) throw new Error(`kernelSelfCheck: seed must be a non-negative integer, got ${seed}`);
      return call(module, (m) => m.kernelSelfCheck(seed));
    },
    /** Bytes of WebAssembly memory, and bytes malloc holds now. @returns {HeapStats} */
    heapStats() {
      return call(module, (m) => m.heapStats());
    },
    /** The threads training and generation run on (results are the same at any count). @returns {number} */
    get threads() {
      return call(module, (m) => m.threadInfo()).threads;
    },
    /** From 1 to the count `load({ threads })` prepared; in the single-threaded module only 1 (else `threads = 2 is not available: this build is single-threaded; allowed: 1`). @param {number} n @returns {void} */
    setThreads(n) {
      if (!Number.isInteger(n)) throw new Error(`setThreads(n): n must be a whole number, got ${describe(n)}`);
      call(module, (m) => m.setThreads(n));
    },
  };
  return Object.freeze(api);
}

/** What `load()` resolves to: the factory functions over one wasm instance. @typedef {ReturnType<typeof makeApi>} TransformerPlayground */

let apiPromise = null;
const LOAD_KEYS = ['wasmUrl', 'compiledModule', 'threads'];

// The API over the page's (or process's) one wasm instance. Options: { wasmUrl } to serve the
// .wasm file from elsewhere, { compiledModule } to instantiate one compiled already, { threads }
// (default 1) to load the threaded module and run on that many threads — possible only where
// threadSupport().available (a cross-origin isolated page or its workers), otherwise the promise
// rejects with an Error saying why. Only the first call's options choose the module; a later
// call asking for another one rejects.
/**
 * The API over the page's (or process's) one wasm instance.
 * @param {EngineOptions} [options]
 * @returns {Promise<TransformerPlayground>}
 */
export function load(options = {}) {
  if (!isPlainObject(options)) return Promise.reject(new Error(`load(options): options must be an object, got ${describe(options)}`));
  try {
    refuseSymbolKeys(options, 'load option', LOAD_KEYS);
  } catch (error) {
    return Promise.reject(error);
  }
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
// The option tables (and, for TypeScript, the types generated from them). The API's shapes
// (types.js, JSDoc only) are re-exported by its declarations alone (scripts/api_types.mjs), so
// a page does not fetch a module of comments.
export * from './generated/schema.js';
