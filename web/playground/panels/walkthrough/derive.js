// walkthrough/derive.js — the seed's worked example, step by step, with real numbers: on a
// freshly initialised seed model (one forward pass on the page's thread: page.resources) or,
// when the session trains the seed's exact model, on that model at the step the timeline shows:
// the history records the example's trace and weights with every snapshot. Pure apart from the
// fresh model's cache: (state, run, shown, info, page) -> props.
import { buildSteps } from '../../../components/shared/walkthrough-steps.js';
import { WALKTHROUGH } from '../../resources.js';
import { tr, configOf, traceOf } from '../common.js';

// The seed's own model: the Q&A toy with no change to its architecture.
const seedModel = (state) => state.task === 'qa-toy' && Object.keys(state.model).length === 0;

// What the history records for this panel: the example and its weights while the session trains
// the seed's model, nothing otherwise.
export function walkthroughRecord(state) {
  return seedModel(state) ? { probe: { input: WALKTHROUGH.input, target: WALKTHROUGH.target, full: true }, params: WALKTHROUGH.params.map((name) => ({ name })) } : {};
}

// page.wtSource: the reader's pick ('fresh' | 'live'; null: live when it can be).
export function deriveWalkthrough(state, run, shown, info, page) {
  if (!page.tp) return null;
  const t = tr(state);
  const config = configOf(run, page);
  const liveAvailable = seedModel(state) && config?.arch === 'encoder-decoder' && !page.error;
  const source = liveAvailable && page.wtSource !== 'fresh' ? 'live' : 'fresh';
  const live = source === 'live' ? liveExample(shown, info, config) : null;
  const sources = [
    { value: 'fresh', label: t('wt.source.fresh', { seed: state.seed }) },
    { value: 'live', label: t('wt.source.live', { step: live?.step ?? shown?.step ?? 0 }), disabled: !liveAvailable },
  ];
  if (source === 'live' && !live) return { sources, source, steps: null };
  const data = live ?? page.resources.freshExample(state.seed);
  const note = live ? t('wt.note.live', { step: live.step }) : t('wt.note.fresh') + (liveAvailable ? '' : ` ${t('wt.note.unavailable', { task: t('task.qa-toy') })}`);
  // Steps are built again only when the example or the language changes.
  const key = `${source}|${live ? `${run?.id}.${live.step}` : data.seed}|${state.lang}`;
  return { sources, source, note, key, steps: () => buildSteps({ trace: data.trace, params: data.params, vocab: data.vocab, t }), step: state.wt };
}

// The example at the shown step of the history, or null.
function liveExample(shown, info, config) {
  const trace = traceOf(shown, 'walkthrough');
  if (!trace || trace.error || !WALKTHROUGH.params.every((n) => trace.params?.[n])) return null;
  return { trace, params: trace.params, vocab: info.vocab.slice(0, config.vocabSize), step: trace.step };
}
