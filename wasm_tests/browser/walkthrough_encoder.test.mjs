// Browser: the walk-through of an encoder-only classifier — the sentiment task, trained three
// steps in the playground. Every number each step shows (each matrix, and each focused cell of
// its formula's numbers line) is the number of the trace entry it names in the test's own
// trace of the model at the shown step (session.snapshot({ input, atStep }): model.trace() in the
// training worker on that step's weights); the steps end in the pooled vector and the classifier;
// the formula renders as MathML with those numbers; moving the timeline back changes the numbers
// to that step's. axe finds nothing in English or Korean with the walk-through open.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { root } from '../../scripts/build.mjs';
import { STRICT_CSP, axeViolations, openPage, screenshot, scrollTo, sleep, useBrowser, waitForModel, waitForText } from './browser.mjs';

const suite = useBrowser({ root, headers: { 'content-security-policy': STRICT_CSP } });

// In the page: every matrix and cell of every step against the model's trace at the shown step.
const compare = async () => {
  const { walkthroughMismatches } = await import('/wasm_tests/browser/pages/walkthrough-check.mjs');
  const app = document.querySelector('tp-playground').app;
  const wt = document.querySelector('tp-playground').shadowRoot.querySelector('#wt');
  const shown = app.shown, probe = shown.probes.walkthrough.probe;
  const trace = await app.session.snapshot({ input: probe, atStep: shown.step });
  const { mismatches, matrices, cells } = walkthroughMismatches(wt.steps, trace.tensors);
  const qk = wt.steps.find((s) => s.id === 'enc.0.self.qk');
  return { step: shown.step, arch: app.run.config.arch, ids: wt.steps.map((s) => s.id), titles: wt.steps.map((s) => s.title), mismatches, matrices, cells,
    sample: Array.from(qk.matrices[0].matrix.data), probs: wt.steps.at(-1).cells.map((c) => c.value) };
};
const cellText = (v) => (Number.isFinite(v) ? v.toFixed(3).replace('-', '−') : v < 0 ? '−∞' : '∞');

test('the walk-through of an encoder-only sentiment classifier shows its trace\'s numbers and follows the timeline', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}web/#task=sentiment`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await waitForModel(page);
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  await scrollTo(page, '>>> #walkthrough');  // its trace is recorded once its panel has been on screen
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
  assert.equal(late.arch, 'encoder-only');
  assert.equal(late.step, 3);
  assert.deepEqual(late.mismatches, []);
  assert.ok(late.matrices >= 15 && late.cells >= 20, `${late.matrices} matrices, ${late.cells} cells`);
  // An encoder, then the pooled vector and the classifier; no decoder.
  assert.ok(!late.ids.some((id) => id.startsWith('dec.')), late.ids.join(' '));
  assert.deepEqual(late.ids.slice(-3), ['pooled', 'logits', 'probs']);
  assert.ok(late.titles.some((t) => /classifier/.test(t)) && /chosen class/.test(late.titles.at(-1)), late.titles.join(' | '));

  // The last step's formula renders, with the chosen class's probability in its numbers line.
  await page.$eval('>>> #wt', (el) => (el.step = el.steps.length - 1));
  await sleep(100);
  const math = await page.$eval('>>> #wt', (el) => {
    const m = el.shadowRoot.querySelector('.math math');
    const r = m?.getBoundingClientRect();
    return m ? { ns: m.namespaceURI, width: r.width, height: r.height, text: m.textContent } : null;
  });
  assert.ok(math && math.ns === 'http://www.w3.org/1998/Math/MathML' && math.width > 20 && math.height > 10, JSON.stringify(math));
  for (const v of late.probs) assert.ok(math.text.includes(cellText(v)), `${cellText(v)} in ${math.text}`);
  await screenshot(page, 'walkthrough-sentiment-probs', '>>> #walkthrough');

  // The timeline back: that step's numbers.
  await scrollTo(page, '>>> [data-testid=timeline]');
  await page.focus('>>> [data-testid=timeline]');
  await page.keyboard.press('Home');
  await page.keyboard.press('ArrowRight');
  await scrollTo(page, '>>> #walkthrough');  // a panel out of sight catches up once in view
  await page.waitForFunction(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    const step = root.querySelector('[data-testid=timeline]').dataset.step;
    return step !== '3' && new RegExp(`step ${step}\\b`).test(root.querySelector('#wt-note').textContent);
  }, { timeout: 30_000 });
  const early = await page.evaluate(compare);
  assert.ok(early.step < 3, `the timeline shows step ${early.step}`);
  assert.deepEqual(early.mismatches, []);
  assert.notDeepEqual(early.sample, late.sample, 'the numbers at the early step are that step\'s');

  // axe with the walk-through open, in both languages.
  await scrollTo(page, '>>> #walkthrough');
  await sleep(300);
  assert.deepEqual(await axeViolations(page, problems), [], 'English');
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await sleep(500);
  assert.deepEqual(await axeViolations(page, problems), [], 'Korean');
  assert.deepEqual(problems, []);
  await page.close();
});
