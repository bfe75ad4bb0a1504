// state.js — the playground's whole state as one plain object, its defaults, the presets, and
// the URL-hash round trip (a copied link reproduces the setup). No DOM, no wasm: data only.
//
//   const state = parseHash(location.hash);  location.hash = toHash(state);
//
// state = { lang, task, text, textTokenizer, pairs, seed, model: {overrides}, train: {overrides},
//           input, tokKind, attn: { kind, layer, head, stage }, gen: {...}, prompt, wt }
// `model` and `train` hold only what differs from the task's defaults, so a link stays short and
// "changed from default" is simply "present".

// The built-in tasks (src/tasks/builtin_tasks.cpp), in menu order, plus the user's own data.
export const TASKS = ['qa-toy', 'copy', 'reverse', 'sort', 'addition', 'translate', 'lm-char', 'lm-bpe', 'sentiment', 'tagging'];
export const CUSTOM_TASKS = ['text', 'pairs'];

// Every architecture option of the spec (section 2), as controls (`symbol`: its name in the math).
export const ARCH_FIELDS = [
  { key: 'arch', kind: 'enum', values: ['encoder-decoder', 'encoder-only', 'decoder-only'] },
  { key: 'dModel', symbol: 'd_model', kind: 'int', min: 2, max: 512 },
  { key: 'nHeads', symbol: 'h', kind: 'int', min: 1, max: 16 },
  { key: 'nKvHeads', symbol: 'n_kv', kind: 'int', min: 1, max: 16 },
  { key: 'nLayers', symbol: 'N', kind: 'int', min: 1, max: 8 },
  { key: 'dFF', symbol: 'd_ff', kind: 'int', min: 1, max: 2048 },
  { key: 'maxLen', symbol: 'max_len', kind: 'int', min: 2, max: 512 },
  { key: 'pos', kind: 'enum', values: ['sinusoidal', 'learned', 'rope', 'alibi', 'none'] },
  { key: 'norm', kind: 'enum', values: ['layer', 'rms'] },
  { key: 'normPlacement', kind: 'enum', values: ['post', 'pre'] },
  { key: 'ffn', kind: 'enum', values: ['relu', 'gelu', 'swiglu'] },
  { key: 'window', symbol: 'w', kind: 'int', min: 0, max: 512 },
  { key: 'globalTokens', kind: 'int', min: 0, max: 64 },
  { key: 'layerPattern', kind: 'text', pattern: /^[LG]{0,16}$/ },
  { key: 'dropout', kind: 'float', min: 0, max: 0.9, step: 0.05 },
  { key: 'tieEmbeddings', kind: 'bool' },
  { key: 'bias', kind: 'bool' },
  { key: 'head', kind: 'enum', values: ['lm', 'mlm', 'cls', 'mean', 'token'] },
];

export const TRAIN_FIELDS = [
  { key: 'lr', kind: 'float', min: 1e-5, max: 1, step: 'any' },
  { key: 'batchSize', kind: 'int', min: 1, max: 512 },
  { key: 'totalSteps', kind: 'int', min: 1, max: 100000 },
  { key: 'warmup', kind: 'int', min: 0, max: 10000 },
  { key: 'schedule', kind: 'enum', values: ['constant', 'cosine', 'noam'] },
  { key: 'labelSmoothing', kind: 'float', min: 0, max: 0.5, step: 0.05 },
  { key: 'weightDecay', kind: 'float', min: 0, max: 1, step: 0.01 },
  { key: 'clip', kind: 'float', min: 0, max: 100, step: 0.1 },
];

export const GEN_DEFAULTS = { temperature: 0, topK: 0, topP: 1, beam: 1, maxNewTokens: 24, kvCache: true };
export const GEN_FIELDS = [
  { key: 'temperature', kind: 'float', min: 0, max: 3, step: 0.1 },
  { key: 'topK', kind: 'int', min: 0, max: 100 },
  { key: 'topP', kind: 'float', min: 0.05, max: 1, step: 0.05 },
  { key: 'beam', kind: 'int', min: 1, max: 8 },
  { key: 'maxNewTokens', kind: 'int', min: 1, max: 256 },
  { key: 'kvCache', kind: 'bool' },
];

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
