// transformer-playground.d.ts — TypeScript declarations for the public JavaScript API
// (web/lib/transformer-playground.js, the package's entry point). docs/API.md is the reference
// that explains every name declared here; wasm_tests/types/ checks these declarations with tsc.
//
// They need the DOM library (EventTarget, CustomEvent, WebAssembly, URL), which TypeScript
// includes by default; with an explicit "lib", add "DOM" (or "WebWorker" in a worker).

// ---- Allowed values --------------------------------------------------------------------------

/** Which stacks the model has: GPT-like, BERT-like, or the 2017 (T5-like) encoder-decoder. */
export type Arch = 'decoder-only' | 'encoder-only' | 'encoder-decoder';
/** How positions enter the model. `rope` rotates Q and K; `alibi` biases the attention scores. */
export type PositionalEncoding = 'learned' | 'sinusoidal' | 'rope' | 'alibi' | 'none';
/** LayerNorm (gamma, beta) or RMSNorm (gamma only). */
export type Norm = 'layer' | 'rms';
/** Post-norm (the 2017 paper: norm after each residual add) or pre-norm (+ a final norm). */
export type NormPlacement = 'pre' | 'post';
/** The feed-forward block's activation. */
export type FeedForward = 'gelu' | 'relu' | 'swiglu';
/**
 * What the output layer predicts. `lm`: next token (decoder-only, encoder-decoder). Encoder-only:
 * `mlm` (masked tokens), `cls` (a class from the `<CLS>` token), `mean` (a class from the mean of
 * all positions), `token` (a class per token, for tagging).
 */
export type OutputHead = 'lm' | 'mlm' | 'cls' | 'mean' | 'token';
/** Tokenizer kinds: characters, words and punctuation, byte-pair encoding, raw UTF-8 bytes. */
export type TokenizerKind = 'char' | 'word' | 'bpe' | 'byte';
/** Learning-rate schedules (all with a linear warm-up). */
export type Schedule = 'constant' | 'cosine' | 'noam';
/** What a task trains: source → target, a language model, sentence classes, token tags. */
export type TaskKind = 'seq2seq' | 'text' | 'classify' | 'tag';
/** The validation metric a task reports in `metric` (`perplexity`: lower is better). */
export type Metric = 'exact_match' | 'token_accuracy' | 'perplexity' | 'accuracy';
/** Why generation stopped. */
export type StopReason = 'eos' | 'max_new_tokens' | 'max_len';
/** The tasks shipped with the library (see `tp.tasks()`). */
export type BuiltinTaskName =
  | 'qa-toy' | 'copy' | 'reverse' | 'sort' | 'addition' | 'translate' | 'lm-char' | 'lm-bpe' | 'sentiment' | 'tagging';

// ---- Configurations and options --------------------------------------------------------------

/** A complete model configuration, as `model.config` and `task.defaults` return it. */
export interface ModelConfig {
  arch: Arch;
  /** Tokens in the one vocabulary shared by source and target, specials included (4 .. 1,000,000). */
  vocabSize: number;
  /** Width of every token vector (1 .. 4096; a multiple of nHeads). */
  dModel: number;
  /** Attention heads (1 .. dModel, divides dModel). */
  nHeads: number;
  /** Key/value heads: nHeads = MHA, a divisor = GQA, 1 = MQA, 0 = the same as nHeads. */
  nKvHeads: number;
  /** Layers in each stack (1 .. 64). */
  nLayers: number;
  /** Hidden width of the feed-forward block (1 .. 65536). */
  dFF: number;
  /** Longest sequence, in tokens (1 .. 4096). */
  maxLen: number;
  pos: PositionalEncoding;
  norm: Norm;
  normPlacement: NormPlacement;
  /** Added to the variance in the norms (0 < normEps < 1). */
  normEps: number;
  ffn: FeedForward;
  /** Sliding-window width of local layers; 0 = full attention (0 .. maxLen). */
  window: number;
  /** The first globalTokens positions attend, and are attended, everywhere (needs window > 0). */
  globalTokens: number;
  /** Per-layer 'L' (local, windowed) / 'G' (global) pattern, repeated over the layers; '' = all local. */
  layerPattern: string;
  /** Dropout probability in training (0 <= dropout < 1). */
  dropout: number;
  /** The output projection reuses the token embedding (lm and mlm heads only). */
  tieEmbeddings: boolean;
  /** Linear layers in attention and feed-forward blocks have biases. */
  bias: boolean;
  head: OutputHead;
  /** Classes of the cls, mean and token heads (2 .. 4096). */
  nClasses: number;
}

/** `tp.model()`'s argument: any subset of a config (the rest takes defaults) and the init seed. */
export interface ModelOptions extends Partial<ModelConfig> {
  /** Seed of the weight initialisation and dropout masks (a whole number >= 0; default 0). */
  seed?: number;
}

/** `tp.tokenizer()`'s argument. */
export interface TokenizerOptions {
  /** Default 'char'. */
  kind?: TokenizerKind;
  /**
   * bpe: the target size (262 .. 65536, default 512; training may stop earlier). char and word:
   * a cap keeping the most frequent entries (0 = no cap). byte: 0 or 262.
   */
  vocabSize?: number;
  /** word only: fold ASCII A-Z to lower case. Default false. */
  lowercase?: boolean;
  /** The text the vocabulary (or BPE merges) is learned from. Default ''. */
  text?: string;
}

/** Training options; every one defaults to the task's value (`task.train`). */
export interface TrainerOptions {
  /** Peak learning rate (0 < lr <= 10; for 'noam', a multiplier on dModel^-0.5). */
  lr?: number;
  /** Sequences per step (1 .. 4096). */
  batchSize?: number;
  /** Linear warm-up steps (>= 0). */
  warmup?: number;
  schedule?: Schedule;
  /** Length of the cosine decay, in steps (>= 1). Default: the task's `train.steps`. */
  totalSteps?: number;
  /** Maximum global gradient norm; 0 turns clipping off. */
  clip?: number;
  /** AdamW decoupled weight decay (0 <= weightDecay < 1). */
  weightDecay?: number;
  /** Cross-entropy label smoothing (0 <= labelSmoothing < 1). */
  labelSmoothing?: number;
  /** Seed of batch order and sampled data. Default 1. */
  seed?: number;
  /**
   * step() evaluates on its first call, then whenever this many steps have passed since the last
   * evaluation (0 = only on the first call and through evaluate()).
   */
  evalEvery?: number;
  /** AdamW moment decay rates, in [0, 1). Defaults 0.9 and 0.98. */
  beta1?: number;
  beta2?: number;
}

/** `model.generate()` options. */
export interface GenerateOptions {
  /** Most tokens to generate (1 .. 4096). Default 32. */
  maxNewTokens?: number;
  /** 0 = greedy (default); otherwise sample from softmax(logits / temperature) (<= 100). */
  temperature?: number;
  /** Sample only from the k most likely tokens; 0 = all (default). */
  topK?: number;
  /** Sample only from the smallest set reaching this probability (0 < topP <= 1; default 1). */
  topP?: number;
  /** Beam width; 1 = no beam search (default), up to 64. Sampling options are then ignored. */
  beam?: number;
  /** Beam scores are log p / length^lengthPenalty (0 .. 10; default 1). */
  lengthPenalty?: number;
  /** Use the key/value cache (default true). The output is the same either way, only slower without. */
  kvCache?: boolean;
  /** Report this many most likely next tokens at every step (0 .. 100; default 0). */
  topKProbs?: number;
  /** Seed of the sampler (default 0): the same seed gives the same sample. */
  seed?: number;
}

/** `model.trace()` options. */
export interface TraceOptions {
  /** The decoder's target text (teacher forcing). Default: the model's own greedy answer. */
  target?: string;
  /** Pad the input with `<PAD>` to this length (up to maxLen) to see the padding mask. Default 0: no padding. */
  padTo?: number;
}

/** Your own sequence-to-sequence data for `tp.task()`. */
export interface PairsTaskSpec {
  pairs: ReadonlyArray<readonly [source: string, target: string]>;
}

/** Your own text for a language-model task for `tp.task()`. */
export interface TextTaskSpec {
  /** At least 16 bytes of text; a tenth is held out for validation. */
  text: string;
  /** Default 'char'. */
  tokenizer?: TokenizerKind | Omit<TokenizerOptions, 'text'>;
}

/** A task name (autocompleted for the built-in ones) or your own data. */
export type TaskSpec = BuiltinTaskName | (string & {}) | PairsTaskSpec | TextTaskSpec;

/** `load()` options; only the first call's options count (later calls share the instance). */
export interface LoadOptions {
  /** Where to fetch the .wasm file from. Default: `wasm/transformer_playground.wasm` beside this module. */
  wasmUrl?: string | URL;
  /** An already compiled module (e.g. from `compiledModule()`), so nothing is fetched or compiled. */
  compiledModule?: WebAssembly.Module;
}

// ---- Results ---------------------------------------------------------------------------------

/** `tok.encode()`'s result. Every array is a fresh copy the caller owns. */
export interface Encoding {
  ids: Int32Array;
  /** Display text of each token: a space shows as '▁', BPE continuations start with '##'. */
  tokens: string[];
  /** [begin, end) pairs in UTF-16 code units of the input string: `text.slice(spans[2i], spans[2i+1])`. */
  spans: Int32Array;
  /** [begin, end) pairs in bytes of the input's UTF-8 encoding. */
  byteSpans: Int32Array;
}

/** Token ids with their display text. */
export interface TokenList {
  ids: Int32Array;
  tokens: string[];
}

/** A tensor copied out of the module (row-major). */
export interface TensorData {
  shape: number[];
  data: Float32Array;
}

export interface ParameterInfo {
  /** e.g. 'enc.0.self_attn.q.weight' (docs/FORMAT.md lists every name). */
  name: string;
  shape: number[];
  /** Number of values (the product of the shape). */
  size: number;
}

/** One candidate next token. */
export interface TokenProbability {
  id: number;
  token: string;
  /** Probability under the model (softmax of the logits). */
  p: number;
  /** Probability under the sampling distribution (temperature, topK, topP applied). */
  pSample: number;
}

export interface GenerateStep {
  id: number;
  token: string;
  /** The topKProbs most likely tokens, most likely first (empty when topKProbs is 0). */
  topk: TokenProbability[];
}

export interface GenerateResult {
  /** The generated text (without the prompt and without <EOS>). */
  text: string;
  /** The generated ids, including the final <EOS> when generation stopped on it. */
  ids: Int32Array;
  /** The ids the model was given as its prompt. */
  promptIds: Int32Array;
  steps: GenerateStep[];
  msPerToken: number;
  stopReason: StopReason;
}

/** Every intermediate of one forward pass, in the order the pass produced them. */
export interface TraceResult {
  /** The encoder's input (or the decoder-only model's input). */
  input: TokenList;
  /** The target tokens the decoder was fed (empty for encoder-only models). */
  output: TokenList;
  /** Encoder-decoder only: <SOS> followed by the target. */
  decoderInput?: TokenList;
  /** Tensor names in forward order, e.g. 'enc.0.self_attn.probs' [heads, T, S]. */
  names: string[];
  tensors: Record<string, TensorData>;
}

export interface LabelProbability {
  /** A class name, or (mlm head) a token's text. */
  label: string;
  id: number;
  p: number;
}

/** `model.predict()` of a cls or mean head: the whole input's classes, most likely first (at most 5). */
export interface ClassPrediction {
  input: TokenList;
  classes: LabelProbability[];
  positions?: never;
}

/** `model.predict()` of a token or mlm head: per input position, the most likely labels (at most 5). */
export interface PositionPrediction {
  input: TokenList;
  positions: LabelProbability[][];
  classes?: never;
}

export type PredictResult = ClassPrediction | PositionPrediction;

/** What `trainer.step()` returns: the last step's numbers and the latest evaluation. */
export interface StepReport {
  /** Optimizer steps taken so far by this trainer. */
  step: number;
  /** Training loss of the last step. */
  loss: number;
  /** Token accuracy of the last training batch. */
  tokenAccuracy: number;
  /** Validation loss of the latest evaluation (see evaluatedAt). */
  valLoss: number;
  /** The task's metric from the latest evaluation. */
  metric: number;
  /** Whether this call ran an evaluation. */
  evaluated: boolean;
  /** The step of the latest evaluation. */
  evaluatedAt: number;
  /** Token positions per second in this call. */
  tokensPerSec: number;
  /** Learning rate of the last step. */
  lr: number;
  /** Global gradient norm of the last step, before clipping. */
  gradNorm: number;
  /** Token positions processed so far (source + target of each padded batch). */
  tokensSeen: number;
}

/** A pass over the validation set. */
export interface Evaluation {
  loss: number;
  perplexity: number;
  tokenAccuracy: number;
  exactMatch: number;
  /** The task's own metric (one of the above). */
  metric: number;
  /** Target tokens (or labels) counted. */
  targets: number;
  /** Sequences counted. */
  sequences: number;
}

export interface ModelInfo {
  /** The task it was trained on ('' before any trainer). */
  task: string;
  taskKind: TaskKind | '';
  /** Its tokenizer, once a trainer or a checkpoint gave it one. */
  tokenizer: { kind: TokenizerKind; vocabSize: number; numSpecials: number } | null;
  classNames: string[];
  parameterCount: number;
}

/** A task's default training options. */
export interface TaskTrainDefaults {
  lr: number;
  batchSize: number;
  warmup: number;
  schedule: Schedule;
  /** Steps a full training run takes. */
  steps: number;
  clip: number;
  weightDecay: number;
  labelSmoothing: number;
  evalEvery: number;
}

/** A task's description, as `tp.tasks()` lists it and a Task object carries it. */
export interface TaskInfo {
  name: string;
  description: string;
  kind: TaskKind;
  metric: Metric;
  /** Where its data comes from. */
  source: string;
  /** A model configuration that fits the task (vocabSize matches its tokenizer). */
  defaults: ModelConfig;
  train: TaskTrainDefaults;
  /** classify and tag tasks: the label names, by id. */
  classNames: string[];
  /** Inputs worth trying. */
  sampleInputs: string[];
  trainSize: number;
  valSize: number;
  /** Whether its examples are generated (copy, reverse, sort, addition). */
  synthetic: boolean;
}

/** A validation example of a task, as text. */
export interface TaskExample {
  input: string;
  /** seq2seq tasks. */
  target?: string;
  /** classify tasks. */
  label?: string;
  /** tag tasks: one tag per word. */
  tags?: string[];
}

export interface HeapStats {
  /** Bytes of WebAssembly memory (grows, never shrinks). */
  heapSize: number;
  /** Bytes malloc holds right now. */
  allocated: number;
}

export interface SelfCheckCase {
  kernel: string;
  error: number;
  tolerance: number;
  pass: boolean;
}

export interface SelfCheckReport {
  pass: boolean;
  /** e.g. 'wasm-simd128'. */
  backend: string;
  simdGflops: number;
  scalarGflops: number;
  cases: SelfCheckCase[];
}

// ---- Objects ---------------------------------------------------------------------------------

/** Tokenizer, Task, Model and Trainer own memory in the wasm module until dispose(). */
export interface WasmObject {
  /** Frees its memory now; later calls do nothing, any other call throws. */
  dispose(): void;
  /** Whether dispose() was called. */
  readonly disposed: boolean;
}

export declare class Tokenizer implements WasmObject {
  private constructor();
  dispose(): void;
  readonly disposed: boolean;
  readonly kind: TokenizerKind;
  /** Tokens, specials included. */
  readonly vocabSize: number;
  /** Specials at ids 0 .. numSpecials-1 (<SOS>, <EOS>, <PAD>, <UNK>, <CLS>, <MASK>). */
  readonly numSpecials: number;
  encode(text: string): Encoding;
  decode(ids: readonly number[] | Int32Array | Uint32Array): string;
  /** Display text of ids 0 .. limit-1 (default: the whole vocabulary). */
  vocabulary(limit?: number): string[];
}

export declare class Task implements TaskInfo, WasmObject {
  private constructor();
  dispose(): void;
  readonly disposed: boolean;
  readonly name: string;
  readonly description: string;
  readonly kind: TaskKind;
  readonly metric: Metric;
  readonly source: string;
  readonly defaults: ModelConfig;
  readonly train: TaskTrainDefaults;
  readonly classNames: string[];
  readonly sampleInputs: string[];
  readonly trainSize: number;
  readonly valSize: number;
  readonly synthetic: boolean;
  /** A new Tokenizer object for the task's vocabulary (dispose it too). */
  tokenizer(): Tokenizer;
  /** Validation example `index` (wrapping around), as text. Default 0. */
  example(index?: number): TaskExample;
}

export declare class Model implements WasmObject {
  private constructor();
  dispose(): void;
  readonly disposed: boolean;
  /** A copy of the full configuration. */
  readonly config: ModelConfig;
  readonly info: ModelInfo;
  parameters(): ParameterInfo[];
  /** The model's tokenizer (from its task or checkpoint) as a new Tokenizer to dispose, or null. */
  tokenizer(): Tokenizer | null;
  /** A copy of one weight tensor. */
  parameter(name: string): TensorData;
  /** Text needs the model's tokenizer (from a trainer or a checkpoint); ids work always. */
  generate(prompt: string | readonly number[] | Int32Array, options?: GenerateOptions): GenerateResult;
  trace(input: string, options?: TraceOptions): TraceResult;
  /** Encoder-only models. */
  predict(input: string): PredictResult;
  /** The model (config, weights, tokenizer, task) as a safetensors file. */
  save(): Uint8Array;
}

export declare class Trainer implements WasmObject {
  private constructor();
  dispose(): void;
  readonly disposed: boolean;
  /** Runs n optimizer steps (1 .. 100000; default 1). */
  step(n?: number): StepReport;
  /** A pass over the validation set now. */
  evaluate(): Evaluation;
  readonly stepCount: number;
  /** Changes the planned total (the cosine schedule's length); weights and optimizer state stay. */
  setTotalSteps(n: number): void;
}

/** What `load()` resolves to: the factory functions over one wasm instance. */
export interface TransformerPlayground {
  /** The package version, e.g. '0.1.0'. */
  readonly version: string;
  /** The built-in tasks' names, descriptions and kinds, without building them (cheap). */
  taskList(): Array<{ name: BuiltinTaskName; description: string; kind: TaskKind }>;
  /** The built-in tasks (fresh copies). Builds every task once (BPE training included). */
  tasks(): TaskInfo[];
  task(spec: TaskSpec): Task;
  tokenizer(options: TokenizerOptions): Tokenizer;
  model(config: ModelOptions): Model;
  /** Also gives the model the task's tokenizer, so generate() and trace() accept text. */
  trainer(model: Model, task: Task, options?: TrainerOptions): Trainer;
  loadModel(bytes: Uint8Array | ArrayBuffer): Model;
  /** The SIMD kernels against the scalar reference in this runtime. */
  kernelSelfCheck(seed?: number): SelfCheckReport;
  heapStats(): HeapStats;
}

/** Resolves with the API over the page's (or process's) one wasm instance. */
export declare function load(options?: LoadOptions): Promise<TransformerPlayground>;

/** How many times this realm compiled and instantiated the wasm module. */
export declare function engineStats(): { compilations: number; instantiations: number };

/** The page's compiled WebAssembly.Module (fetched and compiled once), to share with workers. */
export declare function compiledModule(options?: LoadOptions): Promise<WebAssembly.Module>;

// ---- Training in a Web Worker ----------------------------------------------------------------

/** A training-history point: [step, loss, valLoss (when evaluated), metric (when evaluated)]. */
export type HistoryPoint = [step: number, loss: number, valLoss: number | null, metric: number | null];

export interface SessionConfig {
  task: TaskSpec;
  /** Config overrides over the task's defaults, and the seed. Ignored with a checkpoint. */
  model?: ModelOptions;
  /** Trainer options; totalSteps also sets where start() stops (default: the task's train.steps). */
  training?: TrainerOptions;
  /** Start from this saved model instead of a new one. */
  checkpoint?: Uint8Array | ArrayBuffer;
}

export interface SessionConfigured {
  task: Pick<TaskInfo, 'name' | 'description' | 'kind' | 'metric' | 'classNames' | 'sampleInputs'>;
  config: ModelConfig;
  info: ModelInfo;
  totalSteps: number;
}

export interface SessionState {
  running: boolean;
  step: number;
  totalSteps: number;
  config?: ModelConfig | null;
}

export interface SnapshotOptions {
  input: string;
  target?: string;
  /** Only tensors whose names start with one of these prefixes. */
  names?: string[];
  /** Pad the input with `<PAD>` to this length (see TraceOptions). */
  padTo?: number;
}

export interface Snapshot extends TraceResult {
  /** The training step the snapshot was taken at. */
  step: number;
}

export interface ProgressDetail extends StepReport {
  running: boolean;
  totalSteps: number;
  /** The history points since the previous event. */
  history: HistoryPoint[];
}

export interface StateDetail extends SessionState {
  reason: 'started' | 'paused' | 'finished' | 'error';
  /** reason 'error': the message. */
  error?: string;
  report: StepReport | null;
  history: HistoryPoint[];
}

export interface TrainingSessionEventMap {
  progress: CustomEvent<ProgressDetail>;
  state: CustomEvent<StateDetail>;
  error: CustomEvent<Error>;
}

export interface TrainingSessionOptions {
  /** Least time between progress events, in ms. Default 100. */
  progressInterval?: number;
  wasmUrl?: string | URL;
  workerUrl?: string | URL;
  compiledModule?: WebAssembly.Module;
}

/** Training in a Web Worker; the page's thread only sends requests and receives events. */
export declare class TrainingSession extends EventTarget {
  private constructor();
  /** The latest known state (updated by events and answers). */
  readonly state: SessionState;
  /** Every history point received since the last configure() or reset(). */
  readonly history: HistoryPoint[];
  /** The latest step report, or null before the first step. */
  readonly report: StepReport | null;
  configure(config: SessionConfig): Promise<SessionConfigured>;
  /** Trains until totalSteps or pause(). */
  start(): Promise<SessionState>;
  pause(): Promise<SessionState>;
  /** Pauses, then runs n steps (default 1). */
  step(n?: number): Promise<StepReport>;
  /** A fresh model from the last configure() (or its checkpoint again), step 0. */
  reset(): Promise<SessionConfigured>;
  evaluate(): Promise<Evaluation>;
  /** Raises (or lowers) the planned total without rebuilding the model; start() then continues. */
  setTotalSteps(n: number): Promise<SessionState>;
  /** The trace of one input (attention maps and more); its buffers are transferred. */
  snapshot(options: SnapshotOptions): Promise<Snapshot>;
  generate(prompt: string | readonly number[] | Int32Array, options?: GenerateOptions): Promise<GenerateResult>;
  predict(input: string): Promise<PredictResult>;
  save(): Promise<Uint8Array>;
  parameter(name: string): Promise<TensorData>;
  /** Stops the worker; pending requests reject. */
  dispose(): void;

  addEventListener<K extends keyof TrainingSessionEventMap>(
    type: K, listener: (this: TrainingSession, event: TrainingSessionEventMap[K]) => unknown,
    options?: boolean | AddEventListenerOptions): void;
  addEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | AddEventListenerOptions): void;
  removeEventListener<K extends keyof TrainingSessionEventMap>(
    type: K, listener: (this: TrainingSession, event: TrainingSessionEventMap[K]) => unknown,
    options?: boolean | EventListenerOptions): void;
  removeEventListener(type: string, listener: EventListenerOrEventListenerObject | null,
    options?: boolean | EventListenerOptions): void;
}

/** Starts a training worker that shares the page's compiled wasm module. */
export declare function createTrainingSession(options?: TrainingSessionOptions): Promise<TrainingSession>;
