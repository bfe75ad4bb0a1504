// Browser: the Attention card points to the head whose pattern changed most so far — after the
// seed toy has trained, it names the kind, layer and head whose weights moved most since the
// first snapshot (checked against the page's own history with attention/changed.js), "Show it"
// picks that head in every view, and moving the timeline back to the start takes the pointer away.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, axeViolations, openPage, scrollTo, textOf, useBrowser, waitForText } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });
const KIND = { enc: 'encoder self-attention', dec: 'decoder self-attention', cross: 'cross-attention' };

test('after training, the card names the head that changed most, and one click shows it', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status:is([data-key="status.met"], [data-key="status.finished"])', { timeout: 90_000 });
  await scrollTo(page, '>>> #attn-note');  // the card draws once it is in view
  await page.waitForFunction(() => !document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=attn-changed]').hidden, { timeout: 30_000 });
  // What the history says, from the page's own snapshots: the first and the newest.
  const most = await page.evaluate(async () => {
    const { changedMost } = await import(new URL('playground/panels/attention/changed.js', document.baseURI).href);
    const { traceOf } = await import(new URL('playground/panels/common.js', document.baseURI).href);
    const app = document.querySelector('tp-playground').app;
    return changedMost(traceOf(app.run.snapshots[0]), traceOf(app.run.snapshots.at(-1)), app.run.config);
  });
  assert.ok(most && most.change > 0.05, `a head changed: ${JSON.stringify(most)}`);
  const text = await textOf(page, '>>> #attn-changed-text');
  assert.equal(text, `Changed most from step 0 to ${most.to}: ${KIND[most.kind]}, layer ${most.layer}, head ${most.head} (its rows' weights moved by ${most.change.toFixed(2)} of 1 on average).`);
  const before = await page.evaluate(() => document.querySelector('tp-playground').app.state.attn);
  assert.deepEqual({ kind: before.kind, layer: before.layer, head: before.head }, { kind: 'enc', layer: 0, head: 0 }, 'the default view');
  assert.notDeepEqual({ kind: before.kind, layer: before.layer, head: before.head }, { kind: most.kind, layer: most.layer, head: most.head }, 'the pointer leads elsewhere');
  assert.equal(await textOf(page, '>>> [data-testid=attn-changed-show]'), 'Show it');

  await page.click('>>> [data-testid=attn-changed-show]');
  await page.waitForFunction((m) => {
    const a = document.querySelector('tp-playground').app.state.attn;
    return a.kind === m.kind && a.layer === m.layer && a.head === m.head;
  }, { timeout: 10_000 }, most);
  await waitForText(page, '>>> [data-testid=attn-changed-show]', /^Shown$/);
  assert.equal(await page.$eval('>>> [data-testid=attn-changed-show]', (el) => el.disabled), true);
  assert.equal(await page.$eval('>>> #attn-main', (el) => el.getAttribute('label')), `layer ${most.layer}, head ${most.head}: ${KIND[most.kind]}`);
  assert.ok((await page.evaluate(() => location.hash)).split(/[#&]/).includes(`a.kind=${most.kind}`) || most.kind === 'enc', 'the link holds the pick');
  assert.deepEqual(await axeViolations(page, problems), []);

  // At the first step nothing has changed yet: no pointer.
  await page.focus('>>> [data-testid=timeline]');
  await page.keyboard.press('Home');
  await page.waitForFunction(() => document.querySelector('tp-playground').app.shown?.step === 0, { timeout: 30_000 });
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=attn-changed]').hidden, { timeout: 30_000 });
  assert.deepEqual(problems, []);
  await page.close();
});
