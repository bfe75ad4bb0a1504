// Browser: "Load a model" in the playground, as a user meets it — the page served under the
// strict Content-Security-Policy, the fixtures of tools/make_import_fixtures.py loaded by URL
// (a GPT-2 folder, then a llama2.c .bin) and from the file picker (a Llama folder's files,
// passed to the worker as File objects), the page saying what the model needs and that it can
// be fine-tuned, every view showing it (tokens with its tokenizer, the attention grid with a
// layer and head picker, generation), a few fine-tuning steps on the text, and a change of task
// returning to the built-in models. No console errors or uncaught exceptions anywhere.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, screenshot, scrollTo, serveStatic, waitForText, inRoot, loadModelByUrl } from './browser.mjs';
import { root } from '../../scripts/build.mjs';
import path from 'node:path';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'";
let browser, server, baseUrl;

before(async () => {
  // The repository root, so the page (web/) and the fixtures (native_tests/data/import) are both served.
  ({ server, url: baseUrl } = await serveStatic({ root, headers: { 'content-security-policy': CSP } }));
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('a GPT-2 folder and a llama2.c file load by URL, and every view shows them', async () => {
  const { page, problems } = await openPage(browser, `${baseUrl}web/index.html`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });

  await loadModelByUrl(page, `${baseUrl}native_tests/data/import/gpt2/`);
  const said = await waitForText(page, '>>> #import-status', /Loaded/, { timeout: 60_000 });
  assert.match(said, /[\d,]+ parameters \(\d+ MB of weights\): 2 layers × 4 heads, width 16, 317 tokens\. It can be fine-tuned here/);
  await waitForText(page, '>>> #status', /loaded/i);

  // The attention view: every layer and head can be picked.
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('attn-layer').options.length === 2, { timeout: 30_000 });
  assert.equal(await page.evaluate(inRoot((root) => root.getElementById('attn-head').options.length)), 4);
  await page.evaluate(inRoot((root) => {
    const sel = root.getElementById('attn-layer');
    sel.value = '1';
    sel.dispatchEvent(new Event('change'));
  }));
  await waitForText(page, '>>> #attn-main', /./).catch(() => {});
  assert.match(await page.evaluate(inRoot((root) => root.getElementById('attn-main').getAttribute('label'))), /layer 1, head 0/);
  await scrollTo(page, '>>> #attention');
  await screenshot(page, 'import-gpt2-attention', '>>> #attention');

  // Generation continues the prompt with the imported model, token by token with its
  // probabilities (the tokens themselves are PyTorch's: wasm_tests/import_models.test.mjs).
  await scrollTo(page, '>>> #outputs');
  await page.evaluate(inRoot((root) => {
    root.getElementById('prompt').value = 'the quick';
  }));
  await page.click('>>> #generate');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('gen-steps').children.length > 0, { timeout: 30_000 });
  assert.match(await page.evaluate(inRoot((root) => root.getElementById('output').textContent)), /^the quick/);

  // A fine-tuning step on the text under Task: the loss appears.
  await page.click('>>> #step');
  await waitForText(page, '>>> #loss', /^\d+\.\d+/, { timeout: 30_000 });

  // llama2.c: the .bin with its tokenizer.bin beside it.
  await loadModelByUrl(page, `${baseUrl}native_tests/data/import/llama2c/model.bin`);
  const llama = await waitForText(page, '>>> #import-status', /Loaded native_tests|Loaded .*model\.bin/, { timeout: 60_000 });
  assert.match(llama, /2 layers × 4 heads, width 16/);
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('attn-head').options.length === 4, { timeout: 30_000 });
  await screenshot(page, 'import-llama2c-files', '>>> #files');

  // A bad URL says why, and the page keeps working.
  await loadModelByUrl(page, `${baseUrl}native_tests/data/import/nothing-here/`);
  await waitForText(page, '>>> #import-status', /config\.json: not found/);
  // The only problems: the missing folder's 404 (its request, and the console line for it).
  const unexpected = problems.filter((p) => !/nothing-here/.test(p) && !/console error: Failed to load resource: .* 404/.test(p));
  assert.deepEqual(unexpected, []);
  assert.ok(problems.length <= 2, problems.join('\n'));
  await page.close();
});

test('a Llama folder\'s files load from the file picker', async () => {
  const { page, problems } = await openPage(browser, `${baseUrl}web/index.html`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await scrollTo(page, '>>> #import-files');
  const input = await page.$('>>> #import-files');
  const dir = path.join(root, 'native_tests', 'data', 'import', 'llama');
  await input.uploadFile(...['config.json', 'model.safetensors', 'tokenizer.json'].map((f) => path.join(dir, f)));
  const said = await waitForText(page, '>>> #import-status', /^Loaded /, { timeout: 60_000 });
  assert.match(said, /Loaded config\.json, model\.safetensors, tokenizer\.json\. [\d,]+ parameters .*2 layers × 4 heads, width 16/);
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('attn-head').options.length === 4, { timeout: 30_000 });
  assert.deepEqual(problems, []);
  await page.close();
});

// Someone else's files are read in the training worker only: a hostile tokenizer or config then
// keeps the worker busy, never the page. The page's own reads are recorded (fetch with its
// method, and every read of a File's bytes) while a model loads by URL and from the picker.
const RECORD_READS = () => {
  window.__reads = [];
  const fetchPage = window.fetch;
  window.fetch = function (input, init) {
    window.__reads.push(`${init?.method ?? 'GET'} ${String(input?.url ?? input).split('/').pop()}`);
    return fetchPage.call(this, input, init);
  };
  for (const method of ['arrayBuffer', 'text', 'stream', 'slice']) {
    const original = Blob.prototype[method];
    Blob.prototype[method] = function (...args) {
      if (this instanceof File) window.__reads.push(`File.${method} ${this.name}`);
      return original.apply(this, args);
    };
  }
  const readAs = FileReader.prototype.readAsArrayBuffer;
  FileReader.prototype.readAsArrayBuffer = function (blob) {
    window.__reads.push(`FileReader ${blob?.name}`);
    return readAs.call(this, blob);
  };
};

test("a model's files are read in the worker, never on the page's thread", async () => {
  const { page, problems } = await openPage(browser, `${baseUrl}web/index.html`, { beforeLoad: (p) => p.evaluateOnNewDocument(RECORD_READS) });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.evaluate(() => (window.__reads = []));
  await loadModelByUrl(page, `${baseUrl}native_tests/data/import/gpt2/`);
  await waitForText(page, '>>> #import-status', /Loaded/, { timeout: 60_000 });
  const names = ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json', 'vocab.json', 'merges.txt'];
  const byUrl = await page.evaluate(() => window.__reads);
  // The page only asks which files there are (HEAD), GPT-2's own tokenizer files first (the
  // worker read config.json's family); it downloads none of them.
  assert.deepEqual(byUrl.filter((r) => names.some((n) => r.endsWith(` ${n}`))), ['HEAD config.json', 'HEAD vocab.json', 'HEAD tokenizer_config.json']);

  await page.evaluate(() => (window.__reads = []));
  const input = await page.$('>>> #import-files');
  const dir = path.join(root, 'native_tests', 'data', 'import', 'llama');
  await input.uploadFile(...['config.json', 'model.safetensors', 'tokenizer.json'].map((f) => path.join(dir, f)));
  await waitForText(page, '>>> #import-status', /^Loaded config\.json/, { timeout: 60_000 });
  assert.deepEqual(await page.evaluate(() => window.__reads.filter((r) => r.startsWith('File') || r.startsWith('FileReader'))), []);
  assert.deepEqual(problems, []);
  await page.close();
});
