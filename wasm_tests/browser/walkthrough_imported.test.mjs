// Browser: the walk-through of an imported GPT-2-layout model (the fixture folder of
// tools/make_import_fixtures.py, loaded by URL under the strict Content-Security-Policy). It walks
// through the prompt, then, once the model has generated, through the prompt and the tokens it
// generated: every number a step shows — each matrix, and each focused cell of its formula's
// numbers line — is the number of the trace entry it names in the test's own model.trace() of the
// same folder and text, imported again on the page's thread; the formula renders as MathML with
// those numbers; a generated token's K/V step says its earlier rows came from the KV cache. axe
// finds nothing with the walk-through open in English and Korean, light and dark, and at 375 px
// nothing of the walk-through reaches past the page's width (its matrices scroll inside it).
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, axeViolations, launchBrowser, openPage, scrollTo, sleep, useBrowser, waitForText, screenshot, loadModelByUrl } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const suite = useBrowser({ root, headers: { 'content-security-policy': STRICT_CSP } });
let dark;
suite.before(async () => {
  dark = await launchBrowser({ colorScheme: 'dark' });
});
after(() => dark?.close());

const FILES = ['config.json', 'model.safetensors', 'tokenizer.json', 'tokenizer_config.json'];

async function importGpt2(page) {
  await page.waitForSelector('body[data-ready=true]', { timeout: 90_000 });
  await loadModelByUrl(page, `${suite.url}native_tests/data/import/gpt2/`);
  await waitForText(page, '>>> #import-status', /Loaded .*2 layers × 4 heads, width 16/, { timeout: 90_000 });
}

// Waits until the walk-through shows the imported model on `text` (a RegExp on its note).
async function walkthroughOn(page, note) {
  await scrollTo(page, '>>> #walkthrough');
  await page.waitForFunction((source) => {
    const root = document.querySelector('tp-playground').shadowRoot;
    return root.querySelector('#wt').steps?.length > 10 && new RegExp(source).test(root.querySelector('#wt-note').textContent);
  }, { timeout: 60_000 }, note.source);
}

// In the page: the folder imported again on this thread, traced on the text the walk-through
// shows, and every matrix and focused cell of every step compared with it, read the test's own way.
const compare = async (files) => {
  const { walkthroughMismatches } = await import('/wasm_tests/browser/pages/walkthrough-check.mjs');
  const app = document.querySelector('tp-playground').app;
  const wt = document.querySelector('tp-playground').shadowRoot.querySelector('#wt');
  const probe = app.shown.probes.walkthrough.probe;
  const model = await app.tp.importModel(files.map((name) => ({ name, url: new URL(name, `${location.origin}/native_tests/data/import/gpt2/`).href })));
  const trace = model.trace(probe);
  model.dispose();
  const { mismatches, matrices, cells } = walkthroughMismatches(wt.steps, trace.tensors);
  const kv = wt.steps.find((s) => s.id === 'dec.0.self.kv');
  return { probe, tokens: trace.input.tokens.length, mismatches, matrices, cells, ids: wt.steps.map((s) => s.id), kv: { text: kv.text, cached: kv.cached ?? null, marks: kv.matrices.filter((m) => m.trace.row === undefined).map((m) => m.marks ?? null), rowMarks: kv.matrices.filter((m) => m.trace.row !== undefined).map((m) => m.marks ?? null) } };
};

// The formula of step `id`: a <math> element with a size, and its text.
async function formula(page, id) {
  await page.$eval('>>> #wt', (el, id) => (el.step = el.steps.findIndex((s) => s.id === id)), id);
  await sleep(100);
  return page.$eval('>>> #wt', (el) => {
    const m = el.shadowRoot.querySelector('.math math');
    const r = m?.getBoundingClientRect();
    return m ? { ns: m.namespaceURI, width: r.width, height: r.height, text: m.textContent, cells: el.steps[el.step].cells.map((c) => c.value) } : null;
  });
}
const cellText = (v) => (Number.isFinite(v) ? v.toFixed(3).replace('-', '−') : v < 0 ? '−∞' : '∞');

test('an imported GPT-2 model walks through its prompt and what it generated, with the numbers of model.trace()', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}web/index.html`, { viewport: { width: 1280, height: 900 } });
  await importGpt2(page);
  await walkthroughOn(page, /\(imported\), on the prompt/);
  const before = await page.evaluate(compare, FILES);
  assert.deepEqual(before.mismatches, []);
  assert.ok(before.matrices >= 20 && before.cells >= 30, `${before.matrices} matrices, ${before.cells} cells`);
  // GPT-2's kind: learned positions, LayerNorm before each sublayer, GELU, the final norm.
  for (const id of ['dec.embed', 'dec.pos', 'dec.0.norm1.pre', 'dec.1.self.softmax', 'dec.0.ffn.hidden', 'dec.final_norm', 'probs']) assert.ok(before.ids.includes(id) || id.startsWith('dec.1'), id);
  assert.equal(before.kv.cached, null, 'no generation yet: no cache');

  // The softmax step's formula renders, its numbers line holding the focused cell.
  const f = await formula(page, 'dec.0.self.softmax');
  assert.ok(f && f.ns === 'http://www.w3.org/1998/Math/MathML' && f.width > 20 && f.height > 10, JSON.stringify(f));
  assert.match(f.text, /softmax/);
  for (const v of f.cells) assert.ok(f.text.includes(cellText(v)), `${cellText(v)} in ${f.text}`);

  // Generate: the walk-through follows the prompt and the generated tokens; the last one's keys
  // and values of the positions before it came from the cache.
  await page.evaluate(() => {
    document.querySelector('tp-playground').shadowRoot.getElementById('prompt').value = 'the quick';
  });
  await scrollTo(page, '>>> #generate');
  await page.click('>>> #generate');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.getElementById('gen-steps').children.length > 0, { timeout: 60_000 });
  await walkthroughOn(page, /\(imported\), on what it generated: "the quick/);
  const after = await page.evaluate(compare, FILES);
  assert.deepEqual(after.mismatches, []);
  assert.match(after.probe, /^the quick./);
  const last = after.tokens - 1;
  assert.deepEqual(after.kv.cached, { computed: last, from: [0, last] });
  assert.match(after.kv.text, new RegExp(`positions 0 … ${last - 1} came from the KV cache, and only row ${last}`));
  assert.deepEqual(after.kv.marks, [{ rows: [last] }, { rows: [last] }]);
  assert.ok(after.kv.rowMarks.every((m) => m === null), 'a focused row alone marks no row');
  const kvFormula = await formula(page, 'dec.0.self.kv');
  for (const v of kvFormula.cells) assert.ok(kvFormula.text.includes(cellText(v)));
  await screenshot(page, 'walkthrough-imported-kv', '>>> #walkthrough');

  // A prompt token (the first): computed with the whole prompt, no cache.
  await page.select('>>> [data-testid=walkthrough-token]', '0');
  await page.waitForFunction(() => !document.querySelector('tp-playground').shadowRoot.querySelector('#wt').steps.find((s) => s.id === 'dec.0.self.kv').cached, { timeout: 10_000 });
  assert.deepEqual((await page.evaluate(compare, FILES)).mismatches, []);

  // axe with the walk-through open, in both languages (light).
  await scrollTo(page, '>>> #walkthrough');
  await sleep(300);
  assert.deepEqual(await axeViolations(page, problems), [], 'English, light');
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await sleep(500);
  assert.match(await page.$eval('>>> #wt-note', (el) => el.textContent), /가져옴/);
  assert.deepEqual(await axeViolations(page, problems), [], 'Korean, light');

  // 375 px: the walk-through card and all it holds within the page.
  await page.setViewport({ width: 375, height: 800 });
  await sleep(500);
  for (const lang of ['ko', 'en']) {
    await scrollTo(page, '>>> #walkthrough');
    const width = await page.evaluate(() => ({ page: document.documentElement.scrollWidth, card: document.querySelector('tp-playground').shadowRoot.querySelector('#walkthrough').getBoundingClientRect().right }));
    // Everything of the walk-through card outside its own scrolling boxes (the matrices and the
    // formula scroll inside the card) ends within the page's width.
    const wide = await page.evaluate(() => {
      const card = document.querySelector('tp-playground').shadowRoot.querySelector('#walkthrough');
      const out = [];
      const walk = (root) => {
        for (const el of root.querySelectorAll('*')) {
          const r = el.getBoundingClientRect();
          if (r.width > 0 && r.right > 375 && !el.closest('.mats, .math')) out.push(`${el.tagName.toLowerCase()}${el.id ? `#${el.id}` : ''} ends at ${Math.round(r.right)}`);
          if (el.shadowRoot) walk(el.shadowRoot);
        }
      };
      walk(card);
      return { right: card.getBoundingClientRect().right, wide: out };
    });
    assert.ok(wide.right <= 375 && wide.wide.length === 0, `${lang}: ${JSON.stringify(wide)}`);
    if (lang === 'ko') {
      await page.click('>>> [data-testid=lang]');
      await page.waitForSelector('html[lang=en]');
      await sleep(300);
    }
  }
  await screenshot(page, 'walkthrough-imported-375', '>>> #walkthrough');
  assert.deepEqual(problems, []);
  await page.close();
});

test('the imported model\'s walk-through, dark: no axe violations in English or Korean', async () => {
  const { page, problems } = await openPage(dark, `${suite.url}web/index.html`, { viewport: { width: 1280, height: 900 } });
  assert.equal(await page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), true);
  await importGpt2(page);
  await walkthroughOn(page, /\(imported\), on the prompt/);
  await sleep(300);
  assert.deepEqual(await axeViolations(page, problems), [], 'English, dark');
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await sleep(500);
  assert.deepEqual(await axeViolations(page, problems), [], 'Korean, dark');
  assert.deepEqual(problems, []);
  await page.close();
});
