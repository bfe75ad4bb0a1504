// outputs/derive.js — the Outputs panel's props: the prompt and its samples, the generation
// options (temperature, top-k and top-p also as sliders), the answer (generation.js), the
// sliders' preview (sampling.js), the KV cache as the answer appears and the measured
// comparison (kv-cache.js), and what the model answers at the step the timeline shows
// (at-step.js). Pure: (state, run, shown, info, page) -> props.
//
// page.outputs is what the page holds for this panel (app.js's outputs actions write it):
//   { running, answer: { generation } | { prediction } | { error }, kv: { trace, fed, layout },
//     preview: { id, options, step } | { error }, measure: { on, off, same, tokens } | { error } }
import { GEN_FIELDS, GEN_DEFAULTS } from '../../state.js';
import { tr, configOf, traceOf, invalidNumber } from '../common.js';
import { generationProps, predictionProps } from './generation.js';
import { previewProps, sliderRanges } from './sampling.js';
import { kvPictureProps, kvMeasureText } from './kv-cache.js';
import { atStepText } from './at-step.js';

export function deriveOutputs(state, run, shown, info, page) {
  const t = tr(state);
  const config = configOf(run, page);
  const encoderOnly = config?.arch === 'encoder-only';
  const out = page.outputs ?? {};
  return {
    lang: state.lang,
    runId: run?.id ?? null,
    encoderOnly,
    generateLabel: t(encoderOnly ? 'out.predict' : 'out.generate'),
    promptLabel: t('out.prompt'),
    prompt: state.prompt || info?.sampleInputs?.[0] || '',
    samples: info?.sampleInputs ?? [],
    gen: state.gen,
    fields: fieldSpecs(state, info, t),
    ready: Boolean(config) && !page.busy && !out.running,
    answer: answerProps(out, info, t),
    answerStep: answerStepText(out.answer, t),
    preview: out.preview && !out.preview.error ? previewProps(out.preview, { t }) : null,
    previewError: out.preview?.error ?? '',
    kv: kvProps(out, config, t),
    kvMeasure: kvMeasureText(out.measure, { t }),
    atStep: atStepText(traceOf(shown), info?.vocab, { t, now: page.shownStep === null || page.shownStep === undefined }),
  };
}

// One control per generation option, with its default and reset; three of them with a slider.
function fieldSpecs(state, info, t) {
  const gen = { ...GEN_DEFAULTS, ...state.gen };
  const sliders = sliderRanges(info?.defaults?.vocabSize);
  return GEN_FIELDS.map((field) => ({
    field, id: `g-${field.key}`, value: gen[field.key], defaultValue: GEN_DEFAULTS[field.key], name: t(`field.${field.key}`),
    slider: sliders[field.key] ?? null,
    resetLabel: t('setup.reset', { name: t(`field.${field.key}`) }),
    defaultLabel: t('setup.default', { value: field.kind === 'bool' ? t(`value.${GEN_DEFAULTS[field.key]}`) : GEN_DEFAULTS[field.key] }),
    invalidLabel: () => invalidNumber(field, t, { int: 'out.invalidInt', real: 'out.invalidReal' }),
  }));
}

// An answer's props, made once per answer and language (the panel redraws far more often than
// an answer changes, and each step's text is a decode).
const made = new WeakMap();
function answerProps(out, info, t) {
  const a = out.answer;
  if (!a) return null;
  if (a.error) return { kind: 'error', id: a.id, meta: a.error };
  const lang = t('app.title');
  const hit = made.get(a);
  if (hit?.lang === lang) return hit.props;
  const props = a.prediction ? predictionProps(a.prediction, { t })
    : generationProps(a.generation, { t, tokenizer: info?.tokenizer, specials: info?.tokenizer?.specials });
  made.set(a, { lang, props });
  return props;
}

// Which model answered: the one at the step the timeline showed, or the model now.
function answerStepText(a, t) {
  if (!a || a.error) return '';
  return a.atStep === null || a.atStep === undefined ? t('out.answeredNow', { step: a.step }) : t('out.answeredAt', { step: a.atStep });
}

// The picture of the model that answered (kv.config: the page may be building another by now).
function kvProps(out, config, t) {
  const a = out.answer, kv = out.kv;
  if (!a?.generation || !kv || !config) return null;
  return kvPictureProps({ config: kv.config, trace: kv.trace, fed: kv.fed, steps: a.generation.result.steps.length, layout: kv.layout }, { t });
}
