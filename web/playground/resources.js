// resources.js — objects in the page's wasm instance that panels read and the page keeps for a
// while, because making them costs more than a frame: tokenizers of the other kinds for the
// Tokens panel (char and word learn their vocabulary from the text, so one per kind and text;
// BPE is the lm-bpe task's, trained once), and the walk-through's freshly initialised seed model
// (one forward pass). Disposed with the playground.
const KEEP = 16;
const WT_INPUT = 'how are you', WT_TARGET = 'i am';
const WT_PARAMS = ['tok_emb.weight', 'enc.0.self_attn.q.weight'];

export class Resources {
  // tp(): the engine API; infoFor(task): task-infos.js.
  constructor({ tp, infoFor }) {
    this.tp = tp;
    this.infoFor = infoFor;
    this.tokenizers = new Map();  // kind|text -> Tokenizer
    this.bpe = false;
    this.example = null;
  }

  // A tokenizer of `kind` for `text` (cached).
  tokenizer(kind, text) {
    if (kind === 'bpe') {
      this.bpe = true;
      return this.infoFor('lm-bpe').tokenizer;
    }
    const key = kind === 'byte' ? 'byte' : `${kind}|${text}`;
    let tok = this.tokenizers.get(key);
    if (!tok) {
      tok = this.tp().tokenizer({ kind, text: kind === 'byte' ? '' : text });
      if (this.tokenizers.size > KEEP) {
        const [k, old] = this.tokenizers.entries().next().value;
        old.dispose();
        this.tokenizers.delete(k);
      }
      this.tokenizers.set(key, tok);
    }
    return tok;
  }

  // The walk-through's example on a freshly initialised seed model: { trace, params, vocab, seed }.
  freshExample(seed) {
    if (this.example?.seed === seed) return this.example;
    const tp = this.tp();
    const task = tp.task('qa-toy');
    const model = tp.model({ ...task.defaults, seed });
    const trainer = tp.trainer(model, task, { seed });  // attaches the task's tokenizer; no step is taken
    try {
      const trace = model.trace(WT_INPUT, { target: WT_TARGET });
      const params = Object.fromEntries(WT_PARAMS.map((n) => [n, model.parameter(n)]));
      const vocab = task.tokenizer();
      this.example = { trace, params, vocab: vocab.vocabulary(), seed };
      vocab.dispose();
    } finally {
      trainer.dispose();
      model.dispose();
      task.dispose();
    }
    return this.example;
  }

  dispose() {
    for (const tok of this.tokenizers.values()) tok.dispose();
    this.tokenizers.clear();
  }
}

export const WALKTHROUGH = Object.freeze({ input: WT_INPUT, target: WT_TARGET, params: WT_PARAMS });
