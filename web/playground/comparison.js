// comparison.js — the runs the comparison views draw: every kept run that has a record here,
// then the current run unless it is kept, each with its colour and its name, which says how its
// settings differ from the others' ("norm placement: pre"). Pure: the kept runs, the run and the
// task defaults come in as arguments.
import { ARCH_FIELDS, TRAIN_FIELDS, CUSTOM_TASKS } from './state.js';
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
  const labels = differenceLabels(list, (r) => runValues(r, infoFor), (k, v) => settingLabel(k, v, t), (n) => t('runs.same', { n }), (n) => t('runs.more', { n }));
  return list.map((r, i) => ({ ...r, label: labels[i] }));
}

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
