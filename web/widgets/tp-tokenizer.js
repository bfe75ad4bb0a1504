// <tp-tokenizer> — text as coloured tokens with their ids, live.
//
//   <tp-tokenizer text="The dog bites the man." kind="word"></tp-tokenizer>
//   <tp-tokenizer task="qa-toy" text="how are you" editable></tp-tokenizer>
//
// Attributes: text, kind (char | word | bpe | byte), task (use a built-in task's vocabulary
// instead), vocab-text (the text a char / word / bpe vocabulary is learned from; default: the
// text itself, and for bpe the 512-token vocabulary of The Devil's Dictionary), vocab-size (bpe),
// lowercase (word), editable (a text box), no-ids, compact, label. Fires `tp-tokens`
// { ids, tokens, spans } after each render. Tokenizing is cheap: it runs on the page's one engine.
import { TpWidget } from './shared/widget.js';
import { choice, int, flag, text } from './shared/attrs.js';
import { engine, task as taskInfo } from './shared/runtime.js';
import '../components/tp-token-chips.js';
import { attributeNames } from './shared/manifest.js';
import { defineElement } from '../ui/element.js';

const KINDS = ['char', 'word', 'bpe', 'byte'];

export class TpTokenizer extends TpWidget {
  static observedAttributes = attributeNames('tp-tokenizer');
  static css = `
    .editor { display: flex; margin: 0 0 10px; }
    .editor[hidden] { display: none; }
    .note { color: var(--_muted); font-size: 12.5px; margin: 8px 0 0; }
  `;

  template() {
    return `<div class="head"><span class="title" part="title"></span><span class="sub" part="summary" aria-live="polite"></span></div>
      <div class="editor" hidden><label class="sr-only" for="in"></label><input id="in" type="text" spellcheck="false" autocomplete="off"></div>
      <tp-token-chips part="tokens"></tp-token-chips>
      <p class="note" part="note"></p>`;
  }

  constructor() {
    super();
    this._tokenizers = new Map();  // own tokenizers (learned from a text), by key
    const input = this.$('#in');
    let timer = 0;
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.setAttribute('text', input.value), 120);
    });
  }

  get text() {
    return text(this, 'text', 'The dog bites the man.');
  }
  set text(v) {
    this.setAttribute('text', v);
  }

  async tokenizer() {
    const taskName = this.getAttribute('task');
    if (taskName) {
      const info = await taskInfo(taskName.trim());
      return { tok: info.tokenizer, note: this.t('tok.note.task', { task: taskName, specials: info.tokenizer.numSpecials - 1 }), taskName };
    }
    const kind = choice(this, 'kind', KINDS, 'char');
    const vocabSize = int(this, 'vocab-size', { min: 262, max: 65536 });
    const lowercase = flag(this, 'lowercase');
    const vocabText = this.getAttribute('vocab-text');
    const tp = await engine();
    let source;
    let key;
    if (kind === 'byte') {
      key = 'byte';
    } else if (kind === 'bpe' && vocabText === null) {
      // The sub-words of the lm-bpe task: learned once on a real text, shared by every widget.
      const info = await taskInfo('lm-bpe');
      return { tok: info.tokenizer, note: this.t('tok.note.bpe', { source: this.t('tok.sourceDict') }), kind };
    } else {
      source = vocabText ?? this.text;
      key = JSON.stringify([kind, source, vocabSize ?? 0, lowercase]);
    }
    let tok = this._tokenizers.get(key);
    if (!tok) {
      const options = { kind, text: kind === 'byte' ? '' : source };
      if (vocabSize !== undefined && kind === 'bpe') options.vocabSize = vocabSize;
      if (lowercase && kind === 'word') options.lowercase = true;
      tok = tp.tokenizer(options);
      // Keep a few (typing in the editor learns a new char / word vocabulary per text).
      if (this._tokenizers.size >= 4) {
        const [k, old] = this._tokenizers.entries().next().value;
        old.dispose();
        this._tokenizers.delete(k);
      }
      this._tokenizers.set(key, tok);
    }
    const from = vocabText !== null ? this.t('tok.sourceVocab') : this.t('tok.sourceText');
    return { tok, note: this.t(`tok.note.${kind}`, { source: from }), kind };
  }

  async update() {
    const value = this.text;
    const input = this.$('#in');
    const editable = flag(this, 'editable');
    this.$('.editor').hidden = !editable;
    this.$('label[for=in]').textContent = this.t('tok.input');
    if (this.shadowRoot.activeElement !== input && input.value !== value) input.value = value;
    const chips = this.$('tp-token-chips');
    for (const a of ['no-ids', 'compact']) chips.toggleAttribute(a, flag(this, a));
    const { tok, note, kind, taskName } = await this.tokenizer();
    const r = tok.encode(value);
    const tokens = Array.from(r.ids, (id, i) => ({ id, text: r.tokens[i], span: [r.spans[2 * i], r.spans[2 * i + 1]] }));
    chips.source = value;
    chips.tokens = tokens;
    const label = this.getAttribute('label');
    this.$('.title').textContent = label ?? '';
    chips.setAttribute('label', label ? '' : this.t('tokens.title'));
    chips.toggleAttribute('no-export', flag(this, 'no-export'));
    this.$('.sub').textContent = taskName
      ? this.t('tok.summaryTask', { n: tokens.length, task: taskName, vocab: tok.vocabSize })
      : this.t('tok.summary', { n: tokens.length, kind: this.t(`tok.${kind}`), vocab: tok.vocabSize });
    this.$('.note').textContent = note;
    this.dataset.tokens = String(tokens.length);
    this.dispatchEvent(new CustomEvent('tp-tokens', { bubbles: true, composed: true, detail: { ids: r.ids, tokens: r.tokens, spans: r.spans } }));
  }

  disposeWidget() {
    for (const tok of this._tokenizers.values()) tok.dispose();
    this._tokenizers.clear();
  }
}

defineElement('tp-tokenizer', TpTokenizer);
