// lang.js — which language a component speaks: its own `lang` attribute or the nearest
// ancestor's (crossing shadow roots), as HTML defines it. Components subscribe to changes of
// <html lang> so one switch re-labels every widget on the page.
import { t as lookup } from '../../playground/strings.js';

export function langOf(el) {
  let node = el;
  while (node) {
    if (node.nodeType === 1 && node.hasAttribute('lang')) return node.getAttribute('lang').startsWith('ko') ? 'ko' : 'en';
    node = node.parentNode ?? node.host ?? null;
  }
  return 'en';
}

export function tr(el, key, vars) {
  return lookup(langOf(el), key, vars);
}

const listeners = new Set();
let observer = null;
export function onLangChange(callback) {
  if (!observer && typeof MutationObserver !== 'undefined') {
    observer = new MutationObserver(() => listeners.forEach((cb) => cb()));
    observer.observe(document.documentElement, { attributes: true, attributeFilter: ['lang'], subtree: true });
  }
  listeners.add(callback);
  return () => listeners.delete(callback);
}
