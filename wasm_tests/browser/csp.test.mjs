// Browser: the pages under the strictest policy they promise to work with,
// `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'` — no style source at all, so a
// <style> element or a style="…" attribute anywhere (shadow roots included) would be blocked.
// A listener added before any page script runs (evaluateOnNewDocument, in every frame) counts
// `securitypolicyviolation` events: there must be none on the playground after training and
// generating, on the example page with every widget scrolled into view, and on the one-widget
// page. Each page is also loaded from a second server that sends no policy, after the same
// actions, and the two are compared:
//   - pixel by pixel where the page is deterministic: the playground trained for a fixed number
//     of steps (same seed, so the same weights, curves and attention) with the few numbers that
//     measure time hidden (tokens/s, ms per token, the kernel self-check), the one-widget page,
//     and each example-page widget that does not train (tokenizers, positional encodings, the
//     walk-through, attention from a checkpoint), each at the same whole-pixel place in the
//     viewport. A small tolerance (0.2 % of the pixels) covers anti-aliasing, nothing a missing
//     stylesheet could hide within;
//   - by size and colours for the widgets that train while the page is read (their curves,
//     numbers and even the length of the answer they trace depend on timing, so neither their
//     pixels nor their heights can match): the same width, the same heights of their title,
//     controls and buttons, the same frame and text colours and font, the same number of
//     canvases drawn once the widget has been seen whole.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { STRICT_CSP, differingPixels, intoView, openPage, reachWidget, screenshot, screenshotDir, shadowStyle, sleep, textOf, useBrowser, waitForText } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const VIEWPORT = { width: 1280, height: 900 };
const STEPS = 60;     // the playground's run: short, and the same in both loads
// One server sends the policy, the other none.
const suite = useBrowser({ root, headers: { 'content-security-policy': STRICT_CSP } }, { root });

// A page whose every frame records policy violations from its first script on (openPage also
// collects console errors, uncaught exceptions and failed requests).
function load(base, pathname) {
  return openPage(suite.browser, base.url + pathname, {
    viewport: VIEWPORT,
    beforeLoad: (page) => page.evaluateOnNewDocument(() => {
      window.__violations = [];
      document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`));
    }),
  });
}

const violations = (page) => Promise.all(page.frames().map((f) => f.evaluate(() => window.__violations ?? null))).then((v) => {
  assert.ok(!v.includes(null), 'a frame has no violation listener');
  return v.flat();
});

// Scrolls through the whole page like a reader (views draw once seen), then back to the top.
async function scrollThrough(page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 500) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await sleep(120);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await sleep(600);
}

// Pictures that differ are kept (test-output/screenshots/<engine>/csp-<what>-{strict,open}.png).
async function assertSamePicture(a, b, what) {
  const d = await differingPixels(suite.browser, a, b);
  if (d.differing !== 0) {
    mkdirSync(screenshotDir, { recursive: true });
    for (const [png, name] of [[a, 'strict'], [b, 'open']]) writeFileSync(path.join(screenshotDir, `csp-${what.replace(/\W+/g, '-')}-${name}.png`), Buffer.from(png, 'base64'));
  }
  assert.notEqual(d.differing, -1, `${what}: different sizes ${JSON.stringify(d.size)}`);
  assert.ok(d.differing <= 0.002 * d.total, `${what}: ${d.differing} of ${d.total} pixels differ with and without the CSP`);
}

// The playground: train STEPS steps (a fixed run from seed 1, as fast as it goes), generate,
// scroll through.
async function playground(base) {
  const { page, problems } = await load(base, `web/index.html#t.totalSteps=${STEPS}&pace=0`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await waitForText(page, '>>> tp-self-check >>> [data-testid=self-check]', /pass|FAIL/, { timeout: 60_000 });
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])');
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 90_000 });
  await page.locator('>>> [data-testid=prompt]').fill('how are you');
  await page.click('>>> [data-testid=generate]');
  await waitForText(page, '>>> #gen-meta', /ms/, { timeout: 20_000 });
  await scrollThrough(page);
  // The token chips are drawn (they come out blank when the theme's colours are missing).
  const chips = await page.$eval('>>> #chips', (el) => {
    const { data } = el.canvas.getContext('2d').getImageData(0, 0, el.canvas.width, el.canvas.height);
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) painted += data[i] > 0;
    return painted;
  });
  assert.ok(chips > 500, `the token chips are blank (${chips} pixels painted)`);
  // Text alternatives stay off screen: the visually hidden tables are 1 × 1 px.
  const hidden = await page.$eval('>>> #attn-main', (el) => el.shadowRoot.querySelector('.sr-only').getBoundingClientRect().width);
  assert.ok(hidden <= 1, `the screen-reader table shows (${hidden} px wide)`);
  // The numbers that measure time are hidden (their boxes keep their place), the caret too.
  await shadowStyle(page, 'tp-playground', '#tps, #gen-meta, #kv-result, tp-self-check { visibility: hidden !important; } * { caret-color: transparent !important; }');
  const png = await page.screenshot({ fullPage: true, encoding: 'base64' });
  await shadowStyle(page, 'tp-playground', null);
  return { page, problems, png };
}

test('the playground under the strict CSP: no violation after training and generating, and it looks as without the CSP', async () => {
  const [strict, open] = suite.servers;
  const a = await playground(strict);
  assert.deepEqual(await violations(a.page), [], 'CSP violations');
  assert.deepEqual(a.problems, []);
  await screenshot(a.page, 'csp-playground-strict');
  const b = await playground(open);
  assert.deepEqual(b.problems, []);
  for (const id of ['loss', 'output']) {
    assert.equal(await textOf(a.page, `>>> [data-testid=${id}]`), await textOf(b.page, `>>> [data-testid=${id}]`), `the same run: ${id}`);
  }
  await assertSamePicture(a.png, b.png, 'the playground');
  await a.page.close();
  await b.page.close();
});

const WIDGETS = 'tp-tokenizer, tp-positional-encoding, tp-attention, tp-walkthrough, tp-train, tp-replay, tp-playground';

// What of a widget can be compared with and without the CSP: its name, whether it trains, its
// box, the heights of the parts whose size does not depend on how far training got (title,
// controls, buttons), its frame's colours and font, and how many canvases it drew.
function widgetInfo(el) {
  return el.evaluate((e) => {
    const trains = e.localName === 'tp-train' || e.localName === 'tp-playground' || (e.localName === 'tp-attention' && !e.hasAttribute('model'));
    const frame = e.shadowRoot.querySelector('.frame, .tp-app');
    const cs = getComputedStyle(frame);
    let canvases = 0;
    const walk = (node) => {
      for (const c of node.querySelectorAll('*')) {
        if (c.localName === 'canvas' && c.width > 0) ++canvases;
        if (c.shadowRoot) walk(c.shadowRoot);
      }
    };
    walk(e.shadowRoot);
    const r = e.getBoundingClientRect();
    const fixed = [...e.shadowRoot.querySelectorAll('.head, .controls, .buttons, .trainbar .buttons')].map((p) => Math.round(p.getBoundingClientRect().height));
    return { name: `${e.localName}${e.getAttribute('kind') ? `[kind=${e.getAttribute('kind')}]` : ''}`, trains, width: Math.round(r.width), height: Math.round(r.height),
      fixed, colours: [cs.backgroundColor, cs.color, cs.borderTopColor, cs.fontFamily], canvases };
  });
}

// Scrolls the element to the middle of the viewport (its top, if it is taller) at a whole-pixel
// scroll offset, the same in every load: text drawn half a pixel lower is anti-aliased
// differently, and Firefox keeps a fraction of a pixel from an earlier scroll (scrollIntoView
// centres at fractions) unless the scroll starts from 0. Resolves with the offset reached.
const placeForPicture = (el) => el.evaluate(async (e) => {
  const r = e.getBoundingClientRect();
  const y = Math.round(r.top + scrollY - Math.max(0, (innerHeight - r.height) / 2));
  window.scrollTo(0, 0);
  window.scrollTo(0, y);
  await new Promise(requestAnimationFrame);
  return { wanted: y, reached: scrollY };
});

// A widget that trains (<tp-train> and <tp-playground> once asked, the live <tp-attention> on
// its own) seen whole, as a reader scrolls past it (its views draw once seen), then kept in view
// until its views are drawn (the count of drawn canvases holds for a second): how far it trains
// depends on timing, what it draws does not.
async function seenWhole(page, el) {
  const { top, height } = await el.evaluate((e) => ({ top: e.getBoundingClientRect().top + scrollY, height: e.getBoundingClientRect().height }));
  for (let y = top - 200; y < top + height; y += 400) {
    await page.evaluate((to) => window.scrollTo(0, to), y);
    await sleep(150);
  }
  await intoView(el);
  let last = -1;
  for (let same = 0, end = Date.now() + 30_000; same < 4; ) {
    const { canvases } = await widgetInfo(el);
    same = canvases === last ? same + 1 : 0;
    last = canvases;
    if (Date.now() > end) throw new Error(`${await el.evaluate((e) => e.localName)}: waited 30 s for its canvases to settle`);
    await sleep(250);
  }
}

// The example page with every widget reached and rendered; per widget, a picture (the ones that
// do not train) or its box, colours and canvases (the ones that do).
async function examplePage(base) {
  const { page, problems } = await load(base, 'web/docs/attention.html');
  const elements = await page.$$(WIDGETS);
  for (const [i, el] of elements.entries()) assert.equal(await reachWidget(el), 'ready', `widget ${i}`);
  await sleep(1000);
  const widgets = [];
  for (const el of elements) {
    let info = await widgetInfo(el);
    if (info.trains) {
      await seenWhole(page, el);
      info = await widgetInfo(el);
    } else {
      const { wanted, reached } = await placeForPicture(el);
      assert.equal(reached, wanted, `${info.name}: scrolled to ${reached} instead of ${wanted}`);
      await sleep(300);
      // Within the viewport: capturing beyond it resizes the page for a moment in Chromium, and
      // the views that saw the resize draw again at that width.
      assert.ok(info.height <= VIEWPORT.height, `${info.name} is taller than the viewport`);
      info.png = await el.screenshot({ encoding: 'base64', scrollIntoView: false, captureBeyondViewport: false });
    }
    widgets.push(info);
  }
  return { page, problems, widgets };
}

test('the example page under the strict CSP: every widget renders with no violation, as without the CSP', async () => {
  const [strict, open] = suite.servers;
  const a = await examplePage(strict);
  assert.deepEqual(await violations(a.page), [], 'CSP violations');
  assert.deepEqual(a.problems, []);
  const b = await examplePage(open);
  assert.deepEqual(b.problems, []);
  assert.equal(a.widgets.length, b.widgets.length);
  assert.ok(a.widgets.length >= 10, `${a.widgets.length} widgets`);
  for (const [x, y] of a.widgets.map((w, i) => [w, b.widgets[i]])) {
    assert.equal(x.name, y.name);
    assert.deepEqual(x.colours, y.colours, `${x.name}: frame colours and font`);
    assert.equal(x.width, y.width, `${x.name}: width`);
    if (x.png) {
      await assertSamePicture(x.png, y.png, x.name);
    } else {
      assert.deepEqual(x.fixed, y.fixed, `${x.name}: heights of its title, controls and buttons`);
      assert.ok(x.fixed.length > 0, `${x.name}: found its controls`);
      assert.equal(x.canvases, y.canvases, `${x.name}: canvases drawn`);
    }
  }
  await a.page.close();
  await b.page.close();
});

test('the one-widget page (and so the iframe embed) under the strict CSP: no violation, the same picture', async () => {
  const [strict, open] = suite.servers;
  const shots = [];
  for (const base of [strict, open]) {
    const { page, problems } = await load(base, 'web/docs/embed-tokenizer.html');
    await page.waitForSelector('tp-tokenizer[data-ready=true]', { timeout: 60_000 });
    await sleep(500);
    if (base === strict) assert.deepEqual(await violations(page), [], 'CSP violations');
    assert.deepEqual(problems, []);
    shots.push(await page.screenshot({ encoding: 'base64' }));
    await page.close();
  }
  await assertSamePicture(shots[0], shots[1], 'embed-tokenizer.html');
});
