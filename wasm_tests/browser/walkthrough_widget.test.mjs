// Browser: <tp-walkthrough> with checkpoints other than the seed's, under the strict
// Content-Security-Policy — a shipped decoder-only one (lm-char) at a picked layer and head, the
// shipped Llama-style one (lm-char-llama: RoPE, RMSNorm, SwiGLU, 4 query heads on 2 shared
// key/value heads) at its shared keys and values, an encoder-only classifier (sentiment), and
// imported folders by URL: the Llama fixture (RoPE,
// RMSNorm, SwiGLU) and a GPT-2 folder given no text, which says what it needs. Every matrix and
// every focused cell of each step is the number of the trace entry it names in the test's own
// model.trace() of the same file and text on the page's engine; the formula renders as MathML
// with those numbers; the step attribute takes the derived steps' ids.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, openPage, reachWidget, screenshot, sleep, useBrowser } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const suite = useBrowser({ root, headers: { 'content-security-policy': STRICT_CSP } });

// In the page: widget `id`'s steps against model.trace() of its checkpoint, read the test's own way.
const compare = async ({ id, file, imported, text }) => {
  const { walkthroughMismatches } = await import('/wasm_tests/browser/pages/walkthrough-check.mjs');
  const { load } = await import('/web/lib/api.js');
  const { filesAtUrl } = await import('/web/lib/model-urls.js');
  const tp = await load();
  const url = new URL(file, location.href).href;
  const model = imported ? await tp.importModel(await filesAtUrl(url, undefined, (files) => tp.describeModelFiles(files))) : tp.loadModel(new Uint8Array(await (await fetch(url)).arrayBuffer()));
  const trace = model.trace(text);
  const config = model.config;
  model.dispose();
  const view = document.getElementById(id).shadowRoot.querySelector('tp-walkthrough-view');
  const { mismatches, matrices, cells } = walkthroughMismatches(view.steps, trace.tensors);
  const shown = view.steps[view.step];
  const m = view.shadowRoot.querySelector('.math math');
  const r = m?.getBoundingClientRect();
  return { config: { arch: config.arch, pos: config.pos, norm: config.norm, ffn: config.ffn }, ids: view.steps.map((s) => s.id), titles: view.steps.map((s) => s.title), shown: shown.id,
    shownCells: shown.cells.map((c) => c.value), shownTrace: shown.matrices[0].trace, math: m ? { ns: m.namespaceURI, width: r.width, text: m.textContent } : null, mismatches, matrices, cells };
};
const cellText = (v) => (Number.isFinite(v) ? v.toFixed(3).replace('-', '−') : v < 0 ? '−∞' : '∞');

test('<tp-walkthrough> walks through any checkpoint, ours or imported, with the numbers of its trace', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}wasm_tests/browser/pages/walkthrough_widget.html`, { viewport: { width: 1000, height: 900 } });
  const widgets = { lm: { file: '/web/models/lm-char.safetensors', text: 'the cat' }, llamaStyle: { file: '/web/models/lm-char-llama.safetensors', text: 'the cat' }, sentiment: { file: '/web/models/sentiment.safetensors', text: 'a good film' },
    llama: { file: '/native_tests/data/import/llama/', imported: true, text: 'hello world' } };
  const got = {};
  for (const id of Object.keys(widgets)) {
    assert.equal(await reachWidget(await page.$(`#${id}`)), 'ready', id);
    await sleep(200);
    got[id] = await page.evaluate(compare, { id, ...widgets[id] });
    assert.deepEqual(got[id].mismatches, [], id);
    assert.ok(got[id].matrices >= 12 && got[id].cells >= 12, `${id}: ${got[id].matrices} matrices, ${got[id].cells} cells`);
    // The step shown renders its formula, with the focused cells' numbers.
    const { math, shownCells } = got[id];
    assert.ok(math && math.ns === 'http://www.w3.org/1998/Math/MathML' && math.width > 20, `${id}: ${JSON.stringify(math)}`);
    for (const v of shownCells) assert.ok(math.text.includes(cellText(v)), `${id}: ${cellText(v)} in ${math.text}`);
  }
  // lm-char: the step and the layer and head asked for.
  assert.equal(got.lm.shown, 'dec.1.self.softmax');
  assert.deepEqual(got.lm.shownTrace, { name: 'dec.1.self_attn.probs', head: 2 });
  // lm-char-llama: RoPE (no position table), RMSNorm, SwiGLU, and head 3 reading the keys and
  // values its group of two query heads shares.
  assert.deepEqual(got.llamaStyle.config, { arch: 'decoder-only', pos: 'rope', norm: 'rms', ffn: 'swiglu' });
  assert.equal(got.llamaStyle.shown, 'dec.0.self.kv');
  assert.ok(!got.llamaStyle.ids.includes('dec.pos'));
  for (const want of [/rotated \(RoPE\)/, /shared keys and values \(GQA\)/, /RMSNorm/, /SwiGLU/]) assert.ok(got.llamaStyle.titles.some((t) => want.test(t)), `lm-char-llama: ${want}`);
  // sentiment: an encoder-only model ends in its classifier.
  assert.deepEqual(got.sentiment.config.arch, 'encoder-only');
  assert.ok(got.sentiment.ids.includes('pooled') && got.sentiment.ids.at(-1) === 'probs' && !got.sentiment.ids.some((i) => i.startsWith('dec.')));
  // Llama: decoder-only with RoPE, RMSNorm and SwiGLU — the rotated queries, the gate, no position table.
  assert.deepEqual(got.llama.config, { arch: 'decoder-only', pos: 'rope', norm: 'rms', ffn: 'swiglu' });
  assert.equal(got.llama.shown, 'dec.0.self.q');
  assert.ok(!got.llama.ids.includes('dec.pos'));
  for (const want of [/rotated \(RoPE\)/, /RMSNorm/, /SwiGLU/]) assert.ok(got.llama.titles.some((t) => want.test(t)), `${want}`);
  await screenshot(page, 'walkthrough-widget-llama', '#llama');
  // An imported model with no text: the widget says what it needs.
  const gpt2 = await page.$('#gpt2');
  assert.match(await reachWidget(gpt2), /^error text: give the text to walk through \(gpt2 is an imported model/);
  assert.deepEqual(problems.filter((p) => !/text: give the text/.test(p)), []);
  await page.close();
});
