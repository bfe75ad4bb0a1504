// comparison.js — the runs the comparison views draw: every kept run that has a record here,
// then the current run unless it is kept, each with its colour and its name: the reader's label,
// else the preset's name when the run is a preset left as it was ("GPT-like"), else how its
// settings differ from the others' ("norm placement: pre"). Pure: the kept runs, the run and the
// task defaults come in as arguments.
import { ARCH_FIELDS, TRAIN_FIELDS, CUSTOM_TASKS, PRESETS, applyPreset, defaultState } from './state.js';
import { setupKey } from './hash.js';
import { differenceLabels } from './runs.js';
import { headColor } from '../components/shared/colormap.js';

// kept: KeptRuns; run: the current RunRecord; runSetup: its set-up (hash.js setupOf);
// infoFor(task): the task's { defaults, train } (may throw); t(key, vars): strings.
// -> [{ key, setup, record, color, kept, current, label }]
export function comparedRuns({ kept, run, runSetup, infoFor, t }) {
  const list = kept.entries.filter((e) => e.record).map((e) => ({ key: e.key, setup: e.setup, record: e.record, color: e.color, kept: true,
    current: e.live && e.record === run }));
  if (run && runSetup && !list.some((r) => r.current)) {
    list.push({ key: setupKey(runSetup), setup: runSetup, record: run, color: headColor(kept.entries.length), kept: false, current: true });
  }
  const labels = runNames(list, infoFor, t);
  return list.map((r, i) => ({ ...r, label: labels[i] }));
}

// The names of runs [{ setup, record }]. Runs that would share a name (two runs labelled alike,
// one preset with two seeds) add, in brackets, how they differ from each other.
export function runNames(list, infoFor, t) {
  const differences = (runs) => differenceLabels(runs, (r) => runValues(r, infoFor), (k, v) => settingLabel(k, v, t), (n) => t('runs.same', { n }),
    (n) => t('runs.more', { n }));
  // The seed's example is every task's starting point: its name says something only beside
  // another preset's run; beside a run changed from it, the difference says more.
  const presets = list.map((r) => (r.setup.label ? null : presetOf(r.setup, infoFor)));
  const named = presets.some((p) => p && p !== 'seed');
  const given = list.map((r, i) => r.setup.label || (presets[i] && (named || presets[i] !== 'seed') ? t(`preset.${presets[i]}.short`) : null));
  const names = differences(list).map((d, i) => given[i] ?? d);
  for (const name of new Set(given.filter((g, i) => g !== null && given.indexOf(g) !== i))) {
    const alike = list.map((r, i) => i).filter((i) => given[i] === name);
    differences(alike.map((i) => list[i])).forEach((d, j) => (names[alike[j]] = `${name} (${d})`));
  }
  return names;
}

// The preset a set-up is, when it is one as the preset left it (its task, the task's training
// options and the first seed; the model exactly the preset's), else null. infoFor(task) gives
// the task's { kind, defaults }.
export function presetOf(setup, infoFor) {
  if (CUSTOM_TASKS.includes(setup.task) || setup.seed !== 1 || Object.keys(setup.train ?? {}).length) return null;
  const infoOf = (task) => {
    if (task !== setup.task) throw new Error('another task');
    return infoFor(task);
  };
  const model = canonical(setup.model);
  return Object.keys(PRESETS).find((name) => {
    try {
      const next = applyPreset({ ...defaultState(), task: setup.task }, name, infoOf);
      return next.task === setup.task && !Object.keys(next.train).length && canonical(next.model) === model;
    } catch {
      return false;  // a preset that moves to another task, or a task with no infos here
    }
  }) ?? null;
}

const canonical = (o) => JSON.stringify(Object.entries(o ?? {}).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)));

// A run's effective settings: the task, seed, every architecture and training option.
export function runValues({ setup, record }, infoFor) {
  let info = null;
  try {
    info = CUSTOM_TASKS.includes(setup.task) ? null : infoFor(setup.task);
  } catch {
    info = null;
  }
  const config = record?.config ?? { ...info?.defaults, ...setup.model };
  const train = { ...info?.train, ...setup.train };
  const out = { task: setup.task, seed: setup.seed };
  if (setup.data) out.data = setup.data;
  for (const f of ARCH_FIELDS) if (config[f.key] !== undefined) out[f.key] = config[f.key];
  for (const f of TRAIN_FIELDS) if (train[f.key] !== undefined) out[f.key] = train[f.key];
  return out;
}

// "norm placement: pre", "seed 2", the task's name.
export function settingLabel(key, value, t) {
  if (key === 'task') return t(`task.${value}`);
  if (key === 'seed') return t('runs.seed', { seed: value });
  if (key === 'data') return t('runs.data', { data: value });
  const v = typeof value === 'string' || typeof value === 'boolean' ? t(`value.${value}`)
    : typeof value === 'number' && !Number.isInteger(value) ? String(Number(value.toPrecision(3))) : String(value);
  return `${t(`field.${key}`)}: ${v}`;
}
