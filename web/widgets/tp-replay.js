// <tp-replay> — a recorded training run replayed from its run file: scrub (or play) through its
// snapshots and every view shows that step's numbers as the run recorded them. No Worker, no
// WebAssembly, no training: the page fetches one file, so every reader sees the same run.
//
//   <tp-replay src="docs/qa-toy.tphistory"></tp-replay>
//   <tp-replay src="docs/qa-toy.tphistory" run="1" kind="cross" step="40"></tp-replay>
//
// The file (web/lib/history-file.js, docs/FORMAT.md "Run files") names the views to show (loss,
// attention, tokens, outputs; the `panels` attribute overrides it) and may hold several runs (a
// lesson), chosen with `run` or the run menu. Its texts (labels, notes, tokens) are set as text,
// never as markup.
// A file it cannot fetch or read is said in the page's language (components/shared/run-file-words.js).
// Events: tp-ready, tp-error, tp-hover, tp-step ({ step, index }) after each step is drawn.
import { TpWidget } from './shared/widget.js';
import { choice, int, names, AttrError, list } from './shared/attrs.js';
import { readHistory, HISTORY_PANELS } from '../lib/history-file.js';
import { runFileError, runFileTooLarge } from '../components/shared/run-file-words.js';
import { attentionName, attentionKinds } from '../lib/trace-names.js';
import { ROLE_COLORS, headColor } from '../components/shared/colormap.js';
import { formatLoss } from '../components/shared/format.js';
import '../components/tp-heatmap.js';
import '../components/tp-attention-grid.js';
import '../components/tp-line-chart.js';
import '../components/tp-token-chips.js';
import { attributeNames } from './shared/manifest.js';
import { defineElement } from '../ui/element.js';

const KINDS = ['encoder', 'decoder', 'cross'];
const TRACE_KIND = { encoder: 'enc', decoder: 'dec', cross: 'cross' };
const KIND_KEY = { encoder: 'attn.kind.enc', decoder: 'attn.kind.dec', cross: 'attn.kind.cross' };
const PLAY_MS = 180;  // between two snapshots while playing

export class TpReplay extends TpWidget {
  static observedAttributes = attributeNames('tp-replay');
  static css = `
    .bar { display: flex; flex-wrap: wrap; gap: 8px 12px; align-items: center; margin: 0 0 10px; }
    .bar input[type=range] { flex: 1 1 200px; min-width: 120px; accent-color: var(--_accent); }
    .where { font-size: 12.5px; color: var(--_muted); font-variant-numeric: tabular-nums; min-width: 12ch; }
    .note { margin: 0 0 8px; color: var(--_muted); font-size: 13px; max-width: 75ch; white-space: pre-line; }
    .note:empty { display: none; }
    .views { display: grid; gap: 12px; }
    .attn { display: grid; gap: 10px; grid-template-columns: minmax(0, 1fr) minmax(0, 1fr); align-items: start; }
    @media (max-width: 640px) { .attn { grid-template-columns: minmax(0, 1fr); } }
    .out { font-size: 13.5px; }
    .out .k { color: var(--_muted); margin-inline-end: 6px; }
    [data-view][hidden] { display: none; }
  `;

  template() {
    return `<div class="head"><span class="title" part="title"></span><span class="sub" part="subtitle"></span></div>
      <p class="note" part="note"></p>
      <div class="controls" part="controls">
        <label class="inline" data-role="run-wrap" hidden><span data-role="run-label"></span> <select data-role="run"></select></label>
        <label class="inline" data-role="kind-wrap"><span data-role="kind-label"></span> <select data-role="kind"></select></label>
        <label class="inline" data-role="layer-wrap"><span data-role="layer-label"></span> <select data-role="layer"></select></label>
        <label class="inline" data-role="head-wrap"><span data-role="head-label"></span> <select data-role="head"></select></label>
      </div>
      <div class="bar" part="timeline">
        <button type="button" class="primary" data-role="play" disabled></button>
        <input type="range" data-role="scrub" min="0" max="0" value="0" disabled>
        <span class="where" data-role="where" aria-hidden="true"></span>
      </div>
      <div class="views" part="view">
        <tp-line-chart data-view="loss" log-y height="170" hidden></tp-line-chart>
        <div class="attn" data-view="attention" hidden><tp-attention-grid max-thumb="120"></tp-attention-grid><tp-heatmap max-cell="56"></tp-heatmap></div>
        <div data-view="tokens" hidden><tp-token-chips data-side="in" side="enc" compact></tp-token-chips><tp-token-chips data-side="out" side="dec" compact></tp-token-chips></div>
        <p class="out" data-view="outputs" hidden><span class="k" data-role="out-label"></span><output data-role="answer"></output></p>
      </div>
      <p class="status" part="status" role="status" aria-live="polite"></p>`;
  }

  constructor() {
    super();
    this.file = null;      // readHistory()'s { panels, note, runs }
    this.index = -1;       // the snapshot shown
    this._timer = 0;
    this._loaded = null;   // the src the file came from
    this.$('[data-role=scrub]').addEventListener('input', (e) => {
      this.pause();
      this.show(Number(e.target.value));
    });
    this.$('[data-role=play]').addEventListener('click', () => (this._timer ? this.pause() : this.play()));
    for (const role of ['run', 'kind', 'layer', 'head']) {
      this.$(`[data-role=${role}]`).addEventListener('change', (e) => this.setAttribute(role, e.target.value));
    }
    this.followAttentionPicks('tp-heatmap, tp-attention-grid, tp-token-chips');
  }

  /** The run shown (its record as the file holds it), or null before the file is read. */
  get run() {
    return this.file?.runs[this.runIndex()] ?? null;
  }

  /** The training step shown, or null. */
  get step() {
    return this.run?.record.snapshots[this.index]?.step ?? null;
  }

  runIndex() {
    return this.file ? int(this, 'run', { min: 0, max: this.file.runs.length - 1, fallback: 0 }) : 0;
  }

  async update(changed, first) {
    const src = this.getAttribute('src');
    if (!src || !src.trim()) throw new AttrError('src must name a run file (.tphistory), e.g. src="run.tphistory"');
    if (first || changed.has('src') || this._loaded !== src) {
      this.pause();
      this.file = null;
      this.$('.status').textContent = this.t('w.loading');
      this.file = await fetchHistory(this.resolveUrl(src.trim()), src.trim(), (k, v) => this.t(k, v));
      this._loaded = src;
      this.index = -1;
    }
    const run = this.run;
    const snaps = run.record.snapshots;
    if (first || changed.has('src') || changed.has('run') || changed.has('step') || this.index < 0 || this.index >= snaps.length) {
      this.index = this.indexFor(snaps);
    }
    this.draw();
  }

  // The snapshot the `step` attribute asks for: the last recorded at or before it (`last`: the last).
  indexFor(snaps) {
    if (!snaps.length) return -1;
    const v = (this.getAttribute('step') ?? 'last').trim().toLowerCase();
    if (v === 'last') return snaps.length - 1;
    const step = int(this, 'step', { min: 0, max: 1e9, fallback: 0 });
    let i = 0;
    while (i + 1 < snaps.length && snaps[i + 1].step <= step) ++i;
    return i;
  }

  play() {
    const snaps = this.run?.record.snapshots ?? [];
    if (snaps.length < 2) return;
    if (this.index >= snaps.length - 1) this.show(0);
    this._timer = setInterval(() => {
      if (this.index >= snaps.length - 1) this.pause();
      else this.show(this.index + 1);
    }, PLAY_MS);
    this.controlsPlay();
  }

  pause() {
    clearInterval(this._timer);
    this._timer = 0;
    this.controlsPlay();
  }

  show(index) {
    this.index = index;
    this.draw();
  }

  panels() {
    return names(this, 'panels', HISTORY_PANELS) ?? this.file.panels;
  }

  draw() {
    const run = this.run;
    if (!run) return;
    const rec = run.record, config = rec.config;
    const snap = rec.snapshots[this.index] ?? null;
    const shown = new Set(this.panels());
    this.$('.title').textContent = this.getAttribute('label') ?? (run.label || (rec.task?.name ? this.t(`task.${rec.task.name}`) : this.t('rp.title')));
    this.$('.sub').textContent = this.t('rp.sub', { steps: rec.report?.step ?? rec.totalSteps, snapshots: rec.snapshots.length });
    this.$('.note').textContent = [this.file.note, run.note].filter(Boolean).join('\n');
    this.controlsRun();
    this.timeline(rec);
    for (const el of this.shadowRoot.querySelectorAll('[data-view]')) el.hidden = !shown.has(el.dataset.view);
    if (shown.has('loss')) this.drawLoss(rec, snap);
    const trace = snap ? mainTrace(snap) : null;
    const sel = this.selection(config, trace);
    if (shown.has('attention')) this.drawAttention(config, trace, sel);
    if (shown.has('tokens') || shown.has('outputs')) this.drawTokens(config, trace);
    this.controlsAttention(config, sel);
    this.status(rec, snap, trace);
    this.dataset.step = String(snap?.step ?? '');
    this.dataset.index = String(this.index);
    this.dispatchEvent(new CustomEvent('tp-step', { bubbles: true, composed: true, detail: { step: snap?.step ?? null, index: this.index } }));
  }

  selection(config, trace) {
    const kinds = attentionKinds(config.arch).map((k) => KINDS.find((x) => TRACE_KIND[x] === k));
    const kind = choice(this, 'kind', KINDS, kinds[0]);
    if (!kinds.includes(kind)) throw new AttrError(`kind must be ${list(kinds)} for this ${config.arch} run (got "${kind}")`);
    const layer = int(this, 'layer', { min: 0, max: config.nLayers - 1, fallback: 0 });
    const probs = trace?.tensors[attentionName(TRACE_KIND[kind], 0, 'probs')];
    const H = probs?.shape[0] ?? config.nHeads;
    const head = int(this, 'head', { min: 0, max: H - 1, fallback: 0 });
    return { kinds, kind, layer, head, H };
  }

  timeline(rec) {
    const scrub = this.$('[data-role=scrub]');
    const n = rec.snapshots.length;
    scrub.max = String(Math.max(0, n - 1));
    scrub.value = String(Math.max(0, this.index));
    scrub.disabled = n < 2;
    const step = rec.snapshots[this.index]?.step ?? 0;
    const text = this.t('w.step', { step, total: rec.report?.step ?? rec.totalSteps });
    scrub.setAttribute('aria-label', this.t('rp.scrub'));
    scrub.setAttribute('aria-valuetext', text);
    this.$('[data-role=where]').textContent = text;
    this.controlsPlay();
  }

  controlsPlay() {
    const button = this.$('[data-role=play]');
    button.textContent = this._timer ? this.t('w.pause') : this.t('rp.play');
    button.disabled = (this.run?.record.snapshots.length ?? 0) < 2;
  }

  controlsRun() {
    const runs = this.file.runs;
    this.$('[data-role=run-wrap]').hidden = runs.length < 2;
    this.$('[data-role=run-label]').textContent = this.t('rp.run');
    fill(this.$('[data-role=run]'), runs.map((r, i) => [String(i), r.label || this.t('rp.runN', { n: i + 1 })]), this.runIndex());
  }

  controlsAttention(config, { kinds, kind, layer, head, H }) {
    const shown = this.panels().includes('attention');
    const arch = config.arch;
    const kindName = (k) => this.t(arch === 'decoder-only' && k === 'decoder' ? 'attn.kind.decOnly' : KIND_KEY[k]);
    const set = (role, options, value, show) => {
      this.$(`[data-role=${role}-wrap]`).hidden = !show || !shown;
      this.$(`[data-role=${role}-label]`).textContent = this.t(role === 'kind' ? 'attn.kind' : `at.${role}`);
      fill(this.$(`[data-role=${role}]`), options, value);
    };
    set('kind', kinds.map((k) => [k, kindName(k)]), kind, kinds.length > 1);
    set('layer', Array.from({ length: config.nLayers }, (_, l) => [String(l), String(l)]), layer, config.nLayers > 1);
    set('head', Array.from({ length: H }, (_, h) => [String(h), String(h)]), head, H > 1);
  }

  drawLoss(rec, snap) {
    const chart = this.$('tp-line-chart');
    const train = [], val = [];
    for (const [step, loss, valLoss] of rec.points) {
      if (Number.isFinite(loss)) train.push([step, loss]);
      if (valLoss !== null && Number.isFinite(valLoss)) val.push([step, valLoss]);
    }
    // The step shown, as a vertical line across the curves.
    const ys = [...train, ...val].map(([, y]) => y).filter((y) => y > 0);
    const at = snap && ys.length ? [[snap.step, Math.min(...ys)], [snap.step, Math.max(...ys)]] : null;
    chart.setAttribute('label', this.t('rp.loss'));
    chart.setAttribute('x-label', this.t('w.stepAxis'));
    chart.setAttribute('y-label', this.t('w.loss'));
    chart.series = [
      { name: this.t('w.loss'), color: ROLE_COLORS.q, points: train, width: 1.6 },
      { name: this.t('w.valLoss'), color: ROLE_COLORS.k, points: val, width: 2, dots: true },
      ...(at ? [{ name: this.t('rp.shown'), color: ROLE_COLORS.o, points: at, width: 1.5, dash: [4, 3] }] : []),
    ];
  }

  drawAttention(config, trace, { kind, layer, head, H }) {
    const box = this.$('[data-view=attention]');
    const grid = box.querySelector('tp-attention-grid'), hm = box.querySelector('tp-heatmap');
    const name = (l, stage) => attentionName(TRACE_KIND[kind], l, stage);
    const first = trace?.tensors[name(0, 'probs')];
    if (!first) {
      hm.matrix = null;
      grid.maps = null;
      return;
    }
    const probs = [], masked = [];
    for (let l = 0; l < config.nLayers; ++l) {
      probs.push(trace.tensors[name(l, 'probs')]?.data ?? new Float32Array(first.data.length));
      masked.push(trace.tensors[name(l, 'masked')]?.data);
    }
    const [, R, S] = first.shape;
    const { rows, cols, rowSide, colSide } = sidesOf(trace, config, kind);
    // The selected head, large: its probabilities, a masked cell shown as −∞ (as the playground shows it).
    const off = head * R * S, src = probs[layer], data = new Float32Array(R * S);
    for (let i = 0; i < R * S; ++i) data[i] = masked[layer]?.[off + i] === -Infinity ? -Infinity : src[off + i];
    const kindName = this.t(config.arch === 'decoder-only' && kind === 'decoder' ? 'attn.kind.decOnly' : KIND_KEY[kind]);
    hm.setAttribute('colormap', 'sequential');
    hm.setAttribute('min', '0');
    hm.setAttribute('max', '1');
    hm.toggleAttribute('values', R <= 12 && S <= 12);
    hm.setAttribute('accent', headColor(head));
    hm.setAttribute('row-side', rowSide);
    hm.setAttribute('col-side', colSide);
    hm.setAttribute('label', this.t('at.title', { kind: kindName, layer, head }));
    hm.matrix = { rows: R, cols: S, data, rowLabels: rows, colLabels: cols, rowTitle: this.t('attn.rows'), colTitle: this.t('attn.cols') };
    grid.setAttribute('label', this.t('at.heads', { kind: kindName }));
    grid.selected = { layer, head };
    grid.maps = { probs, masked, heads: H, T: R, S, rowTokens: rows, colTokens: cols, rowSide, colSide };
  }

  drawTokens(config, trace) {
    const chips = (side, enc) => {
      const el = this.$(`tp-token-chips[data-side=${side}]`);
      el.hidden = !enc;
      if (!enc) return;
      el.setAttribute('label', this.t(side === 'in' ? 'w.prompt' : 'rp.decoderInput'));
      el.tokens = enc.tokens.map((text, i) => ({ text, id: enc.ids[i] }));
    };
    chips('in', trace?.input ?? null);
    chips('out', config.arch === 'encoder-decoder' ? trace?.decoderInput ?? null : null);
    this.$('[data-role=out-label]').textContent = this.t('w.output');
    this.$('[data-role=answer]').textContent = trace?.output?.tokens?.join(' ') ?? '–';
  }

  status(rec, snap, trace) {
    const parts = [];
    if (trace?.probe) parts.push(this.t('at.input', { input: trace.probe }));
    const point = snap ? rec.points.filter((p) => p[0] <= snap.step).at(-1) : null;
    if (point) parts.push(this.t('rp.lossAt', { step: snap.step, loss: formatLoss(point[1]) }));
    if (trace?.error) parts.push(trace.error);
    parts.push(this.t('rp.recorded'));
    this.$('.status').textContent = parts.join(' · ');
  }

  disposeWidget() {
    this.pause();
  }
}

// The probe the playground's views trace ('main'), else the first one with tensors.
function mainTrace(snap) {
  const probes = snap.probes ?? {};
  return probes.main ?? Object.values(probes).find((p) => Object.keys(p.tensors ?? {}).length) ?? null;
}

// Which tokens a kind's rows (queries) and columns (keys) are (as the playground's attention/sides.js).
function sidesOf(trace, config, kind) {
  const encDec = config.arch === 'encoder-decoder';
  const input = trace.input?.tokens ?? [], decoder = trace.decoderInput?.tokens ?? [];
  const rowsIn = kind === 'encoder' || (kind === 'decoder' && !encDec);
  const colsIn = kind === 'cross' || kind === 'encoder' || !encDec;
  return { rows: rowsIn ? input : decoder, cols: colsIn ? input : decoder, rowSide: rowsIn ? 'in' : 'out', colSide: colsIn ? 'in' : 'out' };
}

function fill(select, options, value) {
  const sig = JSON.stringify(options);
  if (select.dataset.sig !== sig) {
    select.dataset.sig = sig;
    select.replaceChildren(...options.map(([v, text]) => Object.assign(document.createElement('option'), { value: v, textContent: text })));
  }
  select.value = String(value);
}

// The file at `url`, read in chunks and refused past the size a run file may have.
async function fetchHistory(url, name, t) {
  const response = await fetch(url);
  if (!response.ok) throw new Error(`src: ${t('runfile.fetchFailed', { name, status: response.status })}`);
  const tooLarge = (size) => runFileTooLarge(t, name, size);
  const declared = tooLarge(Number(response.headers.get('content-length')));
  if (declared) throw declared;
  const reader = response.body.getReader();
  const chunks = [];
  let size = 0;
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    size += value.length;
    const over = tooLarge(size);
    if (over) {
      reader.cancel();
      throw over;
    }
    chunks.push(value);
  }
  const bytes = new Uint8Array(size);
  let at = 0;
  for (const c of chunks) {
    bytes.set(c, at);
    at += c.length;
  }
  try {
    return readHistory(bytes, { name });
  } catch (error) {
    throw runFileError(t, error);
  }
}

defineElement('tp-replay', TpReplay);
