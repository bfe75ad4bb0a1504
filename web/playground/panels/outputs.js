// panels/outputs.js — generation token by token with the top-k candidates of every step,
// sampling controls (temperature, top-k, top-p, beam, max tokens, KV cache), a measured
// comparison of the KV cache on and off; for encoder-only models, the class or per-token tag
// probabilities. The model runs in the worker; this thread only animates the answer.
// Temperature, top-k and top-p are also sliders: while one moves, the bars show the first next
// token's distribution for the prompt under those settings, as the core's sampler draws it
// (one one-token generation in the worker per position, the newest position only).
// Under the answer, <tp-kv-cache> draws the decoder's KV cache filling as the answer appears:
// the rows are the trace of what was fed (the prompt, then each token but the last), which are
// the rows the cache computed, since decoding and the full forward pass share their code.
import { GEN_FIELDS, GEN_DEFAULTS } from '../state.js';
import { h } from '../../ui/dom.js';
import { fieldControl } from '../controls.js';
import { ROLE_COLORS } from '../../components/shared/colormap.js';
import { attentionOf, parseTraceName, traceName } from '../../lib/trace-names.js';
import { isLocal } from './attention.js';

export function initOutputs(app) {
  const $ = (id) => app.$(id);
  const prompt = $('prompt'), output = $('output'), stepsEl = $('gen-steps'), bars = $('prob-bars');
  let result = null;      // { kind: 'generate' | 'classes' | 'tags', ... }
  let selected = 0, animation = 0, busy = false;

  const encoderOnly = () => app.config?.arch === 'encoder-only';
  // A language model continues the prompt: show the prompt, muted, before the new text.
  let echo = '';
  function setOutput(text) {
    if (echo) output.replaceChildren(h('span', { class: 'echo', text: echo }), text);
    else output.textContent = text;
  }
  const promptText = () => prompt.value.trim() || app.state.prompt || app.info?.sampleInputs?.[0] || '';

  function renderControls() {
    $('generate').textContent = app.t(encoderOnly() ? 'out.predict' : 'out.generate');
    if (app.activeElement !== prompt) prompt.value = app.state.prompt || app.info?.sampleInputs?.[0] || '';
    prompt.setAttribute('aria-label', app.t('out.prompt'));
    $('prompt-samples').replaceChildren(...(app.info?.sampleInputs ?? []).map((s) => h('button', { type: 'button', text: s, onclick: () => {
      prompt.value = s;
      app.set({ prompt: s });
      run();
    } })));
    const gen = { ...GEN_DEFAULTS, ...app.state.gen };
    const keep = app.activeElement?.closest('#gen-fields') ? app.activeElement.id : null;
    const sliders = {
      temperature: { min: 0, max: 2, step: 0.05 },
      topK: { min: 0, max: Math.min(50, app.info?.defaults?.vocabSize ?? 50), step: 1 },
      topP: { min: 0.05, max: 1, step: 0.05 },
    };
    $('gen-fields').replaceChildren(...GEN_FIELDS.map((field) => fieldControl({
      field, id: `g-${field.key}`, value: gen[field.key], defaultValue: GEN_DEFAULTS[field.key], name: app.t(`field.${field.key}`),
      slider: sliders[field.key] && { ...sliders[field.key], onMove: (v) => preview({ [field.key]: v }) },
      resetLabel: app.t('setup.reset', { name: app.t(`field.${field.key}`) }), defaultLabel: app.t('setup.default', { value: field.kind === 'bool' ? app.t(`value.${GEN_DEFAULTS[field.key]}`) : GEN_DEFAULTS[field.key] }),
      onChange: (v) => app.set({ gen: { ...app.state.gen, [field.key]: v } }),
      onReset: () => app.set({ gen: { ...app.state.gen, [field.key]: GEN_DEFAULTS[field.key] } }),
    })));
    if (keep) app.$(keep)?.focus();
    $('gen-fields').hidden = encoderOnly();
    $('kv-compare').hidden = encoderOnly();
    enable();
  }

  function enable() {
    const ready = Boolean(app.config) && !busy;
    $('generate').disabled = !ready;
    $('kv-compare').disabled = !ready;
  }

  async function run() {
    const text = promptText();
    if (!text || !app.config) return;
    busy = true;
    enable();
    cancelAnimationFrame(animation);
    try {
      if (encoderOnly()) {
        const p = await app.session.predict(text);
        result = p.classes ? { kind: 'classes', classes: p.classes } : { kind: 'tags', input: p.input, positions: p.positions };
        selected = 0;
        showPrediction();
      } else {
        const gen = { ...GEN_DEFAULTS, ...app.state.gen };
        const r = await app.session.generate(text, { ...gen, topKProbs: 6, seed: app.state.seed });
        echo = app.info?.kind === 'text' ? text : '';
        result = { kind: 'generate', ...r, options: gen };
        await cachePicture(text, r).catch(() => { $('kv-picture').hidden = true; });
        animate();
      }
    } catch (error) {
      output.textContent = '';
      $('gen-meta').textContent = error.message;
      stepsEl.replaceChildren();
      bars.items = [];
    }
    busy = false;
    enable();
  }

  // Reveals the answer one token every 90 ms, with that step's candidates.
  function animate() {
    const r = result;
    stepsEl.replaceChildren();
    output.textContent = '';
    let k = 0, last = 0;
    const tick = (now) => {
      if (result !== r) return;
      if (now - last >= 90 || k === 0) {
        last = now;
        k += 1;
        selected = k - 1;
        const ids = Array.from(r.ids.slice(0, k)).filter((id) => id !== 1);
        setOutput(k >= r.steps.length ? r.text : decode(ids));
        showCache(k);
        drawSteps(k, true);
        drawBars();
      }
      if (k < r.steps.length) animation = requestAnimationFrame(tick);
      else finish();
    };
    if (!r.steps.length || matchMedia('(prefers-reduced-motion: reduce)').matches) finish();
    else animation = requestAnimationFrame(tick);
  }

  function finish() {
    const r = result;
    r.done = true;
    setOutput(r.text);
    showCache(r.steps.length);
    const cache = r.options.kvCache ? app.t('value.true') : app.t('value.false');
    $('gen-meta').textContent = app.t('out.meta', { n: r.steps.length, ms: r.msPerToken.toFixed(3), cache, reason: app.t(`out.reason.${r.stopReason}`) });
    drawSteps(r.steps.length, false);
    drawBars();
  }

  function decode(ids) {
    try {
      return app.info.tokenizer.decode(ids);
    } catch {
      return ids.join(' ');
    }
  }

  function drawSteps(n, fresh) {
    const r = result;
    const buttons = r.steps.slice(0, n).map((s, i) => {
      const p = s.topk.find((c) => c.id === s.id)?.p;
      return h('button', { type: 'button', role: 'option', 'aria-selected': String(i === selected), class: fresh && i === n - 1 ? 'fresh' : '',
        onclick: () => select(i) },
      h('span', { class: 'sr-only', text: `${app.t('out.step', { i: i + 1 })} ` }), s.token, p !== undefined ? h('span', { class: 'p', text: ` ${(p * 100).toFixed(0)}%` }) : null);
    });
    stepsEl.replaceChildren(...buttons);
  }

  function select(i) {
    selected = i;
    if (result.kind === 'generate') drawSteps(result.steps.length, false);
    else if (result.kind === 'tags') showPrediction();
    drawBars();
    stepsEl.children[i]?.focus();
  }

  stepsEl.addEventListener('keydown', (e) => {
    const n = stepsEl.children.length;
    if (!n) return;
    if (e.key === 'ArrowRight' || e.key === 'ArrowDown') select(Math.min(n - 1, selected + 1));
    else if (e.key === 'ArrowLeft' || e.key === 'ArrowUp') select(Math.max(0, selected - 1));
    else return;
    e.preventDefault();
  });

  // The sliders' live distribution: the next token after the prompt with the settings as they
  // are now plus `moved`. Requests are coalesced: one in flight, the newest waiting.
  let wanted = null, previewing = false;
  async function preview(moved) {
    if (encoderOnly() || !app.config || !app.session) return;
    wanted = { ...GEN_DEFAULTS, ...app.state.gen, ...(wanted ?? {}), ...moved };
    if (previewing) return;
    previewing = true;
    while (wanted) {
      const options = wanted;
      wanted = null;
      try {
        const r = await app.session.generate(promptText(), { temperature: options.temperature, topK: options.topK, topP: options.topP, maxNewTokens: 1, topKProbs: 6, seed: app.state.seed });
        const s = r.steps[0];
        if (!s || wanted) continue;
        bars.setAttribute('bars', 'sample');
        bars.setAttribute('label', app.t('out.previewBars', { t: options.temperature, k: options.topK, p: options.topP }));
        bars.items = s.topk.map((c) => ({ label: c.token, p: c.p, pSample: c.pSample, chosen: c.id === s.id }));
        bars.dataset.preview = JSON.stringify({ temperature: options.temperature, topK: options.topK, topP: options.topP });
      } catch (error) {
        $('gen-meta').textContent = error.message;
      }
    }
    previewing = false;
  }

  function drawBars() {
    const r = result;
    if (!r) return;
    bars.removeAttribute('bars');
    delete bars.dataset.preview;
    if (r.kind === 'generate') {
      const s = r.steps[selected];
      if (!s) return;
      bars.setAttribute('label', app.t('out.stepBars', { i: selected + 1 }));
      bars.items = s.topk.map((c) => ({ label: c.token, p: c.p, pSample: r.options.temperature > 0 || r.options.topK > 0 || r.options.topP < 1 ? c.pSample : undefined, chosen: c.id === s.id }));
    } else if (r.kind === 'classes') {
      bars.setAttribute('label', app.t('out.classes'));
      bars.items = r.classes.map((c, i) => ({ label: c.label, p: c.p, chosen: i === 0 }));
    } else {
      const pos = r.positions[selected] ?? [];
      bars.setAttribute('label', `${app.t('out.tags')}: ${r.input.tokens[selected] ?? ''}`);
      bars.items = pos.map((c, i) => ({ label: c.label, p: c.p, chosen: i === 0 }));
    }
    bars.setAttribute('accent', ROLE_COLORS.q);
  }

  function showPrediction() {
    const r = result;
    if (r.kind === 'classes') {
      output.textContent = r.classes[0]?.label ?? '';
      stepsEl.replaceChildren();
      $('gen-meta').textContent = app.t('out.predicted', { label: r.classes[0]?.label ?? '' });
    } else {
      output.textContent = r.input.tokens.map((tok, i) => `${tok}/${r.positions[i]?.[0]?.label ?? '?'}`).join(' ');
      $('gen-meta').textContent = '';
      stepsEl.replaceChildren(...r.input.tokens.map((tok, i) => h('button', { type: 'button', role: 'option', 'aria-selected': String(i === selected), onclick: () => select(i) },
        tok, h('span', { class: 'p', text: ` ${r.positions[i]?.[0]?.label ?? ''}` }))));
    }
    drawBars();
  }

  // The decoder's self-attention K and V rows for what generation fed, and each layer's cache
  // layout as src/model/decode.cpp sets it up (a windowed layer: its global rows, then a ring of
  // `window`).
  let cacheFed = 0;
  async function cachePicture(text, r) {
    const c = app.config;
    const eos = app.info?.tokenizer?.specials?.eos;
    const fed = r.steps.slice(0, Math.max(0, r.steps.length - 1)).map((s) => s.id).filter((id) => id !== eos);
    const fedText = decode(fed);
    const { stack, attn } = attentionOf('dec');
    const seq2seq = c.arch === 'encoder-decoder';
    const t = await app.session.snapshot(seq2seq ? { input: text, target: fedText, names: [`${stack}.`] } : { input: text + fedText, names: [`${stack}.`] });
    const rows = seq2seq ? t.decoderInput : t.input;
    const layers = [];
    for (const name of t.names) {
      const n = parseTraceName(name);
      if (n?.pattern !== '{stack}.{layer}.{attn}.k' || n.stack !== stack || n.attn !== attn) continue;
      const k = t.tensors[name], v = t.tensors[traceName('{stack}.{layer}.{attn}.v', n)];
      const local = isLocal(c, n.layer);
      const capacity = local ? Math.min(c.maxLen, (c.globalTokens ?? 0) + c.window) : c.maxLen;
      layers.push({ layer: n.layer, local, capacity, ringStart: local ? Math.min(c.globalTokens ?? 0, c.maxLen) : capacity, kvDim: k.shape[1], k: k.data, v: v.data });
    }
    const kv = $('kv-cache');
    const N = rows.tokens.length;
    cacheFed = fed.length;
    kv.setAttribute('label', app.t('out.kvLabel', { n: N }));
    kv.data = { layers: layers.sort((a, b) => a.layer - b.layer), tokens: rows.tokens, prompt: Math.max(1, N - fed.length) };
    $('kv-picture').hidden = !layers.length;
  }

  // The cache once k of the answer's tokens are shown: the prompt and the k − 1 fed back.
  function showCache(k) {
    const kv = $('kv-cache');
    if (!kv.data || $('kv-picture').hidden) return;
    kv.upto = kv.data.prompt + Math.min(cacheFed, Math.max(0, k - 1));
    $('kv-work').textContent = kv.workText();
  }

  // Greedy generation with and without the cache, median of three runs each.
  async function compareKv() {
    const text = promptText();
    if (!text) return;
    busy = true;
    enable();
    const gen = { ...GEN_DEFAULTS, ...app.state.gen };
    const runs = { on: [], off: [] };
    let a = null, b = null, tokens = 0;
    try {
      for (let i = 0; i < 3; ++i) {
        for (const kv of [true, false]) {
          const r = await app.session.generate(text, { maxNewTokens: gen.maxNewTokens, kvCache: kv, beam: gen.beam });
          runs[kv ? 'on' : 'off'].push(r.msPerToken);
          tokens = r.steps.length;
          if (kv) a = r.text;
          else b = r.text;
        }
      }
      const med = (xs) => xs.sort((x, y) => x - y)[1];
      const on = med(runs.on), off = med(runs.off);
      $('kv-result').textContent = app.t('out.kvResult', { on: on.toFixed(3), off: off.toFixed(3), x: (off / Math.max(on, 1e-6)).toFixed(1), same: a === b ? app.t('out.same') : app.t('out.differ') }) +
        (tokens < 16 ? ` ${app.t('out.kvShort')}` : '');
    } catch (error) {
      $('kv-result').textContent = error.message;
    }
    busy = false;
    enable();
  }

  // What the model answers the probe input at the step the timeline shows: its own greedy answer
  // (the trace follows it) and its top guesses for the next token where the answer begins.
  function atStep() {
    const s = app.snapshot, el = $('out-at-step');
    if (!s || s.error || !s.top || !app.info) {
      el.textContent = '';
      return;
    }
    const vocab = app.info.vocab;
    const tok = (id) => vocab[id] ?? String(id);
    const { k, ids, p } = s.top;
    const rows = ids.length / k;
    let answer = '', at = rows - 1;
    if (s.decoderInput) {
      answer = s.decoderInput.tokens.slice(1).join(' ');
      at = 0;
    } else if (s.output?.tokens?.length) {
      answer = s.output.tokens.join(' ');
      at = rows - s.output.tokens.length - 1;
    }
    at = Math.max(0, Math.min(rows - 1, at));
    const guesses = Array.from({ length: k }, (_, j) => `${tok(ids[at * k + j])} ${(100 * p[at * k + j]).toFixed(0)}%`).join(' · ');
    el.textContent = app.t(answer ? 'out.atStepAnswer' : 'out.atStep', { step: s.step, input: s.probe, answer, guesses });
  }
  app.on('snapshot', atStep);

  $('gen-form').addEventListener('submit', (e) => {
    e.preventDefault();
    app.set({ prompt: prompt.value.trim() === (app.info?.sampleInputs?.[0] ?? '') ? '' : prompt.value.trim() });
    run();
  });
  $('kv-compare').addEventListener('click', compareKv);
  app.on('configured', () => {
    result = null;
    output.textContent = '';
    $('gen-meta').textContent = '';
    $('kv-result').textContent = '';
    $('kv-picture').hidden = true;
    stepsEl.replaceChildren();
    bars.items = [];
    renderControls();
  });
  app.on('state', ({ changed }) => {
    if (changed.includes('gen') || changed.includes('task')) renderControls();
  });
  app.on('busy', renderControls);
  app.on('lang', () => {
    atStep();
    renderControls();
    if (result?.kind === 'generate' && result.done) finish();
    else if (result && result.kind !== 'generate') showPrediction();
  });
  renderControls();
}
