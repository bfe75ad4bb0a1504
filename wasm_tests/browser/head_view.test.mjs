// Browser: the head (line) view reads at the model's full length — the shipped lm-char model
// on 64 characters in <tp-attention view="lines" head="all">: each query draws in full only its
// top-k keys per head above the threshold and fades the rest; hovering a query isolates its
// lines (all of them, not only the top-k), hovering a key isolates the lines into it; the rows
// stay far enough apart to read.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, reachWidget, screenshot, sleep, useBrowser } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const suite = useBrowser({ root });

// The head view's lines as drawn now: [{ head, query, key, strength, opacity }].
const lines = (hv) => hv.evaluate((el) => el.scene.items.filter((it) => it.link).map((it) => ({ ...it.link, opacity: it.opacity })));

test('the head view at 64 tokens: top-k lines, the rest faded, a hovered token isolates its lines', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}wasm_tests/browser/pages/head_view_long.html`, { viewport: { width: 1280, height: 1400 } });
  const widget = await page.waitForSelector('#long');
  assert.equal(await reachWidget(widget), 'ready');
  const hv = await page.waitForSelector('#long >>> tp-head-view');
  await page.waitForFunction((el) => el.scene, {}, hv);
  const { T, S, H, probs, rule, geom } = await hv.evaluate((el) => ({
    T: el.data.T, S: el.data.S, H: el.data.heads, probs: [...el.data.probs], rule: el.lineRule(), geom: el._geom,
  }));
  assert.ok(T >= 60 && S === T, `${T} queries, ${S} keys`);
  assert.equal(H, 4);
  assert.deepEqual([rule.topK, rule.threshold], [3, 0.05]);
  // Readable: rows at least 14 px apart (11 px labels), the picture as tall as its rows.
  assert.ok(geom.rowH >= 14, `rows ${geom.rowH} px apart`);
  const p = (h, t, s) => probs[h * T * S + t * S + s];
  const rank = (h, t, s) => Array.from({ length: S }, (_, j) => j).filter((j) => p(h, t, j) > p(h, t, s) || (p(h, t, j) === p(h, t, s) && j < s)).length;

  await screenshot(page, 'head-view-64-tokens', '#long');
  const all = await lines(hv);
  const strong = all.filter((l) => l.strength === 'strong'), faded = all.filter((l) => l.strength === 'faded');
  assert.ok(strong.length > T && faded.length > 0, `${strong.length} strong lines, ${faded.length} faded`);
  for (const l of strong) {
    assert.ok(rank(l.head, l.query, l.key) < 3 && p(l.head, l.query, l.key) >= 0.05, `a strong line outside the top 3 or below the threshold: ${JSON.stringify(l)}`);
  }
  // Every top-3 key at or above the threshold has its strong line.
  let expected = 0;
  for (let h = 0; h < H; ++h) for (let t = 0; t < T; ++t) for (let s = 0; s < S; ++s) if (rank(h, t, s) < 3 && p(h, t, s) >= 0.05) expected += 1;
  assert.equal(strong.length, expected);
  const faintestStrong = Math.min(...strong.map((l) => l.opacity));
  assert.ok(faded.every((l) => l.opacity < faintestStrong), 'a faded line is as strong as a drawn one');

  // Hover the query label of row 40: only its lines, every key above 1% in every head.
  const box = await hv.evaluate((el) => { const r = el.canvas.getBoundingClientRect(); return { x: r.left, y: r.top }; });
  const q = 40;
  await page.mouse.move(box.x + geom.xl / 2, box.y + geom.top + (q + 0.5) * geom.rowH);
  await sleep(150);
  const focused = await lines(hv);
  assert.ok(focused.length > 0 && focused.every((l) => l.query === q && l.strength === 'focus'), `lines of other queries while ${q} is hovered`);
  let above = 0;
  for (let h = 0; h < H; ++h) for (let s = 0; s < S; ++s) if (p(h, q, s) > 0.01) above += 1;
  assert.equal(focused.length, above);
  assert.ok(focused.length > strong.filter((l) => l.query === q).length, 'hovering showed no more than the top-k');

  // Hover the key label of column 5: only lines into it.
  const k = 5;
  await page.mouse.move(box.x + geom.xr + 12, box.y + geom.top + (k + 0.5) * geom.rowH);
  await sleep(150);
  const into = await lines(hv);
  assert.ok(into.length > 0 && into.every((l) => l.key === k), `lines into other keys while key ${k} is hovered`);

  // The same token lit up from another view (self-attention: it is a query and a key): the lines
  // out of it and into it, no others.
  await page.mouse.move(0, 0);
  await hv.evaluate((el) => { el.highlight = { side: el.data.rowSide ?? 'enc', index: 20 }; });
  await sleep(150);
  const touching = await lines(hv);
  assert.ok(touching.every((l) => l.query === 20 || l.key === 20), 'a line that does not touch the lit token');
  assert.ok(touching.some((l) => l.query === 20) && touching.some((l) => l.key === 20 && l.query !== 20), 'lines out of it and into it');
  await hv.evaluate((el) => { el.highlight = null; });

  // Away: the top-k picture again.
  await page.mouse.move(0, 0);
  await sleep(150);
  assert.equal((await lines(hv)).filter((l) => l.strength === 'strong').length, strong.length);
  assert.deepEqual(problems, []);
  await page.close();
});
