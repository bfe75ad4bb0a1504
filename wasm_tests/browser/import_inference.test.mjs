// Browser: an imported model is loaded for generation and exploration whatever its training
// needs. A GPT-2-layout folder as wide as GPT-2 small (d_model 768, 12 heads) but with one layer,
// the small byte-level BPE vocabulary of the GPT-2 fixture and a context of 1,024 — written by
// the import benchmark's writer (bench/import/hf_folder.mjs), 16 MB in F16 — is picked from the
// file picker, and then given by URL, on a page whose training windows are 1,024 tokens (#t.seqLen=1024): a training
// step of 16 such windows needs gigabytes of activations, so the model cannot be fine-tuned,
// while generating with it takes a few hundred MB. The page loads it, generates, draws its
// attention and tokens, shows its own configuration read-only in the set-up panel (not the seed
// task's), and says in the training bar why fine-tuning is off, with no axe violations in English
// or Korean; shorter windows then make it fit, and it fine-tunes, the bar saying its steps per
// second and the time left. No console errors or uncaught exceptions.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useBrowser, openPage, scrollTo, waitForText, screenshot, axeViolations, sleep, engine, loadModelByUrl, inRoot } from './browser.mjs';
import { root } from '../../scripts/build.mjs';
import { writeHfFolder } from '../../bench/import/hf_folder.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'";
const suite = useBrowser({ root, headers: { 'content-security-policy': CSP } });

// GPT-2 small's width and heads, one layer, the fixture's 317-token vocabulary, 1,024 positions.
const SHAPE = { name: 'gpt2-wide-1-layer', family: 'gpt2', layers: 1, d: 768, heads: 12, ffn: 3072, vocab: 317, context: 1024 };
// Under test-output/ (served with the page, so the folder also loads by URL), one per engine;
// the writer keeps a folder an earlier run finished (the weights are the same every time).
const base = path.join(root, 'test-output', `import-inference-${engine}`);
let folder;
suite.before(async () => {
  folder = await writeHfFolder(base, SHAPE, 'F16', { tokenizer: path.join(root, 'native_tests', 'data', 'import', 'gpt2', 'tokenizer.json') });
});
// Waits until the view `id` (in the playground's shadow root) has painted more than 500 pixels of
// its canvas (it draws at an animation frame once it is on screen).
const paints = (page, id) => page.waitForFunction((id) => {
  const canvas = document.querySelector('tp-playground').shadowRoot.getElementById(id)?.canvas;
  if (!canvas?.width || !canvas.height) return false;
  const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
  let n = 0;
  for (let i = 3; i < data.length; i += 4) n += data[i] > 0;
  return n > 500;
}, { timeout: 30_000, polling: 200 }, id);

test('a model too large to fine-tune loads from files, generates, and every view shows it', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}web/index.html#task=qa-toy&t.seqLen=1024`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 90_000 });
  await scrollTo(page, '>>> #import-files');
  const input = await page.$('>>> #import-files');
  await input.uploadFile(...['config.json', 'model.safetensors', 'tokenizer.json'].map((f) => path.join(folder, f)));
  const said = await waitForText(page, '>>> #import-status', /^Loaded /, { timeout: 120_000 });
  assert.match(said, /1 layers × 12 heads, width 768, 317 tokens/);
  assert.match(said, /its fine-tuning does not fit; the training bar says why/);

  // The training bar: Train and Step off, one sentence saying why (the core's words).
  const note = await waitForText(page, '>>> #train-note', /Fine-tuning is off/, { timeout: 30_000 });
  assert.match(note, /^Fine-tuning is off for this model, which still generates and shows every view: batchSize × length × dModel = 16 × 1024 × 768 is out of range for training: .*the limit is 1024 MB/);
  assert.equal(await page.$eval('>>> #train', (el) => el.disabled), true);
  assert.equal(await page.$eval('>>> #step', (el) => el.disabled), true);
  assert.equal(await page.$eval('>>> #reset', (el) => el.disabled), true);
  assert.equal(await page.$eval('>>> #train-error', (el) => el.hidden), true);
  assert.equal(await page.$eval('>>> #status', (el) => el.dataset.key), 'status.loaded');
  // The Training card names the imported model, not the seed task's plan.
  assert.equal(await page.$eval('>>> #training-note', (el) => el.textContent),
    'config.json, model.safetensors, tokenizer.json (imported): not trained here (the training bar says why); it generates, and every view shows it.');

  // The set-up panel: the imported model under Task, its own architecture, read-only.
  const task = await page.evaluate(inRoot((root) => {
    const select = root.getElementById('task');
    return { value: select.value, text: select.selectedOptions[0].textContent, group: select.selectedOptions[0].parentElement.label };
  }));
  assert.deepEqual(task, { value: 'imported-model', text: 'config.json, model.safetensors, tokenizer.json (imported)', group: 'Imported model' });
  const fields = await page.evaluate(inRoot((root) => Object.fromEntries(['arch', 'dModel', 'nLayers', 'nHeads', 'dFF', 'maxLen', 'pos', 'norm'].map((k) => {
    const el = root.getElementById(`f-${k}`);
    return [k, { value: el.value, readOnly: el.readOnly }];
  }))));
  assert.deepEqual(fields, {
    arch: { value: 'decoder-only', readOnly: true }, dModel: { value: '768', readOnly: true }, nLayers: { value: '1', readOnly: true },
    nHeads: { value: '12', readOnly: true }, dFF: { value: '3072', readOnly: true }, maxLen: { value: '1024', readOnly: true },
    pos: { value: 'learned', readOnly: true }, norm: { value: 'LayerNorm', readOnly: true },
  });
  assert.match(await page.$eval('>>> #arch-fields', (el) => el.textContent), /cannot change here.*vocabulary 317 \(set by the model's tokenizer\)/s);
  // The text it would fine-tune on is shown, with no tokenizer to pick (the model has its own).
  assert.equal(await page.$eval('>>> #custom-text', (el) => el.hidden), false);
  assert.equal(await page.$eval('>>> #custom-tokenizer-row', (el) => el.hidden), true);
  await screenshot(page, 'import-inference-setup', '>>> #setup');
  // The read-only fields, the menu's entry and the training bar's note pass axe, in both languages.
  await sleep(500);
  assert.deepEqual(await axeViolations(page, problems), [], 'English');
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await waitForText(page, '>>> #train-note', /미세 조정할 수 없지만/);
  assert.match(await page.evaluate(inRoot((root) => root.getElementById('task').selectedOptions[0].textContent)), /\(가져옴\)$/);
  await sleep(500);
  assert.deepEqual(await axeViolations(page, problems), [], 'Korean');
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=en]');

  // Generation continues the prompt with the imported model, token by token.
  await page.evaluate(inRoot((root) => {
    root.getElementById('prompt').value = 'the cat';
  }));
  await scrollTo(page, '>>> #generate');  // the middle of the view, clear of the sticky training bar
  await page.click('>>> #generate');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('gen-steps').children.length > 0, { timeout: 60_000 });
  assert.match(await page.evaluate(inRoot((root) => root.getElementById('output').textContent)), /^the cat/);

  // Its attention: one layer, twelve heads, drawn; its tokens: drawn with its tokenizer.
  await scrollTo(page, '>>> #attention');
  await page.waitForFunction(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    return root.getElementById('attn-layer').options.length === 1 && root.getElementById('attn-head').options.length === 12;
  }, { timeout: 60_000 });
  await paints(page, 'attn-main');
  await scrollTo(page, '>>> #chips');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('#chips')._boxes?.length > 1, { timeout: 30_000 });
  await paints(page, 'chips');

  // Windows of 32 tokens fit: fine-tuning is offered, and a step runs on the text shown.
  await scrollTo(page, '>>> #f-seqLen');
  await page.evaluate(inRoot((root) => {
    const box = root.getElementById('f-seqLen');
    box.value = '32';
    box.dispatchEvent(new Event('change'));
  }));
  await page.waitForSelector('>>> #train-note[hidden]', { timeout: 120_000 });
  await page.waitForSelector('>>> #step:not([disabled])', { timeout: 60_000 });
  assert.equal(await page.evaluate(inRoot((root) => root.getElementById('task').value)), 'imported-model');
  assert.match(await page.$eval('>>> #training-note', (el) => el.textContent), /^config\.json, model\.safetensors, tokenizer\.json \(imported\): 2000 steps, batch 16, /);
  // Training says how fast it goes and how long is left; Pause stops it.
  await page.click('>>> #train');
  await waitForText(page, '>>> #step-text', /^step \d+ \/ 2000 · [\d.]+ steps\/s · [\d.]+ (s|min|h) left$/, { timeout: 90_000 });
  await page.click('>>> #pause');
  await waitForText(page, '>>> #status', /^paused$/, { timeout: 30_000 });
  await waitForText(page, '>>> #loss', /^\d+\.\d+/, { timeout: 30_000 });
  assert.match(await page.$eval('>>> #step-text', (el) => el.textContent), /^step \d+ \/ 2000$/);

  assert.deepEqual(problems, []);
  await page.close();
});

test('the same folder loads by URL, generates, and says why it is not fine-tuned', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}web/index.html#task=qa-toy&t.seqLen=1024`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 90_000 });
  const url = `${suite.url}${path.relative(root, folder).split(path.sep).join('/')}/`;
  await loadModelByUrl(page, url);
  const said = await waitForText(page, '>>> #import-status', /^Loaded /, { timeout: 120_000 });
  assert.match(said, /1 layers × 12 heads, width 768, 317 tokens/);
  await waitForText(page, '>>> #train-note', /^Fine-tuning is off for this model.*16 × 1024 × 768 is out of range for training/, { timeout: 30_000 });
  assert.equal(await page.$eval('>>> #f-dModel', (el) => el.value), '768');
  await page.evaluate(inRoot((root) => {
    root.getElementById('prompt').value = 'the dog';
  }));
  await scrollTo(page, '>>> #generate');
  await page.click('>>> #generate');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('gen-steps').children.length > 0, { timeout: 60_000 });
  assert.match(await page.evaluate(inRoot((root) => root.getElementById('output').textContent)), /^the dog/);
  assert.deepEqual(problems, []);
  await page.close();
});
