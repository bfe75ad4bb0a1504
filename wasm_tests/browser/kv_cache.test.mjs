// Browser: the KV cache drawn. On lm-char with a window of 8 on every other layer ("LG"),
// generating 40 characters after "LOVE, n." fills the picture token by token as the answer
// appears; at the end the global layer holds every position fed, the windowed one a ring of the
// last 8 (position p in slot p mod 8), and the work line counts K/V rows with the cache against
// recomputing the prefix for every token. Measuring the cache on this long answer adds no
// "too short" note; the toy's three-token answer does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, openPage, screenshot, scrollTo, textOf, useBrowser, waitForModel, waitForText } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });
const root = 'document.querySelector("tp-playground").shadowRoot';

test('the KV cache fills token by token, a windowed layer as a ring, with the work it saves', async (t) => {
  // The set-up from a link: lm-char, a window of 8 on layer 0 of 2 ("LG"), 40 new tokens.
  const { page, problems } = await openPage(suite.browser, `${suite.url}#task=lm-char&m.window=8&m.layerPattern=LG&g.maxNewTokens=40&prompt=${encodeURIComponent('LOVE, n.')}`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForSelector('>>> #status[data-key="status.ready"]', { timeout: 30_000 });
  assert.deepEqual(await page.evaluate(() => { const c = document.querySelector('tp-playground').app.config; return [c.window, c.layerPattern, c.nLayers]; }), [8, 'LG', 2]);
  assert.equal(await page.$eval('>>> [data-testid=prompt]', (el) => el.value), 'LOVE, n.');
  await scrollTo(page, '>>> [data-testid=generate]');

  // While the answer appears, the cache grows one position at a time. Every size the picture is
  // given is recorded in the page (the element's own setter still draws it), so a busy machine
  // that answers the test slowly cannot make it miss one.
  await page.evaluate(new Function(`const el = ${root}.querySelector('#kv-cache');
    const own = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(el), 'upto');
    window.__kvSizes = [];
    Object.defineProperty(el, 'upto', { configurable: true, get() { return own.get.call(this); }, set(n) { window.__kvSizes.push(n); own.set.call(this, n); } });`));
  await page.click('>>> [data-testid=generate]');
  // Until the answer is done (its line of timings shows); the deadline only ends a hang.
  await page.waitForFunction(new Function(`return /ms/.test(${root}.querySelector('#gen-meta').textContent);`), { timeout: 120_000 });
  const seen = (await page.evaluate(() => window.__kvSizes)).filter((n, i, all) => n !== all[i - 1]);
  const kv = await page.$('>>> #kv-cache');
  const st = await kv.evaluate((el) => ({ ...el.state(), prompt: el.data.prompt, N: el.data.tokens.length }));
  // The picture may still show an earlier answer's cache for a moment after the click; this
  // answer's fill starts where the picture resets, at the prompt.
  const fill = seen.slice(seen.indexOf(Math.min(...seen)));
  assert.ok(fill[0] <= st.prompt + 1, `the fill started at ${fill[0]} positions, not at the prompt's ${st.prompt}: ${seen}`);
  assert.ok(fill.length >= 10, `the cache was seen at only ${fill.length} sizes: ${seen}`);
  assert.deepEqual(fill, [...fill].sort((a, b) => a - b), `the cache shrank: ${seen}`);
  assert.equal(st.n, st.N);
  // "LOVE, n." and the answer's first 39 characters (the last one is not fed back).
  assert.equal(st.N - st.prompt, 39);
  const [local, global] = st.layers;
  assert.deepEqual([local.layer, local.local, local.capacity, global.layer, global.local], [0, true, 8, 1, false]);
  assert.deepEqual(local.slots, Array.from({ length: 8 }, (_, s) => { let p = st.n - 1; while (p % 8 !== s) p -= 1; return p; }));
  assert.deepEqual(global.slots, Array.from({ length: st.n }, (_, p) => p));
  const P = st.prompt, n = st.n;
  const recomputed = (n * (n + 1) - P * (P - 1)) / 2;
  assert.match(await textOf(page, '>>> [data-testid=kv-work]'), new RegExp(`for ${n} positions: ${n} with the cache, ${recomputed} recomputing`));
  await scrollTo(page, '>>> #kv-cache');
  await screenshot(page, 'kv-cache-lm-char-window-8', '>>> #kv-picture');

  // Measured on this long answer: no note that it is too short to tell.
  await page.click('>>> #kv-compare');
  await waitForText(page, '>>> #kv-result', /faster/, { timeout: 60_000 });
  assert.doesNotMatch(await textOf(page, '>>> #kv-result'), /cannot show/);
  t.diagnostic(`lm-char (untrained, window 8 on layer 0), 40 new tokens: ${await textOf(page, '>>> #kv-result')}`);

  // The toy's answer is three words: the measurement says it cannot show the cache's worth.
  // The page rebuilds the model a moment after the choice, and "ready" still shows the old
  // model's until then: wait for the run of the toy, then type the prompt and measure.
  await page.select('>>> [data-testid=task]', 'qa-toy');
  await waitForModel(page);
  await page.waitForFunction(() => document.querySelector('tp-playground').app.run?.task?.name === 'qa-toy', { timeout: 60_000 });
  await page.waitForSelector('>>> #kv-compare:not([disabled])', { timeout: 60_000 });
  await page.locator('>>> [data-testid=prompt]').fill('how are you');
  assert.equal(await page.$eval('>>> [data-testid=prompt]', (el) => el.value), 'how are you');
  await page.click('>>> #kv-compare');
  await waitForText(page, '>>> #kv-result', /cannot show/, { timeout: 60_000 });
  assert.deepEqual(problems, []);
  await page.close();
});
