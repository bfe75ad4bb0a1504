// controls.js — one labelled control per option (number, menu, switch or text), with the
// "changed from default" mark, the default shown beneath, and a per-control reset button.
import { h } from '../ui/dom.js';
import { englishRange, inRange } from './state.js';

// { field, value, defaultValue, lang-aware labels: name, code?, valueLabel(v), disabled: { value: reason },
//   onChange(v), onReset() } -> element
// onInvalid(message | null): a number outside the field's range (from the core's table, open ends
// excluded) stays in its box with the reason beside it, and the page is told (it keeps Train off
// meanwhile). invalidLabel(field) says what the box takes (the default: in English).
// slider: { min, max, step, onMove(v) } adds a range under a number's box over that part of its
// range (the box still takes any value the core allows): onMove while it moves, onChange when
// it is let go.
export function fieldControl({ field, id, value, defaultValue, name, code, valueLabel = String, disabled = {}, onChange, onReset, resetLabel, defaultLabel, changed, slider,
  onInvalid = () => {}, invalidLabel = (f) => `${f.kind === 'int' ? 'a whole number' : 'a number'} ${englishRange(f)}` }) {
  const inputId = id ?? `f-${field.key}`;
  let control;
  const testid = `field-${field.key}`;
  if (field.kind === 'enum') {
    control = h('select', { id: inputId, 'data-testid': testid },
      field.values.map((v) => h('option', { value: v, selected: v === value, disabled: v in disabled, title: disabled[v], text: valueLabel(v) + (v in disabled ? ' ✕' : '') })));
    control.addEventListener('change', () => onChange(control.value));
  } else if (field.kind === 'bool') {
    control = h('input', { id: inputId, 'data-testid': testid, type: 'checkbox', checked: Boolean(value) });
    control.addEventListener('change', () => onChange(control.checked));
  } else if (field.kind === 'text') {
    control = h('input', { id: inputId, 'data-testid': testid, type: 'text', value: value ?? '', spellcheck: 'false', autocomplete: 'off', placeholder: '—' });
    control.addEventListener('change', () => {
      const v = control.value.trim().toUpperCase();
      if (field.pattern.test(v)) onChange(v);
      else control.closest('.field').classList.add('invalid');
    });
  } else {
    control = h('input', { id: inputId, 'data-testid': testid, type: 'number', value: value ?? '', min: field.min, max: field.max, step: field.step ?? (field.kind === 'int' ? 1 : 'any'), inputmode: field.kind === 'int' ? 'numeric' : 'decimal' });
    control.addEventListener('change', () => {
      const raw = Number(control.value);
      const ok = control.value !== '' && Number.isFinite(raw) && inRange(field, raw) && (field.kind !== 'int' || Number.isInteger(raw));
      const box = control.closest('.field');
      box.classList.toggle('invalid', !ok);
      const why = box.querySelector('.why');
      why.textContent = ok ? '' : invalidLabel(field);
      why.hidden = ok;
      control.setAttribute('aria-invalid', String(!ok));
      onInvalid(ok ? null : why.textContent);
      if (ok) onChange(raw);
    });
  }
  let range = null;
  if (slider && control.type === 'number') {
    range = h('input', { id: `${inputId}-range`, 'data-testid': `slider-${field.key}`, type: 'range', min: slider.min, max: slider.max, step: slider.step,
      value: String(Math.min(slider.max, Math.max(slider.min, Number(value)))), 'aria-label': name });
    range.addEventListener('input', () => {
      control.value = range.value;
      slider.onMove(Number(range.value));
    });
    range.addEventListener('change', () => onChange(Number(range.value)));
    control.addEventListener('input', () => {
      if (control.value !== '' && Number.isFinite(Number(control.value))) range.value = control.value;
    });
  }
  const isChanged = changed ?? value !== defaultValue;
  return h('div', { class: `field${isChanged ? ' changed' : ''}${range ? ' has-slider' : ''}`, 'data-key': field.key },
    h('label', { for: inputId }, h('span', { class: 'name', text: name }), code ? h('span', { class: 'code', text: code }) : null),
    h('div', { class: 'ctl' }, control),
    h('button', { type: 'button', class: 'reset', 'aria-label': resetLabel, title: resetLabel, text: '↺', tabindex: isChanged ? '0' : '-1', onclick: onReset }),
    range ? h('div', { class: 'slider' }, range) : null,
    h('div', { class: 'default', text: defaultLabel }),
    h('div', { class: 'why', id: `${inputId}-why`, role: 'alert', hidden: true }));
}
