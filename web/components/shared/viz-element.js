// viz-element.js — the base of every visual component (<tp-heatmap>, <tp-head-view>, ...).
//
// A subclass describes its picture as a scene (scene.js) for a given width; the base class
// paints it on a high-DPI canvas, sizes it to the container (ResizeObserver), shows a tooltip
// from hitTest(), relays token hovers as a bubbling `tp-hover` event ({ side, index } or null),
// reports the hovered cell as a bubbling `tp-cell` event ({ r, c } or null), offers PNG and SVG
// export of exactly what is on screen (with the label as its title), and keeps a text alternative: the
// canvas's aria-label plus a visually hidden data table. Colours and fonts come from the theme
// (web/ui/theme.js), overridable with --tp-* custom properties; styles are adopted sheets.
//
// Subclass hooks: layout(width) -> scene; hitTest(x, y) -> { tip, token?, cell? } | null;
// describe() -> string; tableData() -> { head: [...], rows: [[...]] } | null; onKey(event);
// exportName() -> string; static labels (English defaults of the words it draws; the page may
// set el.labels). Call this.dataChanged() when data changes, this.invalidate() when only the
// look does (hover). A view off screen defers drawing until it scrolls into view, so a
// page of many live views only pays for the ones being looked at.
import { THEME_CSS } from '../../ui/theme.js';
import { adoptStyles } from '../../ui/sheets.js';
import { drawScene, sceneToSvg, titled } from './scene.js';
import { download, slug } from './download.js';
import { Labelled } from './labelled.js';
import { onSchemeChange } from '../../ui/scheme.js';
import { ElementBase } from '../../ui/element.js';

export const BASE_CSS = `
  :host { display: block; position: relative; min-width: 0; font: 13px/1.4 var(--_font); color: var(--_fg); }
  :host([hidden]) { display: none; }
  .bar { display: flex; align-items: center; gap: 6px; min-height: 24px; margin-bottom: 4px; }
  .title { font-weight: 600; font-size: 12.5px; color: var(--_fg); }
  .title:empty { display: none; }
  .grow { flex: 1; }
  button.exp { font: 600 10.5px/1 var(--_font); letter-spacing: .03em; color: var(--_muted); background: transparent;
    border: 1px solid var(--_rule); border-radius: 5px; padding: 4px 6px; cursor: pointer; }
  button.exp:hover { color: var(--_fg); border-color: var(--_muted); }
  :host([no-export]) button.exp { display: none; }
  :host([no-export]) .bar:has(.title:empty) { display: none; }
  button:focus-visible, canvas:focus-visible { outline: 2px solid var(--_accent); outline-offset: 2px; }
  .frame { position: relative; }
  .stage { position: relative; width: 100%; overflow-x: auto; overflow-y: hidden; }
  canvas { display: block; border-radius: 4px; }
  .tip { position: absolute; pointer-events: none; z-index: 3; background: var(--_fg); color: var(--_bg);
    font: 12px/1.35 var(--_font); padding: 5px 8px; border-radius: 6px; white-space: pre; max-width: 320px;
    box-shadow: 0 4px 14px color-mix(in srgb, var(--_shadow) 18%, transparent); }
  .tip[hidden] { display: none; }
  .sr-only { position: absolute; top: 0; left: 0; width: 1px; height: 1px; overflow: hidden; clip-path: inset(50%); white-space: nowrap; }
`;

// Every view on the page draws from one frame queue: a frame draws views until it has spent
// FRAME_BUDGET_MS, and the rest wait for the next frame. A page of twenty live views then never
// holds the main thread for one long task while a run goes on; each view still draws at most
// once per frame, with its newest data.
const FRAME_BUDGET_MS = 10;
const queue = new Set();
let frame = 0;
function drawQueued() {
  frame = 0;
  const start = performance.now();
  for (const view of queue) {
    queue.delete(view);
    view._frame = 0;
    view.render();
    if (queue.size && performance.now() - start >= FRAME_BUDGET_MS) {
      frame = requestAnimationFrame(drawQueued);
      return;
    }
  }
}

export class VizElement extends Labelled(ElementBase) {
  static css = '';
  // English defaults of the words a view draws; el.labels (from the page) replaces them.
  static labels = { 'export.as': 'Export {name} as {format}' };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = `<div class="bar" part="bar"><span class="title" part="title"></span><span class="grow"></span><slot name="actions"></slot>
        <button type="button" class="exp" data-format="png">PNG</button><button type="button" class="exp" data-format="svg">SVG</button></div>
      <div class="frame"><div class="stage" part="stage"><canvas part="canvas" role="img" tabindex="0"></canvas></div><div class="tip" hidden></div></div>
      <div class="sr-only"><table></table></div>`;
    adoptStyles(root, THEME_CSS, BASE_CSS, this.constructor.css);
    this.canvas = root.querySelector('canvas');
    this.tipEl = root.querySelector('.tip');
    this.hover = null;        // the subclass's hover state (from hitTest)
    this._highlight = null;   // { side, index } from another view
    this._frame = 0;
    this._width = 0;
    this._visible = false;
    this._pending = false;
    this._tableDirty = true;
    this._theme = null;
    this.scene = null;
    root.querySelectorAll('button.exp').forEach((b) => b.addEventListener('click', () => this.export(b.dataset.format)));
    this.canvas.addEventListener('pointermove', (e) => this._pointer(e));
    this.canvas.addEventListener('pointerleave', () => this._leave());
    this.canvas.addEventListener('click', (e) => this.onClick?.(this._local(e)));
    this.canvas.addEventListener('keydown', (e) => this.onKey?.(e));
    this.canvas.addEventListener('blur', () => this._leave());
  }

  connectedCallback() {
    this._ro = new ResizeObserver(() => {
      const w = Math.floor(this.shadowRoot.querySelector('.stage').clientWidth);
      if (w !== this._width) {
        this._width = w;
        this.invalidate();
      }
    });
    this._ro.observe(this);
    this._io = new IntersectionObserver((entries) => {
      this._visible = entries.at(-1).isIntersecting;
      if (this._visible && this._pending) this.invalidate();
    }, { rootMargin: '300px 0px' });
    this._io.observe(this);
    // The page's or the widget's scheme changed (ui/scheme.js): redraw if the colours did.
    this._unscheme = onSchemeChange(() => {
      const cs = this._theme && getComputedStyle(this);
      if (!cs || (cs.getPropertyValue('--_bg').trim() === this._theme.bg && cs.getPropertyValue('--_fg').trim() === this._theme.fg)) return;
      this._theme = null;
      this.invalidate();
    });
    this.dataChanged();
  }

  disconnectedCallback() {
    this._ro?.disconnect();
    this._io?.disconnect();
    this._unscheme?.();
  }

  attributeChangedCallback() {
    this.dataChanged();
  }

  // The data (or a label) changed: the canvas's name now, even off screen (a sentence, cheap),
  // the data table with the next drawing. A canvas with nothing to say yet (no data, no label)
  // is hidden from assistive technology and out of the tab order until it has.
  dataChanged() {
    this._tableDirty = true;
    const name = this.describe?.() || this.getAttribute('label') || '';
    this.canvas.setAttribute('aria-label', name);
    if (name) this.canvas.removeAttribute('aria-hidden');
    else this.canvas.setAttribute('aria-hidden', 'true');
    this.canvas.tabIndex = name ? 0 : -1;
    this.invalidate();
  }

  // New words (labelled.js): drawn again with them.
  relabel() {
    this.dataChanged();
  }

  // Another view's hovered token; each view decides what to light up.
  get highlight() {
    return this._highlight;
  }
  set highlight(h) {
    const same = h === this._highlight || (h && this._highlight && h.side === this._highlight.side && h.index === this._highlight.index);
    this._highlight = h;
    if (!same) this.invalidate();
  }

  invalidate() {
    if (!this._visible) {
      this._pending = true;
      return;
    }
    this._pending = false;
    if (this._frame) return;
    this._frame = 1;
    queue.add(this);
    frame ||= requestAnimationFrame(drawQueued);
  }

  // Draws now (tests and exports call this to avoid waiting for a frame).
  render() {
    const stage = this.shadowRoot.querySelector('.stage');
    const width = Math.max(120, this._width || Math.floor(stage.clientWidth) || 480);
    this.shadowRoot.querySelector('.title').textContent = this.getAttribute('label') ?? '';
    this.shadowRoot.querySelectorAll('button.exp').forEach((b) => b.setAttribute('aria-label', this.t('export.as', { format: b.dataset.format.toUpperCase(), name: this.getAttribute('label') ?? '' })));
    const scene = this.layout(width);
    if (!scene) {
      this.canvas.width = this.canvas.height = 0;
      this.canvas.style.width = this.canvas.style.height = '0px';
      this.scene = null;
      return;
    }
    this.scene = scene;
    const dpr = Math.min(3, window.devicePixelRatio || 1);
    const w = Math.ceil(scene.width), h = Math.ceil(scene.height);
    if (this.canvas.width !== Math.round(w * dpr) || this.canvas.height !== Math.round(h * dpr)) {
      this.canvas.width = Math.round(w * dpr);
      this.canvas.height = Math.round(h * dpr);
      this.canvas.style.width = `${w}px`;
      this.canvas.style.height = `${h}px`;
    }
    const ctx = this.canvas.getContext('2d');
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    drawScene(ctx, scene);
    if (this._tableDirty) {
      this._tableDirty = false;
      this._table();
    }
    this.dispatchEvent(new CustomEvent('tp-render', { bubbles: false }));
  }

  // Colours and fonts from the CSS custom properties, read once (and again on a scheme change).
  theme() {
    if (this._theme) return this._theme;
    const cs = getComputedStyle(this);
    const v = (name) => cs.getPropertyValue(name).trim();
    const scheme = v('--_scheme');
    const dark = scheme ? scheme === 'dark' : matchMedia('(prefers-color-scheme: dark)').matches;
    return (this._theme = { dark, fg: v('--_fg'), muted: v('--_muted'), bg: v('--_bg'), rule: v('--_rule'), accent: v('--_accent'),
      hatch: v('--_hatch'), hatchLine: v('--_hatch-line'), changed: v('--_changed'), font: v('--_font'), mono: v('--_mono') });
  }

  _table() {
    const table = this.shadowRoot.querySelector('table');
    const data = this.tableData?.();
    table.replaceChildren();
    if (!data) return;
    const cap = document.createElement('caption');
    cap.textContent = this.getAttribute('label') ?? '';
    table.appendChild(cap);
    const head = document.createElement('tr');
    for (const h of data.head) {
      // An empty corner is a data cell: a header must name something.
      const th = document.createElement(h === '' ? 'td' : 'th');
      th.textContent = h;
      head.appendChild(th);
    }
    table.appendChild(head);
    for (const row of data.rows) {
      const r = document.createElement('tr');
      row.forEach((cell, i) => {
        const td = document.createElement(i === 0 ? 'th' : 'td');
        td.textContent = cell;
        r.appendChild(td);
      });
      table.appendChild(r);
    }
  }

  _local(e) {
    const rect = this.canvas.getBoundingClientRect();
    return { x: e.clientX - rect.left, y: e.clientY - rect.top };
  }

  _pointer(e) {
    const { x, y } = this._local(e);
    this.setHover(this.hitTest?.(x, y) ?? null, x, y);
  }

  _leave() {
    this.setHover(null);
  }

  // Sets the hover state (from the pointer or the keyboard) and shows its tooltip at (x, y).
  setHover(hit, x, y) {
    const prevToken = this.hover?.token;
    const changed = JSON.stringify(hit?.key ?? hit?.token ?? null) !== JSON.stringify(this.hover?.key ?? this.hover?.token ?? null);
    this.hover = hit;
    const tip = this.tipEl;
    if (hit?.tip) {
      tip.textContent = hit.tip;
      tip.hidden = false;
      const stage = this.shadowRoot.querySelector('.stage');
      const px = x ?? hit.x ?? 0, py = y ?? hit.y ?? 0;
      // The tip sits beside the stage, not in it, so the stage's scrolling never clips it: the
      // point is moved by the stage's scroll, and the tip kept inside the view's width.
      const left = Math.min(Math.max(0, px - stage.scrollLeft + 14), Math.max(0, stage.clientWidth - tip.offsetWidth - 4));
      tip.style.left = `${left}px`;
      tip.style.top = `${Math.max(0, py + 14)}px`;
    } else {
      tip.hidden = true;
    }
    if (changed) {
      this.invalidate();
      // The cell under the pointer (or the keyboard cursor), for a view that explains it.
      this.dispatchEvent(new CustomEvent('tp-cell', { bubbles: true, composed: true, detail: hit?.cell ?? null }));
    }
    const token = hit?.token ?? null;
    if (JSON.stringify(token) !== JSON.stringify(prevToken ?? null)) {
      this.dispatchEvent(new CustomEvent('tp-hover', { bubbles: true, composed: true, detail: token }));
    }
  }

  exportName() {
    return slug(this.getAttribute('label') ?? this.localName);
  }

  // The current picture with its title (the label), on the theme's background: what an export
  // holds, so a figure carries its own caption and legend.
  exportScene() {
    if (!this.scene) this.render();
    const th = this.theme();
    return { ...titled(this.scene, this.getAttribute('label') ?? '', { fill: th.fg }), background: th.bg, font: this.scene.font ?? th.font };
  }

  // The current picture as a PNG Blob (2x) or an SVG string.
  async toPng(scale = 2) {
    const s = this.exportScene();
    const canvas = document.createElement('canvas');
    canvas.width = Math.ceil(s.width * scale);
    canvas.height = Math.ceil(s.height * scale);
    const ctx = canvas.getContext('2d');
    ctx.setTransform(scale, 0, 0, scale, 0, 0);
    drawScene(ctx, s);
    return new Promise((resolve) => canvas.toBlob(resolve, 'image/png'));
  }

  toSvg() {
    return sceneToSvg(this.exportScene());
  }

  async export(format) {
    if (format === 'svg') download(new Blob([this.toSvg()], { type: 'image/svg+xml' }), `${this.exportName()}.svg`);
    else download(await this.toPng(), `${this.exportName()}.png`);
  }
}
