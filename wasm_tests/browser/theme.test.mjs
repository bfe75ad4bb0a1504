// Browser: widgets in the host site's own dark mode. A page toggles dark mode the way doc sites
// do — Docusaurus's `data-theme` on <html>, VitePress's `.dark` class, a CSS `color-scheme` — and
// in the very frame after the toggle, every widget's frame and the views inside it (a canvas
// view's resolved colours included) show the dark values of web/ui/theme.js, and the light ones
// after toggling back; `theme="light"` keeps a widget light whatever the page does, and changing
// the attribute switches it live. (prefers-color-scheme, the last resort, is what the rest of
// the suite runs under.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, reachWidget, screenshot, useBrowser } from './browser.mjs';
import { root } from '../../scripts/build.mjs';
import { THEME } from '../../web/ui/theme.js';

const suite = useBrowser({ root });
const rgb = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;
const LIGHT = rgb(THEME.bg.light), DARK = rgb(THEME.bg.dark);

// Applies one toggle, then reads the colours in the next animation frame.
function toggleAndRead(page, toggle) {
  return page.evaluate(async (how) => {
    const html = document.documentElement;
    if (how.theme !== undefined) html.dataset.theme = how.theme;
    if (how.dark !== undefined) html.classList.toggle('dark', how.dark);
    if (how.scheme !== undefined) html.classList.toggle('scheme-dark', how.scheme);
    if (how.attr !== undefined) document.querySelector('tp-train').setAttribute('theme', how.attr);
    await new Promise((resolve) => requestAnimationFrame(resolve));
    const frame = (tag) => getComputedStyle(document.querySelector(tag).shadowRoot.querySelector('.frame')).backgroundColor;
    const chips = document.querySelector('tp-tokenizer').shadowRoot.querySelector('tp-token-chips');
    const heatmap = document.querySelector('tp-attention').shadowRoot.querySelector('tp-heatmap');
    return {
      tokenizer: frame('tp-tokenizer'), attention: frame('tp-attention'), train: frame('tp-train'),
      chips: getComputedStyle(chips).getPropertyValue('--_bg').trim(),
      // What a canvas view draws with (its cached colours, re-read on a change of scheme).
      heatmap: heatmap.theme().bg,
      schemes: [...document.querySelectorAll('tp-tokenizer, tp-attention, tp-train')].map((e) => e.dataset.scheme).join(' '),
    };
  }, toggle);
}

test("widgets follow the host page's data-theme, .dark and color-scheme in the next frame; theme= fixes or switches one", async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}wasm_tests/browser/pages/theme.html`, { viewport: { width: 900, height: 1200 } });
  for (const el of await page.$$('tp-tokenizer, tp-attention, tp-train')) assert.equal(await reachWidget(el), 'ready');
  const hexOf = (s) => s.toLowerCase();
  const light = { tokenizer: LIGHT, attention: LIGHT, train: LIGHT, chips: hexOf(THEME.bg.light), heatmap: hexOf(THEME.bg.light), schemes: 'light light light' };
  const dark = { tokenizer: DARK, attention: DARK, train: LIGHT, chips: hexOf(THEME.bg.dark), heatmap: hexOf(THEME.bg.dark), schemes: 'dark dark light' };
  assert.deepEqual(await toggleAndRead(page, {}), light, 'data-theme=light');
  // Docusaurus: <html data-theme="dark">.
  assert.deepEqual(await toggleAndRead(page, { theme: 'dark' }), dark, 'data-theme=dark');
  await screenshot(page, 'theme-docusaurus-dark');
  assert.deepEqual(await toggleAndRead(page, { theme: 'light' }), light, 'data-theme back to light');
  // VitePress: <html class="dark"> (and no data-theme).
  await page.evaluate(() => delete document.documentElement.dataset.theme);
  assert.deepEqual(await toggleAndRead(page, { dark: true }), dark, '.dark');
  assert.deepEqual(await toggleAndRead(page, { dark: false, scheme: true }), dark, 'color-scheme: dark');
  assert.deepEqual(await toggleAndRead(page, { scheme: false, theme: 'light' }), light, 'light again');
  // The attribute: theme="dark" on one widget of a light page, then auto on a dark page.
  assert.equal((await toggleAndRead(page, { attr: 'dark' })).train, DARK);
  const auto = await toggleAndRead(page, { attr: 'auto', theme: 'dark' });
  assert.deepEqual(auto, { ...dark, train: DARK, schemes: 'dark dark dark' });
  // A value that is not a theme says so, like any attribute.
  await page.evaluate(() => document.querySelector('tp-train').setAttribute('theme', 'sepia'));
  await page.waitForFunction(() => document.querySelector('tp-train').dataset.error);
  assert.equal(await page.$eval('tp-train', (e) => e.dataset.error), 'theme must be auto, light or dark (got "sepia")');
  assert.deepEqual(problems, []);
  await page.close();
});
