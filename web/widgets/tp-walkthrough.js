// <tp-walkthrough> — one forward pass, one step at a time, with the real numbers. With no model:
// the seed example, "how are you" → "i am fine" with its 11-word vocabulary and d_model = 6, from
// the token ids through embeddings, positions, Q/K/V, QKᵀ, ÷√d_k, the mask, softmax, × V, the
// heads concatenated, W_O, add & norm, the ReLU feed-forward, the decoder's masked
// self-attention, cross-attention and the final softmax over the vocabulary (the seed article's
// 28 steps, as for a checkpoint of the seed's model). With any other checkpoint — ours, or an
// imported GPT-2 / Llama folder or llama2.c .bin by URL — the steps its configuration implies
// (positions of its kind, its norm at its place, shared keys and values, its feed-forward, its
// output head) on `text`, at the layer, head and token picked, each formula with the focused
// cells' numbers.
//
//   <tp-walkthrough></tp-walkthrough>                              a fresh (untrained) model
//   <tp-walkthrough model="models/qa-toy.safetensors" step="softmax"></tp-walkthrough>  trained
//   <tp-walkthrough model="lm-char" text="the cat" layer="1" step="dec.1.self.softmax"></tp-walkthrough>
//
// Attributes: step (a 1-based number or a step id: the seed's vocab, embed, pe, sum, q, kv, qk,
// scale, mask, softmax, av, concat, wo, add1, norm1, ffn1, ffn2, add2, dembed, dqk, dmask,
// dsoftmax, dout, cross, crossout, dffn, logits, probs; another model's like dec.0.self.qk),
// seed (the fresh model's seed, default 1), model (a checkpoint: a shipped name, a URL of a
// .safetensors file, of an imported model's folder ending in "/", or of a llama2.c .bin), text
// (default "how are you", or the checkpoint's task's first sample), target (the seed's: default
// "i am"), layer, head, token (0-based; default 0, 0 and the last token), label. Fires tp-step
// { index, id } when the reader moves.
// One forward pass on the page's engine, on this thread (a model loaded once per page).
import { TpWidget } from './shared/widget.js';
import { AttrError, int } from './shared/attrs.js';
import { engine, sharedModel, importedModel, task as taskInfo } from './shared/runtime.js';
import { buildSteps, isSeedShape } from '../components/shared/walkthrough-steps.js';
import { buildModelSteps } from '../components/shared/walkthrough-model-steps.js';
import '../components/tp-walkthrough-view.js';
import { attributeNames } from './shared/manifest.js';
import { defineElement } from '../ui/element.js';

const NEEDED = ['tok_emb.weight', 'enc.0.self_attn.q.weight'];

export class TpWalkthrough extends TpWidget {
  static observedAttributes = attributeNames('tp-walkthrough');
  static css = `.head:has(.title:empty):has(.sub:empty) { display: none; }`;

  template() {
    return `<div class="head"><span class="title" part="title"></span><span class="sub" part="subtitle"></span></div>
      <tp-walkthrough-view part="reader"></tp-walkthrough-view>`;
  }

  async update(changed, first) {
    const view = this.$('tp-walkthrough-view');
    if (first || ['seed', 'model', 'text', 'target', 'layer', 'head', 'token', 'lang'].some((a) => changed.has(a))) {
      const data = await this.data();
      const t = (k, v) => this.t(k, v);
      view.steps = data.config ? buildModelSteps({ ...data, t, pick: this.pick() }) : buildSteps({ ...data, t });
      this.$('.sub').textContent = data.from;
    }
    this.$('.title').textContent = this.getAttribute('label') ?? '';
    if (first || changed.has('step')) view.step = this.stepIndex(view.steps);
  }

  // The layer, head and token the steps of a model other than the seed's show (the model clamps them).
  pick() {
    const at = (name) => (this.hasAttribute(name) ? int(this, name, { min: 0, max: 1e6 }) : undefined);
    return { layer: at('layer'), head: at('head'), token: at('token') };
  }

  stepIndex(steps) {
    const v = this.getAttribute('step');
    if (v === null || v.trim() === '') return 0;
    const ids = steps.map((s) => s.id);
    if (/^\d+$/.test(v.trim())) return int(this, 'step', { min: 1, max: steps.length }) - 1;
    const i = ids.indexOf(v.trim());
    if (i < 0) throw new Error(`step must be a number from 1 to ${steps.length} or one of ${ids.join(', ')} (got "${v}")`);
    return i;
  }

  // The trace and the vocabulary of the model, with the seed's two weight tables (a fresh seed
  // model, or a checkpoint of it), or the configuration of any other checkpoint.
  async data() {
    const tp = await engine();
    const url = this.getAttribute('model');
    const given = (name) => (this.getAttribute(name) ?? '').trim() || undefined;
    if (url) {
      const file = this.modelUrl(url);
      const imported = /\/$|\.bin$/i.test(new URL(file).pathname);
      const model = await (imported ? importedModel(file) : sharedModel(file));
      const c = model.config, name = imported ? String(file).replace(/\/$/, '').split('/').pop() : this.modelFileName(url);
      const from = this.t('wk.from.model', { file: name });
      const seed = !imported && model.info.task === 'qa-toy' && isSeedShape(c);
      const text = given('text') ?? (seed ? 'how are you' : imported ? null : (await taskInfo(model.info.task)).sampleInputs[0]);
      if (!text) throw new AttrError(`text: give the text to walk through (${name} is an imported model, with no task whose sample it could use)`);
      const target = given('target') ?? (seed ? 'i am' : undefined);
      const vocab = model.tokenizer();
      try {
        const trace = model.trace(text, target === undefined ? {} : { target });
        if (seed) return { trace, params: Object.fromEntries(NEEDED.map((n) => [n, model.parameter(n)])), vocab: vocab.vocabulary(), from };
        return { trace, config: c, vocab: vocab.vocabulary(), from };
      } finally {
        vocab.dispose();
      }
    }
    const input = given('text') ?? 'how are you', target = given('target') ?? 'i am';
    const seed = int(this, 'seed', { min: 0, max: 2 ** 31 - 1, fallback: 1 });
    const task = tp.task('qa-toy');
    const model = tp.model({ ...task.defaults, seed });
    const trainer = tp.trainer(model, task, { seed });  // gives the model its tokenizer; no step is taken
    const vocab = task.tokenizer();
    try {
      return { trace: model.trace(input, { target }), params: Object.fromEntries(NEEDED.map((n) => [n, model.parameter(n)])), vocab: vocab.vocabulary(),
        from: this.t('wk.from.fresh', { seed }) };
    } finally {
      for (const o of [vocab, trainer, model, task]) o.dispose();
    }
  }
}

defineElement('tp-walkthrough', TpWalkthrough);
