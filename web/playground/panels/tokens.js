// panels/tokens.js — the input text as token chips: with the model's own tokenizer (what the
// model reads, hover-synced with every other view) or with another kind on the same text, and a
// table comparing all kinds. Tokenizing is cheap, so it happens on this thread.
import { TOKENIZER_KINDS } from '../state.js';
import { h, segmented } from '../../ui/dom.js';

const KOREAN = '안녕하세요, 트랜스포머!';

export function initTokens(app) {
  const $ = (id) => app.$(id);
  const input = $('input');
  const chips = $('chips');
  const others = new Map();  // kind|text -> Tokenizer (char and word learn from the text itself)
  let timer = 0;

  input.addEventListener('input', () => {
    clearTimeout(timer);
    timer = setTimeout(() => app.set({ input: input.value }), 250);
  });

  function tokenizerFor(kind, text) {
    if (kind === 'bpe') return app.infoFor('lm-bpe').tokenizer;
    const key = kind === 'byte' ? 'byte' : `${kind}|${text}`;
    let tok = others.get(key);
    if (!tok) {
      tok = app.tp.tokenizer({ kind, text: kind === 'byte' ? '' : text });
      if (others.size > 16) {
        const [k, old] = others.entries().next().value;
        old.dispose();
        others.delete(k);
      }
      others.set(key, tok);
    }
    return tok;
  }

  function encode(tok, text) {
    const r = tok.encode(text);
    return Array.from(r.ids, (id, i) => ({ id, text: r.tokens[i], span: [r.spans[2 * i], r.spans[2 * i + 1]] }));
  }

  function modelTokens(text) {
    const info = app.info ?? app.infoFor();
    const list = encode(info.tokenizer, text);
    if (info.kind === 'classify') list.unshift({ id: 4, text: '<CLS>', span: null });
    return list;
  }

  function render() {
    const text = app.input;
    if (app.activeElement !== input) input.value = text;
    const info = app.info;
    $('samples').replaceChildren(...[...(info?.sampleInputs ?? []), KOREAN].map((s) => h('button', { type: 'button', text: s === KOREAN ? `${app.t('tokens.korean')}: ${s}` : s, onclick: () => app.set({ input: s }) })));
    const kind = app.state.tokKind;
    segmented($('tok-kinds'), [{ value: 'model', label: app.t('tokens.model') }, ...TOKENIZER_KINDS.map((k) => ({ value: k, label: app.t(`value.${k}`) }))], kind, (v) => app.set({ tokKind: v }));
    if (!app.tp || !info) return;
    let list = [];
    try {
      if (kind === 'model') {
        list = modelTokens(text);
        $('tok-note').textContent = app.t('tokens.note.model', { kind: app.t(`value.${info.tokenizer.kind}`), vocab: info.tokenizer.vocabSize, extra: info.kind === 'classify' ? app.t('tokens.note.cls') : '' });
      } else {
        list = encode(tokenizerFor(kind, text), text);
        $('tok-note').textContent = app.t(`tokens.note.${kind}`);
      }
    } catch (error) {
      $('tok-note').textContent = error.message;
    }
    chips.source = text;
    chips.setAttribute('label', `${app.t('tokens.title')}: ${list.length}`);
    if (kind === 'model') chips.setAttribute('side', 'in');
    else chips.removeAttribute('side');
    chips.tokens = list;
    compare(text);
  }

  // One row per tokenizer kind on the same text (BPE only once it has been built: selecting it).
  function compare(text) {
    const rows = [];
    for (const kind of ['model', ...TOKENIZER_KINDS]) {
      if (kind === 'bpe' && app.state.tokKind !== 'bpe' && !app._bpeReady) continue;
      try {
        const tok = kind === 'model' ? (app.info ?? app.infoFor()).tokenizer : tokenizerFor(kind, text);
        if (kind === 'bpe') app._bpeReady = true;
        const list = encode(tok, text);
        rows.push(h('tr', { 'aria-current': String(kind === app.state.tokKind) },
          h('th', { scope: 'row', text: kind === 'model' ? `${app.t('tokens.model')} (${app.t(`value.${tok.kind}`)})` : app.t(`value.${kind}`) }),
          h('td', { class: 'n', text: String(list.length) }),
          h('td', { class: 'n', text: (kind === 'char' || kind === 'word') ? `${tok.vocabSize} (${app.t('tokens.vocabFromText')})` : String(tok.vocabSize) }),
          h('td', { class: 'toks', text: list.slice(0, 32).map((x) => x.text).join(' · ') + (list.length > 32 ? ' …' : '') })));
      } catch (error) {
        rows.push(h('tr', {}, h('th', { scope: 'row', text: app.t(`value.${kind}`) }), h('td', { colspan: '3', text: error.message })));
      }
    }
    $('tok-compare').replaceChildren(
      h('thead', {}, h('tr', {}, ...['compareKind', 'compareCount', 'compareVocab', 'compareTokens'].map((k) => h('th', { scope: 'col', text: app.t(`tokens.${k}`) })))),
      h('tbody', {}, rows));
  }

  app.on('state', ({ changed }) => {
    if (changed.some((k) => ['input', 'tokKind', 'task', 'text', 'pairs', 'textTokenizer', 'lang'].includes(k))) render();
  });
  app.on('configured', render);
  app.on('lang', render);
  render();
}
