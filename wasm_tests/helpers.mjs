// Shared set-up for the node:test suites of the public API (not a test file itself).
import assert from 'node:assert/strict';
import { load } from 'transformer-playground';

export const root = new URL('..', import.meta.url);

// The seed's Q&A toy, trained through the API exactly as the quick-start script does.
export async function trainedToy({ steps = 600, seed = 1 } = {}) {
  const tp = await load();
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed });
  const trainer = tp.trainer(model, task, { seed });
  const report = trainer.step(steps);
  return { tp, task, model, trainer, report };
}

// Proof that the module still works after an error: a trained model still answers, and a new
// model can be created, trained a step, saved, loaded and disposed.
export function assertModuleWorks(tp, toy) {
  assert.equal(toy.generate('how are you', { maxNewTokens: 8 }).text, 'i am fine');
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 3 });
  const trainer = tp.trainer(model, task, { seed: 3 });
  const report = trainer.step(1);
  assert.equal(report.step, 1);
  assert.ok(Number.isFinite(report.loss));
  const copy = tp.loadModel(model.save());
  assert.deepEqual(copy.config, model.config);
  for (const o of [copy, trainer, model, task]) o.dispose();
}

// The [begin, end) slices of `text` that an encoding's UTF-16 spans point at.
export function spanTexts(text, spans) {
  const out = [];
  for (let i = 0; i < spans.length; i += 2) out.push(text.slice(spans[i], spans[i + 1]));
  return out;
}
