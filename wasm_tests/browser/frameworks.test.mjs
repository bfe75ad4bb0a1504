// Browser: the package in documentation sites that render on a server, each built from
// `npm pack` with its own command (wasm_tests/consumers/frameworks.mjs), served statically and
// opened as a reader would:
//   - Docusaurus 3 under /course/: a shipped checkpoint by name traces at once, <tp-train> trains
//     the seed's toy to "i am fine", the theme's own dark-mode toggle turns the widgets dark in
//     step, and after the site's client-side navigation a new widget starts dark;
//   - Astro 5: the API ran in the frontmatter at build time, the widgets from the page's <script>
//     render and train;
//   - Next.js 16 (static export, Turbopack): a server component ran the API at build time, the
//     'use client' component's widgets render and train (its tags typed by the React entry, which
//     `next build` checked).
// No console error, failed request or uncaught exception anywhere.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, reachWidget, screenshot, serveStatic, useBrowser } from './browser.mjs';
import { frameworkApp } from '../consumers/frameworks.mjs';
import { THEME } from '../../web/ui/theme.js';

const suite = useBrowser();
const servers = [];
test.after(() => servers.forEach(({ server }) => server.close()));

async function site(app, prefix = '/') {
  const built = await frameworkApp(app);
  const served = await serveStatic({ root: built.site, prefix });
  servers.push(served);
  return { ...built, url: served.url };
}

// Renders every widget but the trainer, then the trainer (which trains while on screen) until its
// answer is "i am fine".
async function renderAndTrain(page, others) {
  for (const el of await page.$$(others)) assert.equal(await reachWidget(el), 'ready');
  const trainer = await page.$('tp-train[prompt]');
  assert.equal(await reachWidget(trainer), 'ready');
  await page.waitForFunction((e) => e.dataset.state === 'finished', { timeout: 120_000 }, trainer);
  await page.waitForFunction((e) => e.dataset.output === 'i am fine', { timeout: 30_000 }, trainer);
}

const frameColour = (page, tag) => page.$eval(tag, (e) => getComputedStyle(e.shadowRoot.querySelector('.frame')).backgroundColor);
const rgb = (hex) => `rgb(${[1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16)).join(', ')})`;

test('Docusaurus 3: a checkpoint by name, training, the site\'s dark-mode toggle, client-side navigation', async () => {
  const { url } = await site('docusaurus', '/course/');
  const { page, problems } = await openPage(suite.browser, url, { viewport: { width: 1100, height: 1000 } });
  await renderAndTrain(page, 'tp-attention');
  assert.equal(await page.$eval('tp-attention', (e) => e.dataset.error ?? null), null, 'the shipped checkpoint traced');
  assert.equal(await frameColour(page, 'tp-attention'), rgb(THEME.bg.light));
  // The classic theme's toggle: <html data-theme="dark">.
  await page.click('button[title*="dark" i], button[aria-label*="dark" i]');
  await page.waitForFunction(() => document.documentElement.dataset.theme === 'dark');
  await page.waitForFunction(() => document.querySelector('tp-attention').dataset.scheme === 'dark');
  assert.equal(await frameColour(page, 'tp-attention'), rgb(THEME.bg.dark));
  assert.equal(await frameColour(page, 'tp-train'), rgb(THEME.bg.dark));
  await screenshot(page, 'docusaurus-dark');
  await page.evaluate(() => {
    window.__samePage = true;
  });
  await page.click('article a[href$="/tokens"]');
  await page.waitForSelector('tp-tokenizer');
  assert.equal(await page.evaluate(() => window.__samePage), true, 'followed by the client-side router');
  assert.equal(await reachWidget(await page.$('tp-tokenizer')), 'ready');
  assert.equal(await frameColour(page, 'tp-tokenizer'), rgb(THEME.bg.dark));
  assert.deepEqual(problems, []);
  await page.close();
});

test('Astro 5: the API at build time in the frontmatter, the widgets from a <script>', async () => {
  const { url } = await site('astro');
  const { page, problems } = await openPage(suite.browser, url, { viewport: { width: 1100, height: 1000 } });
  assert.match(await page.$eval('#server', (e) => e.textContent), /^built with Transformer Playground \d+\.\d+\.\d+$/);
  await renderAndTrain(page, 'tp-tokenizer, tp-attention');
  assert.equal(await page.$eval('tp-attention', (e) => e.dataset.error ?? null), null);
  assert.deepEqual(problems, []);
  await page.close();
});

test("Next.js 16 static export: a server component's API call at build time, a 'use client' component's typed widgets", async () => {
  const { url, log } = await site('next');
  assert.match(log, /Turbopack/);
  assert.match(log, /Finished TypeScript/, 'next build type-checked the widgets\' JSX');
  const { page, problems } = await openPage(suite.browser, url, { viewport: { width: 1100, height: 1000 } });
  assert.equal(await page.$eval('#server', (e) => e.textContent), 'ids at build time: 6 7 8');
  await renderAndTrain(page, 'tp-tokenizer, tp-attention');
  assert.equal(await page.$eval('tp-attention', (e) => e.dataset.error ?? null), null);
  assert.deepEqual(problems, []);
  await page.close();
});
