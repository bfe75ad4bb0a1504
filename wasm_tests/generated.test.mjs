// node:test — what is derived is current: web/lib/generated/schema.js equals what `npm run
// generate` writes from this build's C++ tables, the TypeScript declarations (web/lib/*.d.ts)
// what tsc emits from the JSDoc of web/lib, and docs/API.md's reference tables what those
// declarations say; the API's keys, the session's defaults and the controls read the tables;
// so is what derives from the widgets' description (custom-elements.json, the widget types,
// docs/WIDGETS.md's tables), whose training attributes are what the core takes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { expectedFiles, readTables } from '../scripts/generate.mjs';
import { load, MODEL_CONFIG, TRAIN_OPTIONS } from 'transformer-playground';

test('the generated files are what npm run generate writes from the C++ tables', async () => {
  const files = await expectedFiles(await readTables());
  for (const [file, text] of Object.entries(files)) {
    assert.equal(await readFile(file, 'utf8'), text, `${path.basename(file)} is out of date: run npm run generate`);
  }
});

test("the tables' defaults are the core's: a model from no options has exactly them", async () => {
  const tp = await load();
  const model = tp.model({ vocabSize: 64 });
  const defaults = Object.fromEntries(MODEL_CONFIG.map((f) => [f.js, f.default]));
  // n_kv_heads 0 means "as many as the heads"; a built model says how many that is.
  assert.deepEqual(model.config, { ...defaults, nKvHeads: defaults.nHeads });
  model.dispose();
  const task = tp.task('qa-toy');
  assert.deepEqual(Object.keys(task.train), TRAIN_OPTIONS.map((f) => f.js));
  task.dispose();
});

test('every key of the tables is accepted, and the messages name keys as JavaScript writes them', async () => {
  const tp = await load();
  assert.throws(() => tp.model({ dModel: 0 }), /^Error: dModel = 0 is out of range; allowed: 1 \.\. 4096$/);
  assert.throws(() => tp.model({ nHeads: 3, dModel: 8 }), /dModel = 8 is not divisible by nHeads = 3/);
  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  assert.throws(() => tp.trainer(model, task, { seqLen: 1 }), /seqLen = 1 is out of range; allowed: 2 \.\. 4096/);
  const trainer = tp.trainer(model, task, Object.fromEntries(TRAIN_OPTIONS.map((f) => [f.js, task.train[f.js]])));
  assert.equal(trainer.step(1).step, 1);
  for (const x of [trainer, model, task]) x.dispose();
});

test("the widgets' training attributes name real config keys and trainer options, within the core's ranges", async () => {
  const { TRAINING_ATTRIBUTES, WIDGETS } = await import('../web/widgets/shared/manifest.js');
  const tables = { model: MODEL_CONFIG, training: TRAIN_OPTIONS };
  for (const a of TRAINING_ATTRIBUTES) {
    const where = a.model ? 'model' : a.training ? 'training' : null;
    if (!where) continue;  // seed: both
    const field = tables[where].find((f) => f.js === a[where]);
    assert.ok(field, `${a.name}: ${a[where]} is not a ${where} key`);
    if (a.values) assert.deepEqual(a.values.filter((v) => !field.choices.includes(v)), [], `${a.name}: values the core does not take`);
    else {
      assert.ok(a.min >= field.min && (field.max === undefined || a.max <= field.max), `${a.name}: ${a.min} … ${a.max} is not within the core's ${field.min} … ${field.max}`);
    }
  }
  const { WIDGET_NAMES } = await import('transformer-playground/widgets');
  assert.deepEqual(WIDGETS.map((w) => w.tag), WIDGET_NAMES, 'the entry registers every described widget, in the same order');
  for (const w of WIDGETS) {
    const names = w.attributes.map((a) => a.name);
    assert.equal(new Set(names).size, names.length, `<${w.tag}> lists an attribute twice`);
  }
});

test("the React entry declares every tag of custom-elements.json in React.JSX.IntrinsicElements, and the package exports it", async () => {
  const { readFile } = await import('node:fs/promises');
  const manifest = JSON.parse(await readFile(new URL('../custom-elements.json', import.meta.url), 'utf8'));
  const tags = manifest.modules.flatMap((m) => m.declarations.map((d) => d.tagName));
  const types = await readFile(new URL('../web/lib/react.d.ts', import.meta.url), 'utf8');
  assert.match(types, /declare module 'react' \{\n {2}namespace JSX \{\n {4}interface IntrinsicElements \{/);
  const declared = [...types.matchAll(/^ {6}'(tp-[\w-]+)': WidgetProps<(\w+)Element, \2Attributes>;$/gm)].map((m) => m[1]);
  assert.deepEqual(declared, tags);
  const pkg = JSON.parse(await readFile(new URL('../package.json', import.meta.url), 'utf8'));
  assert.deepEqual(pkg.exports['./react'], { types: './web/lib/react.d.ts', default: './web/lib/react.js' });
});
