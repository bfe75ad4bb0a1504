// panels/setup.js — the set-up column: the task (built-in or your own text / pairs), presets,
// every architecture option and the training options, each with its default and a reset.
import { TASKS, CUSTOM_TASKS, ARCH_FIELDS, TRAIN_FIELDS, TOKENIZER_KINDS, PRESETS, DATA_LIMIT, URL_TEXT_LIMIT, applyPreset, prune } from '../state.js';
import { h } from '../../ui/dom.js';
import { fieldControl } from '../controls.js';

const TRAIN_FROM_TASK = { lr: 'lr', batchSize: 'batchSize', seqLen: 'seqLen', totalSteps: 'totalSteps', warmup: 'warmup', schedule: 'schedule', labelSmoothing: 'labelSmoothing', weightDecay: 'weightDecay', clip: 'clip' };

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

function round(v) {
  return typeof v === 'number' && !Number.isInteger(v) ? Number(v.toPrecision(4)) : v;
}

export function initSetup(app) {
  const $ = (id) => app.$(id);
  const taskSelect = $('task');
  const trainDefaults = (info) => Object.fromEntries(Object.entries(TRAIN_FROM_TASK).map(([k, src]) => [k, round(info.train[src])]));

  function renderTaskSelect() {
    const t = (k) => app.t(k);
    taskSelect.replaceChildren(
      h('optgroup', { label: t('task.group.builtin') }, TASKS.map((n) => h('option', { value: n, text: t(`task.${n}`) }))),
      h('optgroup', { label: t('task.group.custom') }, CUSTOM_TASKS.map((n) => h('option', { value: n, text: t(`task.${n}`) }))));
    taskSelect.value = app.state.task;
    $('task-desc').textContent = t(`taskdesc.${app.state.task}`);
    for (const [id, key] of [['custom-text-input', 'text'], ['custom-pairs-input', 'pairs']]) {
      if (app.activeElement !== $(id) && $(id).dataset.applied !== app.state[key]) $(id).value = $(id).dataset.applied = app.state[key];
    }
    const custom = CUSTOM_TASKS.includes(app.state.task);
    $('custom').hidden = !custom;
    $('custom-text').hidden = app.state.task !== 'text';
    $('custom-pairs').hidden = app.state.task !== 'pairs';
    $('custom-tokenizer').replaceChildren(...TOKENIZER_KINDS.map((k) => h('option', { value: k, text: t(`value.${k}`), selected: k === app.state.textTokenizer })));
    if (custom) checkCustom();
  }
  taskSelect.addEventListener('change', () => app.set({ task: taskSelect.value, model: {}, train: {}, input: '', prompt: '' }));
  // Your own data: at most DATA_LIMIT characters (said beside it); more is refused with its size,
  // and Apply stays off until it fits.
  const customBox = () => $(app.state.task === 'pairs' ? 'custom-pairs-input' : 'custom-text-input');
  const number = (n) => n.toLocaleString(app.state.lang === 'ko' ? 'ko-KR' : 'en-US');
  function checkCustom() {
    const n = customBox().value.length, over = n > DATA_LIMIT;
    $('custom-note').textContent = app.t('setup.dataLimit', { limit: number(DATA_LIMIT), link: number(URL_TEXT_LIMIT) });
    $('custom-error').textContent = over ? app.t('setup.tooMuch', { n: number(n), limit: number(DATA_LIMIT) }) : '';
    $('custom-error').hidden = !over;
    $('custom-apply').disabled = over;
    customBox().setAttribute('aria-invalid', String(over));
    return !over;
  }
  for (const id of ['custom-text-input', 'custom-pairs-input']) $(id).addEventListener('input', checkCustom);
  $('custom-apply').addEventListener('click', () => {
    if (!checkCustom()) return;
    app.set({ text: $('custom-text-input').value, pairs: $('custom-pairs-input').value, textTokenizer: $('custom-tokenizer').value, input: '', prompt: '' });
  });

  function info() {
    try {
      return app.tp ? app.infoFor() : null;
    } catch {
      return app.info;
    }
  }

  function renderPresets() {
    const i = info();
    const buttons = Object.keys(PRESETS).map((name) => {
      let active = false;
      if (i && app.tp) {
        try {
          const next = applyPreset(app.state, name, (task) => {
            if (task !== app.state.task) throw new Error('another task');  // a preset that moves elsewhere is not active here
            return i;
          });
          active = next.task === app.state.task && JSON.stringify(next.model) === JSON.stringify(app.state.model);
        } catch {
          active = false;
        }
      }
      return h('button', { type: 'button', class: active ? 'active' : '', 'aria-pressed': String(active), title: app.t(`preset.${name}.hint`), disabled: !app.tp,
        onclick: () => app.set(applyPreset(app.state, name, (task) => app.infoFor(task))) }, app.t(`preset.${name}`));
    });
    $('presets').replaceChildren(...buttons);
  }

  // Arch, head and max length kept consistent with the task when one of them changes.
  function setModel(key, value) {
    const i = info();
    const model = { ...app.state.model, [key]: value };
    const eff = { ...i.defaults, ...model };
    if (key === 'arch') {
      const heads = allowedHeads(i.kind, value);
      if (!heads.includes(eff.head)) model.head = heads[0];
      if (value === 'decoder-only' && i.kind === 'seq2seq' && app.state.model.maxLen === undefined) model.maxLen = 2 * i.defaults.maxLen;
    }
    if (key === 'nHeads' && app.state.model.nKvHeads !== undefined && value % app.state.model.nKvHeads !== 0) delete model.nKvHeads;
    app.set({ model: prune(model, i.defaults) });
  }

  // What a number box takes, from the core's table, in the reader's language.
  const invalidLabel = (field) => () => app.t(field.kind === 'int' ? 'setup.invalidInt' : 'setup.invalidReal', {
    min: field.min ?? '−∞', max: field.max ?? '∞' });

  function renderFields() {
    const i = info();
    if (!i) return;
    // The boxes are drawn again from the state's values, which are valid.
    if (app.invalid?.size) {
      app.invalid.clear();
      app.emit('invalid', app.invalid);
    }
    const t = (k, v) => app.t(k, v);
    const label = (v) => (typeof v === 'boolean' || ['string'].includes(typeof v) ? t(`value.${v}`) : String(v));
    const eff = { ...i.defaults, ...app.state.model };
    if (app.state.model.nHeads !== undefined && app.state.model.nKvHeads === undefined) eff.nKvHeads = eff.nHeads;
    const archAllowed = allowedArch(i.kind), headAllowed = allowedHeads(i.kind, eff.arch);
    const why = i.kind === 'seq2seq' ? t('setup.needsSeq') : i.kind === 'text' ? t('setup.needsNoEncDec') : t('setup.needsEnc');
    const fields = ARCH_FIELDS.map((field) => {
      const disabled = {};
      if (field.key === 'arch') for (const v of field.values) if (!archAllowed.includes(v)) disabled[v] = t('setup.notFor', { why });
      if (field.key === 'head') for (const v of field.values) if (!headAllowed.includes(v)) disabled[v] = t('setup.notFor', { why: t(`value.${eff.arch}`) });
      // RoPE rotates pairs of dimensions: not offered while the head size is odd (the core would refuse it).
      const dh = eff.dModel / eff.nHeads;
      if (field.key === 'pos' && Number.isInteger(dh) && dh % 2 && eff.pos !== 'rope') disabled.rope = t('setup.ropeOdd', { dh });
      const def = field.key === 'nKvHeads' ? eff.nHeads : i.defaults[field.key];
      return fieldControl({
        field, value: eff[field.key], defaultValue: def, changed: field.key in app.state.model && app.state.model[field.key] !== def,
        name: t(`field.${field.key}`), code: field.symbol,
        valueLabel: (v) => (field.kind === 'enum' ? t(`value.${v}`) : String(v)), disabled,
        resetLabel: t('setup.reset', { name: t(`field.${field.key}`) }),
        defaultLabel: t('setup.default', { value: field.kind === 'enum' || field.kind === 'bool' ? label(def) : def === '' ? '—' : def }),
        onChange: (v) => setModel(field.key, v),
        onInvalid: (why) => app.setInvalid(field.key, why), invalidLabel: invalidLabel(field),
        onReset: () => {
          const model = { ...app.state.model };
          delete model[field.key];
          app.set({ model });
        },
      });
    });
    const fixed = h('p', { class: 'hint', text: t('setup.fixed', { vocab: i.defaults.vocabSize, classes: i.classNames?.length ? t('setup.classes', { n: i.classNames.length }) : '' }) });
    replaceKeepingFocus($('arch-fields'), [...fields, fixed]);

    const tdef = trainDefaults(i);
    const tval = { ...tdef, ...app.state.train };
    replaceKeepingFocus($('train-fields'), TRAIN_FIELDS.map((field) => fieldControl({
      field, value: tval[field.key], defaultValue: tdef[field.key], changed: field.key in app.state.train,
      name: t(`field.${field.key}`), valueLabel: (v) => t(`value.${v}`),
      resetLabel: t('setup.reset', { name: t(`field.${field.key}`) }),
      defaultLabel: t('setup.default', { value: field.kind === 'enum' ? t(`value.${tdef[field.key]}`) : tdef[field.key] }),
      onChange: (v) => app.set({ train: prune({ ...app.state.train, [field.key]: v }, tdef) }),
      onInvalid: (why) => app.setInvalid(field.key, why), invalidLabel: invalidLabel(field),
      onReset: () => {
        const train = { ...app.state.train };
        delete train[field.key];
        app.set({ train });
      },
    })));
    const seed = fieldControl({
      field: { key: 'seed', kind: 'int', min: 0, max: 2 ** 31 - 1 }, id: 'f-seed', value: app.state.seed, defaultValue: 1,
      name: t('setup.seed'), resetLabel: t('setup.reset', { name: t('setup.seed') }), defaultLabel: t('setup.default', { value: 1 }),
      onChange: (v) => app.set({ seed: v }), onReset: () => app.set({ seed: 1 }),
      onInvalid: (why) => app.setInvalid('seed', why), invalidLabel: invalidLabel({ kind: 'int', min: 0, max: 2 ** 31 - 1 }),
    });
    replaceKeepingFocus($('seed-fields'), [seed]);
    $('reset-arch').hidden = !Object.keys(app.state.model).length;
    $('reset-train').hidden = !Object.keys(app.state.train).length;
  }

  function renderSummary() {
    const c = app.config;
    if (!c || !app.modelInfo) return;
    $('arch-summary').textContent = app.t('setup.summary', { arch: app.t(`value.${c.arch}`), params: app.modelInfo.parameterCount.toLocaleString(app.state.lang), vocab: c.vocabSize, dk: c.dModel / c.nHeads });
  }

  $('reset-arch').addEventListener('click', () => app.set({ model: {} }));
  $('reset-train').addEventListener('click', () => app.set({ train: {} }));

  const renderAll = () => {
    renderTaskSelect();
    renderPresets();
    renderFields();
    renderSummary();
  };
  app.on('lang', renderAll);
  app.on('state', renderAll);
  app.on('ready', renderAll);
  app.on('configured', () => {
    $('config-error').hidden = true;
    renderAll();
  });
  app.on('error', (e) => {
    $('config-error').hidden = false;
    $('config-error').textContent = e.message;
  });
  renderTaskSelect();
}

// Replaces an element's children, keeping keyboard focus on the control with the same id.
function replaceKeepingFocus(container, children) {
  const root = container.getRootNode();
  const focused = container.contains(root.activeElement) ? root.activeElement.id : null;
  container.replaceChildren(...children);
  if (focused) root.getElementById(focused)?.focus();
}
