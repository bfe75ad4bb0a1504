// Browser: the playground page loads the wasm module and its kernel self-check passes.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, screenshot, textOf, useBrowser, waitForText } from './browser.mjs';

const suite = useBrowser();

test('the page shows the version and a passing kernel self-check, with no console errors', async () => {
  const { page, problems } = await openPage(suite.browser, suite.url);
  const text = await waitForText(page, '>>> tp-self-check >>> [data-testid=self-check]', /pass|FAIL/, { timeout: 60_000 });
  assert.match(text, /^pass: (\d+)\/\1 kernel checks \(wasm-simd128 vs scalar reference\)/);
  assert.match(await textOf(page, '>>> tp-self-check >>> [data-testid=version]'), /Transformer Playground \d+\.\d+\.\d+/);
  await screenshot(page, 'self-check');
  assert.deepEqual(problems, []);
  await page.close();
});
