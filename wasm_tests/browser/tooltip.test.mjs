// Browser: a view's hover tooltip is drawn whole. The token chips of a short input are one row,
// shorter than their tooltip; the tooltip must not be clipped by the view's scrolling stage (or
// any other box of the view that clips), in the playground as a reader hovers a chip.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, scrollTo, useBrowser, waitForModel } from './browser.mjs';

const suite = useBrowser({});

test('the token chips\' tooltip is not clipped when the chips are one row', async () => {
  const { page, problems } = await openPage(suite.browser, suite.url, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await waitForModel(page);
  await scrollTo(page, '>>> #chips');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('#chips')._boxes?.length >= 2, { timeout: 30_000 });
  const chips = await page.$('>>> #chips');
  const at = await chips.evaluate((el) => {
    const r = el.canvas.getBoundingClientRect(), b = el._boxes[0];
    return { x: r.left + b.x + b.w / 2, y: r.top + b.y + b.h / 2, rows: new Set(el._boxes.map((box) => box.y)).size };
  });
  assert.equal(at.rows, 1, 'the seed input\'s chips are one row');
  await page.mouse.move(at.x, at.y);
  await chips.evaluate((el) => new Promise((resolve) => {
    const tip = el.shadowRoot.querySelector('.tip');
    const check = () => (tip.hidden ? requestAnimationFrame(check) : resolve());
    check();
  }));
  // Every box between the tooltip and the view's root that clips (overflow other than visible)
  // holds the whole tooltip.
  const clipped = await chips.evaluate((el) => {
    const tip = el.shadowRoot.querySelector('.tip'), t = tip.getBoundingClientRect();
    const out = [];
    for (let box = tip.parentElement; box; box = box.parentElement) {
      const cs = getComputedStyle(box);
      if (cs.overflowX === 'visible' && cs.overflowY === 'visible') continue;
      const r = box.getBoundingClientRect();
      if (t.top < r.top - 0.5 || t.bottom > r.bottom + 0.5 || t.left < r.left - 0.5 || t.right > r.right + 0.5) {
        out.push(`.${box.className}: ${r.top.toFixed(1)}–${r.bottom.toFixed(1)} px clips the tooltip at ${t.top.toFixed(1)}–${t.bottom.toFixed(1)} px`);
      }
    }
    return { out, text: tip.textContent };
  });
  assert.match(clipped.text, /^token 0: how/);
  assert.deepEqual(clipped.out, []);
  assert.deepEqual(problems, []);
  await page.close();
});
