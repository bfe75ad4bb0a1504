// tokens/derive.js — the input text as token chips: with the model's own tokenizer (what the
// model reads, <CLS> first where the task classifies: the tokenizer's own <CLS>) or with another
// kind on the same text, and a table comparing all kinds (BPE once it has been built).
// Tokenizing is cheap, so it happens on the page's thread: page.resources.tokenizer(kind, text).
// Pure apart from that cache: (state, run, shown, info, page) -> props.
import { TOKENIZER_KINDS } from '../../state.js';
import { tr, probeInput } from '../common.js';

const KOREAN = '안녕하세요, 트랜스포머!';
const SHOWN = 32;

function encode(tok, text) {
  const r = tok.encode(text);
  return Array.from(r.ids, (id, i) => ({ id, text: r.tokens[i], span: [r.spans[2 * i], r.spans[2 * i + 1]] }));
}

// What the model reads: a classifier's encoder reads its <CLS> first.
function modelTokens(info, text) {
  const list = encode(info.tokenizer, text);
  const cls = info.tokenizer.specials.cls;
  if (info.kind === 'classify' && cls !== null) list.unshift({ id: cls, text: info.vocab?.[cls] ?? String(cls), span: null });
  return list;
}

export function deriveTokens(state, run, shown, info, page) {
  const t = tr(state);
  const text = probeInput(state, info);
  const kind = state.tokKind;
  const props = {
    input: text,
    samples: [...(info?.sampleInputs ?? []), KOREAN].map((s) => ({ value: s, text: s === KOREAN ? `${t('tokens.korean')}: ${s}` : s })),
    kinds: [{ value: 'model', label: t('tokens.model') }, ...TOKENIZER_KINDS.map((k) => ({ value: k, label: t(`value.${k}`) }))],
    kind,
    chips: null,
  };
  if (!page.tp || !info) return props;
  let list = [], note;
  try {
    if (kind === 'model') {
      list = modelTokens(info, text);
      note = t('tokens.note.model', { kind: t(`value.${info.tokenizer.kind}`), vocab: info.tokenizer.vocabSize, extra: info.kind === 'classify' ? t('tokens.note.cls') : '' });
    } else {
      list = encode(page.resources.tokenizer(kind, text), text);
      note = t(`tokens.note.${kind}`);
    }
  } catch (error) {
    note = error.message;
  }
  return {
    ...props, note,
    chips: { source: text, label: `${t('tokens.title')}: ${list.length}`, side: kind === 'model' ? 'in' : null, tokens: list },
    table: compareTable(state, info, page, text, t),
  };
}

// One row per tokenizer kind on the same text.
function compareTable(state, info, page, text, t) {
  const rows = [];
  for (const kind of ['model', ...TOKENIZER_KINDS]) {
    if (kind === 'bpe' && state.tokKind !== 'bpe' && !page.resources.bpe) continue;
    try {
      const tok = kind === 'model' ? info.tokenizer : page.resources.tokenizer(kind, text);
      const list = encode(tok, text);
      rows.push({
        current: kind === state.tokKind,
        name: kind === 'model' ? `${t('tokens.model')} (${t(`value.${tok.kind}`)})` : t(`value.${kind}`),
        count: String(list.length),
        vocab: kind === 'char' || kind === 'word' ? `${tok.vocabSize} (${t('tokens.vocabFromText')})` : String(tok.vocabSize),
        tokens: list.slice(0, SHOWN).map((x) => x.text).join(' · ') + (list.length > SHOWN ? ' …' : ''),
      });
    } catch (error) {
      rows.push({ name: t(`value.${kind}`), error: error.message });
    }
  }
  return { head: ['compareKind', 'compareCount', 'compareVocab', 'compareTokens'].map((k) => t(`tokens.${k}`)), rows };
}
