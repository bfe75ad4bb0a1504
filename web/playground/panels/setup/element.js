// <tp-setup-panel> — the set-up column: the task, your own text or pairs (refused past the size
// the page takes, with its size), the presets, every architecture and training option and the
// seed (an imported model's architecture read-only, its fine-tuning text without a tokenizer
// to pick). It draws setup/derive.js's props; it keeps only the text being typed in a box.
// Intents: set (a patch: task, your data, a preset's state), set-option { group, key, value },
// reset-option { group, key }, preset { name }, invalid { key, why }.
import { h } from '../../../ui/dom.js';
import { fieldControl } from '../../controls.js';
import { panel, definePanel, replaceKeepingFocus, setText } from '../../panel.js';
import { taskPatch } from './patches.js';

// A group of options: its title, "reset all", what stands above its fields, the fields.
const group = (title, name, above = '') => `<div class="group-head">
    <h3 data-i18n="${title}"></h3>
    <button type="button" id="reset-${name}" class="link" data-i18n="setup.resetAll"></button>
  </div>
  ${above}<div class="fields" id="${name}-fields"></div>`;

const MARKUP = `
<aside class="setup" id="setup" aria-labelledby="setup-h">
  <h2 id="setup-h" data-i18n="setup.title"></h2>
  <label class="field-label" for="task" data-i18n="setup.task"></label>
  <select id="task" data-testid="task"></select>
  <p class="hint" id="task-desc"></p>
  <div id="custom" hidden>
    <div id="custom-text" hidden>
      <label class="field-label" for="custom-text-input" id="custom-text-label" data-i18n="setup.yourText"></label>
      <textarea id="custom-text-input" rows="5" spellcheck="false"></textarea>
      <div id="custom-tokenizer-row">
        <label class="field-label" for="custom-tokenizer" data-i18n="setup.tokenizer"></label>
        <select id="custom-tokenizer"></select>
      </div>
    </div>
    <div id="custom-pairs" hidden>
      <label class="field-label" for="custom-pairs-input" data-i18n="setup.yourPairs"></label>
      <textarea id="custom-pairs-input" rows="5" spellcheck="false"></textarea>
      <p class="hint" data-i18n="setup.pairsHint"></p>
    </div>
    <p class="hint" id="custom-note" data-testid="custom-note"></p>
    <p class="error" id="custom-error" data-testid="custom-error" role="alert" hidden></p>
    <button type="button" id="custom-apply" class="small" data-i18n="setup.apply"></button>
  </div>

  <h3 data-i18n="setup.presets"></h3>
  <div class="presets" id="presets"></div>

  ${group('setup.architecture', 'arch', '<p class="hint" id="arch-summary"></p>')}
  ${group('setup.training', 'train')}
  <div class="fields" id="seed-fields"></div>
  <p class="error" id="config-error" role="alert" hidden></p>
</aside>`;

const CSS = `
.setup { position: sticky; top: 84px; align-self: start; max-height: calc(100vh - 100px); overflow-y: auto; background: var(--_bg); border: 1px solid var(--_rule);
  border-radius: var(--radius); padding: 16px 16px 20px; scrollbar-width: thin; }
.setup select#task { width: 100%; }
.group-head { display: flex; align-items: baseline; justify-content: space-between; gap: 8px; }
.presets { display: grid; grid-template-columns: 1fr 1fr; gap: 6px; }
.presets button:last-child { grid-column: 1 / -1; }
.presets button { font-size: 12.5px; padding: 6px 8px; white-space: normal; text-align: left; line-height: 1.25; min-height: 40px; }
.field.readonly input { background: var(--_panel); color: var(--_muted); border-style: dashed; }
.presets button.active { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); }
@container app (max-width: 1100px) { .setup { position: static; max-height: none; } }`;

const BOXES = [['custom-text-input', 'text'], ['custom-pairs-input', 'pairs']];

export class TpSetupPanel extends panel(MARKUP, CSS) {
  build() {
    this.props = null;
    this.$('task').addEventListener('change', (e) => this.emit('set', taskPatch(e.target.value)));
    for (const [id] of BOXES) this.$(id).addEventListener('input', () => this.checkCustom());
    this.$('custom-apply').addEventListener('click', () => {
      if (!this.checkCustom()) return;
      this.emit('set', { text: this.$('custom-text-input').value, pairs: this.$('custom-pairs-input').value, textTokenizer: this.$('custom-tokenizer').value, input: '', prompt: '' });
    });
    this.$('reset-arch').addEventListener('click', () => this.emit('set', { model: {} }));
    this.$('reset-train').addEventListener('click', () => this.emit('set', { train: {} }));
  }

  render(props) {
    this.props = props;
    this.task(props);
    this.$('presets').replaceChildren(...props.presets.map((p) => h('button', { type: 'button', class: p.active ? 'active' : '', 'aria-pressed': String(p.active), title: p.hint,
      disabled: p.disabled, onclick: () => this.emit('preset', { name: p.name }) }, p.text)));
    if (props.arch) this.fields(props);
    if (props.summary !== null) setText(this.$('arch-summary'), props.summary);
    const error = this.$('config-error');
    error.hidden = !props.error;
    if (props.error) setText(error, props.error);
  }

  task(props) {
    const select = this.$('task');
    select.replaceChildren(...props.task.groups.map((g) => h('optgroup', { label: g.label }, g.options.map((o) => h('option', { value: o.value, text: o.text })))));
    select.value = props.task.value;
    setText(this.$('task-desc'), props.task.desc);
    const c = props.custom, root = this.getRootNode();
    for (const [id, key] of BOXES) {
      const box = this.$(id);
      if (root.activeElement !== box && box.dataset.applied !== c[key]) box.value = box.dataset.applied = c[key];
    }
    this.$('custom').hidden = !c.task;
    this.$('custom-text').hidden = c.task !== 'text';
    this.$('custom-pairs').hidden = c.task !== 'pairs';
    this.$('custom-tokenizer').replaceChildren(...c.tokenizers.map((o) => h('option', { value: o.value, text: o.text, selected: o.selected })));
    // An imported model reads the text through its own tokenizer: nothing to pick.
    this.$('custom-tokenizer-row').hidden = c.imported;
    const label = this.$('custom-text-label');
    label.dataset.i18n = c.textLabelKey;
    setText(label, c.textLabel);
    if (c.task) this.checkCustom();
  }

  // Your own data: Apply stays off while the box holds more than the page takes.
  checkCustom() {
    const c = this.props.custom;
    const box = this.$(c.task === 'pairs' ? 'custom-pairs-input' : 'custom-text-input');
    const error = c.check(box.value.length);
    setText(this.$('custom-note'), c.note);
    this.$('custom-error').textContent = error;
    this.$('custom-error').hidden = !error;
    this.$('custom-apply').disabled = Boolean(error);
    box.setAttribute('aria-invalid', String(Boolean(error)));
    return !error;
  }

  // The boxes are drawn again from the state's values, which are valid: nothing stays invalid.
  fields(props) {
    if (props.invalid) this.emit('invalid', { clear: true });
    const control = (group) => (f) => fieldControl({
      ...f,
      onChange: (v) => this.emit('set-option', { group, key: f.field.key, value: v }),
      onReset: () => this.emit('reset-option', { group, key: f.field.key }),
      onInvalid: (why) => this.emit('invalid', { key: f.field.key, why }),
    });
    const arch = props.arch.readonly ? [h('p', { class: 'hint', id: 'arch-readonly-note', text: props.arch.note }), ...props.arch.fields.map(readonlyField)]
      : props.arch.fields.map(control('model'));
    replaceKeepingFocus(this.$('arch-fields'), [...arch, h('p', { class: 'hint', text: props.arch.fixed })]);
    replaceKeepingFocus(this.$('train-fields'), props.train.map(control('train')));
    replaceKeepingFocus(this.$('seed-fields'), [control('seed')(props.seed)]);
    this.$('reset-arch').hidden = props.resetArchHidden || Boolean(props.arch.readonly);
    this.$('reset-train').hidden = props.resetTrainHidden;
  }
}

// A value of an imported model's architecture: shown in a read-only box (focusable and read out
// as read-only), the note above saying why it cannot change.
function readonlyField(f) {
  return h('div', { class: 'field readonly', 'data-key': f.key },
    h('label', { for: f.id }, h('span', { class: 'name', text: f.name }), f.code ? h('span', { class: 'code', text: f.code }) : null),
    h('div', { class: 'ctl' }, h('input', { id: f.id, 'data-testid': `field-${f.key}`, type: 'text', readonly: true, value: f.value, 'aria-describedby': 'arch-readonly-note' })));
}

definePanel('tp-setup-panel', TpSetupPanel);
