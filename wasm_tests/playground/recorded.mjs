// Recorded runs for the playground's panel tests: a training session in Node (worker_threads,
// the page's own worker code) trains a set-up for a few steps with the probes the page records,
// answers its prompt, and the run comes back through RunRecord.toJSON() / RunRecord.from(), as
// a kept run does, together with what the page adds: the task's infos (through the page's own
// TaskInfos) and the panel's page state. One per architecture kind, made once per test file.
import { load, createTrainingSession, RunRecord } from 'transformer-playground';
import { defaultState, sessionRequest, GEN_DEFAULTS } from '../../web/playground/state.js';
import { parseHash } from '../../web/playground/hash.js';
import { TaskInfos } from '../../web/playground/task-infos.js';
import { Probes } from '../../web/playground/probes.js';
import { Resources } from '../../web/playground/resources.js';
import { RECORD as EMBEDDINGS } from '../../web/playground/panels/embeddings/derive.js';
import { walkthroughRecord } from '../../web/playground/panels/walkthrough/derive.js';
import { decodeIds } from '../../web/playground/panels/common.js';
import { fedIds, kvRows, kvTraceRequest } from '../../web/playground/panels/outputs/kv-cache.js';

// name → [hash of the page's link, prompt]: a set-up of each kind of model and output.
export const SETUPS = {
  'encoder-decoder': ['t.totalSteps=40', 'how are you'],
  'decoder-only': ['m.arch=decoder-only&m.maxLen=16&m.window=3&m.layerPattern=LG&m.nLayers=2&t.totalSteps=40&a.kind=dec', 'how are you'],
  'encoder-only classes': ['task=sentiment&m.head=cls&t.totalSteps=20', 'this teddy bear is so cute'],
  'encoder-only tags': ['task=tagging&t.totalSteps=10', null],
};

let tp = null;

// { state, run (a RunRecord from its JSON), info, page, answer, kv?, tp } for set-up `name`.
export async function recorded(name) {
  tp ??= await load();
  const [hash, prompt] = SETUPS[name];
  const state = { ...defaultState(), ...parseHash(`#${hash}`) };
  const infos = new TaskInfos({ tp: () => tp, state: () => state, imported: () => null });
  const info = infos.get();
  const probes = new Probes();
  probes.record('embeddings', EMBEDDINGS);
  probes.record('walkthrough', walkthroughRecord(state, { seen: true }));  // as on a page where the walk-through was opened
  const session = await createTrainingSession();
  try {
    await session.setProbes(probes.request(state.input));
    await session.configure(sessionRequest(state));
    const finished = new Promise((resolve) => session.addEventListener('state', (e) => e.detail.reason === 'finished' && resolve()));
    await session.start();
    await finished;
    const text = prompt ?? info.sampleInputs[0];
    const out = await answer(session, state, info, text);
    const run = RunRecord.from(structuredClone(session.run.toJSON()));
    return { state, run, info, tp, ...out, infos, page: page(run, infos, out) };
  } finally {
    session.dispose();
  }
}

// What the Outputs panel holds after Generate (or Predict): as outputs/actions.js makes it.
async function answer(session, state, info, text) {
  const config = session.run.config;
  if (config.arch === 'encoder-only') return { outputs: { answer: { id: 1, prediction: { id: 1, result: await session.predict(text) } } } };
  const options = { ...GEN_DEFAULTS, ...state.gen };
  const result = await session.generate(text, { ...options, topKProbs: 6, seed: state.seed });
  const fed = fedIds(result, info.tokenizer.specials);
  const trace = await session.snapshot(kvTraceRequest(config, text, decodeIds(info.tokenizer, fed), { seq2seq: info.kind === 'seq2seq' }));
  const kv = { config, trace, fed: fed.length, layout: tp.kvLayout(config, kvRows(config, trace).tokens.length) };
  return { outputs: { answer: { id: 1, generation: { id: 1, prompt: text, result, options, echo: info.kind === 'text' ? text : '' } }, kv } };
}

// The page state derive() reads, as app.js's pageView() gives it after a configured run.
function page(run, infos, { outputs }) {
  return {
    tp, busy: false, error: null, configError: null, invalid: new Map(), status: { key: 'status.finished' }, shownStep: null, standalone: true,
    kept: { entries: [] }, compared: [], compareKey: null, wtSource: null, outputs, files: {},
    resources: new Resources({ tp: () => tp, infoFor: (task) => infos.get(task) }),
    infoFor: (task) => infos.get(task), taskInfo: infos.get(), threads: { threads: 1, support: { reason: 'not-isolated', cores: 2 } }, isolation: 'possible',
  };
}
