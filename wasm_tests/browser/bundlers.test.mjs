// Browser: the package where documentation is built. `npm pack` installed into a fresh project
// from the npm registry (wasm_tests/consumers/fixture.mjs), a Vite app, a webpack 5 app and a
// VitePress site built there with their own commands, then served and opened:
//   - the Vite and the webpack app import the API, the widgets entry, one widget on its own and a
//     training session by package name; served under the strict policy (STRICT_CSP): every
//     widget renders, the session trains the seed's Q&A toy to "i am fine", and there is no
//     console error, failed request or policy violation;
//   - the VitePress site, built with the documented recipe for the sub-path /course/, has widgets
//     in two Markdown pages: they render on the first page and after the site's own client-side
//     navigation to the second, where <tp-train> trains the toy to "i am fine". (No CSP here:
//     VitePress's own pages carry inline scripts.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, openPage, recordViolations, reachWidget, serveStatic, useBrowser } from './browser.mjs';
import { consumers } from '../consumers/fixture.mjs';

const WIDGETS = ['tp-tokenizer', 'tp-positional-encoding', 'tp-attention', 'tp-walkthrough', 'tp-train', 'tp-replay', 'tp-playground'];
const suite = useBrowser();
const servers = {};
suite.before(async () => {
  const built = await consumers();
  const csp = { 'content-security-policy': STRICT_CSP };
  servers.vite = await serveStatic({ root: built.vite, headers: csp });
  servers.webpack = await serveStatic({ root: built.webpack, headers: csp });
  servers.vitepress = await serveStatic({ root: built.vitepress, prefix: '/course/' });
});
test.after(() => Object.values(servers).forEach(({ server }) => server.close()));

// Opens a page recording policy violations from its first script on.
function open(url) {
  return openPage(suite.browser, url, {
    viewport: { width: 1200, height: 900 },
    beforeLoad: recordViolations,
  });
}

// Every widget on the page, scrolled to until it rendered: { tag: 'ready' | 'error …' }.
async function renderAll(page) {
  const states = {};
  for (const el of await page.$$(WIDGETS.join(','))) states[await el.evaluate((e) => e.localName)] = await reachWidget(el);
  return states;
}

for (const app of ['vite', 'webpack']) {
  test(`a ${app} app: every widget renders, the session trains the Q&A toy, under the strict CSP`, async () => {
    const { page, problems } = await open(`${servers[app].url}index.html`);
    assert.deepEqual(await renderAll(page), Object.fromEntries(WIDGETS.map((w) => [w, 'ready'])));
    await page.waitForFunction(() => document.querySelector('#answer').textContent !== '', { timeout: 120_000 });
    assert.equal(await page.$eval('#answer', (e) => e.textContent), 'i am fine');
    assert.equal(await page.$eval('#widgets', (e) => e.textContent), WIDGETS.join(' '));
    assert.match(await page.$eval('#version', (e) => e.textContent), /^\d+\.\d+\.\d+/);
    // The checkpoint came through the bundler: the attention widget traced it (no training).
    assert.equal(await page.$eval('tp-attention', (e) => e.dataset.error ?? null), null);
    assert.deepEqual(await page.evaluate(() => window.__violations), [], 'CSP violations');
    assert.deepEqual(problems, []);
    await page.close();
  });
}

test('a VitePress site under a sub-path: widgets in Markdown render, and train after client-side navigation', async () => {
  const { page, problems } = await open(`${servers.vitepress.url}`);
  assert.deepEqual(await renderAll(page), { 'tp-tokenizer': 'ready', 'tp-positional-encoding': 'ready' });
  // VitePress's router swaps the page's content without loading a document.
  await page.evaluate(() => {
    window.__samePage = true;
  });
  await page.locator('a[href$="guide/train.html"]').click();
  await page.waitForSelector('tp-train');
  assert.equal(await page.evaluate(() => window.__samePage), true, 'the link was followed by the client-side router');
  assert.deepEqual(await renderAll(page), { 'tp-attention': 'ready', 'tp-walkthrough': 'ready', 'tp-train': 'ready' });
  const trainer = await page.$('tp-train');
  await page.waitForFunction((e) => e.dataset.state === 'finished', { timeout: 120_000 }, trainer);
  await page.waitForFunction((e) => e.dataset.output === 'i am fine', { timeout: 30_000 }, trainer);
  assert.deepEqual(problems, []);
  await page.close();
});
