// A user's program over the whole public API, type-checked (never run) by api_types.test.mjs with
// `tsc --noEmit -p wasm_tests/types`. It imports the package by its name, as a user would, so the
// package.json "exports" -> "types" wiring is checked too. Every explicit type annotation below
// must agree with web/lib/transformer-playground.d.ts.
import {
  load, engineStats, compiledModule, createTrainingSession, threadSupport,
  Model, Task, Tokenizer, Trainer, TrainingSession, RunRecord, traceName, parseTraceName,
} from 'transformer-playground';
import type {
  Arch, ClassPrediction, Encoding, Evaluation, GenerateOptions, GenerateResult, HeapStats, HistoryPoint, Metric,
  ModelConfig, ModelInfo, ModelOptions, ParameterInfo, PositionalTable, SinusoidalTable, RopeTable, AlibiTable, PredictResult, ProgressDetail, SelfCheckReport, SessionConfigured,
  SessionState, Snapshot, StateDetail, StepReport, StopReason, TaskExample, TaskInfo, TensorData, TokenizerKind,
  ThreadSupport, TraceResult, TrainerOptions, TransformerPlayground, WasmObject, RunSnapshot, ModelFilesInfo, ImportOptions,
} from 'transformer-playground';

const tp: TransformerPlayground = await load();
await load({ wasmUrl: new URL('./transformer_playground.wasm', import.meta.url) });
const version: string = tp.version;
const stats: { compilations: number; instantiations: number } = engineStats();
const compiled: WebAssembly.Module = await compiledModule();
await load({ compiledModule: compiled });
const support: ThreadSupport = threadSupport();
const threadCount: number = tp.threads;
console.log(`${threadCount} thread(s) on ${support.cores} cores`);
if (support.available) await load({ threads: support.cores });
else if (support.reason === 'not-isolated' || support.reason === 'node' || support.reason === 'no-shared-memory') tp.setThreads(1);

// Tasks
const infos: TaskInfo[] = tp.tasks();
const qaInfo = infos.find((t) => t.name === 'qa-toy');
if (!qaInfo) throw new Error('no qa-toy');
const metric: Metric = qaInfo.metric;
const defaults: ModelConfig = qaInfo.defaults;
const steps: number = qaInfo.train.totalSteps;
const task: Task = tp.task('qa-toy');
const custom: Task = tp.task('my-own-name-is-a-string-too');
const pairs: Task = tp.task({ pairs: [['how are you', 'i am fine'], ['one', 'uno']] });
const text: Task = tp.task({ text: 'some text to learn from', tokenizer: 'bpe' });
const text2: Task = tp.task({ text: 'some text to learn from', tokenizer: { kind: 'word', lowercase: true } });
const example: TaskExample = task.example(0);
const target: string | undefined = example.target;
const tags: string[] | undefined = task.example().tags;
const names: string[] = [task.name, task.description, task.source, ...task.classNames, ...task.sampleInputs];
const sizes: number = task.trainSize + task.valSize + (task.synthetic ? 1 : 0);
if (task.kind === 'seq2seq' || task.kind === 'text' || task.kind === 'classify' || task.kind === 'tag') {
  // the four kinds
}

// Tokenizers
const kind: TokenizerKind = 'bpe';
const tok: Tokenizer = tp.tokenizer({ kind, vocabSize: 300, text: 'the cat sat on the mat' });
const charTok: Tokenizer = tp.tokenizer({ text: 'abc' });
tp.tokenizer({ kind: 'word', lowercase: true, text: 'Hello world' });
const enc: Encoding = tok.encode('the cat');
const ids: Int32Array = enc.ids;
const spans: Int32Array = enc.spans;
const first: string = 'the cat'.slice(spans[0], spans[1]);
const tokens: string[] = enc.tokens;
const roundTrip: string = tok.decode(enc.ids) + tok.decode([1, 2, 3]) + tok.decode(new Uint32Array([4]));
const vocab: string[] = tok.vocabulary(10).concat(charTok.vocabulary());
const again: Tokenizer = tp.loadTokenizer(tok.save());
const importing = new AbortController();
const importOptions: ImportOptions = { signal: importing.signal };
const imported: Model = await tp.importModel([{ name: 'config.json', url: 'https://example.org/gpt2/config.json' }], { signal: importing.signal, stallTimeout: 5000 });
const importedTok: Tokenizer = await tp.importTokenizer([{ name: 'tokenizer.bin', bytes: new Uint8Array(8) }], { stallTimeout: Infinity });
const tokInfo: [TokenizerKind, number, number] = [tok.kind, tok.vocabSize, tok.numSpecials];

// Models
const config: ModelOptions = { ...defaults, seed: 1 };
const model: Model = tp.model(config);
const arch: Arch = 'decoder-only';
const gpt: Model = tp.model({ arch, pos: 'rope', norm: 'rms', normPlacement: 'pre', ffn: 'swiglu', nKvHeads: 1,
  window: 4, globalTokens: 1, layerPattern: 'LG', tieEmbeddings: true, bias: false, head: 'lm', dropout: 0.1 });
const bert: Model = tp.model({ arch: 'encoder-only', head: 'cls', nClasses: 3, pos: 'alibi', norm: 'layer' });
const cfg: ModelConfig = model.config;
const dModel: number = cfg.dModel;
const info: ModelInfo = model.info;
const count: number = info.parameterCount + (info.tokenizer?.vocabSize ?? 0);
const params: ParameterInfo[] = model.parameters();
const weight: TensorData = model.parameter('tok_emb.weight');
const values: Float32Array = weight.data;
const shape: number[] = weight.shape;

// Training
const trainOptions: TrainerOptions = { lr: 0.01, batchSize: 2, warmup: 10, schedule: 'cosine', totalSteps: 600, clip: 1,
  weightDecay: 0, labelSmoothing: 0.1, seed: 1, evalEvery: 50, beta1: 0.9, beta2: 0.98 };
const trainer: Trainer = tp.trainer(model, task, trainOptions);
tp.trainer(gpt, text);
const report: StepReport = trainer.step(600);
const one: StepReport = trainer.step();
const numbers: number[] = [report.step, report.loss, report.valLoss, report.metric, report.tokensPerSec, report.lr,
  report.gradNorm, report.tokenAccuracy, report.evaluatedAt, report.tokensSeen, one.step];
const evaluated: boolean = report.evaluated;
const evaluation: Evaluation = trainer.evaluate();
const stepCount: number = trainer.stepCount + evaluation.exactMatch + evaluation.perplexity;

// Generation, trace, predictions
const genOptions: GenerateOptions = { maxNewTokens: 8, temperature: 0.8, topK: 5, topP: 0.9, beam: 1, lengthPenalty: 1,
  kvCache: true, topKProbs: 3, seed: 7 };
const out: GenerateResult = model.generate('how are you', genOptions);
model.generate([5, 8, 9]);
model.generate(new Int32Array([5, 8, 9]), { beam: 3 });
const answer: string = out.text;
const stop: StopReason = out.stopReason;
const ms: number = out.msPerToken;
for (const s of out.steps) {
  const best = s.topk[0];
  if (best) console.log(s.id, s.token, best.id, best.token, best.p.toFixed(3), best.pSample);
}
const genIds: Int32Array = out.ids;
const promptIds: Int32Array = out.promptIds;
const trace: TraceResult = model.trace('how are you', { target: 'i am fine' });
model.trace('how are you');
const probs: TensorData | undefined = trace.tensors['enc.0.self_attn.probs'];
const traceNames: string[] = trace.names;
const decoderTokens: string[] | undefined = trace.decoderInput?.tokens;
const inputIds: Int32Array = trace.input.ids;
const predicted: PredictResult = bert.predict('this teddy bear is so cute');
if (predicted.classes) {
  const cls: ClassPrediction = predicted;
  console.log(cls.classes[0]?.label, cls.classes[0]?.p);
} else {
  console.log(predicted.positions.map((row) => row[0]?.label));
}

// Checkpoints
const bytes: Uint8Array = model.save();
const loaded: Model = tp.loadModel(bytes);
const loaded2: Model = tp.loadModel(bytes.buffer as ArrayBuffer);

// Memory
const heap: HeapStats = tp.heapStats();
const self: SelfCheckReport = tp.kernelSelfCheck(1);

// Position tables from the core
const sin: SinusoidalTable = tp.positionalTable({ kind: 'sinusoidal', maxLen: 16, dim: 8 });
const sinRow: Float32Array = sin.data.subarray(0, sin.shape[1]);
const rot: RopeTable = tp.positionalTable({ kind: 'rope', maxLen: 16, dim: 4, base: 500 });
const angle: number = Math.atan2(rot.sin[rot.shape[1]] ?? 0, rot.cos[rot.shape[1]] ?? 1);
const alibi: AlibiTable = tp.positionalTable({ kind: 'alibi', maxLen: 8, heads: 4 });
const slope: number = (alibi.slopes[0] ?? 0) + (alibi.data[alibi.shape[2]] ?? 0);
const anyTable: PositionalTable = tp.positionalTable({ kind: 'sinusoidal', maxLen: 2, dim: 2 });
const all: WasmObject[] = [trainer, model, task, tok, loaded, loaded2, gpt, bert, custom, pairs, text, text2, charTok];
for (const o of all) o.dispose();
const gone: boolean = model.disposed;
const isModel: boolean = loaded instanceof Model && task instanceof Task && tok instanceof Tokenizer && trainer instanceof Trainer;

// A training session in a Web Worker
const session: TrainingSession = await createTrainingSession({ progressInterval: 200, threads: 1 });
const sessionThreads: number = session.threads;
const sessionSupport: ThreadSupport = session.threadSupport;
const savedTokenizer: string = await session.importTokenizer([{ name: 'tokenizer.bin', bytes: new Uint8Array(8) }], { signal: importing.signal });
const filesInfo: ModelFilesInfo = await session.describeModelFiles([{ name: 'config.json', url: 'https://example.org/config.json' }]);
const workerStats: { snapshots: number; bytes: number; heap: HeapStats } = await session.stats();
const cut: number | undefined = session.run?.snapshots[0]?.probes.main?.shortened?.tokens;
if (sessionThreads === 1 && !sessionSupport.available) console.log(sessionSupport.reason);
const configured: SessionConfigured = await session.configure({
  task: 'qa-toy', model: { seed: 1 }, training: { seed: 1, totalSteps: 600 },
});
await session.configure({ task: { pairs: [['a', 'b']] }, checkpoint: bytes });
session.addEventListener('progress', (event) => {
  const detail: ProgressDetail = event.detail;
  const points: HistoryPoint[] = detail.history;
  const last = points[points.length - 1];
  if (last) console.log(last[0], last[1], last[2] ?? 'not evaluated', detail.loss, detail.running);
});
session.addEventListener('state', (event) => {
  const detail: StateDetail = event.detail;
  if (detail.reason === 'finished' || detail.reason === 'error') console.log(detail.step, detail.error);
});
session.addEventListener('error', (event) => console.error(event.detail.message));
const started: SessionState = await session.start();
const paused: SessionState = await session.pause();
const stepped: StepReport = await session.step(10);
const reset: SessionConfigured = await session.reset();
const sessionEval: Evaluation = await session.evaluate();
const snap: Snapshot = await session.snapshot({ input: 'how are you', names: ['enc.0.self_attn.probs'] });
const sessionAnswer: GenerateResult = await session.generate('how are you', { maxNewTokens: 8 });
const sessionPredict: PredictResult = await session.predict('so cute');
const saved: Uint8Array = await session.save();
const sessionParam: TensorData = await session.parameter('tok_emb.weight');
const history: HistoryPoint[] = session.history;
const latest: StepReport | null = session.report;
const running: boolean = session.state.running;
await session.setPace(25);
await session.setProbes({ probes: [{ key: 'main', input: null }], params: [{ name: 'pos_emb.weight', rows: 16 }] });
session.addEventListener('snapshot', (event) => console.log(event.detail.snapshots.length));
const run: RunRecord | null = session.run;
const shownAt: RunSnapshot | null = run?.snapshotAt(10) ?? null;
const probsName: string = traceName('{stack}.{layer}.{attn}.probs', { stack: 'dec', layer: 0, attn: 'cross_attn' });
const parsedLayer: number | undefined = parseTraceName(probsName)?.layer;
const kept: RunRecord = RunRecord.from(run?.toJSON({ snapshots: 8 }) ?? {});
session.dispose();

export const used = [version, stats, steps, target, tags, names, sizes, ids, first, tokens, roundTrip, vocab, tokInfo, dModel,
  count, params, values, shape, numbers, evaluated, stepCount, answer, stop, ms, genIds, promptIds, probs, traceNames,
  decoderTokens, inputIds, heap, self, gone, isModel, configured, started, paused, stepped, reset, sessionEval, snap,
  sessionAnswer, sessionPredict, saved, sessionParam, history, latest, running, shownAt, parsedLayer, kept, metric, cfg, sinRow, angle, slope, anyTable,
  again, importOptions, imported, importedTok, savedTokenizer, filesInfo, workerStats, cut];
