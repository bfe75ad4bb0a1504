// panel.js — the base of every playground panel element (<tp-outputs-panel>, <tp-attention-panel>,
// …). A panel element owns its markup and its styles and nothing else:
//   - `static markup` (a string with data-i18n keys, which the playground fills in the page's
//     language) is written into the element once, when it is first connected. The panel's
//     elements stay in the playground's shadow root (no shadow root of their own), so the page's
//     ids, focus order, hover sync and the views' labelling reach them as before;
//   - `static css` is adopted, as a constructable sheet, by the root the element is connected in
//     (a CSP without style-src allows it; ui/sheets.js shares one sheet per document);
//   - render(props) draws what the panel's pure derive() computed (panels/*/derive.js); the
//     element keeps only what is its own to keep (focus, a text being typed, an animation);
//   - it never calls the session or changes the state: it emits intents, `tp-intent` events with
//     { intent, ...detail }, which web/playground/app.js routes to whoever owns that state.
// Defined only where custom elements exist (a server-side render imports this module too).
import { sheet } from '../ui/sheets.js';

const Base = globalThis.HTMLElement ?? class {};

// A panel element lays out as its markup: it draws no box of its own.
const HOST_CSS = '[data-panel] { display: contents; }';

export class PanelElement extends Base {
  static markup = '';
  static css = '';

  connectedCallback() {
    if (!this._built) {
      this._built = true;
      this.dataset.panel = '';
      this.innerHTML = this.constructor.markup;
      adoptInto(this.getRootNode(), HOST_CSS);
      adoptInto(this.getRootNode(), this.constructor.css);
      this.build();
    }
  }

  // Called once, after the markup is written: find the elements, attach the listeners.
  build() {}

  // Draws props (what derive() made of the state, the run and the page).
  render(props) {
    void props;
  }

  // An element of the panel by id (ids are unique in the playground's root).
  $(id) {
    return this.querySelector(`#${id}`);
  }

  // Clicking the element of each id asks for its intent: { id: intent }.
  clicks(map) {
    for (const [id, intent] of Object.entries(map)) this.$(id).addEventListener('click', () => this.emit(intent));
  }

  // Asks the page to do something: app.js's INTENTS table says who does it.
  emit(intent, detail = {}) {
    this.dispatchEvent(new CustomEvent('tp-intent', { bubbles: true, detail: { ...detail, intent } }));
  }
}

// The base of a panel with this markup and these styles: `class extends panel(MARKUP, CSS)`.
export const panel = (markup, css = '') => class extends PanelElement {
  static markup = markup;
  static css = css;
};

// Adds a panel's stylesheet to `root` (a ShadowRoot or the Document), after what it has.
export function adoptInto(root, css) {
  if (!css || !root) return;
  if (!('adoptedStyleSheets' in root)) {
    // Browsers without constructable sheets get a <style> element (where the CSP allows it).
    const el = document.createElement('style');
    el.textContent = css;
    (root.head ?? root).append(el);
    return;
  }
  const s = sheet(css, root.ownerDocument ?? document);
  if (!root.adoptedStyleSheets.includes(s)) root.adoptedStyleSheets = [...root.adoptedStyleSheets, s];
}

// Defines `name` once, where custom elements exist.
export function definePanel(name, Element) {
  if (globalThis.customElements && !customElements.get(name)) customElements.define(name, Element);
}

// Replaces an element's children, keeping keyboard focus on the control with the same id.
export function replaceKeepingFocus(container, children) {
  const root = container.getRootNode();
  const focused = container.contains(root.activeElement) ? root.activeElement.id : null;
  container.replaceChildren(...children);
  if (focused) root.getElementById?.(focused)?.focus();
}

// Sets an element's text only when it changed (a live region then announces only news).
export function setText(el, text) {
  if (el && el.textContent !== text) el.textContent = text;
}
