// Browser: learning made visible by default — the seed toy stops by itself where it has learned
// its task (web/lib/stop-rule.js: exact match 1 at the latest evaluation, the mean loss of the
// last 10 steps below 0.02), the training bar says so with the numbers it reached (in English and
// in Korean, with no axe violations), Keep training trains on to the last step, a link with
// stop=false trains to the end without stopping, and a run too short to meet the rule says at its
// end what its metric reached and what the rule asks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, axeViolations, openPage, sleep, textOf, useBrowser, waitForText } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });

// The run as the page mirrors it, and what the stop rule says of its history.
const runOf = (page) => page.evaluate(async () => {
  const { metAt } = await import(new URL('lib/stop-rule.js', document.baseURI).href);
  const run = document.querySelector('tp-playground').app.run;
  return { step: run.step, total: run.totalSteps, running: run.running, reason: run.reason, met: metAt(run.task.metric, run.points),
    before: metAt(run.task.metric, run.points.slice(0, -1)) };
});
const hidden = (page, sel) => page.$eval(sel, (el) => el.hidden);

test('the toy stops where it is learned, the bar says so in both languages, and Keep training goes on to the end', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  assert.equal(await hidden(page, '>>> [data-testid=train-met]'), true, 'no message before training');
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.met"]', { timeout: 90_000 });
  const met = await runOf(page);
  assert.equal(met.reason, 'met');
  assert.equal(met.running, false);
  assert.ok(met.step > 10 && met.step < met.total, `stopped at step ${met.step} of ${met.total}`);
  assert.ok(met.met && met.met.step === met.step && met.before === null, 'stopped at the first step the rule holds for');
  await sleep(1000);
  assert.equal((await runOf(page)).step, met.step, 'it stays there');
  assert.equal(await hidden(page, '>>> [data-testid=train-met]'), false);
  const loss = met.met.loss.toFixed(4);
  assert.equal(await textOf(page, '>>> #met-text'), `Stopped at step ${met.step}: the task is learned (exact match 100.0%, loss ${loss}).`);
  assert.equal(await textOf(page, '>>> [data-testid=keep-training]'), 'Keep training');
  assert.equal(await textOf(page, '>>> #status'), `paused at step ${met.step}: the task is learned`);
  assert.equal(await textOf(page, '>>> #step-text'), `step ${met.step} / ${met.total}`);
  // The model it stopped with answers right.
  await page.locator('>>> [data-testid=prompt]').fill('how are you');
  await page.click('>>> [data-testid=generate]');
  await waitForText(page, '>>> [data-testid=output]', /^i am fine$/, { timeout: 20_000 });
  assert.deepEqual(await axeViolations(page, problems), [], 'English');

  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await waitForText(page, '>>> #met-text', /단계에서 멈췄습니다/);
  assert.equal(await textOf(page, '>>> #met-text'), `${met.step}단계에서 멈췄습니다: 과제를 다 배웠습니다 (완전 일치 100.0%, 손실 ${loss}).`);
  assert.equal(await textOf(page, '>>> [data-testid=keep-training]'), '계속 학습');
  assert.deepEqual(await axeViolations(page, problems), [], 'Korean');

  await page.click('>>> [data-testid=keep-training]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 90_000 });
  const end = await runOf(page);
  assert.deepEqual({ step: end.step, reason: end.reason, running: end.running }, { step: met.total, reason: 'finished', running: false }, 'trained on to the last step without stopping again');
  assert.equal(await hidden(page, '>>> [data-testid=train-met]'), true, 'the message goes once training goes on');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a link with stop=false trains the toy to its last step without stopping', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0&stop=false`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  await page.evaluate(() => {
    globalThis.tpReasons = [];
    document.querySelector('tp-playground').app.session.addEventListener('state', (e) => globalThis.tpReasons.push(e.detail.reason));
  });
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 90_000 });
  const end = await runOf(page);
  assert.equal(end.step, end.total);
  assert.ok(end.met, 'the toy was learned on the way');
  assert.deepEqual(await page.evaluate(() => globalThis.tpReasons), ['started', 'finished'], 'it never stopped on the way');
  assert.equal(await hidden(page, '>>> [data-testid=train-met]'), true);
  assert.ok((await page.evaluate(() => location.hash)).split(/[#&]/).includes('stop=false'), 'the link keeps stop=false');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a run that ends before it meets the rule says what it reached and what the rule asks, with no Keep training', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0&t.totalSteps=30`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 90_000 });
  const end = await runOf(page);
  assert.deepEqual({ step: end.step, reason: end.reason, met: end.met }, { step: 30, reason: 'finished', met: null });
  const reached = await page.evaluate(() => document.querySelector('tp-playground').app.run.points.findLast((p) => p[3] != null)[3]);
  await page.waitForSelector('>>> [data-testid=train-met]:not([hidden])', { timeout: 10_000 });
  assert.equal(await textOf(page, '>>> #met-text'), `Trained to the last step without meeting the stop rule: exact match reached ${(reached * 100).toFixed(1)}% at the last evaluation; it stops early only at 100.0%, with a mean loss below 0.02 over the last 10 steps.`);
  assert.equal(await page.$eval('>>> [data-testid=keep-training]', (el) => el.hidden && getComputedStyle(el).display === 'none'), true, 'nothing to keep training for');
  assert.deepEqual(await axeViolations(page, problems), [], 'English');
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await waitForText(page, '>>> #met-text', /^멈춤 규칙을 채우지 못해 마지막 단계까지 학습했습니다/);
  assert.deepEqual(await axeViolations(page, problems), [], 'Korean');
  assert.deepEqual(problems, []);
  await page.close();
});
