// Browser: the history survives the student's own sentence, and every card answers for the step
// the timeline shows — after training the toy, a new sentence typed into the Attention input
// keeps every recorded snapshot (the worker traces each again from that step's weights), moving
// the timeline changes the new sentence's attention, and Generate at step 2 answers as the model
// did at step 2 (not today's "i am fine"), saying which step answered.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, openPage, scrollTo, screenshot, trainQaToy, useBrowser } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });
const R = "document.querySelector('tp-playground').shadowRoot";
const NEW_INPUT = 'i am you';
const PROBS = 'enc.0.self_attn.probs';

test('a new sentence after training keeps the whole history, traced again; Generate at step 2 answers as step 2', async () => {
  const { page, problems } = await openPage(suite.browser, suite.url, { viewport: { width: 1440, height: 1000 } });
  await trainQaToy(page);
  const before = await page.evaluate(() => document.querySelector('tp-playground').app.run.snapshots.map((s) => s.step));
  assert.ok(before.length > 100, `${before.length} snapshots recorded`);
  assert.match(await page.evaluate(`${R}.querySelector('#out-at-step').textContent`), /^Now \(step 600\) /, 'following the newest, the card says "now"');

  // The student's own sentence, typed into the Attention card's input.
  await scrollTo(page, '>>> #attn-input');
  await page.$eval('>>> #attn-input', (el) => {
    el.focus();
    el.select();
  });
  await page.keyboard.type(NEW_INPUT);
  await page.waitForFunction((input) => {
    const app = document.querySelector('tp-playground').app;
    return !app.page.retracing && app.run.snapshots.every((s) => s.probes.main?.probe === input);
  }, { timeout: 60_000, polling: 200 }, NEW_INPUT);
  const after = await page.evaluate(() => document.querySelector('tp-playground').app.run.snapshots.map((s) => s.step));
  assert.deepEqual(after, before, 'every snapshot is still in the history');
  const slider = await page.$eval('>>> [data-testid=timeline]', (el) => ({ max: Number(el.max), disabled: el.disabled }));
  assert.equal(slider.max + 1, before.length);
  assert.equal(slider.disabled, false);
  assert.doesNotMatch(await page.evaluate(`${R}.querySelector('#timeline-step').textContent`), /re-tracing|the others/);

  // Back to step 2: the new sentence's attention is step 2's, not the final one.
  await page.focus('>>> [data-testid=timeline]');
  await page.keyboard.press('Home');
  for (let i = 0; i < 2; ++i) await page.keyboard.press('ArrowRight');
  await page.waitForFunction(() => document.querySelector('tp-playground').app.shown?.step === 2, { timeout: 30_000 });
  const attention = await page.evaluate((name) => {
    const app = document.querySelector('tp-playground').app;
    const shown = app.shown.probes.main, last = app.run.snapshots.at(-1).probes.main;
    return { tokens: shown.input.tokens, differs: shown.tensors[name].data.some((v, i) => Math.abs(v - last.tensors[name].data[i]) > 1e-3) };
  }, PROBS);
  assert.ok(attention.tokens.includes('you') && attention.tokens.includes('am'), `step 2 shows the new sentence: ${attention.tokens.join(' ')}`);
  assert.ok(attention.differs, 'the new sentence\'s attention at step 2 differs from the final one');
  await page.waitForFunction(() => /^At step 2\b/.test(document.querySelector('tp-playground').shadowRoot.querySelector('#out-at-step').textContent), { timeout: 30_000 });

  // Generate at step 2: step 2's answer, as the session gives it for the step's weights.
  await scrollTo(page, '>>> [data-testid=generate]');
  await page.$eval('>>> [data-testid=prompt]', (el) => {
    el.focus();
    el.select();
  });
  await page.keyboard.type('how are you');
  await page.click('>>> [data-testid=generate]');
  await page.waitForFunction(() => /at step 2\b/.test(document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=answer-step]').textContent), { timeout: 30_000 });
  const expected = await page.evaluate(async () => {
    const app = document.querySelector('tp-playground').app;
    const { GEN_DEFAULTS } = await import(new URL('playground/state.js', document.baseURI).href);
    const at = (atStep) => app.session.generate('how are you', { ...GEN_DEFAULTS, ...app.state.gen, topKProbs: 6, seed: app.state.seed, atStep });
    return { step2: (await at(2)).text, now: (await at(undefined)).text };
  });
  assert.equal(expected.now, 'i am fine');
  assert.notEqual(expected.step2, expected.now, 'the model at step 2 answers otherwise than now');
  await page.waitForFunction((text) => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=output]').textContent === text,
    { timeout: 30_000 }, expected.step2).catch(() => {});
  assert.equal(await page.$eval('>>> [data-testid=output]', (el) => el.textContent), expected.step2, 'OUTPUT is step 2\'s answer');
  await screenshot(page, 'history-new-input-step-2', '>>> #outputs');
  assert.deepEqual(problems, []);
  await page.close();
});
