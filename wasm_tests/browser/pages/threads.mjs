// Scenarios for wasm_tests/browser/threads.test.mjs: each returns plain data the test checks.
import { createTrainingSession, load, threadSupport } from '../../../web/lib/transformer-playground.js';

const message = async (promise) => {
  try {
    await promise;
    return 'resolved';
  } catch (error) {
    return error instanceof Error ? error.message : `not an Error: ${error}`;
  }
};

// What this page can run: { isolated, support, cores }.
window.support = () => ({ isolated: globalThis.crossOriginIsolated === true, support: threadSupport(), cores: navigator.hardwareConcurrency });

// Trains the same model in a session of `threads` (undefined: the default) and returns what a
// run produces: every step's loss, the evaluation, a weight tensor, a generation's logits.
window.train = async (threads, task = 'lm-char') => {
  const session = await createTrainingSession(threads === undefined ? {} : { threads });
  const model = task === 'lm-char' ? { seed: 3, dModel: 64, nHeads: 4, nKvHeads: 2, nLayers: 2, pos: 'rope', maxLen: 64 } : { seed: 3 };
  await session.configure({ task, model, training: { seed: 3, batchSize: 8, seqLen: 64, evalEvery: 1000 } });
  const losses = [];
  for (let i = 0; i < 6; ++i) losses.push((await session.step(1)).loss);
  const evaluation = await session.evaluate();
  const weight = await session.parameter('tok_emb.weight');
  const generated = await session.generate(task === 'lm-char' ? 'the ' : 'how are you', { maxNewTokens: 8, topKProbs: 3 });
  const out = { threads: session.threads, support: session.threadSupport, losses, evaluation, weight: Array.from(weight.data),
    generated: generated.steps.map((s) => s.topk.map((t) => t.p)) };
  session.dispose();
  return out;
};

// What asking for threads where they are not possible says.
window.refusals = async () => ({
  session: await message(createTrainingSession({ threads: 2 })),
  badCount: await message(createTrainingSession({ threads: 0 })),
  load: await message(load({ threads: 2 })),
});

document.getElementById('status').textContent = 'ready';
