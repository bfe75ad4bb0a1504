// <tp-walkthrough> — the seed example, one step at a time, with the real numbers of one forward
// pass: "how are you" → "i am fine" with its 11-word vocabulary and d_model = 6, from the token
// ids through embeddings, positions, Q/K/V, QKᵀ, ÷√d_k, the mask, softmax, × V, the heads
// concatenated, W_O, add & norm, the ReLU feed-forward, the decoder's masked self-attention,
// cross-attention and the final softmax over the vocabulary.
//
//   <tp-walkthrough></tp-walkthrough>                              a fresh (untrained) model
//   <tp-walkthrough model="models/qa-toy.safetensors" step="softmax"></tp-walkthrough>  trained
//
// Attributes: step (a 1-based number or a step id: vocab, embed, pe, sum, q, kv, qk, scale,
// mask, softmax, av, concat, wo, add1, norm1, ffn1, ffn2, add2, dembed, dqk, dmask, dsoftmax,
// dout, cross, crossout, dffn, logits, probs), seed (the fresh model's seed, default 1), model (a
// checkpoint of the seed's qa-toy model: its weights instead), text (default "how are you"),
// target (default "i am"), label. Fires tp-step { index, id } when the reader moves.
// One forward pass of a 1,000-parameter model: it runs on the page's engine, on this thread.
import { TpWidget } from './shared/widget.js';
import { int, text } from './shared/attrs.js';
import { engine, sharedModel } from './shared/runtime.js';
import { buildSteps } from '../components/shared/walkthrough-steps.js';
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
    const input = text(this, 'text', 'how are you').trim();
    const target = text(this, 'target', 'i am').trim();
    const view = this.$('tp-walkthrough-view');
    if (first || ['seed', 'model', 'text', 'target', 'lang'].some((a) => changed.has(a))) {
      const data = await this.data(input, target);
      view.steps = buildSteps({ ...data, t: (k, v) => this.t(k, v) });
      this.$('.sub').textContent = data.from;
    }
    this.$('.title').textContent = this.getAttribute('label') ?? '';
    if (first || changed.has('step')) view.step = this.stepIndex(view.steps);
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

  // The trace, two weight tables and the vocabulary of the seed's model (fresh or from a file).
  async data(input, target) {
    const tp = await engine();
    const url = this.getAttribute('model');
    if (url) {
      const file = this.modelUrl(url);
      const model = await sharedModel(file);
      const c = model.config;
      if (model.info.task !== 'qa-toy' || c.arch !== 'encoder-decoder' || c.nLayers !== 1 || c.normPlacement !== 'post') {
        throw new Error(`${String(file).split('/').pop()} is not the seed's model (a one-layer post-norm encoder-decoder, like qa-toy)`);
      }
      const task = tp.task('qa-toy');
      const vocab = task.tokenizer();
      try {
        return { trace: model.trace(input, { target }), params: Object.fromEntries(NEEDED.map((n) => [n, model.parameter(n)])), vocab: vocab.vocabulary(),
          from: this.t('wk.from.model', { file: String(file).split('/').pop() }) };
      } finally {
        vocab.dispose();
        task.dispose();
      }
    }
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
