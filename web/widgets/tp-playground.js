// <tp-playground> — the whole playground as one element: set-up, training, outputs, attention,
// tokens, embeddings, the walk-through, model files. web/index.html is a page holding one
// <tp-playground standalone>; documentation pages embed it with panels hidden.
//
//   <tp-playground task="reverse" panels="training,outputs,attention"></tp-playground>
//   <tp-playground state="task=qa-toy&m.pos=rope&m.dModel=8" hide="files,about"></tp-playground>
//
// Attributes: task (a built-in task, or text / pairs), state (a set-up as the playground's
// URL hash writes it, e.g. copied from its "Copy link"), panels (show only these) or hide
// (hide these): header, trainbar, setup, training, outputs, attention, tokens, embeddings,
// walkthrough, files, about; lang (en | ko); standalone (the page is the playground: the state
// is mirrored in the URL hash, and the document's title and language follow it).
// The engine and the training Worker load when the element is first on screen; training pauses
// while it is scrolled away and resumes when it is back.
import { mountPlayground, parseHash, TASK_NAMES } from '../playground/app.js';
import { langOf } from '../ui/lang.js';
import { followScheme, schemeChanged } from '../ui/scheme.js';
import { list } from './shared/attrs.js';
import { attributeNames } from './shared/manifest.js';
import { ElementBase, defineElement } from '../ui/element.js';

export const PANELS = ['header', 'trainbar', 'setup', 'training', 'outputs', 'attention', 'tokens', 'embeddings', 'walkthrough', 'files', 'about'];
const IDS = { header: 'masthead', trainbar: 'trainbar' };

export class TpPlayground extends ElementBase {
  static observedAttributes = attributeNames('tp-playground');

  connectedCallback() {
    clearTimeout(this._disposeTimer);
    if (!this.app) {
      const standalone = this.hasAttribute('standalone');
      let state = standalone ? parseHash(location.hash) : parseHash(this.getAttribute('state') ?? '');
      const errors = [];
      const task = this.getAttribute('task');
      if (task !== null && !standalone) {
        if (TASK_NAMES.includes(task)) state = { ...state, task };
        else errors.push(this.taskError(task));
      }
      const lang = this.getAttribute('lang') ?? (standalone ? null : langOf(this.parentNode ?? document.documentElement));
      if (lang && !(standalone && location.hash.includes('lang='))) state = { ...state, lang: lang.startsWith('ko') ? 'ko' : 'en' };
      this.app = mountPlayground(this, { standalone, state, visible: false });
      this.panels();
      for (const e of errors) this.error(e);
    }
    this._unscheme = followScheme(this);
    this._io = new IntersectionObserver((entries) => this.app.setVisible(entries.at(-1).isIntersecting), { rootMargin: '120px 0px' });
    this._io.observe(this);
  }

  disconnectedCallback() {
    this._io?.disconnect();
    this._unscheme?.();
    this._disposeTimer = setTimeout(() => {
      if (!this.isConnected && this.app) {
        this.app.dispose();
        this.app = null;
        this.shadowRoot.replaceChildren();
      }
    }, 1000);
  }

  attributeChangedCallback(name, oldValue, value) {
    if (name === 'theme' && oldValue !== value) schemeChanged(this);
    if (!this.app || oldValue === value || name === 'theme') return;
    this.error(null);
    if (name === 'panels' || name === 'hide') this.panels();
    else if (name === 'task') {
      if (TASK_NAMES.includes(value)) this.app.set({ task: value, model: {}, train: {}, input: '', prompt: '' });
      else this.error(this.taskError(value));
    } else if (name === 'state') {
      this.app.set(parseHash(value ?? ''));
    } else if (name === 'lang' && value) {
      const lang = value.startsWith('ko') ? 'ko' : 'en';
      if (lang !== this.app.state.lang) this.app.set({ lang });
    }
  }

  taskError(task) {
    return `task must be ${list(TASK_NAMES)} (got "${task}")`;
  }

  // Shows or hides the panels named by `panels` / `hide`.
  panels() {
    const read = (attr) => {
      const v = this.getAttribute(attr);
      if (v === null) return null;
      const names = v.split(/[\s,]+/).map((s) => s.trim().toLowerCase()).filter(Boolean);
      const bad = names.filter((n) => !PANELS.includes(n));
      if (bad.length) this.error(`${attr}: unknown panel ${bad.map((b) => `"${b}"`).join(', ')}; allowed: ${PANELS.join(', ')}`);
      return names;
    };
    const only = read('panels'), hide = read('hide') ?? [];
    const root = this.shadowRoot;
    for (const name of PANELS) {
      const el = root.getElementById(IDS[name] ?? name);
      if (!el) continue;
      const hidden = (only !== null && !only.includes(name) && !(name === 'trainbar' && only.some((n) => ['training', 'outputs', 'attention'].includes(n)))) || hide.includes(name);
      el.hidden = hidden;
      root.querySelector(`.jump a[href="#${name}"]`)?.toggleAttribute('hidden', hidden);
    }
    root.querySelector('.tp-app')?.classList.toggle('no-setup', root.getElementById('setup')?.hidden ?? false);
  }

  error(message) {
    const box = this.shadowRoot?.getElementById('widget-error');
    if (!box) return;
    box.hidden = !message;
    box.textContent = message ?? '';
    if (message) this.dispatchEvent(new CustomEvent('tp-error', { bubbles: true, composed: true, detail: { message } }));
  }
}

defineElement('tp-playground', TpPlayground);
