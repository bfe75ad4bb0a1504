// state.js — the playground's whole state as one plain object, its defaults, the controls of
// its options (from the core's tables) and the presets. The URL-hash round trip is hash.js's.
// No DOM, no wasm: data only.
//
// state = { lang, task, text, textTokenizer, pairs, seed, model: {overrides}, train: {overrides},
//           input, tokKind, attn: { kind, layer, head, stage }, gen: {...}, prompt, wt, pace, stop, runs,
//           label }
// `model` and `train` hold only what differs from the task's defaults, so a link stays short and
// "changed from default" is simply "present".
import { MODEL_CONFIG, TRAIN_OPTIONS, GENERATE_OPTIONS } from '../lib/generated/schema.js';
import { t } from './strings/index.js';

// The built-in tasks (src/tasks/builtin_tasks.cpp), in menu order, plus the user's own data.
export const TASKS = ['qa-toy', 'copy', 'reverse', 'sort', 'addition', 'translate', 'lm-char', 'lm-bpe', 'sentiment', 'tagging'];
export const CUSTOM_TASKS = ['text', 'pairs'];

// A control for option `key` of a C++ table (lib/generated/schema.js): its kind, range, choices
// and pattern come from the one description the core validates against, so a value the control
// accepts is one the core accepts. `symbol` is its name in the math, a fact of this page.
const KINDS = { int: 'int', real: 'float', bool: 'bool', choice: 'enum', text: 'text' };
function control(table, key, symbol) {
  const f = table.find((x) => x.js === key);
  if (!f) throw new Error(`state.js: no option '${key}' in the core's table`);
  const field = { key, kind: KINDS[f.type], doc: f.doc };
  if (symbol) field.symbol = symbol;
  if (f.type === 'int' || f.type === 'real') Object.assign(field, { min: f.min, max: f.max });
  // A real's ends may be open (lr > 0, dropout < 1): the core refuses the end itself.
  if (f.type === 'real') Object.assign(field, { step: 'any', minOpen: Boolean(f.minOpen), maxOpen: Boolean(f.maxOpen) });
  if (f.type === 'choice') field.values = [...f.choices];
  if (f.type === 'text') field.pattern = new RegExp(`^[${f.alphabet ?? ''}]{0,${f.maxLength}}$`);
  return Object.freeze(field);
}

// Whether number `v` is within a control's range, its open ends excluded, as the core checks it.
export function inRange(field, v) {
  const above = field.min === undefined || (field.minOpen ? v > field.min : v >= field.min);
  const below = field.max === undefined || (field.maxOpen ? v < field.max : v <= field.max);
  return above && below;
}

// Which of the four kinds of range a control has: both ends in ('closed'), the low end out
// ('minOpen'), the high end out ('maxOpen'), or both out ('open'); the words for each are the
// page's strings (range.*).
export const RANGE_KINDS = ['closed', 'minOpen', 'maxOpen', 'open'];
export const rangeKind = (field) => RANGE_KINDS[(field.minOpen ? 1 : 0) + (field.maxOpen ? 2 : 0)];

// The range in English words (the page's strings), for what does not speak the page's
// language (a link's problems, a box given no words of its own).
const ENGLISH = 'en';
export const englishRange = (field) => t(ENGLISH, `range.${rangeKind(field)}`, { min: field.min ?? '−∞', max: field.max ?? '∞' });

// Every architecture option of the spec (section 2), as controls, in the page's order.
export const ARCH_FIELDS = [
  ['arch'], ['dModel', 'd_model'], ['nHeads', 'h'], ['nKvHeads', 'n_kv'], ['nLayers', 'N'], ['dFF', 'd_ff'],
  ['maxLen', 'max_len'], ['pos'], ['norm'], ['normPlacement'], ['ffn'], ['window', 'w'], ['globalTokens'],
  ['layerPattern'], ['dropout'], ['tieEmbeddings'], ['bias'], ['head'],
].map(([key, symbol]) => control(MODEL_CONFIG, key, symbol));

export const TRAIN_FIELDS = ['lr', 'batchSize', 'totalSteps', 'warmup', 'schedule', 'labelSmoothing', 'weightDecay', 'clip', 'seqLen']
  .map((key) => control(TRAIN_OPTIONS, key));

export const GEN_FIELDS = ['temperature', 'topK', 'topP', 'beam', 'maxNewTokens', 'kvCache'].map((key) => control(GENERATE_OPTIONS, key));
// The core's defaults, but a shorter answer: the page's tasks answer in a few words.
export const GEN_DEFAULTS = { ...Object.fromEntries(GENERATE_OPTIONS.filter((f) => GEN_FIELDS.some((c) => c.key === f.js)).map((f) => [f.js, f.default])), maxNewTokens: 24 };

export const TOKENIZER_KINDS = ['char', 'word', 'bpe', 'byte'];
export const ATTN_KINDS = ['enc', 'dec', 'cross'];
export const ATTN_STAGES = ['probs', 'masked', 'scaled', 'scores'];

export const DEFAULT_TEXT = 'the cat sat on the mat. the dog sat on the log. 고양이가 매트 위에 앉았다. the cat saw the dog.\n';
export const DEFAULT_PAIRS = 'how are you => i am fine\ni am fine => how about yourself\ngood morning => good morning to you';

export function defaultState() {
  return {
    lang: 'en',
    task: 'qa-toy',
    text: DEFAULT_TEXT,
    textTokenizer: 'char',
    pairs: DEFAULT_PAIRS,
    seed: 1,
    model: {},
    train: {},
    input: '',
    tokKind: 'model',
    attn: { kind: 'enc', layer: 0, head: 0, stage: 'probs' },
    gen: { ...GEN_DEFAULTS },
    prompt: '',
    wt: 0,
    pace: null,       // training speed in steps per second (0: as fast as possible); null: the task's default
    stop: true,       // training pauses once where the run has learned its task (stop-rule.js)
    runs: [],         // the kept runs' set-ups (see runs.js); never weights
    label: '',        // the reader's name for the run (cleanLabel's text); '' names it by its set-up
  };
}

// A run's label is a line of plain text (it is only ever set as text, never as markup): control
// characters and runs of spaces become one space, and it holds at most LABEL_LIMIT characters,
// so a link or a file cannot make a name that fills the page.
export const LABEL_LIMIT = 80;
export function cleanLabel(text) {
  return [...String(text ?? '').replace(/[\s\p{Cc}\p{Cf}]+/gu, ' ').trim()].slice(0, LABEL_LIMIT).join('').trim();
}

// The speeds the playground offers, in steps per second (0: as fast as possible). At 2 every
// step is drawn; the small tasks default to a pace a reader can follow (the seed toy's loss falls
// below 0.1 at step ~80 and below 0.01 at step ~150: 15–30 s at 5 steps/s), the large ones to
// full speed.
export const PACES = [2, 5, 10, 20, 50, 100, 0];
export function defaultPace(train) {
  return (train?.totalSteps ?? Infinity) <= 1000 ? 5 : 0;
}

// The request for createTrainingSession().configure().
export function sessionRequest(state) {
  let task = state.task;
  if (task === 'text') task = { text: state.text, tokenizer: state.textTokenizer };
  if (task === 'pairs') task = { pairs: parsePairs(state.pairs) };
  const model = { ...state.model, seed: state.seed };
  // The task's defaults name n_kv_heads explicitly: more heads without a K/V choice stays MHA.
  if (model.nHeads !== undefined && model.nKvHeads === undefined) model.nKvHeads = model.nHeads;
  return { task, model, training: { ...state.train, seed: state.seed }, stopWhenMet: state.stop !== false };
}

// "source => target" (or a tab) per line.
export function parsePairs(text) {
  return String(text).split('\n').map((line) => line.split(/\s*=>\s*|\t/)).filter((p) => p.length >= 2 && p[0].trim() && p[1].trim())
    .map(([a, b]) => [a.trim(), b.trim()]);
}

// ---- presets ----------------------------------------------------------------------------------

// Each preset returns { task?, model } for the current task kind (an encoder-only preset on a
// sequence task moves to a task it can learn). Sizes stay the task's.
export const PRESETS = {
  seed: () => ({ task: 'qa-toy', model: {}, train: {} }),
  gpt: (kind, defaults) => ({
    task: kind === 'classify' || kind === 'tag' ? 'lm-char' : undefined,
    // Decoder-only reads "source <SOS> target" in one sequence: twice the room.
    model: { arch: 'decoder-only', pos: 'learned', norm: 'layer', normPlacement: 'pre', ffn: 'gelu', tieEmbeddings: true, bias: true, head: 'lm', window: 0,
      ...(kind === 'seq2seq' ? { maxLen: 2 * defaults.maxLen } : {}) },
  }),
  bert: (kind) => ({
    task: kind === 'classify' || kind === 'tag' ? undefined : 'sentiment',
    model: { arch: 'encoder-only', pos: 'learned', norm: 'layer', normPlacement: 'post', ffn: 'gelu', bias: true, window: 0 },
  }),
  t5: (kind) => ({
    task: kind === 'seq2seq' ? undefined : 'translate',
    model: { arch: 'encoder-decoder', pos: 'alibi', norm: 'rms', normPlacement: 'pre', ffn: 'relu', bias: false, tieEmbeddings: true, head: 'lm', window: 0 },
  }),
  modern: (kind, defaults) => {
    const heads = Math.max(4, defaults.nHeads);
    let d = defaults.dModel;
    if (d % heads !== 0 || (d / heads) % 2 !== 0) d = Math.ceil(d / (2 * heads)) * 2 * heads;  // RoPE needs an even head size
    return {
      model: { pos: 'rope', norm: 'rms', normPlacement: 'pre', ffn: 'swiglu', nHeads: heads, nKvHeads: heads / 2, dModel: d, bias: false },
    };
  },
};

// Applies preset `name` to the state. `infoOf(task)` gives a task's { kind, defaults }. Returns
// the new state (overrides pruned against the task's defaults).
export function applyPreset(state, name, infoOf) {
  const here = infoOf(state.task);
  let p = PRESETS[name](here.kind, here.defaults);
  const task = p.task ?? state.task;
  const info = task === state.task ? here : infoOf(task);
  if (task !== state.task && name !== 'seed') p = PRESETS[name](info.kind, info.defaults);
  return { ...state, task, model: prune({ ...p.model }, info.defaults), train: p.train ?? (task === state.task ? state.train : {}) };
}

// Drops overrides equal to the defaults.
export function prune(overrides, defaults) {
  const out = {};
  for (const [k, v] of Object.entries(overrides)) {
    if (v === undefined) continue;
    if (k === 'nKvHeads') {
      // The default is "as many as the heads" (MHA), whatever the head count.
      if (v !== (overrides.nHeads ?? defaults?.nHeads)) out[k] = v;
      continue;
    }
    if (defaults && defaults[k] === v) continue;
    out[k] = v;
  }
  return out;
}

// The most your own text or pairs may hold, in characters (about a megabyte: a book). Beyond it
// the set-up panel says so and keeps the data it has; building a vocabulary of this much takes
// about 0.1 s on the page's thread, ten times this hung the page.
export const DATA_LIMIT = 1_000_000;

// A text, pairs, probe input or prompt longer than this, percent-encoded, stays out of the link,
// so a link is a few kB at most; the page says so where the text is edited.
export const URL_TEXT_LIMIT = 2000;

// The state after `patch`. A label names one run: a patch that makes another run (a change the
// model depends on) leaves the label behind, unless it brings one of its own.
export function nextState(state, patch) {
  const next = { ...state, ...patch };
  const own = 'label' in patch && patch.label !== state.label;  // a whole state (a preset's) carries the old one
  return own || !next.label || modelKey(next) === modelKey(state) ? next : { ...next, label: '' };
}

// Shallow-equal for the parts that need a new model.
export function modelKey(state) {
  const req = sessionRequest(state);
  return JSON.stringify(req);
}
