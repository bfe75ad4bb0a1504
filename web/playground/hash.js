// hash.js — the playground's state in the URL hash and back, so a copied link reproduces the
// set-up (and the kept runs' set-ups: state.runs), and what a hand-edited link held that the page
// could not use. No DOM, no wasm.
//
//   const state = parseHash(location.hash);  location.hash = toHash(state);
import { ARCH_FIELDS, TRAIN_FIELDS, GEN_FIELDS, TASKS, CUSTOM_TASKS, TOKENIZER_KINDS, ATTN_KINDS, ATTN_STAGES, PACES, URL_TEXT_LIMIT, LABEL_LIMIT, cleanLabel, defaultState, englishRange,
  inRange as within } from './state.js';

const SHORT = { model: 'm.', train: 't.', gen: 'g.', attn: 'a.' };

const fitsLink = (text) => encodeURIComponent(text).length <= URL_TEXT_LIMIT;

export function toHash(state) {
  const d = defaultState();
  const p = new URLSearchParams();
  for (const k of ['task', 'lang', 'seed', 'input', 'tokKind', 'prompt', 'wt', 'pace', 'stop']) if (state[k] !== d[k] && fitsLink(String(state[k]))) p.set(k, String(state[k]));
  if (state.task === 'text') {
    if (fitsLink(state.text)) p.set('text', state.text);
    p.set('textTokenizer', state.textTokenizer);
  }
  if (state.task === 'pairs' && fitsLink(state.pairs)) p.set('pairs', state.pairs);
  if (state.label) p.set('l', state.label);
  for (const [group, prefix] of Object.entries(SHORT)) {
    for (const [k, v] of Object.entries(state[group] ?? {})) {
      if (group !== 'model' && group !== 'train' && d[group][k] === v) continue;
      p.set(prefix + k, String(v));
    }
  }
  for (const run of state.runs ?? []) p.append('run', setupToString(run));
  return `#${p.toString()}`;
}

// The hash's text for `field` as its value, or undefined when it is not one the control allows
// (out of range, not a choice, not a number): such a key is ignored like an unknown one.
function typed(field, raw) {
  if (!field) return raw;
  const inRange = (v) => within(field, v);
  if (field.kind === 'int') {
    const v = /^-?\d+$/.test(raw) ? Number(raw) : NaN;
    return Number.isSafeInteger(v) && inRange(v) ? v : undefined;
  }
  if (field.kind === 'float') {
    const v = raw.trim() === '' ? NaN : Number(raw);
    return Number.isFinite(v) && inRange(v) ? v : undefined;
  }
  if (field.kind === 'bool') return raw === 'true' ? true : raw === 'false' ? false : undefined;
  if (field.kind === 'enum') return field.values.includes(raw) ? raw : undefined;
  if (field.kind === 'text') return field.pattern.test(raw) ? raw : undefined;
  return raw;
}

// What a field accepts, for a message about a value that is not of that kind.
function accepts(field) {
  if (field.kind === 'int') return `a whole number${field.min !== undefined ? ` from ${field.min}` : ''}${field.max !== undefined ? ` to ${field.max}` : ''}`;
  if (field.kind === 'float') return field.min === undefined && field.max === undefined ? 'a number' : `a number ${englishRange(field)}`;
  if (field.kind === 'bool') return 'true or false';
  if (field.kind === 'enum') return field.values.join(', ');
  return `letters ${field.pattern}`;
}

const FIELDS = {
  model: Object.fromEntries(ARCH_FIELDS.map((f) => [f.key, f])),
  train: Object.fromEntries(TRAIN_FIELDS.map((f) => [f.key, f])),
  gen: Object.fromEntries(GEN_FIELDS.map((f) => [f.key, f])),
  attn: { kind: { kind: 'enum', values: ATTN_KINDS }, layer: { kind: 'int', min: 0 }, head: { kind: 'int', min: 0 }, stage: { kind: 'enum', values: ATTN_STAGES } },
};

// A whole number >= 0 that JavaScript holds exactly.
const count = (v) => (/^\d+$/.test(v) && Number.isSafeInteger(Number(v)) ? Number(v) : undefined);

// ---- kept runs' set-ups -------------------------------------------------------------------

// What defines a run: the task (a digest of your own text or pairs, which stay out of links),
// the seed, and the model and training overrides. Never weights. The run's label goes with it,
// but is no part of its key: the same set-up trains the same run, whatever it is called.
export function setupOf(state) {
  const setup = { task: state.task, seed: state.seed, model: { ...state.model }, train: { ...state.train } };
  if (state.task === 'text') Object.assign(setup, { textTokenizer: state.textTokenizer, data: digest(state.text) });
  if (state.task === 'pairs') setup.data = digest(state.pairs);
  return labelled(setup, state.label);
}

// The state that goes back to a kept run's set-up, keeping this page's language, pace, kept
// runs and data.
export function stateForSetup(state, setup) {
  return { ...defaultState(), lang: state.lang, pace: state.pace, runs: state.runs, task: setup.task, seed: setup.seed, label: setup.label ?? '',
    model: { ...setup.model }, train: { ...setup.train }, ...(setup.textTokenizer ? { textTokenizer: setup.textTokenizer, text: state.text } : {}),
    ...(setup.task === 'pairs' ? { pairs: state.pairs } : {}) };
}

export function setupKey(setup) {
  return setupToString(setup, { label: false });
}

// The set-up named `label` (cleanLabel's text; '' drops the name).
export function labelled(setup, label) {
  const { label: _old, ...rest } = setup;
  return label ? { ...rest, label } : rest;
}

// A label read from a link: cut to the limit, and said so.
function linkLabel(key, v, problems) {
  if ([...v].length > LABEL_LIMIT) problems.push({ key, value: v.slice(0, 80), reason: `a label holds at most ${LABEL_LIMIT} characters: the rest is left out` });
  return cleanLabel(v);
}

// A short fingerprint of a text (FNV-1a, 32 bits), to tell two data sets apart without storing them.
export function digest(text) {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; ++i) h = Math.imul(h ^ text.charCodeAt(i), 0x01000193) >>> 0;
  return `${text.length.toString(36)}-${h.toString(36)}`;
}

function setupToString(setup, { label = true } = {}) {
  const p = new URLSearchParams();
  p.set('task', setup.task);
  p.set('seed', String(setup.seed));
  if (setup.textTokenizer) p.set('tt', setup.textTokenizer);
  if (setup.data) p.set('d', setup.data);
  for (const [k, v] of Object.entries(setup.model ?? {}).sort()) p.set(`m.${k}`, String(v));
  for (const [k, v] of Object.entries(setup.train ?? {}).sort()) p.set(`t.${k}`, String(v));
  if (label && setup.label) p.set('l', setup.label);
  return p.toString();
}

function setupFromString(text, problems) {
  const p = new URLSearchParams(text);
  const task = p.get('task');
  if (!TASKS.includes(task) && !CUSTOM_TASKS.includes(task)) {
    problems.push({ key: 'run', value: text, reason: `a kept run needs a task (${[...TASKS, ...CUSTOM_TASKS].join(', ')})` });
    return null;
  }
  const setup = { task, seed: count(p.get('seed') ?? '') ?? 1, model: {}, train: {} };
  if (TOKENIZER_KINDS.includes(p.get('tt'))) setup.textTokenizer = p.get('tt');
  if (p.get('d')) setup.data = p.get('d');
  const label = linkLabel('run l', p.get('l') ?? '', problems);
  if (label) setup.label = label;
  for (const [k, v] of p) {
    const group = k.startsWith('m.') ? 'model' : k.startsWith('t.') ? 'train' : null;
    if (!group) continue;
    const field = Object.hasOwn(FIELDS[group], k.slice(2)) ? FIELDS[group][k.slice(2)] : undefined;
    const value = field ? typed(field, v) : undefined;
    if (value === undefined) problems.push({ key: `run ${k}`, value: v, reason: field ? `${k.slice(2)} takes ${accepts(field)}` : `there is no option '${k.slice(2)}'` });
    else setup[group][k.slice(2)] = value;
  }
  return setup;
}

// A state from a hash and what in it was not understood: [{ key, value, reason }]. Unknown keys
// and bad values are left out (a hand-edited link still loads) and the page says which. Only
// the tables' own keys count: `m.constructor` or `m.toString` name no option, whatever
// Object.prototype holds.
export function readHash(hash) {
  const s = defaultState();
  const problems = [];
  const p = new URLSearchParams(String(hash ?? '').replace(/^#/, ''));
  const bad = (key, value, reason) => problems.push({ key, value: value.slice(0, 80), reason });
  for (const [k, v] of p) {
    const group = Object.entries(SHORT).find(([, prefix]) => k.startsWith(prefix));
    if (group) {
      const [name, prefix] = group;
      const key = k.slice(prefix.length);
      const field = Object.hasOwn(FIELDS[name], key) ? FIELDS[name][key] : undefined;
      if (!field) {
        bad(k, v, `there is no option '${key}'`);
        continue;
      }
      const value = typed(field, v);
      if (value !== undefined) s[name][key] = value;
      else bad(k, v, `${key} takes ${accepts(field)}`);
      continue;
    }
    if (k === 'task') {
      if (TASKS.includes(v) || CUSTOM_TASKS.includes(v)) s.task = v;
      else bad(k, v, `tasks: ${[...TASKS, ...CUSTOM_TASKS].join(', ')}`);
    } else if (k === 'lang') {
      if (v === 'en' || v === 'ko') s.lang = v;
      else bad(k, v, 'languages: en, ko');
    } else if (k === 'seed' || k === 'wt') {
      if (count(v) !== undefined) s[k] = count(v);
      else bad(k, v, 'a whole number from 0');
    } else if (k === 'pace') {
      if (v !== '' && PACES.includes(Number(v))) s.pace = Number(v);
      else bad(k, v, `steps per second: ${PACES.join(', ')} (0: as fast as possible)`);
    } else if (k === 'stop') {
      if (v === 'true' || v === 'false') s.stop = v === 'true';
      else bad(k, v, 'true (pause where the task is learned) or false (train to the last step)');
    } else if (k === 'tokKind' || k === 'textTokenizer') {
      if ((k === 'tokKind' && v === 'model') || TOKENIZER_KINDS.includes(v)) s[k] = v;
      else bad(k, v, `tokenizers: ${TOKENIZER_KINDS.join(', ')}`);
    } else if (k === 'l') {
      s.label = linkLabel(k, v, problems);
    } else if (k === 'run') {
      const setup = setupFromString(v, problems);
      if (setup && !s.runs.some((r) => setupKey(r) === setupKey(setup))) s.runs.push(setup);
    } else if (['input', 'prompt', 'text', 'pairs'].includes(k)) {
      s[k] = v;
    } else {
      bad(k, v, 'not part of a playground link');
    }
  }
  return { state: s, problems };
}

export function parseHash(hash) {
  return readHash(hash).state;
}

