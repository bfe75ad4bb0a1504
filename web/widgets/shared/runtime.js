// runtime.js — what every widget on a page shares: the page's one engine (load(): one fetch and
// one compilation of the .wasm, one instance on this thread), checkpoint files fetched once per
// URL and loaded once as a Model on this thread, the built-in tasks' tokenizers, and the
// attributes that configure a model and its training (tp-attention, tp-train).
//
// Cheap work only on this thread: tokenizing, the trace of a loaded checkpoint, the seed's tiny
// walk-through. Training always runs in a Worker (createTrainingSession), which instantiates the
// module this page already compiled.
import { load } from '../../lib/api.js';
import { filesAtUrl } from '../../lib/model-urls.js';
import { AttrError, choice, flag, int, num, list } from './attrs.js';
import { SHIPPED_MODELS } from '../../models/models.js';
import { TRAINING_ATTRIBUTES } from './manifest.js';

export function engine() {
  return load();
}

// The built-in tasks' names and kinds, without building their data sets twice.
let taskInfos = null;
export async function tasks() {
  const tp = await load();
  taskInfos ??= typeof tp.taskList === 'function' ? tp.taskList() : tp.tasks().map(({ name, kind, description }) => ({ name, kind, description }));
  return taskInfos;
}

export async function checkTask(name) {
  const all = await tasks();
  if (!all.some((t) => t.name === name)) throw new AttrError(`task must be ${list(all.map((t) => t.name))} (got "${name}")`);
  return all.find((t) => t.name === name);
}

// One Task object per built-in name (its tokenizer, defaults, sample inputs), kept for the page.
const taskCache = new Map();
export async function task(name) {
  await checkTask(name);
  const tp = await load();
  if (!taskCache.has(name)) {
    const t = tp.task(name);
    const info = { name, kind: t.kind, metric: t.metric, defaults: t.defaults, train: t.train, sampleInputs: t.sampleInputs, classNames: t.classNames, tokenizer: t.tokenizer() };
    t.dispose();
    taskCache.set(name, info);
  }
  return taskCache.get(name);
}

// Checkpoint bytes, one fetch per absolute URL for the whole page.
const bytes = new Map();
export function fetchBytes(url) {
  const key = String(url);
  if (!bytes.has(key)) {
    bytes.set(key, (async () => {
      const res = await fetch(key, { credentials: 'same-origin' });
      if (!res.ok) throw new Error(`could not load the model file ${key}: HTTP ${res.status}`);
      return new Uint8Array(await res.arrayBuffer());
    })().catch((error) => {
      bytes.delete(key);
      throw error.message?.startsWith('could not load') ? error : new Error(`could not load the model file ${key}: ${error.message}`);
    }));
  }
  return bytes.get(key);
}

// A checkpoint as a Model on this thread, shared by every widget that names the same file.
// Widgets never dispose it: it lives as long as the page.
const models = new Map();
export function sharedModel(url) {
  const key = String(url);
  if (!models.has(key)) {
    models.set(key, (async () => {
      const [tp, data] = await Promise.all([load(), fetchBytes(key)]);
      try {
        return tp.loadModel(data);
      } catch (error) {
        throw new Error(`${key.split('/').pop()}: ${error.message}`);
      }
    })().catch((error) => {
      models.delete(key);
      throw error;
    }));
  }
  return models.get(key);
}

// Another project's model (a GPT-2 or Llama folder, a llama2.c .bin) at `url`, imported once per
// URL as a Model on this thread and kept for the page, as sharedModel's are.
export function importedModel(url) {
  const key = String(url);
  if (!models.has(key)) {
    models.set(key, (async () => {
      const tp = await load();
      return tp.importModel(await filesAtUrl(key, undefined, (files) => tp.describeModelFiles(files)));
    })().catch((error) => {
      models.delete(key);
      throw error;
    }));
  }
  return models.get(key);
}

// A checkpoint shipped with the package (web/models/NAME.safetensors), wherever the package is
// (or wherever a bundler put it).
export function shippedModel(name) {
  return SHIPPED_MODELS[name];
}

// ---- model and training attributes ----------------------------------------------------------

// A training attribute's value from the element, checked against its range in the manifest.
function readAttribute(el, a) {
  if (a.values) return choice(el, a.name, a.values);
  if (a.type === 'integer') return int(el, a.name, { min: a.min, max: a.max });
  return num(el, a.name, { min: a.min, max: a.max, exclusiveMin: a.exclusiveMin });
}
export const CONFIG_ATTRIBUTES = TRAINING_ATTRIBUTES.map((a) => a.name);

// The configure() request for a training session from the element's attributes (stop-when-met:
// pause once where the run has learned its task, as <tp-train> and a live <tp-attention> offer).
export function sessionRequest(el, taskName) {
  const seed = readAttribute(el, TRAINING_ATTRIBUTES.find((a) => a.name === 'seed')) ?? 1;
  const model = { seed };
  const training = { seed };
  for (const a of TRAINING_ATTRIBUTES) {
    const v = a.model || a.training ? readAttribute(el, a) : undefined;
    if (v !== undefined) (a.model ? model : training)[a.model ?? a.training] = v;
  }
  // More heads without a K/V choice stays multi-head attention (the task's default names n_kv_heads).
  if (model.nHeads !== undefined && model.nKvHeads === undefined) model.nKvHeads = model.nHeads;
  return { task: taskName, model, training, stopWhenMet: flag(el, 'stop-when-met') };
}
