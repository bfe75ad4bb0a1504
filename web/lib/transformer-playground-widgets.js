// transformer-playground-widgets.js — the one script a documentation page adds:
//
//   <script type="module" src="…/web/lib/transformer-playground-widgets.js"></script>
//   <tp-tokenizer text="how are you" kind="word"></tp-tokenizer>
//
// It registers every widget: <tp-tokenizer>, <tp-positional-encoding>, <tp-attention>,
// <tp-walkthrough>, <tp-train>, <tp-replay> and <tp-playground> (docs/WIDGETS.md). Each lives in
// its own module under web/widgets/, and a module is loaded only when the page uses its element:
// a page with one <tp-tokenizer> loads that widget, not the playground. Elements added later (by a
// script, or a page that builds its content) are picked up as they appear.
//
// Every widget on the page shares one WebAssembly module (fetched and compiled once) and one
// instance on the page's thread; a widget that trains gets one Worker of its own, which
// instantiates the same compiled module; <tp-replay> needs neither (it draws a run file).
// Nothing is loaded from another origin, nothing is evaluated from strings, and no special
// server headers are needed.
// Literal import() calls, so a bundler (Vite, webpack, Rollup) sees and ships every widget.
const WIDGETS = {
  'tp-tokenizer': () => import('../widgets/tp-tokenizer.js'),
  'tp-positional-encoding': () => import('../widgets/tp-positional-encoding.js'),
  'tp-attention': () => import('../widgets/tp-attention.js'),
  'tp-walkthrough': () => import('../widgets/tp-walkthrough.js'),
  'tp-train': () => import('../widgets/tp-train.js'),
  'tp-replay': () => import('../widgets/tp-replay.js'),
  'tp-playground': () => import('../widgets/tp-playground.js'),
};

export const WIDGET_NAMES = Object.keys(WIDGETS);

const loading = new Map();

// Loads (once) and registers one widget; resolves with its class.
export function define(name) {
  if (!WIDGETS[name]) return Promise.reject(new Error(`unknown widget <${name}>; the widgets are ${WIDGET_NAMES.map((n) => `<${n}>`).join(', ')}`));
  if (!loading.has(name)) {
    loading.set(name, WIDGETS[name]().then(() => customElements.whenDefined(name)).catch((error) => {
      loading.delete(name);
      console.error(`Transformer Playground: could not load <${name}>: ${error.message}`);
      throw error;
    }));
  }
  return loading.get(name);
}

// Registers every widget now (for pages that create them from scripts and need them at once).
export function defineAll() {
  return Promise.all(WIDGET_NAMES.map(define));
}

const selector = WIDGET_NAMES.join(',');

function scan(root) {
  for (const name of WIDGET_NAMES) {
    if (!loading.has(name) && root.querySelector?.(name)) define(name).catch(() => {});
  }
}

function watch() {
  scan(document);
  new MutationObserver((records) => {
    for (const r of records) {
      for (const node of r.addedNodes) {
        if (node.nodeType !== 1) continue;
        if (node.matches(selector)) define(node.localName).catch(() => {});
        if (node.firstElementChild) scan(node);
      }
    }
  }).observe(document.documentElement, { childList: true, subtree: true });
}

if (typeof document !== 'undefined') {
  if (document.readyState === 'loading') {
    // Start with what the parser has seen so far, and the rest as it arrives.
    scan(document);
    document.addEventListener('DOMContentLoaded', () => scan(document), { once: true });
    watch();
  } else {
    watch();
  }
}
