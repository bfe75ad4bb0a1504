// dom.js — small DOM helpers shared by the playground and the widgets: an element builder, the
// pass that fills every [data-i18n] (text) and [data-i18n-aria] (aria-label) from a string
// lookup, and a radiogroup of buttons.

export function h(tag, attrs = {}, ...children) {
  const el = document.createElement(tag);
  for (const [k, v] of Object.entries(attrs)) {
    if (v === undefined || v === null || v === false) continue;
    if (k === 'class') el.className = v;
    else if (k === 'text') el.textContent = v;
    else if (k.startsWith('on')) el.addEventListener(k.slice(2), v);
    else if (k === 'style' && typeof v === 'object') Object.assign(el.style, v);
    else el.setAttribute(k, v === true ? '' : String(v));
  }
  for (const c of children.flat()) if (c !== null && c !== undefined) el.append(c);
  return el;
}

// t(key) -> the string in the page's language.
export function applyStrings(root, t) {
  root.querySelectorAll('[data-i18n]').forEach((el) => (el.textContent = t(el.dataset.i18n)));
  root.querySelectorAll('[data-i18n-aria]').forEach((el) => el.setAttribute('aria-label', t(el.dataset.i18nAria)));
}

// A radiogroup of buttons (keyboard: arrows move, like native radios).
export function segmented(container, options, current, onPick) {
  const hadFocus = container.contains(container.getRootNode().activeElement);
  container.replaceChildren(...options.map((o) => h('button', {
    type: 'button', role: 'radio', 'aria-checked': String(o.value === current), tabindex: o.value === current ? '0' : '-1',
    disabled: o.disabled, title: o.title, 'data-value': o.value, text: o.label,
    onclick: () => onPick(o.value),
  })));
  if (hadFocus) container.querySelector('[aria-checked="true"]')?.focus();
  if (!container.dataset.keys) {
    container.dataset.keys = '1';
    container.addEventListener('keydown', (e) => {
      const buttons = [...container.querySelectorAll('button:not(:disabled)')];
      const i = buttons.indexOf(container.getRootNode().activeElement);
      if (i < 0) return;
      const d = e.key === 'ArrowRight' || e.key === 'ArrowDown' ? 1 : e.key === 'ArrowLeft' || e.key === 'ArrowUp' ? -1 : 0;
      if (!d) return;
      e.preventDefault();
      buttons[(i + d + buttons.length) % buttons.length].click();
    });
  }
}
