// setup/patches.js — how a change in the set-up column becomes a change of the state: the
// architecture, the head and the maximum length kept consistent with the task, overrides equal
// to the defaults dropped (a link stays short), the training options' defaults as the task sets
// them. Pure: (state, info, …) -> a patch for the state.
import { prune } from '../../state.js';

// Which architectures and heads a task kind can train (src/tasks/task.cpp check_compatible).
export function allowedArch(kind) {
  if (kind === 'seq2seq') return ['encoder-decoder', 'decoder-only'];
  if (kind === 'text') return ['decoder-only', 'encoder-only'];
  return ['encoder-only'];
}
export function allowedHeads(kind, arch) {
  if (arch !== 'encoder-only') return ['lm'];
  if (kind === 'text') return ['mlm'];
  if (kind === 'classify') return ['cls', 'mean'];
  if (kind === 'tag') return ['token'];
  return [];
}

const round = (v) => (typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v);
const TRAIN_KEYS = ['lr', 'batchSize', 'seqLen', 'totalSteps', 'warmup', 'schedule', 'labelSmoothing', 'weightDecay', 'clip'];

// The task's training defaults as the fields show them.
export function trainDefaults(info) {
  return Object.fromEntries(TRAIN_KEYS.map((k) => [k, round(info.train[k])]));
}

// Model option `key` set to `value`.
export function modelPatch(state, info, key, value) {
  const model = { ...state.model, [key]: value };
  const eff = { ...info.defaults, ...model };
  if (key === 'arch') {
    const heads = allowedHeads(info.kind, value);
    if (!heads.includes(eff.head)) model.head = heads[0];
    if (value === 'decoder-only' && info.kind === 'seq2seq' && state.model.maxLen === undefined) model.maxLen = 2 * info.defaults.maxLen;
  }
  if (key === 'nHeads' && state.model.nKvHeads !== undefined && value % state.model.nKvHeads !== 0) delete model.nKvHeads;
  return { model: prune(model, info.defaults) };
}

// Training option `key` set to `value`.
export function trainPatch(state, info, key, value) {
  return { train: prune({ ...state.train, [key]: value }, trainDefaults(info)) };
}

// Option `key` of `group` ('model' | 'train') back to its default.
export function resetPatch(state, group, key) {
  const next = { ...state[group] };
  delete next[key];
  return { [group]: next };
}

// Another task: its own defaults, and no input or prompt of the last one.
export const taskPatch = (task) => ({ task, model: {}, train: {}, input: '', prompt: '' });
