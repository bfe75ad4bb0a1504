// node:test — what a refused import costs the wasm heap, through tp.importModel, on the hostile
// folders of native_tests/hostile_models.mjs (the CLI tests measure the same cases natively).
//
// The files themselves are copied into the heap before the importer sees them, so the bound is
// on what the import adds: the heap may grow by the files' bytes plus at most 64 MB — within
// 2 × the files + 64 MB in all, and never the 775 MB a 257-byte config.json used to cost — and
// after the refusal nothing is left allocated. The module keeps working afterwards.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { load } from 'transformer-playground';
import { trainedToy, assertModuleWorks } from './helpers.mjs';
import { hostileModel, hostileModels } from '../native_tests/hostile_models.mjs';

const MB = 1 << 20;
let tp, toy;

before(async () => {
  tp = await load();
  ({ model: toy } = await trainedToy());
});

// Small cases first, so each one's growth is its own rather than hidden by an earlier larger one.
const refused = Object.keys(hostileModels)
  .map((name) => ({ name, made: hostileModel(name) }))
  .filter(({ made }) => made.refusal && !made.files['model.bin'])
  .sort((a, b) => a.made.bytes - b.made.bytes);

for (const { name, made } of refused) {
  test(`${name} (${made.what}) is refused within the files' bytes + 64 MB of heap`, async () => {
    const files = Object.entries(made.files).map(([file, bytes]) => ({ name: file, bytes }));
    const before = tp.heapStats();
    // A file larger than its config implies is refused by its size before it is copied in
    // (web/lib/model-files.js); the rest reach the importer and get its message.
    const refusal = made.oversized
      ? new RegExp(`^Error: importModel: '${made.oversized.replace('.', '\\.')}': has [\\d.]+ MB, more than config\\.json implies at most`)
      : made.refusal;
    await assert.rejects(async () => (made.checkpoint ? tp.loadModel(files[0].bytes) : tp.importModel(files)), refusal);
    const after = tp.heapStats();
    const growth = (after.heapSize - before.heapSize) / MB;
    console.log(`# ${name}: ${(made.bytes / MB).toFixed(1)} MB of files, heap ${(before.heapSize / MB).toFixed(0)} -> ${(after.heapSize / MB).toFixed(0)} MB (+${growth.toFixed(1)})`);
    assert.ok(growth <= made.bytes / MB + 64, `the heap grew by ${growth.toFixed(1)} MB for ${(made.bytes / MB).toFixed(1)} MB of files`);
    assert.ok(after.allocated <= before.allocated + MB, `${((after.allocated - before.allocated) / MB).toFixed(1)} MB still allocated after the refusal`);
  });
}

test('the module works after every refusal', () => {
  assertModuleWorks(tp, toy);
});
