// outputs/actions.js — what the Outputs panel's intents ask of the training session, and where
// the answers go: page.outputs (read by derive.js), then a redraw. The model runs in the worker;
// this thread only waits for it.
//   answer(prompt)   generate (or, encoder-only, predict), then the trace of what the decoder
//                    was fed, for the KV cache picture, with the core's layout of the cache —
//                    as the model was at the step the timeline shows (its weights at that
//                    snapshot: `atStep`), or now when the timeline follows the newest;
//   preview(moved)   a one-token generation with the sliders' settings: one in flight, the
//                    newest waiting;
//   measureKv()      greedy generation with and without the cache, the median of three each.
import { GEN_DEFAULTS } from '../../state.js';
import { decodeIds } from '../common.js';
import { fedIds, kvRows, kvTraceRequest } from './kv-cache.js';

export class OutputsActions {
  // app: the playground (session, state, info, config, tp) ; redraw(): draws the panel again.
  constructor(app, redraw) {
    this.app = app;
    this.redraw = redraw;
    this.out = {};
    this.ids = 0;
    this.wanted = null;
    this.previewing = false;
  }

  reset() {
    this.out = {};
    this.redraw();
  }

  set(patch) {
    this.out = { ...this.out, ...patch };
    this.redraw();
  }

  // The step of the history the timeline shows, or undefined when it follows the newest (now).
  get atStep() {
    const { app } = this;
    return app.shownStep === null ? undefined : app.shown?.step;
  }

  async answer(text) {
    const { app } = this;
    if (!text || !app.config) return;
    const id = ++this.ids;
    const atStep = this.atStep, step = atStep ?? app.run?.step ?? 0;
    this.set({ running: true });
    try {
      if (app.config.arch === 'encoder-only') {
        this.set({ answer: { id, atStep: atStep ?? null, step, prediction: { id, result: await app.session.predict(text, { atStep }) } }, kv: null });
      } else {
        const options = { ...GEN_DEFAULTS, ...app.state.gen };
        const result = await app.session.generate(text, { ...options, topKProbs: 6, seed: app.state.seed, atStep });
        const echo = app.info?.kind === 'text' ? text : '';
        const kv = await this.kvTrace(text, result, atStep).catch(() => null);
        this.set({ answer: { id, atStep: atStep ?? null, step, generation: { id, prompt: text, result, options, echo } }, kv });
      }
    } catch (error) {
      this.set({ answer: { id, error: error.message }, kv: null });
    }
    this.set({ running: false });
  }

  // The decoder's K and V rows for what generation fed, and the core's layout of its cache.
  async kvTrace(text, result, atStep) {
    const { app } = this;
    const specials = app.info?.tokenizer?.specials;
    const fed = fedIds(result, specials);
    const request = kvTraceRequest(app.config, text, decodeIds(app.info.tokenizer, fed), { seq2seq: app.info.kind === 'seq2seq' });
    const trace = await app.session.snapshot({ ...request, atStep });
    return { config: app.config, trace, fed: fed.length, layout: app.tp.kvLayout(app.config, kvRows(app.config, trace).tokens.length) };
  }

  // Coalesced: one request in flight, the newest settings waiting.
  async preview(moved, text) {
    const { app } = this;
    if (!app.config || app.config.arch === 'encoder-only' || !app.session) return;
    this.wanted = { ...GEN_DEFAULTS, ...app.state.gen, ...(this.wanted ?? {}), ...moved };
    if (this.previewing) return;
    this.previewing = true;
    while (this.wanted) {
      const o = this.wanted;
      this.wanted = null;
      try {
        const r = await app.session.generate(text, { temperature: o.temperature, topK: o.topK, topP: o.topP, maxNewTokens: 1, topKProbs: 6, seed: app.state.seed,
          atStep: this.atStep });
        if (r.steps[0] && !this.wanted) this.set({ preview: { id: ++this.ids, options: o, step: r.steps[0] } });
      } catch (error) {
        this.set({ preview: { error: error.message } });
      }
    }
    this.previewing = false;
  }

  async measureKv(text) {
    const { app } = this;
    if (!text) return;
    this.set({ running: true });
    const gen = { ...GEN_DEFAULTS, ...app.state.gen };
    const ms = { on: [], off: [] }, texts = {};
    let tokens = 0;
    try {
      for (let i = 0; i < 3; ++i) {
        for (const kvCache of [true, false]) {
          const r = await app.session.generate(text, { maxNewTokens: gen.maxNewTokens, kvCache, beam: gen.beam });
          ms[kvCache ? 'on' : 'off'].push(r.msPerToken);
          tokens = r.steps.length;
          texts[kvCache] = r.text;
        }
      }
      const median = (xs) => [...xs].sort((x, y) => x - y)[1];
      this.set({ measure: { on: median(ms.on), off: median(ms.off), same: texts.true === texts.false, tokens } });
    } catch (error) {
      this.set({ measure: { error: error.message } });
    }
    this.set({ running: false });
  }
}
