// Browser: the walk-through of a model other than the seed's — lm-char set by a link to a
// decoder-only model with RoPE, RMSNorm, SwiGLU and grouped-query attention (4 query heads, 2
// key/value heads), trained three steps. The panel walks through it live: every number a step
// shows is the number of the trace entry it names in the history's snapshot at the shown step,
// the steps are the model's kind (rotated queries, shared keys and values, RMSNorm, the SwiGLU
// gate), a matrix too wide for numbers is followed by the focused token's row in numbers, the
// formula renders as MathML, the head picker changes what is shown, and moving the
// timeline back changes the numbers to that step's. axe finds nothing in English or Korean.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { root } from '../../scripts/build.mjs';
import { STRICT_CSP, axeViolations, openPage, screenshot, scrollTo, sleep, useBrowser, waitForModel, waitForText } from './browser.mjs';

const suite = useBrowser({ root, headers: { 'content-security-policy': STRICT_CSP } });
const LINK = '#task=lm-char&m.pos=rope&m.norm=rms&m.ffn=swiglu&m.nKvHeads=2';

// In the page: every matrix of every step against the snapshot the timeline shows, read the test's
// own way from the trace entry the matrix names. -> { step, steps, ids, titles, mismatches, config }
const compare = async () => {
  const { walkthroughMismatches } = await import('/wasm_tests/browser/pages/walkthrough-check.mjs');
  const root = document.querySelector('tp-playground').shadowRoot;
  const app = document.querySelector('tp-playground').app;
  const wt = root.querySelector('#wt');
  const snapshot = app.shown;
  const tensors = snapshot.probes.walkthrough.tensors;
  const { mismatches, matrices: checked } = walkthroughMismatches(wt.steps, tensors);
  const qk = wt.steps.find((s) => s.id === 'dec.0.self.qk');
  return { step: snapshot.step, steps: wt.steps.length, ids: wt.steps.map((s) => s.id), titles: wt.steps.map((s) => s.title), mismatches, checked, config: app.run.config,
    qkHead: qk?.matrices[0].trace.head, sample: Array.from(qk?.matrices[0].matrix.data ?? []) };
};

test('the walk-through of a RoPE + RMSNorm + SwiGLU + GQA lm-char model shows the trace\'s numbers and follows the timeline', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}web/${LINK}`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await waitForModel(page);
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  // The walk-through's trace is recorded once its panel has been on screen.
  await scrollTo(page, '>>> #walkthrough');
  await sleep(300);
  for (let i = 1; i <= 3; ++i) {
    await page.click('>>> [data-testid=step]');
    await waitForText(page, '>>> #step-text', new RegExp(`step ${i}\\b`), { timeout: 60_000 });
  }
  await scrollTo(page, '>>> #walkthrough');
  await page.waitForFunction(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    return root.querySelector('#wt').steps.length > 10 && /step 3\b/.test(root.querySelector('#wt-note').textContent);
  }, { timeout: 30_000 });

  const late = await page.evaluate(compare);
  assert.deepEqual([late.config.pos, late.config.norm, late.config.ffn, late.config.nHeads, late.config.nKvHeads, late.config.arch], ['rope', 'rms', 'swiglu', 4, 2, 'decoder-only']);
  assert.equal(late.step, 3);
  assert.deepEqual(late.mismatches, []);
  assert.ok(late.checked >= 25, `${late.checked} matrices`);
  for (const want of [/queries of head 0, rotated \(RoPE\)/, /shared keys and values \(GQA\)/, /RMSNorm before the sublayer/, /SwiGLU gate/, /the causal mask/, /final RMSNorm/, /the chosen token/]) {
    assert.ok(late.titles.some((t) => want.test(t)), `no step matches ${want}: ${late.titles.join(' | ')}`);
  }
  assert.ok(!late.ids.includes('dec.pos'), 'RoPE adds no position table');

  // The formula of the softmax step renders: a <math> element with a size on the page.
  const softmaxAt = late.ids.indexOf('dec.0.self.softmax');
  await page.$eval('>>> #wt', (el, i) => (el.step = i), softmaxAt);
  const math = await page.$eval('>>> #wt', (el) => {
    const m = el.shadowRoot.querySelector('.math math');
    const r = m?.getBoundingClientRect();
    return m ? { tag: m.namespaceURI, width: r.width, height: r.height, text: m.textContent } : null;
  });
  assert.ok(math && math.tag === 'http://www.w3.org/1998/Math/MathML' && math.width > 20 && math.height > 10, JSON.stringify(math));
  assert.match(math.text, /softmax/);
  await screenshot(page, 'walkthrough-gqa-softmax', '>>> #walkthrough');

  // A matrix too wide for numbers (the SwiGLU hidden layer, 8 × 512) is followed by the focused
  // token's row folded into lines of 16 numbers.
  const ffnAt = late.ids.indexOf('dec.0.ffn.hidden');
  await page.$eval('>>> #wt', (el, i) => (el.step = i), ffnAt);
  const folded = await page.$eval('>>> #wt', (el) => el.steps[el.step].matrices.filter((m) => m.trace.row !== undefined).map((m) => [m.matrix.rows, m.matrix.cols, m.trace.row]));
  assert.deepEqual(folded, [[32, 16, 7], [32, 16, 7]]);
  await screenshot(page, 'walkthrough-gqa-swiglu', '>>> #walkthrough');

  // The head picker: head 3 (which reads key/value head 1).
  await page.select('>>> [data-testid=walkthrough-head]', '3');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('#wt').steps.find((s) => s.id === 'dec.0.self.qk')?.matrices[0].trace.head === 3, { timeout: 10_000 });
  const head3 = await page.evaluate(compare);
  assert.deepEqual(head3.mismatches, []);
  assert.equal(head3.qkHead, 3);
  assert.equal(head3.step, 3);

  // The timeline back to step 1: the walk-through shows that step's numbers.
  await scrollTo(page, '>>> [data-testid=timeline]');
  await page.focus('>>> [data-testid=timeline]');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    const step = root.querySelector('[data-testid=timeline]').dataset.step;
    return step !== '3' && new RegExp(`step ${step}\\b`).test(root.querySelector('#wt-note').textContent);
  }, { timeout: 30_000 });
  const early = await page.evaluate(compare);
  assert.ok(early.step < 3, `the timeline shows step ${early.step}`);
  assert.deepEqual(early.mismatches, []);
  assert.equal(early.qkHead, 3, 'the pick stays');
  assert.notDeepEqual(early.sample, head3.sample, 'the numbers at the early step are that step\'s');

  // axe with the walk-through open, in both languages.
  await scrollTo(page, '>>> #walkthrough');
  await sleep(300);
  assert.deepEqual(await axeViolations(page, problems), [], 'English');
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await sleep(500);
  assert.match(await page.$eval('>>> #wt', (el) => el.steps.map((s) => s.title).join(' | ')), /SwiGLU 게이트/);
  assert.deepEqual(await axeViolations(page, problems), [], 'Korean');
  assert.deepEqual(problems, []);
  await page.close();
});
