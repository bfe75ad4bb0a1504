// Browser: your own data has a stated limit, checked at its boundary. One character over the
// limit (1,000,001) pasted into the playground's text box is refused with its size and the limit,
// "Use this data" stays off, the data in use and the link stay as they were (the link a few kB),
// and the page goes on working; exactly the limit (1,000,000) is allowed; a text within the limit
// is used, and one too long for a link is kept out of it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, openPage, textOf, useBrowser, waitForModel } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });

// Puts text into a box as a paste does (the value, then an input event of type insertFromPaste).
const paste = (page, sel, text) => page.$eval(sel, (el, t) => {
  el.focus();
  el.value = t;
  el.dispatchEvent(new InputEvent('input', { bubbles: true, inputType: 'insertFromPaste' }));
}, text);

test('pasted text one character over the limit: refused with its size and the limit, the link stays small, the page keeps working', async () => {
  const { page, problems } = await openPage(suite.browser, suite.url, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.select('>>> [data-testid=task]', 'text');
  await waitForModel(page);
  assert.match(await textOf(page, '>>> [data-testid=custom-note]'), /^Up to 1,000,000 characters\. A link carries the data only up to about 2,000 characters/);
  const applied = await page.$eval('>>> #custom-text-input', (el) => el.value);

  const zebras = (n) => 'zebra quagga. '.repeat(Math.ceil(n / 14)).slice(0, n);
  await paste(page, '>>> #custom-text-input', zebras(1_000_001));
  const error = await page.$eval('>>> [data-testid=custom-error]', (el) => ({ hidden: el.hidden, text: el.textContent }));
  assert.equal(error.hidden, false);
  assert.match(error.text, /^Your data has 1,000,001 characters; the playground trains on at most 1,000,000\./);
  assert.equal(await page.$eval('>>> #custom-apply', (el) => el.disabled), true);
  assert.equal(await page.$eval('>>> #custom-text-input', (el) => el.getAttribute('aria-invalid')), 'true');
  const hash = await page.evaluate(() => location.hash);
  assert.ok(hash.length <= 4096 && !hash.includes('zebra'), `a ${hash.length}-character link`);
  // Still working on the data in use: Train trains.
  await page.click('>>> [data-testid=train]');
  await page.waitForFunction(() => Number.parseInt(document.querySelector('tp-playground').shadowRoot.querySelector('#step-text').textContent.match(/\d+/)?.[0] ?? '0', 10) > 0, { timeout: 30_000 });
  await page.click('>>> [data-testid=pause]');

  // Exactly the limit is allowed.
  await paste(page, '>>> #custom-text-input', zebras(1_000_000));
  assert.equal(await page.$eval('>>> [data-testid=custom-error]', (el) => el.hidden), true, 'exactly 1,000,000 characters are allowed');
  assert.equal(await page.$eval('>>> #custom-apply', (el) => el.disabled), false);
  assert.notEqual(await page.$eval('>>> #custom-text-input', (el) => el.getAttribute('aria-invalid')), 'true');

  // Within the limit but too long for a link: used, and kept out of the link.
  const text = 'the okapi sat on the log. '.repeat(200);   // 5,200 characters
  await paste(page, '>>> #custom-text-input', text);
  assert.equal(await page.$eval('>>> [data-testid=custom-error]', (el) => el.hidden), true);
  assert.equal(await page.$eval('>>> #custom-apply', (el) => el.disabled), false);
  await page.click('>>> #custom-apply');
  await page.waitForFunction((t) => {
    const root = document.querySelector('tp-playground').shadowRoot;
    return root.querySelector('#custom-text-input').dataset.applied === t && root.querySelector('#status').dataset.key === 'status.ready';
  }, { timeout: 30_000 }, text);
  assert.notEqual(text, applied);
  const after = await page.evaluate(() => location.hash);
  assert.ok(after.length <= 4096 && !after.includes('okapi'), `a ${after.length}-character link`);
  assert.match(after, /task=text/);
  assert.deepEqual(problems, []);
  await page.close();
});
