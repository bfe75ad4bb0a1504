// outputs/generation.js — one answer as the Outputs panel reveals it, token by token: the
// generation steps (each token with its probability), the text after each step, each step's
// top candidates as bars, and the line under the answer. For an encoder-only model, its
// prediction instead: the class, or a tag per token. Pure: the element animates what this gives.
import { ROLE_COLORS } from '../../../components/shared/colormap.js';
import { decodeIds } from '../common.js';

// generation: { id, prompt, result (session.generate's), options (the settings it ran with),
//   echo (a language model's prompt, shown muted before the new text) }.
// -> { id, kind: 'generate', steps, textAt (the text once k + 1 tokens show), text, echo,
//      bars (per step), meta, accent }
export function generationProps(generation, { t, tokenizer, specials }) {
  const { result: r, options } = generation;
  const eos = specials?.eos ?? null;
  const sampled = options.temperature > 0 || options.topK > 0 || options.topP < 1;
  const steps = r.steps.map((s, i) => {
    const p = s.topk.find((c) => c.id === s.id)?.p;
    return { label: s.token, sr: `${t('out.step', { i: i + 1 })} `, p: p !== undefined ? ` ${(p * 100).toFixed(0)}%` : null };
  });
  const textAt = r.steps.map((_, k) => {
    if (k + 1 >= r.steps.length) return r.text;
    const ids = Array.from(r.ids.slice(0, k + 1)).filter((id) => id !== eos);
    return tokenizer ? decodeIds(tokenizer, ids) : ids.join(' ');
  });
  const bars = r.steps.map((s, i) => ({
    label: t('out.stepBars', { i: i + 1 }),
    items: s.topk.map((c) => ({ label: c.token, p: c.p, pSample: sampled ? c.pSample : undefined, chosen: c.id === s.id })),
  }));
  const cache = options.kvCache ? t('value.true') : t('value.false');
  const meta = t('out.meta', { n: r.steps.length, ms: r.msPerToken.toFixed(3), cache, reason: t(`out.reason.${r.stopReason}`) });
  return { id: generation.id, kind: 'generate', steps, textAt, text: r.text, echo: generation.echo ?? '', bars, meta, accent: ROLE_COLORS.q };
}

// prediction: { id, result (session.predict's) } -> { id, kind: 'classes' | 'tags', text, steps, bars, meta, accent }
export function predictionProps(prediction, { t }) {
  const p = prediction.result;
  if (p.classes) {
    const top = p.classes[0]?.label ?? '';
    return { id: prediction.id, kind: 'classes', text: top, steps: [], meta: t('out.predicted', { label: top }), accent: ROLE_COLORS.q,
      bars: [{ label: t('out.classes'), items: p.classes.map((c, i) => ({ label: c.label, p: c.p, chosen: i === 0 })) }] };
  }
  const tokens = p.input.tokens;
  const best = (i) => p.positions[i]?.[0]?.label;
  return {
    id: prediction.id, kind: 'tags', meta: '', accent: ROLE_COLORS.q,
    text: tokens.map((tok, i) => `${tok}/${best(i) ?? '?'}`).join(' '),
    steps: tokens.map((tok, i) => ({ label: tok, p: ` ${best(i) ?? ''}` })),
    bars: tokens.map((tok, i) => ({ label: `${t('out.tags')}: ${tok ?? ''}`, items: (p.positions[i] ?? []).map((c, j) => ({ label: c.label, p: c.p, chosen: j === 0 })) })),
  };
}
