// <tp-tokens-panel> — the Tokens card: the input, sample inputs, which tokenizer, the chips and
// the table comparing every kind. It draws tokens/derive.js's props; it keeps only the text
// being typed. Intents: set (the input, the tokenizer shown).
import { h, segmented } from '../../../ui/dom.js';
import { panel, definePanel, setText } from '../../panel.js';

const MARKUP = `
<section id="tokens" class="card" aria-labelledby="tokens-h">
  <div class="card-head"><h2 id="tokens-h" data-i18n="tokens.title"></h2><p class="lead" data-i18n="tokens.lead"></p></div>
  <div class="row">
    <label class="field-label" for="input" data-i18n="tokens.input"></label>
    <div class="input-row">
      <input id="input" type="text" spellcheck="false" autocomplete="off">
      <div class="samples" id="samples"></div>
    </div>
  </div>
  <div class="segmented" id="tok-kinds" role="radiogroup" data-i18n-aria="tokens.kind"></div>
  <p class="hint" id="tok-note"></p>
  <tp-token-chips id="chips" side="in"></tp-token-chips>
  <div class="table-wrap"><table class="compare" id="tok-compare"></table></div>
</section>`;

const CSS = `
.row { margin-bottom: 8px; }
.input-row input { width: 100%; font-size: 16px; }
tp-token-chips { margin: 10px 0; }`;

const TYPING_MS = 250;

export class TpTokensPanel extends panel(MARKUP, CSS) {
  build() {
    const input = this.$('input');
    let timer = 0;
    input.addEventListener('input', () => {
      clearTimeout(timer);
      timer = setTimeout(() => this.emit('set', { input: input.value }), TYPING_MS);
    });
  }

  render(props) {
    const input = this.$('input');
    if (this.getRootNode().activeElement !== input) input.value = props.input;
    this.$('samples').replaceChildren(...props.samples.map((s) => h('button', { type: 'button', text: s.text, onclick: () => this.emit('set', { input: s.value }) })));
    segmented(this.$('tok-kinds'), props.kinds, props.kind, (v) => this.emit('set', { tokKind: v }));
    if (!props.chips) return;
    setText(this.$('tok-note'), props.note);
    const chips = this.$('chips');
    chips.source = props.chips.source;
    chips.setAttribute('label', props.chips.label);
    if (props.chips.side) chips.setAttribute('side', props.chips.side);
    else chips.removeAttribute('side');
    chips.tokens = props.chips.tokens;
    this.table(props.table);
  }

  table({ head, rows }) {
    this.$('tok-compare').replaceChildren(
      h('thead', {}, h('tr', {}, ...head.map((text) => h('th', { scope: 'col', text })))),
      h('tbody', {}, rows.map((r) => (r.error ? h('tr', {}, h('th', { scope: 'row', text: r.name }), h('td', { colspan: '3', text: r.error }))
        : h('tr', { 'aria-current': String(r.current) },
          h('th', { scope: 'row', text: r.name }),
          h('td', { class: 'n', text: r.count }),
          h('td', { class: 'n', text: r.vocab }),
          h('td', { class: 'toks', text: r.tokens }))))));
  }
}

definePanel('tp-tokens-panel', TpTokensPanel);
