// <tp-outputs-panel> — the Outputs card: the prompt, the generation options, the answer revealed
// one token every 90 ms with that step's candidates as bars (a prediction for an encoder-only
// model), the sliders' preview bars, the KV cache filling as the answer appears, and the
// measured comparison of the cache on and off. It draws outputs/derive.js's props; it keeps only
// the reveal (how many tokens show), the step picked and whether the bars show a preview.
// Intents: set (a generation option), generate { prompt, sample }, preview { moved, prompt },
// measure-kv { prompt }.
import { h } from '../../../ui/dom.js';
import { fieldControl } from '../../controls.js';
import { panel, definePanel, replaceKeepingFocus, setText } from '../../panel.js';

const MARKUP = `
<section id="outputs" class="card" aria-labelledby="out-h">
<div class="card-head"><h2 id="out-h" data-i18n="out.title"></h2><p class="lead" data-i18n="out.lead"></p></div>
<form id="gen-form" class="prompt-row">
  <label class="sr-only" for="prompt" data-i18n="out.prompt"></label>
  <input id="prompt" data-testid="prompt" type="text" spellcheck="false" autocomplete="off">
  <button type="submit" id="generate" class="primary" data-testid="generate" disabled></button>
</form>
<div class="samples" id="prompt-samples"></div>
<div class="fields gen-fields" id="gen-fields"></div>
<div class="output-box">
  <div class="output-label" data-i18n="out.output"></div>
  <output id="output" data-testid="output" for="prompt" aria-live="polite"></output>
  <p class="hint" id="gen-meta"></p>
  <p class="hint" id="answer-step" data-testid="answer-step"></p>
</div>
<p class="hint" id="out-at-step" data-testid="out-at-step"></p>
<div class="gen-steps" id="gen-steps" role="listbox" data-i18n-aria="out.steps"></div>
<tp-prob-bars id="prob-bars"></tp-prob-bars>
<div class="kv">
  <button type="button" id="kv-compare" class="small" data-i18n="out.kvCompare" disabled></button>
  <p class="hint" id="kv-result" aria-live="polite"></p>
</div>
<div class="kv-picture" id="kv-picture" hidden>
  <h3 data-i18n="out.kvTitle"></h3>
  <p class="hint" data-i18n="out.kvLead"></p>
  <tp-kv-cache id="kv-cache" data-testid="kv-cache"></tp-kv-cache>
  <p class="hint" id="kv-work" data-testid="kv-work"></p>
</div>
</section>`;

const CSS = `
.gen-fields { grid-template-columns: repeat(auto-fill, minmax(230px, 1fr)); margin: 10px 0; column-gap: 10px; }
.gen-fields .field { grid-template-columns: minmax(0, 1fr) 72px 22px; }
.gen-fields .field > label .name { overflow: visible; }
.prompt-row { display: flex; gap: 8px; }
.prompt-row input { flex: 1; min-width: 0; font-size: 16px; }
.output-box { border: 1px solid var(--_rule); border-radius: 10px; padding: 10px 14px; margin: 10px 0; background: var(--_panel); }
.output-label { font-size: 11px; text-transform: uppercase; letter-spacing: .05em; color: var(--_muted); }
output .echo { color: var(--_muted); font-weight: 400; }
output { display: block; font: 600 20px/1.4 var(--_font); min-height: 28px; word-break: break-word; }
.gen-steps { display: flex; flex-wrap: wrap; gap: 4px; margin: 6px 0 10px; }
.gen-steps button { font: 500 13px var(--_font); padding: 4px 9px; min-height: 30px; border-radius: 7px; background: var(--_bg); }
.gen-steps button[aria-selected="true"] { border-color: var(--_accent); box-shadow: inset 0 0 0 1px var(--_accent); }
.gen-steps button .p { font: 10px var(--_mono); color: var(--_muted); }
.gen-steps button.fresh { animation: pop .25s ease-out; }
/* Scale only: a fade would leave the new step's text below the contrast it needs while it plays. */
@keyframes pop { from { transform: scale(.85); } to { transform: none; } }
.kv { display: flex; flex-wrap: wrap; gap: 10px; align-items: center; margin-top: 10px; }
.kv-picture[hidden] { display: none; }
@media (prefers-reduced-motion: reduce) { * { animation: none !important; transition: none !important; } }`;

const TICK_MS = 90;

export class TpOutputsPanel extends panel(MARKUP, CSS) {
  build() {
    this.props = null;
    this.shown = { id: null, k: 0, selected: 0, done: false, previewId: null, preview: false };
    this.frame = 0;
    const prompt = this.$('prompt');
    this.$('gen-form').addEventListener('submit', (e) => {
      e.preventDefault();
      this.emit('generate', { prompt: prompt.value });
    });
    this.$('kv-compare').addEventListener('click', () => this.emit('measure-kv', { prompt: prompt.value }));
    const steps = this.$('gen-steps');
    steps.addEventListener('keydown', (e) => {
      const n = steps.children.length;
      if (!n) return;
      if (e.key === 'ArrowRight' || e.key === 'ArrowDown') this.select(Math.min(n - 1, this.shown.selected + 1));
      else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') this.select(Math.max(0, this.shown.selected - 1));
      else return;
      e.preventDefault();
    });
  }

  render(props) {
    const before = this.props;
    this.props = props;
    this.controls(props, before);
    setText(this.$('out-at-step'), props.atStep);
    setText(this.$('answer-step'), props.answerStep);
    setText(this.$('kv-result'), props.kvMeasure);
    const a = props.answer;
    if ((a?.id ?? null) !== this.shown.id) this.start(a);
    else if (a && before?.lang !== props.lang && (a.kind !== 'generate' || this.shown.done)) this.finish();
    if (props.preview && props.preview.id !== this.shown.previewId) {
      this.shown.previewId = props.preview.id;
      this.shown.preview = true;
      this.bars();
    }
    if (props.previewError && props.previewError !== before?.previewError) setText(this.$('gen-meta'), props.previewError);
  }

  // The prompt, its samples and the options (drawn again only when they change).
  controls(props, before) {
    const prompt = this.$('prompt');
    setText(this.$('generate'), props.generateLabel);
    const root = this.getRootNode();
    if (root.activeElement !== prompt && (props.prompt !== before?.prompt || props.runId !== before?.runId)) prompt.value = props.prompt;
    prompt.setAttribute('aria-label', props.promptLabel);
    const samples = JSON.stringify(props.samples);
    if (samples !== this._samples) {
      this._samples = samples;
      this.$('prompt-samples').replaceChildren(...props.samples.map((s) => h('button', { type: 'button', text: s, onclick: () => {
        prompt.value = s;
        this.emit('generate', { prompt: s, sample: true });
      } })));
    }
    const fields = JSON.stringify([props.fields, props.gen]);
    if (fields !== this._fields) {
      this._fields = fields;
      replaceKeepingFocus(this.$('gen-fields'), props.fields.map((f) => fieldControl({
        ...f,
        slider: f.slider && { ...f.slider, onMove: (v) => this.emit('preview', { moved: { [f.field.key]: v }, prompt: prompt.value }) },
        onChange: (v) => this.emit('set', { gen: { ...this.props.gen, [f.field.key]: v } }),
        onReset: () => this.emit('set', { gen: { ...this.props.gen, [f.field.key]: f.defaultValue } }),
      })));
    }
    this.$('gen-fields').hidden = props.encoderOnly;
    this.$('kv-compare').hidden = props.encoderOnly;
    this.$('generate').disabled = !props.ready;
    this.$('kv-compare').disabled = !props.ready;
  }

  // A new answer (or none): a generation is revealed one token at a time, a prediction at once.
  start(a) {
    cancelAnimationFrame(this.frame);
    this.shown = { ...this.shown, id: a?.id ?? null, k: 0, selected: 0, done: false, preview: false };
    this.kvPicture(a);
    if (!a || a.kind === 'error') {
      this.output('');
      setText(this.$('gen-meta'), a?.meta ?? '');
      this.$('gen-steps').replaceChildren();
      this.$('prob-bars').items = [];
      return;
    }
    if (a.kind !== 'generate' || !a.steps.length || matchMedia('(prefers-reduced-motion: reduce)').matches) {
      this.finish();
      return;
    }
    this.$('gen-steps').replaceChildren();
    this.output('');
    let last = 0;
    const tick = (now) => {
      const cur = this.props.answer;  // the same answer, in the language shown now
      if (cur?.id !== a.id) return;
      if (now - last >= TICK_MS || this.shown.k === 0) {
        last = now;
        this.shown.k += 1;
        this.shown.selected = this.shown.k - 1;
        this.output(this.shown.k >= cur.steps.length ? cur.text : cur.textAt[this.shown.k - 1]);
        this.cache(this.shown.k);
        this.steps(this.shown.k, true);
        this.bars();
      }
      if (this.shown.k < cur.steps.length) this.frame = requestAnimationFrame(tick);
      else this.finish();
    };
    this.frame = requestAnimationFrame(tick);
  }

  // The whole answer, its line and its bars (also when the language changes).
  finish() {
    const a = this.props.answer;
    this.shown.done = true;
    this.shown.preview = false;
    this.output(a.text);
    setText(this.$('gen-meta'), a.meta);
    if (a.kind === 'generate') this.cache(a.steps.length);
    this.steps(a.steps.length, false);
    this.bars();
  }

  output(text) {
    const out = this.$('output'), echo = this.props.answer?.echo;
    if (echo) out.replaceChildren(h('span', { class: 'echo', text: echo }), text);
    else out.textContent = text;
  }

  steps(n, fresh) {
    const a = this.props.answer;
    this.$('gen-steps').replaceChildren(...a.steps.slice(0, n).map((s, i) => h('button', {
      type: 'button', role: 'option', 'aria-selected': String(i === this.shown.selected), class: fresh && i === n - 1 ? 'fresh' : '',
      onclick: () => this.select(i) },
    s.sr ? h('span', { class: 'sr-only', text: s.sr }) : null, s.label, s.p !== null ? h('span', { class: 'p', text: s.p }) : null)));
  }

  select(i) {
    this.shown.selected = i;
    this.shown.preview = false;
    const a = this.props.answer;
    if (a.kind !== 'classes') this.steps(a.steps.length, false);
    this.bars();
    this.$('gen-steps').children[i]?.focus();
  }

  // The picked step's candidates, or the sliders' preview while it is the newest.
  bars() {
    const el = this.$('prob-bars'), p = this.props.preview, a = this.props.answer;
    if (this.shown.preview && p) {
      el.setAttribute('bars', 'sample');
      el.setAttribute('label', p.label);
      el.items = p.items;
      el.dataset.preview = p.setting;
      return;
    }
    if (!a || a.kind === 'error') return;
    el.removeAttribute('bars');
    delete el.dataset.preview;
    const b = a.bars[a.kind === 'classes' ? 0 : this.shown.selected];
    if (!b) return;
    el.setAttribute('label', b.label);
    el.items = b.items;
    el.setAttribute('accent', a.accent);
  }

  kvPicture(a) {
    const kv = a?.kind === 'generate' ? this.props.kv : null;
    this.$('kv-picture').hidden = !kv;
    if (!kv) return;
    const el = this.$('kv-cache');
    el.setAttribute('label', kv.label);
    el.data = kv.data;
  }

  // The cache while k of the answer's tokens show.
  cache(k) {
    const kv = this.props.kv, el = this.$('kv-cache');
    if (!kv || this.$('kv-picture').hidden) return;
    el.upto = kv.uptoAt[Math.min(k, kv.uptoAt.length - 1)];
    setText(this.$('kv-work'), el.workText());
  }
}

definePanel('tp-outputs-panel', TpOutputsPanel);
