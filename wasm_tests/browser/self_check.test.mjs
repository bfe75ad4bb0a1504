// Browser: the playground page loads the wasm module and its kernel self-check passes in Chromium.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, openPage, screenshot, serveStatic } from './browser.mjs';

let browser, server, baseUrl;

before(async () => {
  ({ server, url: baseUrl } = await serveStatic());
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  server?.close();
});

test('the page shows the version and a passing kernel self-check, with no console errors', async () => {
  const { page, problems } = await openPage(browser.context, baseUrl);
  const status = page.locator('tp-self-check [data-testid=self-check]');
  await status.filter({ hasText: /pass|FAIL/ }).waitFor({ timeout: 60_000 });
  const text = await status.textContent();
  assert.match(text, /^pass: (\d+)\/\1 kernel checks \(wasm-simd128 vs scalar reference\)/);
  assert.match(await page.locator('tp-self-check [data-testid=version]').textContent(), /Transformer Playground \d+\.\d+\.\d+/);
  await screenshot(page, 'self-check');
  assert.deepEqual(problems, []);
  await page.close();
});
