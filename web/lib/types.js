// types.js — the shapes the public API takes and returns, as JSDoc types: the one description
// of the JavaScript surface, with the code that makes these objects beside it. `npm run
// generate` emits the TypeScript declarations from them with `tsc --declaration
// --emitDeclarationOnly` (web/lib/*.d.ts, checked fresh by wasm_tests/generated.test.mjs) and
// writes docs/API.md's reference tables from those declarations. The options' and reports'
// fields and the unions the C++ tables know are generated into ./generated/schema.js.
// This module exports nothing at run time.

/**
 * @import { ModelConfig, TrainOptions, TaskKind, Metric, StopReason, TokenizerKind, TokenizerSettings, BuiltinTaskName } from './generated/schema.js'
 * @import { Tokenizer } from './transformer-playground.js'
 */

// ---- Arguments -------------------------------------------------------------------------------

/**
 * `tp.model()`'s argument: any subset of a config (the rest takes defaults) and the init seed.
 * @typedef {Partial<ModelConfig> & { seed?: number }} ModelOptions
 */

/**
 * `tp.tokenizer()`'s argument: how it is built, and the text the vocabulary (or BPE merges) is
 * learned from (default '').
 * @typedef {TokenizerSettings & { text?: string }} TokenizerOptions
 */

/**
 * Training options for `tp.trainer()`; every one defaults to the task's value (`task.train`).
 * @typedef {Partial<TrainOptions>} TrainerOptions
 */

/**
 * `model.trace()` options.
 * @typedef {object} TraceOptions
 * @property {string} [target] The decoder's target text (teacher forcing). Default: the model's own greedy answer.
 * @property {number} [padTo] Pad the input with `<PAD>` to this length (up to maxLen) to see the padding mask. Default 0: no padding.
 */

/**
 * Your own sequence-to-sequence data for `tp.task()`.
 * @typedef {object} PairsTaskSpec
 * @property {ReadonlyArray<readonly [source: string, target: string]>} pairs
 */

/**
 * Your own text for a language-model task for `tp.task()`.
 * @typedef {object} TextTaskSpec
 * @property {string} text At least 16 bytes of text; a tenth is held out for validation.
 * @property {TokenizerKind | Omit<TokenizerOptions, 'text'> | Tokenizer} [tokenizer] Default 'char'. A Tokenizer object (an imported model's) is used as it is.
 */

/**
 * A task name (autocompleted for the built-in ones) or your own data.
 * @typedef {BuiltinTaskName | (string & {}) | PairsTaskSpec | TextTaskSpec} TaskSpec
 */

/**
 * One file of another project's model for `tp.importModel()`: a File or named Blob (a file or
 * folder picker's), or bytes, a Blob or a URL with the file's name ("config.json",
 * "model.safetensors", "tokenizer.json", "vocab.json", "merges.txt", "model.bin", "tokenizer.bin").
 * @typedef {File | { name: string, bytes: Uint8Array | ArrayBuffer } | { name: string, blob: Blob } | { name: string, url: string }} ModelFileInput
 */

/**
 * Options of `tp.importModel()`, `tp.importTokenizer()` and `tp.describeModelFiles()`: an
 * AbortSignal that aborts the import (the promise rejects with an Error named 'AbortError' and
 * the downloads stop), and the milliseconds a download may send nothing, before or after its
 * headers, before it is given up (default 30000; Infinity waits for ever).
 * @typedef {object} ImportOptions
 * @property {AbortSignal} [signal]
 * @property {number} [stallTimeout]
 */

/**
 * Token ids as every call takes them: a plain array, an Int32Array or a Uint32Array.
 * @typedef {readonly number[] | Int32Array | Uint32Array} TokenIds
 */

/**
 * `load()` options; only the first call's options count (later calls share the instance).
 * @typedef {object} EngineOptions
 * @property {string | URL} [wasmUrl] Where to fetch the .wasm file from. Default: `wasm/transformer_playground.wasm` beside this module.
 * @property {WebAssembly.Module} [compiledModule] An already compiled module (e.g. from `compiledModule()`), so nothing is fetched or compiled.
 * @property {number} [threads] Threads to run on, 1 to 64 (default 1). Above 1 loads the threaded module, which needs a cross-origin isolated page or worker (see `threadSupport()`); elsewhere load() rejects with an Error saying why. Results are the same at any count, bit for bit.
 */

/**
 * What `positionalTable()` builds: the core's own tables, for any size (rope: `dim` is the head
 * size, even: RoPE rotates pairs of dimensions).
 * @typedef {{ kind: 'sinusoidal', maxLen: number, dim: number, base?: number } | { kind: 'rope', maxLen: number, dim: number, base?: number } | { kind: 'alibi', maxLen: number, heads: number }} PositionalTableOptions
 */

/**
 * `tp.attentionMask()`'s options: the attention (`'enc'`, `'dec'` or `'cross'`) and layer, the
 * queries (at positions 0 …) and the ids of the keys, those equal to `padId` masked (-1 or left
 * out: none).
 * @typedef {object} AttentionMaskOptions
 * @property {'enc' | 'dec' | 'cross'} kind
 * @property {number} layer
 * @property {number} queries
 * @property {TokenIds} keyIds
 * @property {number} [padId]
 */

/**
 * Tokenizer, Task, Model and Trainer own memory in the wasm module until dispose(); each is
 * Disposable, so `using model = tp.model(...)` frees it at the end of the block.
 * @typedef {{ dispose(): void, readonly disposed: boolean, [Symbol.dispose](): void }} WasmObject
 */

// ---- Results ---------------------------------------------------------------------------------

/**
 * Whether this realm can run the threaded module, and why not.
 * @typedef {object} ThreadSupport
 * @property {boolean} available
 * @property {'node' | 'not-isolated' | 'no-shared-memory' | 'failed' | null} reason Why not: Node runs the single-threaded module; the page is not cross-origin isolated; no SharedArrayBuffer; or (a session's, when every core was the default) the threaded module failed to start here, with `error` saying how.
 * @property {string} [error] reason 'failed': the threaded session's start-up error.
 * @property {number} cores The machine's cores (navigator.hardwareConcurrency, at most 64; 1 in Node).
 */

/**
 * `tok.encode()`'s result. Every array is a fresh copy the caller owns.
 * @typedef {object} Encoding
 * @property {Int32Array} ids One id per token.
 * @property {string[]} tokens Display text per token. A space shows as `▁`, newline and tab as `\n` and `\t`, a byte that is not a whole character as `<0xNN>`, and a BPE continuation piece as `##piece`.
 * @property {Int32Array} spans `2 × ids.length` numbers: token `i` covers `text.slice(spans[2i], spans[2i+1])`, in UTF-16 code units of the string you passed. A token that is part of a character (a byte token, or a BPE piece that splits a character) spans that whole character.
 * @property {Int32Array} byteSpans The same, in bytes of the text's UTF-8 encoding.
 */

/**
 * The ids of a tokenizer's special tokens (null: it has none of that kind): <SOS> starts a
 * decoder's input, <EOS> ends an output, <PAD> fills batches (masked as a key), <UNK> is text
 * the vocabulary lacks, <CLS> the position a sentence classifier reads, <MASK> a hidden token.
 * @typedef {{ readonly sos: number | null, readonly eos: number | null, readonly pad: number | null, readonly unk: number | null, readonly cls: number | null, readonly mask: number | null }} SpecialTokens
 */

/**
 * Token ids with their display text.
 * @typedef {object} TokenList
 * @property {Int32Array} ids
 * @property {string[]} tokens
 */

/**
 * A tensor copied out of the module (row-major).
 * @typedef {object} TensorData
 * @property {number[]} shape
 * @property {Float32Array} data
 */

/**
 * @typedef {object} ParameterInfo
 * @property {string} name e.g. 'enc.0.self_attn.q.weight' (docs/FORMAT.md lists every name).
 * @property {number[]} shape
 * @property {number} size Number of values (the product of the shape).
 */

/**
 * One candidate next token.
 * @typedef {object} TokenProbability
 * @property {number} id
 * @property {string} token
 * @property {number} p Probability under the model (softmax of the logits).
 * @property {number} pSample Probability under the sampling distribution (temperature, topK, topP applied).
 */

/**
 * @typedef {object} GenerateStep
 * @property {number} id
 * @property {string} token
 * @property {string} text What this token adds to `text`, as a streaming decoder shows it: a character whose bytes span several tokens comes whole with the last of them (`''` before), and bytes that never form a character are U+FFFD. The steps' texts joined are `text`.
 * @property {TokenProbability[]} topk The topKProbs most likely tokens, most likely first (empty when topKProbs is 0).
 */

/**
 * @typedef {object} GenerateResult
 * @property {string} text The generated text, without the prompt and without `<EOS>` (empty when the model has no tokenizer). Always well-formed: bytes that form no character (byte tokens that stop mid-character) are U+FFFD, as `TextDecoder` gives them.
 * @property {Int32Array} ids The generated ids, ending with the tokenizer's `<EOS>` when generation stopped on it.
 * @property {Int32Array} promptIds The ids the model read: the prompt, and `<SOS>` after a sequence-to-sequence source on a decoder-only model.
 * @property {GenerateStep[]} steps One entry per generated token. `text`: what the token adds to `text`, as a streaming decoder shows it (joined, the steps' texts are `text`). `topk`: the `topKProbs` most likely tokens, most likely first. `p` is the model's probability; `pSample` is the probability under the sampling rule (temperature, topK, topP). Input-only specials (`<SOS>`, `<PAD>`, and `<CLS>`, `<MASK>` when the tokenizer has them) are never generated: their `pSample` is 0.
 * @property {number} msPerToken Wall time per generated token.
 * @property {StopReason} stopReason At `<EOS>`, after `maxNewTokens`, or at the model's `maxLen`.
 */

/**
 * Every intermediate of one forward pass, in the order the pass produced them.
 * @typedef {object} TraceResult
 * @property {TokenList} input The encoder's input (or the decoder-only model's input).
 * @property {TokenList} output The target tokens the decoder was fed (empty for encoder-only models).
 * @property {TokenList} [decoderInput] Encoder-decoder only: <SOS> followed by the target.
 * @property {string[]} names Tensor names in forward order, e.g. 'enc.0.self_attn.probs' [heads, T, S].
 * @property {Record<string, TensorData>} tensors
 */

/**
 * @typedef {object} LabelProbability
 * @property {string} label A class name, or (mlm head) a token's text.
 * @property {number} id
 * @property {number} p
 */

/**
 * `model.predict()` of a cls or mean head: the whole input's classes, most likely first (at most 5).
 * @typedef {{ input: TokenList, classes: LabelProbability[], positions?: never }} ClassPrediction
 */

/**
 * `model.predict()` of a token or mlm head: per input position, the most likely labels (at most 5).
 * @typedef {{ input: TokenList, positions: LabelProbability[][], classes?: never }} PositionPrediction
 */

/** @typedef {ClassPrediction | PositionPrediction} PredictResult */

/**
 * @typedef {object} ModelInfo
 * @property {string} task The task it was trained on ('' before any trainer).
 * @property {TaskKind | ''} taskKind
 * @property {{ kind: TokenizerKind, vocabSize: number, numSpecials: number } | null} tokenizer Its tokenizer, once a trainer or a checkpoint gave it one.
 * @property {string[]} classNames
 * @property {number} parameterCount
 */

/**
 * A task's description, as `tp.tasks()` lists it and a Task object carries it.
 * @typedef {object} TaskInfo
 * @property {string} name
 * @property {string} description
 * @property {TaskKind} kind
 * @property {Metric} metric
 * @property {string} source Where its data comes from.
 * @property {ModelConfig} defaults A model configuration that fits the task (vocabSize matches its tokenizer).
 * @property {TrainOptions} train The training options that suit the task.
 * @property {string[]} classNames classify and tag tasks: the label names, by id.
 * @property {string[]} sampleInputs Inputs worth trying.
 * @property {number} trainSize
 * @property {number} valSize
 * @property {boolean} synthetic Whether its examples are generated (copy, reverse, sort, addition).
 */

/**
 * A validation example of a task, as text (target: seq2seq; label: classify; tags: tag, one per word).
 * @typedef {object} TaskExample
 * @property {string} input
 * @property {string} [target]
 * @property {string} [label]
 * @property {string[]} [tags]
 */

/**
 * @typedef {object} HeapStats
 * @property {number} heapSize Bytes of WebAssembly memory (grows, never shrinks).
 * @property {number} allocated Bytes malloc holds right now.
 */

/**
 * @typedef {object} SelfCheckCase
 * @property {string} kernel
 * @property {number} error
 * @property {number} tolerance
 * @property {boolean} pass
 */

/**
 * @typedef {object} SelfCheckReport
 * @property {boolean} pass
 * @property {string} backend e.g. 'wasm-simd128'.
 * @property {number} simdGflops
 * @property {number} scalarGflops
 * @property {SelfCheckCase[]} cases
 */

/**
 * P[t, 2i] = sin(t / base^(2i/dim)), P[t, 2i+1] = cos(…): the rows a sinusoidal model adds
 * (shape [maxLen, dim]).
 * @typedef {{ kind: 'sinusoidal', shape: [number, number], data: Float32Array }} SinusoidalTable
 */

/**
 * cos and sin of t·θᵢ, θᵢ = base^(−2i/dim), that rotate the pair (2i, 2i+1) at position t
 * (shape [maxLen, dim / 2]).
 * @typedef {{ kind: 'rope', shape: [number, number], cos: Float32Array, sin: Float32Array }} RopeTable
 */

/**
 * The bias −mₕ·|t − u| added to head h's score of query t for key u, mₕ = 2^(−8(h+1)/H) (shape
 * [heads, maxLen, maxLen]).
 * @typedef {{ kind: 'alibi', shape: [number, number, number], slopes: Float32Array, data: Float32Array }} AlibiTable
 */

/** @typedef {SinusoidalTable | RopeTable | AlibiTable} PositionalTable */

/**
 * Which keys each query may see (`tp.attentionMask()`): `data` [rows × cols] is 0 where a query
 * may attend and -Infinity where it may not; the layer's rule beside it (window and global
 * tokens 0 where the layer is not local).
 * @typedef {object} AttentionMask
 * @property {number} rows
 * @property {number} cols
 * @property {Float32Array} data
 * @property {boolean} causal
 * @property {number} window
 * @property {number} globalTokens
 */

/**
 * One decoder layer's KV cache as generation lays it out (`tp.kvLayout()`): `rows[p]` is the
 * row position p is written to; a windowed layer (local) keeps its global rows, then a ring from
 * `ringStart` whose oldest row the next position overwrites.
 * @typedef {object} KvLayerLayout
 * @property {number} layer
 * @property {boolean} local
 * @property {number} capacity
 * @property {number} ringStart
 * @property {Int32Array} rows
 */

/**
 * What `tp.describeModelFiles()` reads from config.json (or a llama2.c .bin's header): the
 * config it imports as; bytes of the parameters (4 each), a run at maxLen with its KV cache, and
 * training (16 per parameter + activations); the most parameters and training state may take;
 * whether a trainer can train it here (`reason` says why not, empty when it can).
 * @typedef {object} ModelFilesInfo
 * @property {'huggingface' | 'llama2c'} format
 * @property {Required<ModelConfig>} config
 * @property {number} parameterCount
 * @property {{ parameters: number, inference: number, training: number }} memory
 * @property {{ parameters: number, training: number }} limits
 * @property {boolean} trainable
 * @property {string} reason
 */

// ---- Shapes defined beside their code, exported with the API -----------------------------------

/** @typedef {import('./run-record.js').HistoryPoint} HistoryPoint */
/** @typedef {import('./run-record.js').RunSnapshot} RunSnapshot */
/** @typedef {import('./run-record.js').ProbeTrace} ProbeTrace */
/** @typedef {import('./trace-names.js').TraceNameParts} TraceNameParts */
/** @typedef {import('./trace-names.js').ParsedTraceName} ParsedTraceName */

export {};
