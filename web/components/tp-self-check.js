// <tp-self-check> — shows the engine version and the kernel self-check: this browser's wasm SIMD
// kernels against the scalar reference, case by case, with the measured matmul speed of each.
import { load } from '../lib/transformer-playground.js';

const template = document.createElement('template');
template.innerHTML = `
  <style>
    :host { display: block; font: 14px/1.4 system-ui, sans-serif; }
    .status { font-weight: 600; }
    .pass { color: var(--tp-ok, #1a7f37); }
    .fail { color: var(--tp-bad, #cf222e); }
    table { border-collapse: collapse; margin-top: .5em; font-variant-numeric: tabular-nums; }
    td, th { padding: 2px 8px; text-align: left; border-bottom: 1px solid var(--tp-rule, #ddd); }
    details summary { cursor: pointer; }
  </style>
  <p><span part="version" data-testid="version">loading the WebAssembly module…</span></p>
  <p class="status" data-testid="self-check" role="status" aria-live="polite"></p>
  <details><summary>every case</summary><table><thead><tr><th>kernel</th><th>error</th><th>tolerance</th><th></th></tr></thead><tbody></tbody></table></details>
`;

class TpSelfCheck extends HTMLElement {
  constructor() {
    super();
    this.attachShadow({ mode: 'open' }).appendChild(template.content.cloneNode(true));
  }

  async connectedCallback() {
    const $ = (s) => this.shadowRoot.querySelector(s);
    try {
      const tp = await load();
      $('[data-testid=version]').textContent = `Transformer Playground ${tp.version}`;
      const report = tp.kernelSelfCheck();
      const status = $('[data-testid=self-check]');
      status.className = `status ${report.pass ? 'pass' : 'fail'}`;
      status.textContent = `${report.pass ? 'pass' : 'FAIL'}: ${report.cases.filter((c) => c.pass).length}/${report.cases.length} kernel checks (${report.backend} vs scalar reference); ` +
        `matmul 128³ ${report.simdGflops.toFixed(1)} GFLOP/s with SIMD, ${report.scalarGflops.toFixed(2)} scalar`;
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

customElements.define('tp-self-check', TpSelfCheck);
