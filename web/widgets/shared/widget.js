// widget.js — the base of every documentation widget (<tp-tokenizer>, <tp-attention>, ...).
//
// What every widget gets from here:
//   - a shadow root with the widget's markup and styles: adopted constructable sheets (the theme
//     of web/ui/theme.js, WIDGET_CSS, the subclass's static css), shared by every instance and
//     allowed by a CSP without style-src (no inline <style>), themed by the --tp-* custom
//     properties with light and dark defaults, in the scheme of its `theme` attribute (auto: the
//     host page's dark mode, ui/scheme.js), sized to its container;
//   - attributes read through `this.attr` helpers that validate them (attrs.js); an invalid value
//     shows a clear inline message instead of throwing;
//   - attribute changes batched into one `update(changed)` call (a microtask later), never two
//     updates at once;
//   - visibility: `this.visible` from an IntersectionObserver. A widget whose class says
//     `static lazy = true` does nothing until it is first on screen; `visibilityChanged(v)` lets a
//     training widget pause when scrolled away and resume when back;
//   - language: the nearest `lang` attribute (English or Korean), re-rendered when it changes;
//   - events: `tp-ready` (first render done) and `tp-error` ({ message }), both bubbling and
//     composed.
// Subclasses implement update(changed: Set<string>, first: boolean) and may implement
// visibilityChanged(visible) and disposeWidget().
import { langOf, onLangChange, labelViews } from '../../ui/lang.js';
import { viewLabels } from '../../ui/strings.js';
import { THEME_CSS } from '../../ui/theme.js';
import { adoptStyles } from '../../ui/sheets.js';
import { wt } from './strings.js';
import { AttrError, choice, list } from './attrs.js';
import { THEME_VALUES, followScheme, schemeChanged } from '../../ui/scheme.js';
import { SHIPPED_MODELS } from '../../models/models.js';
import { ElementBase } from '../../ui/element.js';

export const WIDGET_CSS = `
  :host { display: block; min-width: 0; box-sizing: border-box; margin: var(--tp-widget-margin, 1.25em 0);
    --_radius: var(--tp-radius, 12px); font: 14px/1.5 var(--_font); color: var(--_fg); }
  :host([hidden]) { display: none; }
  * { box-sizing: border-box; }
  [hidden] { display: none !important; }
  .frame { background: var(--_bg); border: 1px solid var(--_rule); border-radius: var(--_radius); padding: 14px 16px 16px;
    min-width: 0; color-scheme: var(--_scheme, light dark); }
  :host([frameless]) .frame { border: 0; padding: 0; background: transparent; }
  .head { display: flex; flex-wrap: wrap; align-items: baseline; gap: 4px 12px; margin: 0 0 8px; }
  .title { font-weight: 650; font-size: 14.5px; }
  .title:empty { display: none; }
  .sub { color: var(--_muted); font-size: 12.5px; }
  .status { color: var(--_muted); font-size: 12.5px; min-height: 1.5em; margin: 6px 0 0; font-variant-numeric: tabular-nums; }
  .status:empty { display: none; }
  .msg { margin: 8px 0 0; padding: 8px 10px; border-radius: 8px; font-size: 13px; color: var(--_danger);
    background: color-mix(in srgb, var(--_danger) 10%, transparent); border: 1px solid color-mix(in srgb, var(--_danger) 35%, transparent); }
  .msg[hidden] { display: none; }
  .prose { margin: 8px 0 0; color: var(--_fg); max-width: 75ch; }
  .prose p { margin: 0 0 8px; }
  .math { overflow-x: auto; padding: 8px 12px; background: var(--_panel); border-radius: 8px; margin: 8px 0; font-size: 16px; }
  .controls { display: flex; flex-wrap: wrap; gap: 6px 10px; align-items: center; margin: 0 0 10px; }
  button, select, input { font: inherit; color: inherit; }
  button { display: inline-flex; align-items: center; gap: 6px; font-size: 13px; font-weight: 600; padding: 6px 12px; min-height: 32px;
    border-radius: 8px; border: 1px solid var(--_rule); background: var(--_panel); cursor: pointer; white-space: nowrap; }
  button:hover:not(:disabled) { border-color: var(--_muted); }
  button:disabled { opacity: .45; cursor: default; }
  button.primary { background: var(--_accent); border-color: var(--_accent); color: var(--_accent-fg); }
  select, input[type=text] { background: var(--_bg); border: 1px solid var(--_rule); border-radius: 8px; padding: 5px 8px; min-height: 32px;
    font-size: 13.5px; max-width: 100%; }
  input[type=text] { flex: 1 1 180px; min-width: 0; }
  label.inline { display: inline-flex; align-items: center; gap: 6px; font-size: 12.5px; color: var(--_muted); }
  button:focus-visible, select:focus-visible, input:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
  .sr-only { position: absolute; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

let uid = 0;

export class TpWidget extends ElementBase {
  static css = '';
  static lazy = true;       // nothing happens until the widget is first on screen (false: at once)

  constructor() {
    super();
    this.uid = ++uid;
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<div class="frame" part="frame">${this.template()}<p class="msg" role="alert" part="message" hidden></p></div>`;
    adoptStyles(root, THEME_CSS, WIDGET_CSS, this.constructor.css);
    this.visible = false;
    this.seen = false;           // has been on screen at least once
    this._changed = new Set();
    this._first = true;
    this._scheduled = false;
    this._running = null;
    this._ready = false;
    // The views a widget shows speak its language: labelled when added and when it changes.
    new MutationObserver(() => this.labelViews()).observe(root, { childList: true, subtree: true });
  }

  labelViews() {
    labelViews(this.shadowRoot, viewLabels(this.lang));
  }

  // Names every control of the template in the widget's language: called when the widget is
  // connected and when its language changes, so a widget not yet on screen (lazy: no update has
  // run) has no nameless control for a screen reader. Widgets with controls override it.
  nameControls() {}

  // The markup inside the frame (before the message box).
  template() {
    return '';
  }

  $(selector) {
    return this.shadowRoot.querySelector(selector);
  }

  // For widgets that draw attention: a head picked in a view (tp-select) becomes the `layer` and
  // `head` attributes, and a hovered cell (tp-hover) is highlighted in every view `views` matches.
  followAttentionPicks(views) {
    this.shadowRoot.addEventListener('tp-select', (e) => {
      this.setAttribute('layer', String(e.detail.layer));
      this.setAttribute('head', String(e.detail.head));
    });
    this.shadowRoot.addEventListener('tp-hover', (e) => {
      for (const el of this.shadowRoot.querySelectorAll(views)) el.highlight = e.detail;
    });
  }

  get lang() {
    return langOf(this);
  }

  // A widget string in the element's language (strings.js).
  t(key, vars) {
    return wt(this.lang, key, vars);
  }

  connectedCallback() {
    this._io = new IntersectionObserver((entries) => {
      const visible = entries.at(-1).isIntersecting;
      if (visible === this.visible) return;
      this.visible = visible;
      if (visible) this.seen = true;
      this._safe(() => this.visibilityChanged?.(visible));
      if (visible && this._waiting) {
        this._waiting = false;
        this.schedule();
      }
    }, { rootMargin: '120px 0px' });
    this._io.observe(this);
    this._unscheme = followScheme(this);
    this._unlang = onLangChange(() => {
      if (this._langSeen !== this.lang) this.attributeChangedCallback('lang', null, this.lang);
    });
    this._langSeen = this.lang;
    this.labelViews();
    this._safe(() => this.nameControls());
    clearTimeout(this._disposeTimer);
    this.schedule();
  }

  disconnectedCallback() {
    this._io?.disconnect();
    this._unscheme?.();
    this._unlang?.();
    this.visible = false;
    // Moving an element disconnects and reconnects it at once: free only if it stays out.
    clearTimeout(this._disposeTimer);
    this._disposeTimer = setTimeout(() => {
      if (!this.isConnected) this._safe(() => this.disposeWidget?.());
    }, 1000);
  }

  attributeChangedCallback(name, oldValue, newValue) {
    if (oldValue === newValue) return;
    this._changed.add(name);
    if (name === 'theme') schemeChanged(this);
    if (name === 'lang') {
      this._langSeen = this.lang;
      this.labelViews();
      this._safe(() => this.nameControls());
    }
    if (this.isConnected) this.schedule();
  }

  // Runs update() once after the current batch of attribute changes, one update at a time.
  schedule() {
    if (this._scheduled) return;
    this._scheduled = true;
    queueMicrotask(() => {
      this._scheduled = false;
      this._drain();
    });
  }

  async _drain() {
    if (this._running) {
      this._again = true;
      return;
    }
    if (!this.isConnected) return;
    if (this.constructor.lazy && !this.seen) {
      this._waiting = true;
      return;
    }
    const changed = this._changed;
    this._changed = new Set();
    const first = this._first;
    this._first = false;
    this._running = (async () => {
      try {
        this.clearError();
        choice(this, 'theme', THEME_VALUES, 'auto');
        await this.update(changed, first);
        if (!this._ready) {
          this._ready = true;
          this.dataset.ready = 'true';
          this.dispatchEvent(new CustomEvent('tp-ready', { bubbles: true, composed: true }));
        }
      } catch (error) {
        this.showError(error);
      }
    })();
    await this._running;
    this._running = null;
    if (this._again || this._changed.size) {
      this._again = false;
      this._drain();
    }
  }

  _safe(fn) {
    try {
      const r = fn();
      if (r && typeof r.catch === 'function') r.catch((e) => this.showError(e));
    } catch (error) {
      this.showError(error);
    }
  }

  // An inline message in the widget (never an uncaught error), plus a tp-error event.
  showError(error) {
    const message = error instanceof AttrError ? error.message : error?.message ?? String(error);
    const box = this.$('.msg');
    box.textContent = message;
    box.hidden = false;
    // A "loading…" line would be wrong now.
    const status = this.$('.status');
    if (status && !this._ready) status.textContent = '';
    this.dataset.error = message;
    this.dispatchEvent(new CustomEvent('tp-error', { bubbles: true, composed: true, detail: { message } }));
  }

  clearError() {
    const box = this.$('.msg');
    box.hidden = true;
    box.textContent = '';
    delete this.dataset.error;
  }

  // A URL from an attribute, relative to the document (as <img src> is).
  resolveUrl(value) {
    return new URL(value, document.baseURI);
  }

  // The checkpoint a `model` attribute names: a shipped one by its name (model="reverse": the
  // file next to the widget files, wherever they or a bundler put them, so it also works in a
  // site whose server render would turn a computed URL into file:///…), else a URL relative to
  // the page.
  modelUrl(value = this.getAttribute('model')) {
    const name = value.trim();
    if (Object.hasOwn(SHIPPED_MODELS, name)) return SHIPPED_MODELS[name];
    const shipped = list(Object.keys(SHIPPED_MODELS).map((n) => `"${n}"`));
    if (/^file:/i.test(name)) {
      throw new AttrError(`model is a file: URL (${name}), which a browser cannot fetch (a server render computed it?); ` +
        `name a shipped checkpoint (${shipped}) or give an http(s) URL or a path relative to the page`);
    }
    if (!/[./]/.test(name)) {
      throw new AttrError(`model must be a shipped checkpoint's name (${shipped}) or the URL of a .safetensors file (got "${name}")`);
    }
    return this.resolveUrl(name);
  }

  // The checkpoint's file name for captions: a shipped one's own name (a bundler may have renamed
  // its file to a hash), else the URL's last segment.
  modelFileName(value = this.getAttribute('model')) {
    const name = value.trim();
    return Object.hasOwn(SHIPPED_MODELS, name) ? `${name}.safetensors` : String(this.modelUrl(name)).split('/').pop();
  }
}
