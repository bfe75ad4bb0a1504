// embeddings/derive.js — the Embeddings card: the embedding rows of the input tokens, the
// position rows the model added to them and their sum (the trace's {stack}.embed.*), the model's
// positional table (positional.js), RoPE (rope.js), one-hot versus dense (onehot.js). Every note
// fits the current model. Pure: (state, run, shown, info, page) -> props; page.tp gives the
// core's tables.
import { traceName, firstStack } from '../../../lib/trace-names.js';
import { tr, configOf, traceOf } from '../common.js';
import { positionalProps, P_MAX } from './positional.js';
import { ropeProps } from './rope.js';
import { onehotProps, V_MAX } from './onehot.js';

// The tables each snapshot of the history keeps for this panel: the learned positions (the rows
// shown) and, for small vocabularies, the token embedding (the cosine of every pair).
export const RECORD = { params: [{ name: 'pos_emb.weight', rows: P_MAX }, { name: 'tok_emb.weight', maxRows: V_MAX }] };

const dims = (D) => Array.from({ length: D }, (_, i) => String(i));

export function deriveEmbeddings(state, run, shown, info, page) {
  const t = tr(state);
  const c = configOf(run, page);
  // What this panel says the model does with positions: true of the current model.
  const pos = c?.pos;
  const lead = t(!pos || pos === 'sinusoidal' || pos === 'learned' ? 'emb.lead' : pos === 'none' ? 'emb.leadNone' : 'emb.leadInside', { pos: pos ? t(`value.${pos}`) : '' });
  const trace = traceOf(shown);
  if (!trace || trace.error || !c || !trace.tensors || !page.tp) return { lead, views: null };
  const stack = firstStack(Object.keys(trace.tensors));
  const embed = (part) => trace.tensors[traceName(`{stack}.embed.${part}`, { stack })];
  const added = c.pos === 'sinusoidal' || c.pos === 'learned';
  const parts = [['emb-tokens', 'tokens', 'emb.tokens'], ['emb-positions', 'positions', added ? 'emb.positions' : 'emb.positionsNone'], ['emb-sum', 'sum', added ? 'emb.sum' : 'emb.sumNone']];
  return {
    lead,
    views: {
      rows: parts.map(([id, part, key]) => {
        const x = embed(part);
        return { id, label: t(key, { pos: t(`value.${c.pos}`) }), matrix: { rows: x.shape[0], cols: x.shape[1], data: x.data, rowLabels: trace.input.tokens, colLabels: dims(c.dModel), colTitle: t('emb.dim') } };
      }),
      positional: positionalProps({ tp: page.tp, config: c, T: embed('positions').shape[0], params: trace.params }, t),
      rope: ropeProps({ tp: page.tp, config: c, trace, stack }, t),
      onehot: onehotProps({ config: c, trace, embeddings: embed('tokens'), params: trace.params, vocab: info?.vocab }, t),
    },
  };
}
