// walkthrough/derive.js — one forward pass, step by step, with real numbers: the seed's worked
// example on a freshly initialised seed model (one forward pass on the page's thread:
// page.resources), or the model this session trains, at the step the timeline shows — the seed
// article's 28 steps for the seed's exact model, the steps its configuration implies for any
// other (walkthrough-model-steps.js), at the layer, head and token the reader picks. An imported
// model walks through the prompt it last generated from and what it generated (each generated
// token's keys and values of the positions before it come from the KV cache), or the prompt
// before it has generated. Pure apart from the fresh model's cache: (state, run, shown, info,
// page) -> props.
import { walkthroughSteps } from '../../../components/shared/walkthrough-model-steps.js';
import { WALKTHROUGH } from '../../resources.js';
import { tr, configOf, traceOf } from '../common.js';

// The seed's own model: the Q&A toy with no change to its architecture (and no imported model
// standing in for it).
const seedModel = (state, imported) => !imported && state.task === 'qa-toy' && Object.keys(state.model).length === 0;

// What the history records for this panel: the seed's example and its weights while the session
// trains the seed's model (a few kB a snapshot); every trace entry of the task's first sample for
// any other model, once the panel has been on screen (`seen`) — for lm-char that is ~180 kB a
// snapshot, which would thin the history of a reader who never opens the walk-through. An imported
// model's: `generated.input` (the prompt and the tokens generation fed back) once it has
// generated, else the prompt.
export function walkthroughRecord(state, { seen = false, imported = false, generated = null } = {}) {
  if (imported) return seen ? { probe: { input: generated?.input || state.prompt || null, full: true } } : {};
  if (seedModel(state, imported)) return { probe: { input: WALKTHROUGH.input, target: WALKTHROUGH.target, full: true }, params: WALKTHROUGH.params.map((name) => ({ name })) };
  return seen ? { probe: { input: null, full: true } } : {};
}

// page.wtSource: the reader's pick ('fresh' | 'live'; null: live when it can be); page.wtPick:
// { layer, head, token } of the derived steps.
export function deriveWalkthrough(state, run, shown, info, page) {
  if (!page.tp) return null;
  const t = tr(state);
  const config = configOf(run, page);
  const seed = seedModel(state, page.imported);
  const liveAvailable = Boolean(config) && !page.error && (!seed || config.arch === 'encoder-decoder');
  const source = liveAvailable && page.wtSource !== 'fresh' ? 'live' : 'fresh';
  const live = source === 'live' ? liveExample(shown, info, config, seed) : null;
  const sources = [
    { value: 'fresh', label: t('wt.source.fresh', { seed: state.seed }) },
    { value: 'live', label: t('wt.source.live', { step: live?.step ?? shown?.step ?? 0 }), disabled: !liveAvailable },
  ];
  if (source === 'live' && !live) return { sources, source, steps: null, note: t('wt.note.waiting') };
  const data = live ?? page.resources.freshExample(state.seed);
  // The first position generation fed back (the trace is of the generated sequence).
  const gen = page.wtGenerated;
  const cachedFrom = live && page.imported && gen && live.trace.probe === gen.input && gen.from < live.trace.input.tokens.length ? gen.from : undefined;
  const note = !live ? t('wt.note.fresh') + (liveAvailable ? '' : ` ${t('wt.note.unavailable')}`)
    : page.imported ? t(cachedFrom ? 'wt.note.generated' : 'wt.note.prompt', { name: page.imported.name, text: live.trace.probe, from: cachedFrom })
      : t('wt.note.live', { step: live.step });
  const pick = live && !seed ? pickOf(page.wtPick, config, live.trace, t) : null;
  const chosen = pick ? { layer: pick.layer, head: pick.head, token: pick.token } : undefined;
  // Steps are built again only when the example, the pick or the language changes.
  const key = `${source}|${live ? `${run?.id}.${live.step}.${live.trace.probe}.${cachedFrom}` : data.seed}|${JSON.stringify(chosen ?? null)}|${state.lang}`;
  return {
    sources, source, note, key, pick,
    steps: () => walkthroughSteps({ trace: data.trace, params: data.params, vocab: data.vocab, config: live && !seed ? config : undefined, t, pick: chosen, cachedFrom }),
    step: state.wt,
  };
}

// The example at the shown step of the history, or null.
function liveExample(shown, info, config, seed) {
  const trace = traceOf(shown, 'walkthrough');
  if (!trace || trace.error || !trace.tensors) return null;
  if (seed && !WALKTHROUGH.params.every((n) => trace.params?.[n])) return null;
  return { trace, params: trace.params, vocab: info.vocab.slice(0, config.vocabSize), step: trace.step };
}

// The layer, head and token the derived steps show (the last token unless picked), clamped to the
// model, with the panel's choices of each.
function pickOf(wanted = {}, config, trace, t) {
  const tokens = (config.arch === 'encoder-only' ? trace.input : trace.decoderInput ?? trace.input).tokens;
  const clamp = (v, n, fallback) => (Number.isInteger(v) && v >= 0 && v < n ? v : fallback);
  const layer = clamp(wanted?.layer, config.nLayers, 0), head = clamp(wanted?.head, config.nHeads, 0), token = clamp(wanted?.token, tokens.length, tokens.length - 1);
  const list = (n, label, selected) => Array.from({ length: n }, (_, i) => ({ value: String(i), text: label(i), selected: i === selected }));
  return {
    layer, head, token,
    layers: list(config.nLayers, (i) => String(i), layer),
    heads: list(config.nHeads, (i) => String(i), head),
    tokens: list(tokens.length, (i) => `${i}: ${tokens[i]}`, token),
    label: t('wt.pick'),
  };
}
