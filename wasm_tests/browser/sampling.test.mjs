// Browser: temperature, top-k and top-p are sliders, and moving one redraws the next token's
// distribution for the prompt as the core's sampler draws it: hotter is flatter, with the
// model's odds raised to 1/temperature; top-k 1 and a tiny top-p leave only the likeliest token;
// letting go keeps the value; Generate brings back the model's bars. The model is the Q&A toy
// trained (its shipped checkpoint: training is not what this checks).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, loadShippedModel, openPage, screenshot, scrollTo, useBrowser, waitForText } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });
const previewOf = (page) => page.$eval('>>> #prob-bars', (el) => ({ preview: el.dataset.preview ? JSON.parse(el.dataset.preview) : null, bars: el.getAttribute('bars'), items: el.items.map((it) => ({ label: it.label, p: it.p, pSample: it.pSample })) }));
async function waitPreview(page, want) {
  await page.waitForFunction((w) => {
    const d = document.querySelector('tp-playground').shadowRoot.querySelector('#prob-bars').dataset.preview;
    return d && Object.entries(w).every(([k, v]) => JSON.parse(d)[k] === v);
  }, { timeout: 20_000 }, want);
  return previewOf(page);
}

test('the sampling sliders redraw the next-token distribution as they move', async (t) => {
  const { page, problems } = await openPage(suite.browser, suite.url, { viewport: { width: 1280, height: 900 } });
  await loadShippedModel(page, 'qa-toy');
  await page.locator('>>> [data-testid=prompt]').fill('how are you');
  await scrollTo(page, '>>> [data-testid=slider-temperature]');

  // Temperature 0 → 0.5 by the keyboard (ten steps of 0.05), then to its end, 2.
  await page.focus('>>> [data-testid=slider-temperature]');
  for (let i = 0; i < 10; ++i) await page.keyboard.press('ArrowRight');
  const warm = await waitPreview(page, { temperature: 0.5 });
  assert.equal(warm.bars, 'sample');
  await page.keyboard.press('End');
  const hot = await waitPreview(page, { temperature: 2 });
  await screenshot(page, 'sampling-sliders-temperature-2', '>>> #outputs');
  // The model's own probabilities do not move; the drawing ones flatten.
  assert.deepEqual(hot.items.map((x) => [x.label, x.p]), warm.items.map((x) => [x.label, x.p]));
  const top = (d) => Math.max(...d.items.map((x) => x.pSample));
  assert.ok(top(hot) < top(warm), `temperature 2 is not flatter than 0.5: ${top(hot)} vs ${top(warm)}`);
  // softmax(logits / T): the odds of two candidates are the model's odds to the power 1/T.
  const [a, b] = hot.items;
  t.diagnostic(`temperature 0.5: ${warm.items.map((x) => `${x.label} ${x.pSample.toFixed(3)}`).join(', ')}; 2: ${hot.items.map((x) => `${x.label} ${x.pSample.toFixed(3)}`).join(', ')}`);
  assert.ok(Math.abs(Math.log(a.pSample / b.pSample) - Math.log(a.p / b.p) / 2) < 1e-3, `odds ${a.pSample / b.pSample} vs ${(a.p / b.p) ** 0.5}`);
  // Let go: the value is the setting, in the box too.
  assert.equal(await page.$eval('>>> #g-temperature', (el) => el.value), '2');

  // top-k 1: only the likeliest token can be drawn.
  await page.focus('>>> [data-testid=slider-topK]');
  await page.keyboard.press('ArrowRight');
  const one = await waitPreview(page, { temperature: 2, topK: 1 });
  assert.deepEqual(one.items.map((x) => x.pSample), one.items.map((_, i) => (i === 0 ? 1 : 0)));
  await page.keyboard.press('Home');
  await waitPreview(page, { topK: 0 });

  // top-p at its least (0.05): the smallest set reaching 5%, here the likeliest token alone.
  await page.focus('>>> [data-testid=slider-topP]');
  await page.keyboard.press('Home');
  const nucleus = await waitPreview(page, { temperature: 2, topK: 0, topP: 0.05 });
  assert.ok(nucleus.items[0].pSample === 1 && nucleus.items.slice(1).every((x) => x.pSample === 0), JSON.stringify(nucleus.items));

  // Generate: the bars are a step's candidates again, by the model's probability.
  await page.click('>>> [data-testid=generate]');
  await waitForText(page, '>>> #gen-meta', /ms/);
  const after = await previewOf(page);
  assert.deepEqual([after.preview, after.bars], [null, null]);
  assert.deepEqual(problems, []);
  await page.close();
});
