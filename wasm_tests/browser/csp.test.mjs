// Browser: the pages under the strictest policy they promise to work with,
// `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'` — no style source at all, so a
// <style> element or a style="…" attribute anywhere (shadow roots included) would be blocked.
// A listener added before any page script runs (an init script, in every frame) counts
// `securitypolicyviolation` events: there must be none on the playground after training and
// generating, on the example page with every widget scrolled into view, and on the one-widget
// page. Each page is also loaded from a second server that sends no policy, after the same
// actions, and the two are compared:
//   - pixel by pixel where the page is deterministic: the playground trained for a fixed number
//     of steps (same seed, so the same weights, curves and attention) with the few numbers that
//     measure time masked (tokens/s, ms per token, the kernel self-check), the one-widget page,
//     and each example-page widget that does not train (tokenizers, positional encodings, the
//     walk-through, attention from a checkpoint). A small tolerance (0.2 % of the pixels) covers
//     anti-aliasing, nothing a missing stylesheet could hide within;
//   - by size and colours for the widgets that train while the page is read (their curves,
//     numbers and even the length of the answer they trace depend on timing, so neither their
//     pixels nor their heights can match): the same width, the same heights of their title,
//     controls and buttons, the same frame and text colours and font, the same number of
//     canvases drawn.
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { launchBrowser, screenshot, serveStatic } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";
const VIEWPORT = { width: 1280, height: 900 };
const STEPS = 60;     // the playground's run: short, and the same in both loads
let browser, strict, open;

before(async () => {
  strict = await serveStatic({ root, headers: { 'content-security-policy': CSP } });
  open = await serveStatic({ root });
  browser = await launchBrowser();
});

after(async () => {
  await browser?.close();
  strict?.server.close();
  open?.server.close();
});

// A page whose every frame records policy violations from its first script on, and which
// collects console errors and uncaught exceptions.
async function load(base, pathname) {
  const page = await browser.context.newPage();
  await page.setViewportSize(VIEWPORT);
  await page.addInitScript(() => {
    window.__violations = [];
    document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI || '(inline)'} at ${e.sourceFile}:${e.lineNumber}`));
  });
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  await page.goto(base.url + pathname);
  return { page, problems };
}

const violations = (page) => Promise.all(page.frames().map((f) => f.evaluate(() => window.__violations ?? []))).then((v) => v.flat());

// Scrolls through the whole page like a reader (views draw once seen), then back to the top.
async function scrollThrough(page) {
  const height = await page.evaluate(() => document.documentElement.scrollHeight);
  for (let y = 0; y < height; y += 500) {
    await page.evaluate((top) => window.scrollTo(0, top), y);
    await page.waitForTimeout(120);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.waitForTimeout(600);
}

// How many pixels of two PNGs differ by more than 24 in some channel (decoded by the browser).
async function differingPixels(a, b) {
  const page = await browser.context.newPage();
  try {
    return await page.evaluate(async ([pa, pb]) => {
      const decode = async (b64) => {
        const bytes = Uint8Array.from(atob(b64), (c) => c.charCodeAt(0));
        const bitmap = await createImageBitmap(new Blob([bytes], { type: 'image/png' }));
        const canvas = new OffscreenCanvas(bitmap.width, bitmap.height);
        const ctx = canvas.getContext('2d');
        ctx.drawImage(bitmap, 0, 0);
        return { width: bitmap.width, height: bitmap.height, data: ctx.getImageData(0, 0, bitmap.width, bitmap.height).data };
      };
      const [x, y] = await Promise.all([decode(pa), decode(pb)]);
      if (x.width !== y.width || x.height !== y.height) return { size: [[x.width, x.height], [y.width, y.height]], differing: -1, total: 0 };
      let differing = 0;
      for (let i = 0; i < x.data.length; i += 4) {
        if (Math.abs(x.data[i] - y.data[i]) > 24 || Math.abs(x.data[i + 1] - y.data[i + 1]) > 24 || Math.abs(x.data[i + 2] - y.data[i + 2]) > 24) ++differing;
      }
      return { size: [[x.width, x.height]], differing, total: x.width * x.height };
    }, [a.toString('base64'), b.toString('base64')]);
  } finally {
    await page.close();
  }
}

async function assertSamePicture(a, b, what) {
  const d = await differingPixels(a, b);
  assert.notEqual(d.differing, -1, `${what}: different sizes ${JSON.stringify(d.size)}`);
  assert.ok(d.differing <= 0.002 * d.total, `${what}: ${d.differing} of ${d.total} pixels differ with and without the CSP`);
}

// The playground: train STEPS steps (a fixed run from seed 1), generate, scroll through.
async function playground(base) {
  const { page, problems } = await load(base, `web/index.html#t.totalSteps=${STEPS}`);
  await page.locator('body[data-ready=true]').waitFor({ timeout: 60_000 });
  await page.locator('tp-self-check [data-testid=self-check]').filter({ hasText: /pass|FAIL/ }).waitFor({ timeout: 60_000 });
  await page.click('[data-testid=train]');
  await page.locator('#status[data-key="status.finished"]').waitFor({ timeout: 90_000 });
  await page.fill('[data-testid=prompt]', 'how are you');
  await page.click('[data-testid=generate]');
  await page.locator('#gen-meta', { hasText: /ms/ }).waitFor({ timeout: 20_000 });
  await scrollThrough(page);
  // The token chips are drawn (they come out blank when the theme's colours are missing).
  const chips = await page.locator('#chips').evaluate((el) => {
    const { data } = el.canvas.getContext('2d').getImageData(0, 0, el.canvas.width, el.canvas.height);
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) painted += data[i] > 0;
    return painted;
  });
  assert.ok(chips > 500, `the token chips are blank (${chips} pixels painted)`);
  // Text alternatives stay off screen: the visually hidden tables are 1 × 1 px.
  const hidden = await page.locator('#attn-main').evaluate((el) => el.shadowRoot.querySelector('.sr-only').getBoundingClientRect().width);
  assert.ok(hidden <= 1, `the screen-reader table shows (${hidden} px wide)`);
  const mask = ['#tps', '#gen-meta', '#kv-result', 'tp-self-check'].map((s) => page.locator(s));
  const png = await page.screenshot({ fullPage: true, mask, animations: 'disabled', caret: 'hide' });
  return { page, problems, png };
}

test('the playground under the strict CSP: no violation after training and generating, and it looks as without the CSP', async () => {
  const a = await playground(strict);
  assert.deepEqual(await violations(a.page), [], 'CSP violations');
  assert.deepEqual(a.problems, []);
  await screenshot(a.page, 'csp-playground-strict');
  const b = await playground(open);
  assert.deepEqual(b.problems, []);
  for (const id of ['loss', 'output']) {
    assert.equal(await a.page.locator(`[data-testid=${id}]`).textContent(), await b.page.locator(`[data-testid=${id}]`).textContent(), `the same run: ${id}`);
  }
  await assertSamePicture(a.png, b.png, 'the playground');
  await a.page.close();
  await b.page.close();
});

const WIDGETS = 'tp-tokenizer, tp-positional-encoding, tp-attention, tp-walkthrough, tp-train, tp-playground';

// The example page with every widget reached and rendered; per widget, a picture (the ones that
// do not train) or its box, colours and canvases (the ones that do).
async function examplePage(base) {
  const { page, problems } = await load(base, 'web/docs/attention.html');
  const count = await page.locator(WIDGETS).count();
  for (let i = 0; i < count; ++i) {
    const el = page.locator(WIDGETS).nth(i);
    for (const end = Date.now() + 60_000; ;) {
      await el.scrollIntoViewIfNeeded();
      const state = await el.evaluate((e) => (e.dataset.ready === 'true' ? 'ready' : e.dataset.error ? `error ${e.dataset.error}` : ''));
      if (state) {
        assert.equal(state, 'ready');
        break;
      }
      assert.ok(Date.now() < end, `widget ${i} never rendered`);
      await page.waitForTimeout(250);
    }
  }
  await page.waitForTimeout(1000);
  const widgets = [];
  for (let i = 0; i < count; ++i) {
    const el = page.locator(WIDGETS).nth(i);
    const info = await el.evaluate((e) => {
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
      // The parts whose size does not depend on how far training got: title, controls, buttons.
      const fixed = [...e.shadowRoot.querySelectorAll('.head, .controls, .buttons, .trainbar .buttons')].map((p) => Math.round(p.getBoundingClientRect().height));
      return { name: `${e.localName}${e.getAttribute('kind') ? `[kind=${e.getAttribute('kind')}]` : ''}`, trains, width: Math.round(r.width), height: Math.round(r.height),
        fixed, colours: [cs.backgroundColor, cs.color, cs.borderTopColor, cs.fontFamily], canvases };
    });
    if (!info.trains) {
      await el.scrollIntoViewIfNeeded();
      await page.waitForTimeout(300);
      info.png = await el.screenshot({ animations: 'disabled', caret: 'hide' });
    }
    widgets.push(info);
  }
  return { page, problems, widgets };
}

test('the example page under the strict CSP: every widget renders with no violation, as without the CSP', async () => {
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
  const shots = [];
  for (const base of [strict, open]) {
    const { page, problems } = await load(base, 'web/docs/embed-tokenizer.html');
    await page.locator('tp-tokenizer[data-ready=true]').waitFor({ timeout: 60_000 });
    await page.waitForTimeout(500);
    if (base === strict) assert.deepEqual(await violations(page), [], 'CSP violations');
    assert.deepEqual(problems, []);
    shots.push(await page.screenshot({ animations: 'disabled', caret: 'hide' }));
    await page.close();
  }
  await assertSamePicture(shots[0], shots[1], 'embed-tokenizer.html');
});
