// Browser: a real-sized model in the page. GPT-2 small's own shape — 12 layers, width 768, 12
// heads, GPT-2's 50,257-token vocabulary (vocab.json + merges.txt), 1,024 positions, 124 M
// parameters — written by the import benchmark's writer (bench/import/hf_folder.mjs, random
// weights, 249 MB in F16), is given by URL. The page loads it for generation and exploration
// (its fine-tuning does not fit, and the training bar says so), shows its own configuration in
// the set-up panel, generates a continuation of the prompt, and draws its attention (12 layers ×
// 12 heads), its tokens and the walk-through of its computation. No console errors.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import path from 'node:path';
import { useBrowser, openPage, scrollTo, waitForText, screenshot, engine, loadModelByUrl, inRoot } from './browser.mjs';
import { root } from '../../scripts/build.mjs';
import { writeHfFolder } from '../../bench/import/hf_folder.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; style-src 'self' 'unsafe-inline'";
const suite = useBrowser({ root, headers: { 'content-security-policy': CSP } });

// Under test-output/ (served with the page), one per engine; the writer keeps a folder an earlier
// run finished (the weights are the same every time).
const base = path.join(root, 'test-output', `import-gpt2-small-${engine}`);
let folder;
suite.before(async () => {
  folder = await writeHfFolder(base, 'gpt2-small', 'F16');
});

test('GPT-2 small\'s shape (124 M parameters) loads by URL, generates, and its attention, tokens and walk-through draw', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}web/index.html`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 90_000 });
  const url = `${suite.url}${path.relative(root, folder).split(path.sep).join('/')}/`;
  await loadModelByUrl(page, url);
  const said = await waitForText(page, '>>> #import-status', /^Loaded /, { timeout: 300_000 });
  assert.match(said, /12 layers × 12 heads, width 768, 50257 tokens/);
  const info = await page.evaluate(() => document.querySelector('tp-playground').app.run.info);
  assert.equal(info.parameterCount, 124_439_808, 'GPT-2 small\'s parameters (the head tied to the embedding)');
  await waitForText(page, '>>> #train-note', /^Fine-tuning is off for this model, which still generates and shows every view: /, { timeout: 30_000 });

  // The set-up panel shows its configuration, read-only.
  const fields = await page.evaluate(inRoot((root) => Object.fromEntries(['arch', 'dModel', 'nLayers', 'nHeads', 'dFF', 'maxLen'].map((k) => [k, root.getElementById(`f-${k}`).value]))));
  assert.deepEqual(fields, { arch: 'decoder-only', dModel: '768', nLayers: '12', nHeads: '12', dFF: '3072', maxLen: '1024' });
  assert.equal(await page.evaluate(inRoot((root) => root.getElementById('task').value)), 'imported-model');

  // It continues the prompt with GPT-2's tokenizer, token by token.
  await page.evaluate(inRoot((root) => {
    root.getElementById('prompt').value = 'The quick brown fox';
  }));
  await scrollTo(page, '>>> #generate');
  await page.click('>>> #generate');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('gen-steps').children.length > 2, { timeout: 120_000 });
  assert.match(await page.evaluate(inRoot((root) => root.getElementById('output').textContent)), /^The quick brown fox./s);

  // Its attention: every layer and head to pick from, the grid drawn for the prompt's tokens.
  await scrollTo(page, '>>> #attention');
  await page.waitForFunction(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    return root.getElementById('attn-layer').options.length === 12 && root.getElementById('attn-head').options.length === 12;
  }, { timeout: 120_000 });
  // Its tokens, from GPT-2's byte-level BPE ("The", " quick", " brown", " fox").
  await scrollTo(page, '>>> #chips');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('#chips')._boxes?.length >= 4, { timeout: 60_000 });
  // The walk-through of its computation: its steps (LayerNorm before each sublayer, 12 heads,
  // GELU, the tied head's logits), with the numbers of the trace.
  await scrollTo(page, '>>> #walkthrough');
  await page.waitForFunction(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    return root.querySelector('#wt').steps?.length > 10 && /\(imported\)/.test(root.querySelector('#wt-note').textContent);
  }, { timeout: 120_000 });
  const steps = await page.$eval('>>> #wt', (el) => el.steps.map((s) => ({ id: s.id, numbers: s.matrices.reduce((n, m) => n + m.matrix.data.length, 0) })));
  for (const id of ['dec.embed', 'dec.pos', 'dec.0.self.qk', 'dec.0.self.softmax', 'dec.0.ffn.hidden', 'logits']) {
    const step = steps.find((s) => s.id === id);
    assert.ok(step && step.numbers > 0, `the walk-through has step ${id} with its numbers: ${steps.map((s) => s.id).join(' ')}`);
  }
  await screenshot(page, 'import-gpt2-small-walkthrough', '>>> #walkthrough');

  // The URL loader asks a GPT-2 folder for vocab.json before tokenizer.json (this one, as GPT-2's
  // own, has vocab.json + merges.txt and no tokenizer.json): no request 404s, nothing is logged.
  assert.deepEqual(problems, []);
  await page.close();
});
