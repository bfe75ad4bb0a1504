// outputs/sampling.js — the sliders' preview: the first next token's distribution for the prompt
// with the temperature, top-k and top-p as they are while a slider moves, as the core's sampler
// draws it (pSample), the model's own probability beside it. The page never recomputes the
// sampler: the numbers are a one-token generation's.

// preview: { id, options: { temperature, topK, topP }, step (the generation's first step) }
// -> { id, label, items, setting (what the bars were drawn with, for the page's tests) }
export function previewProps(preview, { t }) {
  const { options: o, step: s } = preview;
  return {
    id: preview.id,
    label: t('out.previewBars', { t: o.temperature, k: o.topK, p: o.topP }),
    items: s.topk.map((c) => ({ label: c.token, p: c.p, pSample: c.pSample, chosen: c.id === s.id })),
    setting: JSON.stringify({ temperature: o.temperature, topK: o.topK, topP: o.topP }),
  };
}

// The settings a preview asks for: the state's generation options with what moved.
export const PREVIEW_KEYS = ['temperature', 'topK', 'topP'];

// The range each slider covers (its box still takes any value the core allows); top-k up to the
// vocabulary.
export function sliderRanges(vocabSize = 50) {
  return {
    temperature: { min: 0, max: 2, step: 0.05 },
    topK: { min: 0, max: Math.min(50, vocabSize), step: 1 },
    topP: { min: 0.05, max: 1, step: 0.05 },
  };
}
