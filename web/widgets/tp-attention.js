// <tp-attention> — the attention of a real model on a text: trained live in a Worker while the
// reader watches, or loaded instantly from a checkpoint.
//
//   <tp-attention model="models/reverse.safetensors" text="a b c d e f" kind="cross"></tp-attention>
//   <tp-attention task="qa-toy" text="how are you" view="lines" head="all"></tp-attention>
//
// Attributes: model (a checkpoint URL, relative to the page: no training), task (a built-in task
// to train on when there is no model; default qa-toy), text, target (the decoder's input for a
// sequence task; default the model's own answer), kind (encoder | decoder | cross; default the
// first the model has), layer, head (a number, or "all" in the lines view), view (grid | lines |
// heads), stage (probs | masked | scaled | scores), values (numbers in the cells), editable (a
// text box), no-controls, label; when training: steps, seed and the model / training attributes
// of <tp-train> (d-model, heads, layers, pos, lr, ...), and stop-when-met (pause once where the
// run has learned its task, and say so; Resume trains on). Training starts when the widget is
// first on screen, pauses while it is scrolled away and resumes when it is back.
// Events: tp-ready, tp-error, tp-trace ({ step }) after each new trace is drawn.
import { TpWidget } from './shared/widget.js';
import { choice, text, flag, int, AttrError, list } from './shared/attrs.js';
import { sharedModel, sessionRequest, checkTask, CONFIG_ATTRIBUTES, task as taskInfo } from './shared/runtime.js';
import { SessionDriver } from './shared/session-driver.js';
import { headColor } from '../components/shared/colormap.js';
import { segmented } from '../ui/dom.js';
import { attentionName } from '../lib/trace-names.js';
import { formatLoss } from '../components/shared/format.js';
import '../components/tp-heatmap.js';
import '../components/tp-head-view.js';
import '../components/tp-attention-grid.js';
import { attributeNames } from './shared/manifest.js';
import { defineElement } from '../ui/element.js';

const KINDS = ['encoder', 'decoder', 'cross'];
// The attribute's kinds as the trace's (lib/trace-names.js).
const TRACE_KIND = { encoder: 'enc', decoder: 'dec', cross: 'cross' };
const KIND_KEY = { encoder: 'attn.kind.enc', decoder: 'attn.kind.dec', cross: 'attn.kind.cross' };

export function kindsOf(config) {
  if (config.arch === 'encoder-decoder') return ['encoder', 'decoder', 'cross'];
  if (config.arch === 'encoder-only') return ['encoder'];
  return ['decoder'];
}

export class TpAttention extends TpWidget {
  static observedAttributes = attributeNames('tp-attention');
  static css = `
    .controls[hidden], .editor[hidden] { display: none; }
    .segmented { display: inline-flex; border: 1px solid var(--_rule); border-radius: 8px; overflow: hidden; background: var(--_rule); gap: 1px; }
    .segmented button { border: 0; border-radius: 0; min-height: 30px; padding: 4px 10px; font-weight: 550; background: var(--_bg); }
    .segmented button[aria-checked="true"] { background: var(--_accent); color: var(--_accent-fg); }
    .editor { display: flex; gap: 8px; margin: 0 0 10px; }
    .view { min-height: 60px; }
    .run { display: flex; gap: 6px; }
    .run[hidden] { display: none; }
  `;

  template() {
    return `<div class="head"><span class="title" part="title"></span><span class="sub" part="subtitle"></span></div>
      <div class="editor" hidden><label class="sr-only" for="in"></label><input id="in" type="text" spellcheck="false" autocomplete="off"></div>
      <div class="controls" part="controls">
        <div class="segmented" role="radiogroup" data-role="view"></div>
        <label class="inline" data-role="kind-wrap"><span data-role="kind-label"></span> <select data-role="kind"></select></label>
        <label class="inline" data-role="layer-wrap"><span data-role="layer-label"></span> <select data-role="layer"></select></label>
        <label class="inline" data-role="head-wrap"><span data-role="head-label"></span> <select data-role="head"></select></label>
        <span class="run" hidden><button type="button" data-role="toggle"></button><button type="button" data-role="reset"></button></span>
      </div>
      <div class="view" part="view"></div>
      <p class="status" part="status" role="status" aria-live="polite"></p>`;
  }

  constructor() {
    super();
    this.trace = null;         // the latest trace drawn: { input, decoderInput, tensors, step }
    this.answer = '';
    this.model = null;         // a shared checkpoint Model (model attribute)
    this.driver = null;        // the training Worker (task mode)
    this._snap = { busy: false, again: false, last: 0, timer: 0 };
    const input = this.$('#in');
    let timer = 0;
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.setAttribute('text', input.value), 250);
    });
    for (const role of ['kind', 'layer', 'head']) {
      this.$(`[data-role=${role}]`).addEventListener('change', (e) => this.setAttribute(role, e.target.value));
    }
    this.$('[data-role=toggle]').addEventListener('click', () => {
      const d = this.driver;
      if (!d) return;
      if (d.running) d.pause();
      else if (d.finished) this.retrain();
      else d.start();
    });
    this.$('[data-role=reset]').addEventListener('click', () => this.retrain(true));
    this.followAttentionPicks('tp-heatmap, tp-head-view, tp-attention-grid');
  }

  get mode() {
    return this.getAttribute('model') ? 'model' : 'train';
  }

  async update(changed, first) {
    const view = choice(this, 'view', ['grid', 'lines', 'heads'], 'grid');
    choice(this, 'stage', ['probs', 'masked', 'scaled', 'scores'], 'probs');
    choice(this, 'kind', KINDS, undefined);
    const editable = flag(this, 'editable');
    this.$('.editor').hidden = !editable;
    this.$('label[for=in]').textContent = this.t('attn.input');
    const structural = first || ['model', 'task', 'text', 'target', ...CONFIG_ATTRIBUTES].some((a) => changed.has(a));
    if (this.mode === 'model') {
      this.driver?.dispose();
      this.driver = null;
      if (structural || !this.trace) await this.traceModel();
    } else {
      this.model = null;
      await this.train(changed, first);
    }
    this.render(view);
  }

  async defaultText(taskName) {
    const given = this.getAttribute('text');
    if (given !== null && given.trim() !== '') return given;
    try {
      return (await taskInfo(taskName)).sampleInputs[0] ?? '';
    } catch {
      return '';
    }
  }

  // ---- a checkpoint, on this thread ----------------------------------------------------------

  async traceModel() {
    const url = this.modelUrl();
    this.file = this.modelFileName();
    this.$('.status').textContent = this.t('w.loading');
    const model = (this.model = await sharedModel(url));
    const config = model.config, info = model.info;
    const input = await this.defaultText(info.task);
    this.inputText = input;
    let target = this.getAttribute('target') ?? undefined;
    this.answer = '';
    if (config.arch === 'encoder-only') {
      const p = model.predict(input);
      this.answer = p.classes ? `${p.classes[0].label} (${(p.classes[0].p * 100).toFixed(0)}%)` : '';
    } else if (target === undefined && info.taskKind !== 'text') {
      this.answer = model.generate(input, { maxNewTokens: Math.max(1, config.maxLen) }).text;
      if (config.arch === 'decoder-only') target = this.answer;
    }
    const trace = model.trace(input, target === undefined ? {} : { target });
    this.trace = { ...trace, step: null };
    this.config = config;
  }

  // ---- training in a Worker -------------------------------------------------------------------

  async train(changed, first) {
    const taskName = (this.getAttribute('task') ?? 'qa-toy').trim();
    await checkTask(taskName);
    const request = sessionRequest(this, taskName);
    this.driver ??= new SessionDriver({
      onProgress: () => {
        this.status();
        this.requestSnapshot();
      },
      onState: (d) => {
        this.status();
        this.controlsRun();
        if (d.reason === 'error') this.showError(new Error(d.error));
        this.requestSnapshot(true);
      },
    });
    const d = this.driver;
    if (!d.session) this.$('.status').textContent = this.t('w.building');
    const rebuilt = await d.configure(request);
    this.config = d.config;
    this.inputText = await this.defaultText(taskName);
    if (rebuilt) {
      this.trace = null;
      await this.snapshot();
      if (this.visible) await d.start();
      else d.pausedByView = true;
    } else if (first || changed.has('text') || changed.has('target') || !this.trace) {
      await this.snapshot();
    }
    this.status();
  }

  retrain(reset = false) {
    const d = this.driver;
    if (!d) return;
    (reset || d.finished ? d.reset() : Promise.resolve()).then(async () => {
      this.trace = null;
      await this.snapshot();
      this.render();
      if (!reset || this.visible) await d.start();
      this.controlsRun();
    }).catch((e) => this.showError(e));
  }

  visibilityChanged(visible) {
    this.driver?.setVisible(visible);
    this.status();
  }

  // A new trace at most every 400 ms while training.
  requestSnapshot(now = false) {
    const s = this._snap;
    if (s.busy) {
      s.again = true;
      return;
    }
    if (s.timer) return;
    const wait = now ? 0 : Math.max(0, 400 - (performance.now() - s.last));
    s.timer = setTimeout(async () => {
      s.timer = 0;
      try {
        await this.snapshot();
        this.render();
      } catch (error) {
        this.showError(error);
      }
      if (s.again) {
        s.again = false;
        this.requestSnapshot();
      }
    }, wait);
  }

  async snapshot() {
    const d = this.driver;
    if (!d?.session || !d.config) return;
    const s = this._snap;
    s.busy = true;
    s.last = performance.now();
    try {
      const config = d.config;
      const input = this.inputText;
      let target = this.getAttribute('target') ?? undefined;
      this.answer = '';
      const kind = d.task?.kind;
      if (config.arch === 'encoder-only') {
        const p = await d.session.predict(input);
        this.answer = p.classes ? `${p.classes[0].label} (${(p.classes[0].p * 100).toFixed(0)}%)` : '';
      } else if (target === undefined && kind !== 'text') {
        this.answer = (await d.session.generate(input, { maxNewTokens: config.maxLen })).text;
        if (config.arch === 'decoder-only') target = this.answer;
      }
      const names = [];
      for (const k of kindsOf(config)) {
        for (let l = 0; l < config.nLayers; ++l) names.push(...['q', 'k', 'scores', 'scaled', 'masked', 'probs'].map((stage) => attentionName(TRACE_KIND[k], l, stage)));
      }
      this.trace = await d.session.snapshot({ input, target, names });
    } finally {
      s.busy = false;
    }
  }

  // ---- drawing ------------------------------------------------------------------------------

  current() {
    const config = this.config;
    const kinds = kindsOf(config);
    const want = choice(this, 'kind', KINDS, kinds[0]);
    if (!kinds.includes(want)) throw new AttrError(`kind must be ${list(kinds)} for this ${config.arch} model (got "${want}")`);
    const first = this.trace.tensors[attentionName(TRACE_KIND[want], 0, 'probs')];
    const [H] = first.shape;
    const layer = int(this, 'layer', { min: 0, max: config.nLayers - 1, fallback: 0 });
    const headAttr = this.getAttribute('head');
    const all = headAttr !== null && headAttr.trim().toLowerCase() === 'all';
    const head = all ? 0 : int(this, 'head', { min: 0, max: H - 1, fallback: 0 });
    return { kinds, kind: want, layer, head, all, H };
  }

  tokens(kind) {
    const tr = this.trace;
    const inTok = tr.input.tokens, outTok = tr.decoderInput?.tokens ?? [];
    const encDec = this.config.arch === 'encoder-decoder';
    if (kind === 'encoder') return { rows: inTok, cols: inTok, rowSide: 'in', colSide: 'in' };
    if (kind === 'cross') return { rows: outTok, cols: inTok, rowSide: 'out', colSide: 'in' };
    return encDec ? { rows: outTok, cols: outTok, rowSide: 'out', colSide: 'out' } : { rows: inTok, cols: inTok, rowSide: 'in', colSide: 'in' };
  }

  render(viewName) {
    if (!this.trace || !this.config) return;
    const view = viewName ?? choice(this, 'view', ['grid', 'lines', 'heads'], 'grid');
    const stage = choice(this, 'stage', ['probs', 'masked', 'scaled', 'scores'], 'probs');
    let c;
    try {
      c = this.current();
    } catch (error) {
      this.$('.view').replaceChildren();
      this.$('.controls').hidden = true;
      this.status();
      this.showError(error);
      return;
    }
    const { kind, layer, head, all, H } = c;
    const name = (l, stage) => attentionName(TRACE_KIND[kind], l, stage);
    const T = this.trace.tensors;
    const probs = [], masked = [];
    for (let l = 0; l < this.config.nLayers; ++l) {
      probs.push(T[name(l, 'probs')].data);
      masked.push(T[name(l, 'masked')]?.data);
    }
    const [, R, S] = T[name(0, 'probs')].shape;
    const tok = this.tokens(kind);
    const kindName = this.t(this.config.arch === 'decoder-only' && kind === 'decoder' ? 'attn.kind.decOnly' : KIND_KEY[kind]);
    const box = this.$('.view');
    const label = this.getAttribute('label');
    if (view === 'grid') {
      let hm = box.firstElementChild;
      if (hm?.localName !== 'tp-heatmap') box.replaceChildren((hm = document.createElement('tp-heatmap')));
      const src = T[name(layer, stage)];
      const off = head * R * S, data = new Float32Array(R * S);
      for (let i = 0; i < R * S; ++i) data[i] = stage === 'probs' && masked[layer]?.[off + i] === -Infinity ? -Infinity : src.data[off + i];
      hm.setAttribute('colormap', stage === 'probs' ? 'sequential' : 'diverging');
      if (stage === 'probs') {
        hm.setAttribute('min', '0');
        hm.setAttribute('max', '1');
      } else {
        hm.removeAttribute('min');
        hm.removeAttribute('max');
      }
      hm.toggleAttribute('values', flag(this, 'values') || (this.getAttribute('values') === null && R <= 12 && S <= 12));
      hm.setAttribute('max-cell', '56');
      hm.setAttribute('accent', headColor(head));
      hm.setAttribute('row-side', tok.rowSide);
      hm.setAttribute('col-side', tok.colSide);
      hm.setAttribute('label', `${this.t(`attn.stage.${stage}`)}`);
      hm.matrix = { rows: R, cols: S, data, rowLabels: tok.rows, colLabels: tok.cols, rowTitle: this.t('attn.rows'), colTitle: this.t('attn.cols') };
    } else if (view === 'lines') {
      let hv = box.firstElementChild;
      if (hv?.localName !== 'tp-head-view') box.replaceChildren((hv = document.createElement('tp-head-view')));
      hv.data = { probs: probs[layer], masked: masked[layer], heads: H, T: R, S, rowTokens: tok.rows, colTokens: tok.cols, rowSide: tok.rowSide, colSide: tok.colSide };
      const key = `${H}|${all}|${head}`;
      if (this._activeKey !== key) {
        this._activeKey = key;
        hv.activeHeads = all ? Array.from({ length: H }, (_, h) => h) : [head];
      }
    } else {
      let grid = box.firstElementChild;
      if (grid?.localName !== 'tp-attention-grid') box.replaceChildren((grid = document.createElement('tp-attention-grid')));
      grid.setAttribute('max-thumb', '140');
      grid.selected = { layer, head };
      grid.maps = { probs, masked, heads: H, T: R, S, rowTokens: tok.rows, colTokens: tok.cols, rowSide: tok.rowSide, colSide: tok.colSide };
    }
    this.$('.title').textContent = label ?? (view === 'heads' ? this.t('at.heads', { kind: kindName })
      : all && view === 'lines' ? this.t('at.titleAll', { kind: kindName, layer }) : this.t('at.title', { kind: kindName, layer, head }));
    this.controls(view, c);
    this.status();
    this.dataset.step = String(this.trace.step ?? 0);
    this.dispatchEvent(new CustomEvent('tp-trace', { bubbles: true, composed: true, detail: { step: this.trace.step ?? null } }));
  }

  // Its view group and pickers are named from the moment it is on the page, before its first
  // update (it may wait below the fold), and again when its language changes.
  nameControls() {
    this.$('[data-role=view]').setAttribute('aria-label', this.t('at.view'));
    for (const role of ['kind', 'layer', 'head']) this.$(`[data-role=${role}-label]`).textContent = this.t(role === 'kind' ? 'attn.kind' : `at.${role}`);
  }

  controls(view, { kinds, kind, layer, head, all, H }) {
    const box = this.$('.controls');
    box.hidden = flag(this, 'no-controls');
    const input = this.$('#in');
    if (this.shadowRoot.activeElement !== input && input.value !== this.inputText) input.value = this.inputText ?? '';
    segmented(this.$('[data-role=view]'), ['grid', 'lines', 'heads'].map((v) => ({ value: v, label: this.t(`at.view.${v}`) })), view, (v) => this.setAttribute('view', v));
    this.nameControls();
    const fill = (role, options, value, show) => {
      const sel = this.$(`[data-role=${role}]`);
      this.$(`[data-role=${role}-wrap]`).hidden = !show;
      const sig = JSON.stringify(options);
      if (sel.dataset.sig !== sig) {
        sel.dataset.sig = sig;
        sel.replaceChildren(...options.map(([v, text]) => Object.assign(document.createElement('option'), { value: v, textContent: text })));
      }
      sel.value = String(value);
    };
    fill('kind', kinds.map((k) => [k, this.t(this.config.arch === 'decoder-only' && k === 'decoder' ? 'attn.kind.decOnly' : KIND_KEY[k])]), kind, kinds.length > 1);
    fill('layer', Array.from({ length: this.config.nLayers }, (_, l) => [String(l), String(l)]), layer, this.config.nLayers > 1);
    const heads = Array.from({ length: H }, (_, h) => [String(h), String(h)]);
    if (view === 'lines') heads.push(['all', this.t('at.allHeads')]);
    fill('head', heads, all && view === 'lines' ? 'all' : head, H > 1 && view !== 'heads');
    this.controlsRun();
  }

  controlsRun() {
    const d = this.driver;
    const run = this.$('.run');
    run.hidden = !d?.session;
    if (!d) return;
    const toggle = this.$('[data-role=toggle]');
    toggle.textContent = d.running ? this.t('w.pause') : d.finished ? this.t('w.train') : this.t('w.resume');
    this.$('[data-role=reset]').textContent = this.t('w.reset');
  }

  status() {
    const el = this.$('.status');
    const parts = [];
    const input = this.inputText ?? '';
    parts.push(this.answer ? this.t('at.answer', { input, answer: this.answer }) : this.t('at.input', { input }));
    if (this.mode === 'model') {
      parts.push(this.t('at.fromFile', { file: this.file ?? '' }));
    } else if (this.driver) {
      const d = this.driver;
      const loss = d.report ? formatLoss(d.report.loss) : '–';
      parts.push(this.t('w.stepLoss', { step: d.step, total: d.totalSteps, loss }));
      if (d.pausedByView) parts.push(this.t('w.offscreen'));
      else if (d.finished) parts.push(this.t('at.trained', { step: d.step }));
      else if (!d.running && d.run?.reason === 'diverged') parts.push(this.t('w.diverged', { step: d.report.divergedAt }));  // the session paused there
      else if (!d.running && d.run?.reason === 'met') parts.push(this.t('w.met', { step: d.step }));  // and there, with stop-when-met
      else if (!d.running && d.step > 0) parts.push(this.t('w.paused'));
    }
    el.textContent = parts.join(' · ');
    this.controlsRun();
  }

  disposeWidget() {
    this.driver?.dispose();
    this.driver = null;
  }
}

defineElement('tp-attention', TpAttention);
