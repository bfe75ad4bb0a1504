// The driver layer of the browser suites: every suite in wasm_tests/browser/ runs in Chromium and
// in Firefox ESR without knowing which. `npm test` runs each *.test.mjs here once per engine,
// with TP_BROWSER=chromium and then TP_BROWSER=firefox (scripts/test.mjs); this module reads it.
//
// Writing a suite: `const suite = useBrowser(serverOptions...)` at the top (a static server per
// options, e.g. `{ headers: { 'content-security-policy': STRICT_CSP } }`, and the browser,
// started before the first test and stopped after the last; a set-up of the suite's own that
// needs them goes in `suite.before(fn)`), then in a test
// `openPage(suite.browser, suite.url + path)` and puppeteer-core's Page API (the same over CDP
// and WebDriver BiDi). That is all a new suite needs to run in both engines. Some habits that
// keep it so:
//   - selectors do not cross shadow roots by themselves: `>>> sel` finds `sel` in any open
//     shadow root (`>>>` between parts crosses one level of roots);
//   - wait with `page.waitForSelector`, `page.waitForFunction(fn, { timeout }, ...args)` or
//     `waitForText(page, sel, /re/)` for the state a check needs, never `sleep(ms)` for it (a
//     busy machine takes longer); after changing the playground's set-up, `waitForModel(page)`;
//     read with `textOf(page, sel)`;
//     a widget: `reachWidget(handle)` scrolls to it until it has rendered; the playground's Q&A
//     toy trained to the end: `trainQaToy(page)` (where training is what the suite checks), or
//     its shipped trained checkpoint loaded: `loadShippedModel(page)` (where it is not); another
//     project's model by URL through Files → Load a model: `loadModelByUrl(page, url)`; a
//     function run on the playground's shadow root: `page.evaluate(inRoot(fn, ...args))`;
//   - a script that must run before the page's own (a listener): `page.evaluateOnNewDocument`
//     in openPage's `beforeLoad`; CSS a screenshot needs inside a shadow root: `shadowStyle`
//     (the strict CSP blocks <style>); two pictures compared: `differingPixels(browser, a, b)`;
//   - an element's picture that is compared with another: taken inside the viewport
//     (`captureBeyondViewport: false`: capturing beyond it resizes the page for a moment in
//     Chromium, and the views seeing the resize draw again) at a whole-pixel scroll offset
//     (Firefox scrolls by fractions of a pixel, and text drawn at another fraction differs);
//   - a file the page downloads: `browser.download(() => click())` → { name, body };
//   - axe-core's accessibility violations on the page as it is: `axeViolations(page, problems)`;
//   - a check that needs something only one engine has (a CDP call, a Chromium-only web API) goes
//     inside `onlyWhere(t, 'feature', async () => { ... })`, with the feature and why the other
//     engine lacks it added to `lacks` below. Elsewhere it is skipped and the reason printed
//     (`npm test` lists every such skip in its summary); everything else must pass in both.
// Run one suite in one engine: `TP_BROWSER=firefox node --test wasm_tests/browser/x.test.mjs`.
import { before, after } from 'node:test';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { serveStatic } from '../../scripts/serve.mjs';
import { root } from '../../scripts/build.mjs';
import { engineNames, launchEngine } from '../../scripts/browsers.mjs';
import { SHIPPED_MODELS } from '../../web/models/models.js';

export const engine = process.env.TP_BROWSER ?? 'chromium';
if (!engineNames.includes(engine)) throw new Error(`TP_BROWSER=${engine}: allowed ${engineNames.join(', ')}`);

export const screenshotDir = path.join(root, 'test-output', 'screenshots', engine);

// What an engine lacks that some check uses: feature → why. A feature absent here is assumed
// present everywhere.
const lacks = {
  firefox: {
    'emulate-color-scheme': "emulating prefers-color-scheme needs CDP; Firefox's WebDriver BiDi has no media-feature override yet",
  },
};

export const supports = (feature) => !lacks[engine]?.[feature];

// Runs `check` where this engine has `feature`; elsewhere prints why it is skipped (node:test
// diagnostic, collected by scripts/test.mjs).
export async function onlyWhere(t, feature, check) {
  if (supports(feature)) return check();
  t.diagnostic(`skipped on ${engine} (${feature}): ${lacks[engine][feature]}`);
  return undefined;
}

// The policy the pages promise to work under: no style source at all (so no <style> element and
// no style="…" attribute anywhere), scripts and wasm from the page's own origin only.
export const STRICT_CSP = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'";

// A suite's fixtures: registers node:test hooks that start, before its first test, a static
// server for each of `servers` (scripts/serve.mjs's options; none given: one serving web/) and the
// browser, and stop them after its last. Returns { browser, servers: [{ server, url }], server,
// url } (the first server's), filled in by the time a test runs, and `suite.before(fn)` for a
// hook of the suite's own that needs them (Node 20 starts a file's `before` hooks all at once,
// so a plain second `before` would not find them yet).
export function useBrowser(...servers) {
  let started;
  const suite = {
    browser: null,
    servers: [],
    get server() { return this.servers[0]?.server; },
    get url() { return this.servers[0]?.url; },
    before: (fn) => before(async () => {
      await start();
      await fn(suite);
    }),
  };
  const start = () => (started ??= (async () => {
    for (const options of servers.length ? servers : [{}]) suite.servers.push(await serveStatic(options));
    suite.browser = await launchBrowser();
  })());
  before(start);
  after(async () => {
    await suite.browser?.close();
    for (const { server } of suite.servers) server.close();
  });
  return suite;
}

// Starts the engine with a fresh profile. `browser.newPage()` opens a tab; `browser.download(fn)`
// runs fn (which makes the page download a file) and resolves with the file once it is complete.
// `colorScheme: 'dark'`: every page it opens is told prefers-color-scheme: dark, in both engines.
export async function launchBrowser({ colorScheme } = {}) {
  const downloadPath = mkdtempSync(path.join(tmpdir(), `tp-downloads-${engine}-`));
  const launched = await launchEngine(engine, { downloadPath, colorScheme });
  return {
    engine,
    puppeteer: launched.browser,
    async newPage() {
      const page = await launched.context.newPage();
      if (colorScheme && engine === 'chromium') await page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: colorScheme }]);
      return page;
    },
    async download(trigger, { timeout = 15_000 } = {}) {
      const before = new Set(readdirSync(downloadPath));
      await trigger();
      const end = Date.now() + timeout;
      for (;;) {
        // Chromium writes *.crdownload and Firefox *.part until the file is complete.
        const done = readdirSync(downloadPath).filter((f) => !before.has(f) && !/\.(crdownload|part)$/.test(f));
        const pending = readdirSync(downloadPath).some((f) => !before.has(f) && /\.(crdownload|part)$/.test(f));
        if (done.length && !pending) return { name: done[0], body: readFileSync(path.join(downloadPath, done[0])) };
        if (Date.now() > end) throw new Error(`no download finished within ${timeout} ms`);
        await sleep(50);
      }
    },
    async close() {
      await launched.close();
      rmSync(downloadPath, { recursive: true, force: true });
    },
  };
}

// Opens url in a new tab and collects problems: console errors, uncaught exceptions, failed
// requests and HTTP errors. `beforeLoad(page)` runs before navigation (listeners, init scripts).
export async function openPage(browser, url, { viewport, beforeLoad } = {}) {
  const page = await browser.newPage();
  if (viewport) await page.setViewport(viewport);
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await beforeLoad?.(page);
  await page.goto(url);
  return { page, problems };
}

// For openPage's beforeLoad: the page keeps every Content-Security-Policy violation from its first
// script on in window.__violations ('<directive> <blocked URI>').
export const recordViolations = (page) => page.evaluateOnNewDocument(() => {
  window.__violations = [];
  document.addEventListener('securitypolicyviolation', (e) => window.__violations.push(`${e.violatedDirective} ${e.blockedURI || '(inline)'}`));
});

// axe-core's violations on the page as it is now, one line each: rule, impact, and the first
// elements. axe is put into the page by the driver (not by a <script> a Content-Security-Policy
// would have to allow). Some of axe's own probes set an inline style, which a strict policy
// refuses (the console says so): those refusals are taken out of `problems` (openPage's), every
// other problem stays.
let axeSource = null;
export async function axeViolations(page, problems) {
  axeSource ??= readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  if (!(await page.evaluate(() => typeof window.axe === 'object'))) await page.evaluate(axeSource);
  const mark = problems.length;
  const found = await page.evaluate(async () => {
    const result = await window.axe.run(document, { resultTypes: ['violations'] });
    return result.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => n.target.join(' ')), why: v.nodes[0]?.failureSummary.replace(/\s+/g, ' ') }));
  });
  await sleep(100);
  const during = problems.splice(mark);
  problems.push(...during.filter((p) => !/^console error: Applying inline style violates the following Content Security Policy/.test(p)));
  return found.map((v) => `${v.id} (${v.impact}, ${v.nodes.length}×): ${v.help} — ${v.nodes.slice(0, 4).join(' | ')} — ${v.why}`);
}

// The text of the first element matching sel (shadow-piercing selectors allowed).
export const textOf = (page, sel) => page.$eval(sel, (el) => el.textContent);

// Waits until the element matching sel has text matching re; resolves with that text. (Polled
// from here, so a view that replaces its element while re-rendering is still found.)
export async function waitForText(page, sel, re, { timeout = 30_000 } = {}) {
  const end = Date.now() + timeout;
  let text = null;
  for (;;) {
    text = await page.$eval(sel, (el) => el.textContent).catch(() => null);
    if (text != null && re.test(text)) return text;
    if (Date.now() > end) throw new Error(`waited ${timeout} ms for ${sel} to show ${re}; it shows ${JSON.stringify(text)}`);
    await sleep(50);
  }
}

// Scrolls the element into the middle of the viewport, as a reader would reach it.
export async function scrollTo(page, sel) {
  await page.$eval(sel, (el) => el.scrollIntoView({ block: 'center', inline: 'nearest' }));
}

// `fn(root, ...args)` on the playground's shadow root, as the source page.evaluate() runs (a
// string: args are JSON).
export const inRoot = (fn, ...args) => `(() => { const root = document.querySelector('tp-playground').shadowRoot; return (${fn})(root, ...${JSON.stringify(args)}); })()`;

// Files → Load a model with `url` typed into its URL box, as a reader gives a model's address.
// Returns once asked; the caller waits for what it expects (#import-status says "Loaded …" or
// why not).
export async function loadModelByUrl(page, url) {
  await scrollTo(page, '>>> #import-url');
  await page.evaluate(inRoot((root, value) => {
    root.getElementById('import-url').value = value;
  }, url));
  await page.click('>>> #import-url-go');
}

// Brings an element (a handle) into view as a reader scrolls to it: only if it is not on screen.
export const intoView = (el) => el.evaluate((e) => {
  const r = e.getBoundingClientRect();
  if (r.bottom <= 0 || r.top >= innerHeight || r.height === 0) e.scrollIntoView({ block: 'center' });
});

// Scrolls to a widget (a handle) as a reader would (again if content above it grew and pushed it
// away) until it has rendered or failed: resolves with 'ready' (data-ready) or 'error <message>'
// (data-error).
export async function reachWidget(el, { timeout = 60_000 } = {}) {
  const end = Date.now() + timeout;
  for (;;) {
    await intoView(el);
    const state = await el.evaluate((e) => (e.dataset.ready === 'true' ? 'ready' : e.dataset.error ? `error ${e.dataset.error}` : ''));
    if (state) return state;
    if (Date.now() > end) throw new Error(`${await el.evaluate((e) => e.outerHTML.slice(0, 120))} never rendered`);
    await sleep(250);
  }
}

// The playground's first path, as a new user takes it: once the page is ready, choose the Q&A
// toy and train it as fast as it goes (the pace control at "as fast as possible") until it is
// learned, where the page stops it, then Keep training to the end.
// For the suites that check training; the others start from loadShippedModel().
export async function trainQaToy(page) {
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.select('>>> [data-testid=task]', 'qa-toy');
  await waitForModel(page);
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  await page.select('>>> [data-testid=speed]', '0');
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.met"]', { timeout: 90_000 });
  await page.click('>>> [data-testid=keep-training]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 90_000 });
}

// Waits until the playground's model is built from the set-up the page shows and the page is
// ready: a change of the set-up rebuilds the model 200 ms after the last change (later on a busy
// machine), and until then the status still says "ready" for the old model.
export async function waitForModel(page, { timeout = 60_000 } = {}) {
  await page.waitForFunction(async () => {
    const app = document.querySelector('tp-playground').app;
    const { modelKey } = await import(new URL('playground/state.js', document.baseURI).href);
    return app.configuredKey === modelKey(app.state) && app.page.status.key === 'status.ready' && !app.page.busy;
  }, { timeout, polling: 100 });
}

// The playground with a checkpoint shipped in web/models loaded, as a reader who wants a trained
// model at once loads it: the Files panel's "Pre-trained models" button for `name` (one per
// SHIPPED_MODELS entry, in its order). Resolves once the page says it is loaded.
export async function loadShippedModel(page, name = 'qa-toy') {
  const index = Object.keys(SHIPPED_MODELS).indexOf(name);
  if (index < 0) throw new Error(`no shipped model '${name}'; web/models has ${Object.keys(SHIPPED_MODELS).join(', ')}`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForSelector('>>> #status[data-key="status.ready"]', { timeout: 30_000 });
  const button = `>>> #pretrained button:nth-child(${index + 1}):not([disabled])`;
  await page.waitForSelector(button, { timeout: 30_000 });
  // The buttons are drawn again when the page gets ready or changes language: a click made of
  // a mouse press and release can fall on two different buttons and click neither, so the
  // button found is clicked at once.
  await page.$eval(button, (el) => el.click());
  await page.waitForSelector('>>> #status[data-key="status.loaded"]', { timeout: 30_000 });
  await page.waitForSelector('>>> [data-testid=generate]:not([disabled])', { timeout: 30_000 });
}

// Adds CSS inside the shadow root of the element matching host (null takes it out again): an
// adopted sheet, as the strict CSP blocks <style> elements. For screenshots (a sticky bar out of
// the way, numbers that measure time hidden), never to make a check pass.
export function shadowStyle(page, host, css) {
  return page.$eval(host, (el, text) => {
    const root = el.shadowRoot;
    root.adoptedStyleSheets = root.adoptedStyleSheets.filter((s) => !s.testOnly);
    if (!text) return;
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(text);
    sheet.testOnly = true;
    root.adoptedStyleSheets = [...root.adoptedStyleSheets, sheet];
  }, css);
}

// A PNG of the page, or of one element (a selector or an element handle), in
// test-output/screenshots/<engine>/.
export async function screenshot(page, name, target) {
  mkdirSync(screenshotDir, { recursive: true });
  const file = path.join(screenshotDir, `${name}.png`);
  if (!target) return page.screenshot({ path: file });
  const el = typeof target === 'string' ? await page.$(target) : target;
  if (!el) throw new Error(`screenshot ${name}: nothing matches ${target}`);
  await el.screenshot({ path: file });
  return undefined;
}

// How many pixels of two PNGs (base64 strings) differ by more than 24 in some channel, decoded in
// a page of `browser`: { differing, total, size } (differing -1: the sizes differ). The tolerance
// of the suites that compare pictures (csp.test.mjs, panel_pictures.mjs).
export async function differingPixels(browser, a, b) {
  const page = await browser.newPage();
  try {
    return await page.evaluate(async (pa, pb) => {
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
    }, a, b);
  } finally {
    await page.close();
  }
}

export { serveStatic, sleep };
