// setup/derive.js — the set-up column: the task (built-in, or your own text or pairs, with the
// size your data may have), the presets (the one the model matches is pressed), every
// architecture option and training option with its default and its reset, the seed, the model's
// size, and a refused set-up. An imported model (page.imported) is the task's menu entry, its
// architecture is its own and read-only (the fields show its config.json's values), and its
// text to fine-tune on is the one shown under Task. Which choices a task allows is patches.js's.
// Pure: (state, run, shown, info, page) -> props; page.infoFor(task) gives another task's infos.
import { TASKS, CUSTOM_TASKS, ARCH_FIELDS, TRAIN_FIELDS, TOKENIZER_KINDS, PRESETS, DATA_LIMIT, URL_TEXT_LIMIT, applyPreset } from '../../state.js';
import { tr, configOf, invalidNumber } from '../common.js';
import { allowedArch, allowedHeads, trainDefaults } from './patches.js';

const SEED = { key: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1 };
// The Task menu's entry for an imported model (never a task name: the state keeps its own task).
export const IMPORTED = 'imported-model';

export function deriveSetup(state, run, shown, info, page) {
  const t = tr(state);
  const number = (n) => n.toLocaleString(state.lang === 'ko' ? 'ko-KR' : 'en-US');
  const task = page.taskInfo;  // the state's task (the configured one while the state's is refused)
  const config = configOf(run, page);
  const imported = page.imported ?? null;
  const groups = [['task.group.builtin', TASKS], ['task.group.custom', CUSTOM_TASKS]].map(([label, names]) => ({ label: t(label), options: names.map((n) => ({ value: n, text: t(`task.${n}`) })) }));
  if (imported) groups.unshift({ label: t('task.group.imported'), options: [{ value: IMPORTED, text: t('task.imported', { name: imported.name }) }] });
  return {
    task: { value: imported ? IMPORTED : state.task, desc: imported ? t('taskdesc.imported') : t(`taskdesc.${state.task}`), groups },
    custom: {
      // An imported model fine-tunes on the text through its own tokenizer: no tokenizer to pick.
      task: imported ? 'text' : CUSTOM_TASKS.includes(state.task) ? state.task : null, imported: Boolean(imported), text: state.text, pairs: state.pairs,
      textLabelKey: imported ? 'setup.fineTuneText' : 'setup.yourText', textLabel: t(imported ? 'setup.fineTuneText' : 'setup.yourText'),
      tokenizers: TOKENIZER_KINDS.map((k) => ({ value: k, text: t(`value.${k}`), selected: k === state.textTokenizer })),
      note: t('setup.dataLimit', { limit: number(DATA_LIMIT), link: number(URL_TEXT_LIMIT) }),
      // Your own data holds at most DATA_LIMIT characters; more is refused with its size.
      check: (n) => (n > DATA_LIMIT ? t('setup.tooMuch', { n: number(n), limit: number(DATA_LIMIT) }) : ''),
    },
    presets: presets(state, task, page, t),
    arch: imported ? importedFields(imported.info.config, t) : task ? archFields(state, task, t) : null,
    train: task ? trainFields(state, task, t) : null,
    seed: field(SEED, { value: state.seed, defaultValue: 1, name: t('setup.seed'), id: 'f-seed' }, t),
    resetArchHidden: !Object.keys(state.model).length,
    resetTrainHidden: !Object.keys(state.train).length,
    invalid: page.invalid?.size ?? 0,
    summary: config && run?.info ? t('setup.summary', { arch: t(`value.${config.arch}`), params: run.info.parameterCount.toLocaleString(state.lang), vocab: config.vocabSize, dk: config.dModel / config.nHeads }) : null,
    error: page.error?.message ?? '',
  };
}

// A preset is pressed when applying it would change nothing; one that moves to another task is
// not pressed here.
function presets(state, task, page, t) {
  return Object.keys(PRESETS).map((name) => {
    let active = false;
    if (task && page.tp && !page.imported) {
      try {
        const next = applyPreset(state, name, (n) => {
          if (n !== state.task) throw new Error('another task');
          return task;
        });
        active = next.task === state.task && JSON.stringify(next.model) === JSON.stringify(state.model);
      } catch {
        active = false;
      }
    }
    return { name, text: t(`preset.${name}`), hint: t(`preset.${name}.hint`), active, disabled: !page.tp };
  });
}

// One control's props (controls.js fieldControl, without its callbacks).
function field(f, { value, defaultValue, name, id, changed, code, valueLabel, disabled, defaultText }, t) {
  return {
    field: f, id, value, defaultValue, changed, name, code, valueLabel, disabled,
    resetLabel: t('setup.reset', { name }),
    defaultLabel: t('setup.default', { value: defaultText ?? defaultValue }),
    // What a number box takes, from the core's table, in the reader's language.
    invalidLabel: () => invalidNumber(f, t, { int: 'setup.invalidInt', real: 'setup.invalidReal' }),
  };
}

function archFields(state, task, t) {
  const label = (v) => (typeof v === 'boolean' || typeof v === 'string' ? t(`value.${v}`) : String(v));
  const eff = { ...task.defaults, ...state.model };
  if (state.model.nHeads !== undefined && state.model.nKvHeads === undefined) eff.nKvHeads = eff.nHeads;
  const archAllowed = allowedArch(task.kind), headAllowed = allowedHeads(task.kind, eff.arch);
  const why = task.kind === 'seq2seq' ? t('setup.needsSeq') : task.kind === 'text' ? t('setup.needsNoEncDec') : t('setup.needsEnc');
  const fields = ARCH_FIELDS.map((f) => {
    const disabled = {};
    if (f.key === 'arch') for (const v of f.values) if (!archAllowed.includes(v)) disabled[v] = t('setup.notFor', { why });
    if (f.key === 'head') for (const v of f.values) if (!headAllowed.includes(v)) disabled[v] = t('setup.notFor', { why: t(`value.${eff.arch}`) });
    // RoPE rotates pairs of dimensions: not offered while the head size is odd (the core would refuse it).
    const dh = eff.dModel / eff.nHeads;
    if (f.key === 'pos' && Number.isInteger(dh) && dh % 2 && eff.pos !== 'rope') disabled.rope = t('setup.ropeOdd', { dh });
    const def = f.key === 'nKvHeads' ? eff.nHeads : task.defaults[f.key];
    return field(f, {
      value: eff[f.key], defaultValue: def, changed: f.key in state.model && state.model[f.key] !== def, name: t(`field.${f.key}`), code: f.symbol,
      valueLabel: (v) => (f.kind === 'enum' ? t(`value.${v}`) : String(v)), disabled,
      defaultText: f.kind === 'enum' || f.kind === 'bool' ? label(def) : def === '' ? '—' : def,
    }, t);
  });
  const fixed = t('setup.fixed', { vocab: task.defaults.vocabSize, classes: task.classNames?.length ? t('setup.classes', { n: task.classNames.length }) : '' });
  return { fields, fixed };
}

function trainFields(state, task, t) {
  const tdef = trainDefaults(task);
  const tval = { ...tdef, ...state.train };
  return TRAIN_FIELDS.map((f) => field(f, {
    value: tval[f.key], defaultValue: tdef[f.key], changed: f.key in state.train, name: t(`field.${f.key}`), valueLabel: (v) => t(`value.${v}`),
    defaultText: f.kind === 'enum' ? t(`value.${tdef[f.key]}`) : tdef[f.key],
  }, t));
}

// An imported model's architecture: its own config's values, which cannot change here (a
// different architecture is a different model); the training options can.
function importedFields(config, t) {
  const fields = ARCH_FIELDS.map((f) => {
    const v = config[f.key];
    return { key: f.key, id: `f-${f.key}`, name: t(`field.${f.key}`), code: f.symbol, value: f.kind === 'enum' || f.kind === 'bool' ? t(`value.${v}`) : v === '' ? '—' : String(v) };
  });
  return { readonly: true, fields, note: t('setup.importedNote'), fixed: t('setup.importedFixed', { vocab: config.vocabSize }) };
}
