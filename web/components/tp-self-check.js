// <tp-self-check> — shows the engine version and the kernel self-check: this browser's wasm SIMD
// kernels against the scalar reference, case by case, with the measured matmul speed of each.
// The check runs once the page is idle. Colours from the theme (--tp-ok, --tp-danger, --tp-rule).
import { load } from '../lib/api.js';
import { THEME_CSS } from '../ui/theme.js';
import { adoptStyles } from '../ui/sheets.js';
import { Labelled } from './shared/labelled.js';
import { ElementBase, defineElement } from '../ui/element.js';

const CSS = `
  :host { display: block; font: 14px/1.4 var(--_font); }
  .status { font-weight: 600; }
  .pass { color: var(--_ok); }
  .fail { color: var(--_danger); }
  table { border-collapse: collapse; margin-top: .5em; font-variant-numeric: tabular-nums; }
  td, th { padding: 2px 8px; text-align: left; border-bottom: 1px solid var(--_rule); }
  details summary { cursor: pointer; }
`;

const MARKUP = `
  <p><span part="version" data-testid="version"></span></p>
  <p class="status" data-testid="self-check" role="status" aria-live="polite"></p>
  <details><summary></summary><table><thead><tr><th data-k="kernel"></th><th data-k="error"></th><th data-k="tolerance"></th><th></th></tr></thead><tbody></tbody></table></details>
`;

class TpSelfCheck extends Labelled(ElementBase) {
  static labels = {
    'check.loading': 'loading the WebAssembly module…', 'check.version': 'Transformer Playground {version}', 'check.cases': 'every case',
    'check.kernel': 'kernel', 'check.error': 'error', 'check.tolerance': 'tolerance',
    'check.pass': 'pass: {passed}/{total} kernel checks ({backend} vs scalar reference); matmul 128³ {simd} GFLOP/s with SIMD, {scalar} scalar',
    'check.fail': 'FAIL: {passed}/{total} kernel checks ({backend} vs scalar reference); matmul 128³ {simd} GFLOP/s with SIMD, {scalar} scalar',
  };

  constructor() {
    super();
    const root = this.attachShadow({ mode: 'open' });
    root.innerHTML = MARKUP;
    adoptStyles(root, THEME_CSS, CSS);
  }

  // Its words (labelled.js); the report is kept to re-label on a switch.
  relabel() {
    const $ = (s) => this.shadowRoot.querySelector(s);
    const ct = (k, v) => this.t(`check.${k}`, v);
    $('summary').textContent = ct('cases');
    this.shadowRoot.querySelectorAll('[data-k]').forEach((el) => (el.textContent = ct(el.dataset.k)));
    $('[data-testid=version]').textContent = this.version ? ct('version', { version: this.version }) : ct('loading');
    const r = this.report;
    if (r) {
      $('[data-testid=self-check]').textContent = ct(r.pass ? 'pass' : 'fail', { passed: r.cases.filter((c) => c.pass).length, total: r.cases.length, backend: r.backend,
        simd: r.simdGflops.toFixed(1), scalar: r.scalarGflops.toFixed(2) });
    }
  }

  async connectedCallback() {
    const $ = (s) => this.shadowRoot.querySelector(s);
    this.relabel();
    try {
      const tp = await load();
      this.version = tp.version;
      this.relabel();
      // The check times matmuls for ~0.1 s: run it when the page is idle, not while it loads.
      await new Promise((resolve) => (window.requestIdleCallback ? requestIdleCallback(resolve, { timeout: 3000 }) : setTimeout(resolve, 500)));
      const report = tp.kernelSelfCheck();
      this.report = report;
      const status = $('[data-testid=self-check]');
      status.className = `status ${report.pass ? 'pass' : 'fail'}`;
      this.relabel();
      const body = $('tbody');
      for (const c of report.cases) {
        const row = document.createElement('tr');
        for (const text of [c.kernel, c.error.toExponential(2), c.tolerance.toExponential(0), c.pass ? '✓' : '✗']) {
          const cell = document.createElement('td');
          cell.textContent = text;
          row.appendChild(cell);
        }
        body.appendChild(row);
      }
      this.dispatchEvent(new CustomEvent('tp-self-check', { detail: report, bubbles: true }));
    } catch (error) {
      const status = $('[data-testid=self-check]');
      status.className = 'status fail';
      status.textContent = error.message;
    }
  }
}

defineElement('tp-self-check', TpSelfCheck);
