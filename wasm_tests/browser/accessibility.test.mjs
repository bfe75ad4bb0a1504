// Browser: axe-core (the accessibility rules engine, a devDependency) finds no violations where a
// new user goes — the playground with the Q&A toy trained (its shipped checkpoint loaded, and a
// training step taken so the training views have a run to show), an answer generated and that run
// kept beside a new one, in English and in Korean, a run paused where it diverged (the hint and
// its button) and trainers that went wrong,
// the kept runs' controls (a run's label, a link's kept run not trained here and the button that
// trains them all, the current run listed beside it),
// and the widgets example page with every widget rendered — each in the light and in the
// dark colour scheme, under the strict Content-Security-Policy. axe is put into the page by the
// driver (browser.mjs axeViolations: not by a <script> the policy would have to allow) and reads
// open shadow roots itself.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, axeViolations, launchBrowser, loadShippedModel, openPage, reachWidget, sleep, useBrowser, waitForModel, waitForText } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const suite = useBrowser({ root, headers: { 'content-security-policy': STRICT_CSP } });
const browsers = { light: null, dark: null };
suite.before(async () => {
  browsers.light = suite.browser;
  browsers.dark = await launchBrowser({ colorScheme: 'dark' });
});
after(() => browsers.dark?.close());

// axe on the playground as it is (English), then after its language button (Korean).
async function inBothLanguages(page, problems, scheme) {
  assert.deepEqual(await axeViolations(page, problems), [], `English, ${scheme}`);
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await sleep(500);
  assert.deepEqual(await axeViolations(page, problems), [], `Korean, ${scheme}`);
}

async function openIn(scheme, path) {
  const opened = await openPage(browsers[scheme], suite.url + path, { viewport: { width: 1280, height: 900 } });
  // The scheme asked for is the one the page sees.
  assert.equal(await opened.page.evaluate(() => matchMedia('(prefers-color-scheme: dark)').matches), scheme === 'dark');
  return opened;
}

for (const scheme of ['light', 'dark']) {
  test(`the playground with a trained model, a step and an answer, in English and Korean (${scheme}): no axe violations`, async () => {
    const { page, problems } = await openIn(scheme, 'web/index.html');
    await loadShippedModel(page, 'qa-toy');
    await page.click('>>> [data-testid=step]');
    await waitForText(page, '>>> #step-text', /step 1\b/);
    await page.locator('>>> [data-testid=prompt]').fill('how are you');
    await page.click('>>> [data-testid=generate]');
    await waitForText(page, '>>> [data-testid=output]', /^i am fine$/, { timeout: 20_000 });
    // A kept run beside the current one (kept, the norm placement changed, a step trained): its
    // entry's "Set up" button, whose accessible name must hold that text as words in Korean too.
    await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
    await page.click('>>> [data-testid=pin-run]');
    await page.select('>>> [data-testid=field-normPlacement]', 'pre');
    await waitForModel(page);
    await page.click('>>> [data-testid=step]');
    await waitForText(page, '>>> #step-text', /step 1\b/);
    await page.waitForSelector('>>> [data-testid=run-list] li button[aria-label]', { timeout: 30_000 });
    await sleep(500);
    await inBothLanguages(page, problems, scheme);
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`a run paused where it diverged, and trainers that went wrong, in English and Korean (${scheme}): no axe violations`, async () => {
    const { page, problems } = await openIn(scheme, 'web/index.html#task=qa-toy&t.lr=10&t.warmup=0');
    await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
    await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
    await page.select('>>> [data-testid=speed]', '0');
    await page.click('>>> [data-testid=train]');
    await page.waitForSelector('>>> [data-testid=lower-lr]:not([hidden])', { timeout: 60_000 });
    await sleep(500);
    await inBothLanguages(page, problems, scheme);
    await page.close();
    const widgets = await openIn(scheme, 'wasm_tests/browser/pages/widgets_train.html');
    await widgets.page.waitForFunction(() => document.querySelector('#diverges').dataset.state === 'diverged' && document.querySelector('#no-task').dataset.error, { timeout: 60_000 });
    assert.deepEqual(await axeViolations(widgets.page, widgets.problems), [], `widgets, ${scheme}`);
    assert.deepEqual([...problems, ...widgets.problems], []);
    await widgets.page.close();
  });

  test(`the kept runs' controls: a label, a link's untrained kept run with "Train every kept run", this run listed, in English and Korean (${scheme}): no axe violations`, async () => {
    const shared = encodeURIComponent('task=copy&seed=1&l=Shared run');
    const { page, problems } = await openIn(scheme, `web/index.html#pace=0&l=My%20run&run=${shared}`);
    await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
    await page.waitForSelector('>>> [data-testid=step]:not([disabled])', { timeout: 60_000 });
    await page.click('>>> [data-testid=step]');
    await page.waitForSelector('>>> [data-testid=run-list] > li[data-kept=false]', { timeout: 30_000 });
    await page.waitForSelector('>>> [data-testid=train-kept]:not([hidden])');
    assert.equal(await page.$eval('>>> [data-testid=run-label]', (el) => el.value), 'My run');
    await sleep(500);
    await inBothLanguages(page, problems, scheme);
    await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
    assert.deepEqual(problems, []);
    await page.close();
  });

  test(`the widgets example page, every widget rendered (${scheme}): no axe violations`, async () => {
    const { page, problems } = await openIn(scheme, 'web/docs/attention.html');
    for (const el of await page.$$('tp-tokenizer, tp-positional-encoding, tp-attention, tp-walkthrough, tp-train, tp-replay, tp-playground')) {
      assert.equal(await reachWidget(el), 'ready', await el.evaluate((e) => e.outerHTML.slice(0, 100)));
    }
    await sleep(500);
    assert.deepEqual(await axeViolations(page, problems), [], scheme);
    assert.deepEqual(problems, []);
    await page.close();
  });
}
