// lang.js — which language a page region speaks: an element's own `lang` attribute or the
// nearest ancestor's (crossing shadow roots), as HTML defines it; a subscription to changes of
// any `lang` attribute in the document, so one switch re-labels every widget on the page; and
// labelViews(), which hands the views (<tp-*> components) their labels in that language.
export function langOf(el) {
  let node = el;
  while (node) {
    if (node.nodeType === 1 && node.hasAttribute('lang')) return node.getAttribute('lang').startsWith('ko') ? 'ko' : 'en';
    node = node.parentNode ?? node.host ?? null;
  }
  return 'en';
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

// Sets `labels` on every view in root (views pass them on to views inside their own shadow
// roots). A view ignores the same object given twice.
export function labelViews(root, labels) {
  for (const el of root.querySelectorAll('*')) {
    if (el.localName.startsWith('tp-') && 'labels' in el) el.labels = labels;
  }
}
