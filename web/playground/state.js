// state.js — the playground's whole state as one plain object, its defaults, the presets, and
// the URL-hash round trip (a copied link reproduces the setup). No DOM, no wasm: data only.
//
//   const state = parseHash(location.hash);  location.hash = toHash(state);
//
// state = { lang, task, text, textTokenizer, pairs, seed, model: {overrides}, train: {overrides},
//           input, tokKind, attn: { kind, layer, head, stage }, gen: {...}, prompt, wt }
// `model` and `train` hold only what differs from the task's defaults, so a link stays short and
// "changed from default" is simply "present".
import { MODEL_CONFIG, TRAIN_OPTIONS, GENERATE_OPTIONS } from '../lib/generated/schema.js';

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
  if (f.type === 'real') field.step = 'any';
  if (f.type === 'choice') field.values = [...f.choices];
  if (f.type === 'text') field.pattern = new RegExp(`^[${f.alphabet ?? ''}]{0,${f.maxLength}}$`);
  return Object.freeze(field);
}

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
  };
}

// The request for createTrainingSession().configure().
export function sessionRequest(state) {
  let task = state.task;
  if (task === 'text') task = { text: state.text, tokenizer: state.textTokenizer };
  if (task === 'pairs') task = { pairs: parsePairs(state.pairs) };
  const model = { ...state.model, seed: state.seed };
  // The task's defaults name n_kv_heads explicitly: more heads without a K/V choice stays MHA.
  if (model.nHeads !== undefined && model.nKvHeads === undefined) model.nKvHeads = model.nHeads;
  return { task, model, training: { ...state.train, seed: state.seed } };
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

// ---- URL hash ---------------------------------------------------------------------------------

const SHORT = { model: 'm.', train: 't.', gen: 'g.', attn: 'a.' };

export function toHash(state) {
  const d = defaultState();
  const p = new URLSearchParams();
  for (const k of ['task', 'lang', 'seed', 'input', 'tokKind', 'prompt', 'wt']) if (state[k] !== d[k]) p.set(k, String(state[k]));
  if (state.task === 'text') {
    p.set('text', state.text);
    p.set('textTokenizer', state.textTokenizer);
  }
  if (state.task === 'pairs') p.set('pairs', state.pairs);
  for (const [group, prefix] of Object.entries(SHORT)) {
    for (const [k, v] of Object.entries(state[group] ?? {})) {
      if (group !== 'model' && group !== 'train' && d[group][k] === v) continue;
      p.set(prefix + k, String(v));
    }
  }
  return `#${p.toString()}`;
}

function typed(field, raw) {
  if (!field) return raw;
  if (field.kind === 'int') return Number.isFinite(Number(raw)) ? Math.round(Number(raw)) : undefined;
  if (field.kind === 'float') return Number.isFinite(Number(raw)) ? Number(raw) : undefined;
  if (field.kind === 'bool') return raw === 'true';
  if (field.kind === 'enum') return field.values.includes(raw) ? raw : undefined;
  if (field.kind === 'text') return field.pattern.test(raw) ? raw : undefined;
  return raw;
}

const FIELDS = {
  model: Object.fromEntries(ARCH_FIELDS.map((f) => [f.key, f])),
  train: Object.fromEntries(TRAIN_FIELDS.map((f) => [f.key, f])),
  gen: Object.fromEntries(GEN_FIELDS.map((f) => [f.key, f])),
  attn: { kind: { kind: 'enum', values: ATTN_KINDS }, layer: { kind: 'int' }, head: { kind: 'int' }, stage: { kind: 'enum', values: ATTN_STAGES } },
};

// A state from a hash; unknown keys and bad values are ignored (a hand-edited link still loads).
export function parseHash(hash) {
  const s = defaultState();
  const p = new URLSearchParams(String(hash ?? '').replace(/^#/, ''));
  for (const [k, v] of p) {
    const group = Object.entries(SHORT).find(([, prefix]) => k.startsWith(prefix));
    if (group) {
      const [name, prefix] = group;
      const key = k.slice(prefix.length);
      const field = FIELDS[name][key];
      if (!field) continue;
      const value = typed(field, v);
      if (value !== undefined) s[name][key] = value;
      continue;
    }
    if (k === 'task' && (TASKS.includes(v) || CUSTOM_TASKS.includes(v))) s.task = v;
    else if (k === 'lang' && (v === 'en' || v === 'ko')) s.lang = v;
    else if (k === 'seed' && /^\d+$/.test(v)) s.seed = Number(v);
    else if (k === 'wt' && /^\d+$/.test(v)) s.wt = Number(v);
    else if (k === 'tokKind' && (v === 'model' || TOKENIZER_KINDS.includes(v))) s.tokKind = v;
    else if (k === 'textTokenizer' && TOKENIZER_KINDS.includes(v)) s.textTokenizer = v;
    else if (['input', 'prompt', 'text', 'pairs'].includes(k)) s[k] = v;
  }
  return s;
}

// Shallow-equal for the parts that need a new model.
export function modelKey(state) {
  const req = sessionRequest(state);
  return JSON.stringify(req);
}
