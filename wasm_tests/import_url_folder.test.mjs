// node:test — a model folder given by URL, as the playground's URL box lists it
// (web/lib/model-urls.js) and tp.importModel reads it: tokenizer_config.json is
// among the files when the folder has one, so its add_bos_token decides whether a prompt gets
// <s>, as it does for the same files picked from disk; and the listing asks for no file a real
// folder of its family lacks (the page logs every 404 as a console error).
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { load } from 'transformer-playground';
import { serveStatic } from '../scripts/serve.mjs';
import { filesAtUrl } from '../web/lib/model-urls.js';

const fixtures = fileURLToPath(new URL('../native_tests/data/import/', import.meta.url));
const prompt = 'the quick brown fox';
let tp, work, server, base;

before(async () => {
  tp = await load();
  work = mkdtempSync(path.join(os.tmpdir(), 'tp-import-urls-'));
  cpSync(path.join(fixtures, 'llama'), path.join(work, 'llama'), { recursive: true });
  cpSync(path.join(fixtures, 'llama'), path.join(work, 'llama-no-bos'), { recursive: true });
  const config = path.join(work, 'llama-no-bos', 'tokenizer_config.json');
  writeFileSync(config, JSON.stringify({ ...JSON.parse(readFileSync(config, 'utf8')), add_bos_token: false }));
  cpSync(path.join(fixtures, 'gpt2'), path.join(work, 'gpt2'), { recursive: true });
  // GPT-2 with tokenizer.json alone (a folder saved without the original files).
  for (const name of ['tokenizer_config.json', 'vocab.json', 'merges.txt']) rmSync(path.join(work, 'gpt2', name));
  // GPT-2 as the Hub keeps it (the fixture): vocab.json + merges.txt beside tokenizer.json, and
  // tokenizer_config.json.
  cpSync(path.join(fixtures, 'gpt2'), path.join(work, 'gpt2-hub'), { recursive: true });
  ({ server, url: base } = await serveStatic({ root: work }));
  server.on('request', (req, res) => res.on('finish', () => requests.push(`${req.method} ${req.url} ${res.statusCode}`)));
});

const requests = [];  // every request the server answered: 'HEAD /gpt2/vocab.json 404'

after(() => {
  server?.close();
  if (work) rmSync(work, { recursive: true, force: true });
});

const names = (files) => files.map((f) => f.name);
const describe = (files) => tp.describeModelFiles(files);  // as the playground's worker does

test('a Llama folder by URL lists tokenizer_config.json, and its add_bos_token decides the <s>', async () => {
  const want = JSON.parse(readFileSync(path.join(fixtures, 'llama', 'expected.json'), 'utf8')).prompt_ids;
  assert.equal(want[0], 1, 'the fixture\'s prompt starts with <s>');
  for (const [folder, ids] of [['llama', want], ['llama-no-bos', want.slice(1)]]) {
    const files = await filesAtUrl(`${folder}/`, base, describe);
    assert.deepEqual(names(files), ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json']);
    const model = await tp.importModel(files);
    try {
      assert.deepEqual([...model.trace(prompt).input.ids], ids, folder);
    } finally {
      model.dispose();
    }
  }
});

test('a folder with only tokenizer.json (no tokenizer_config.json, no vocab.json) by URL lists only the files it has, and loads', async () => {
  const files = await filesAtUrl(`${base}gpt2`, 'http://unused.invalid/', describe);
  assert.deepEqual(names(files), ['config.json', 'model.safetensors', 'tokenizer.json']);
  const model = await tp.importModel(files);
  try {
    assert.deepEqual([...model.trace(prompt).input.ids], JSON.parse(readFileSync(path.join(fixtures, 'gpt2', 'expected.json'), 'utf8')).prompt_ids);
  } finally {
    model.dispose();
  }
});

test('a GPT-2 folder as the Hub keeps it is listed with vocab.json + merges.txt, a Llama folder with tokenizer.json, and no request is answered 404', async () => {
  const expected = (folder) => JSON.parse(readFileSync(path.join(fixtures, folder, 'expected.json'), 'utf8')).prompt_ids;
  for (const [folder, want, fixture] of [
    ['gpt2-hub', ['config.json', 'model.safetensors', 'vocab.json', 'merges.txt', 'tokenizer_config.json'], 'gpt2'],
    ['llama', ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json'], 'llama'],
  ]) {
    requests.length = 0;
    const files = await filesAtUrl(`${folder}/`, base, describe);
    assert.deepEqual(names(files), want, folder);
    const model = await tp.importModel(files);
    try {
      assert.deepEqual([...model.trace(prompt).input.ids], expected(fixture), `${folder}: the ids of the fixture's own tokenizer`);
    } finally {
      model.dispose();
    }
    assert.deepEqual(requests.filter((r) => !/ 20[06]$/.test(r)), [], `${folder}: every request found its file`);
    assert.ok(!requests.some((r) => /tokenizer\.json|vocab\.json/.test(r) && !want.some((name) => r.includes(`/${name} `))),
      `${folder}: no request for a tokenizer file it was not listed with: ${requests.join(', ')}`);
  }
});

test('a folder without config.json by URL says so and lists nothing', async () => {
  await assert.rejects(filesAtUrl(`${base}nothing-here/`), /^Error: http:\/\/\S+\/nothing-here\/config\.json: not found; give the URL of a model folder or of a llama2\.c \.bin file$/);
});
