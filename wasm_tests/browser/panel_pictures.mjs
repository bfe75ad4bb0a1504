// Browser: the playground's panels, picture by picture, against the same page before a change
// that promises to change nothing a reader sees (a refactor of the panels, a stylesheet split).
// Not part of `npm test`: it compares two versions of the page, so it is run by hand for such a
// change, in one of two ways:
//
//   TP_PICTURES_BEFORE=main TP_BROWSER=chromium node --test wasm_tests/browser/panel_pictures.mjs
//     serves `git archive main web/` (with this checkout's wasm build, so the C++ must not have
//     changed what that page's JavaScript calls) beside this checkout's web/, and compares the
//     two pages as they are drawn, one after the other, in the same browser;
//   TP_PICTURES=record (on the old checkout), then no variable (on the new one)
//     keeps the old pictures in test-output/panel-pictures/<engine>/<variant>/<set-up>-<panel>.png
//     and compares with them later: for a change whose old page needs its own wasm build.
//
// A picture differs where a pixel's channel differs by more than 24; a panel may differ in at
// most 0.2 % of its pixels (the CSP suite's tolerance). Pictures that differ are written as
// *-now.png (and *-before.png) beside the recorded ones. Pictures stay out of git: they depend on
// this machine's fonts and browser build, and on every later change that is meant to show.
//
// Every panel in English and Korean, light and dark, 375 px and 1440 px wide, for set-ups that
// reach every kind of output: the seed's Q&A toy (encoder-decoder) trained 60 steps with an
// answer generated, the same task on a decoder-only model with a windowed layer (the mask rules,
// the KV cache's ring), sentiment with a CLS head (encoder-only classes, the CLS chip), tagging
// (per-token tags) and the character language model (a continuation). Runs are seeded and of a
// fixed length, so both pages draw the same numbers; what measures time (tokens/s, ms per
// token, the KV timing, the kernel self-check) is hidden. The viewport is as tall as the page,
// so every view is on screen and drawn and nothing sticks.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { differingPixels, engine, launchBrowser, openPage, serveStatic, sleep, useBrowser, waitForText } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const BEFORE = process.env.TP_PICTURES_BEFORE;
// TP_PICTURES_HIDE_NOW='#kv-picture': CSS selectors hidden on this checkout's page only, to
// check that a listed difference is the only one (the panels after it then match).
const HIDE_NOW = process.env.TP_PICTURES_HIDE_NOW;
const MODE = BEFORE ? 'against' : process.env.TP_PICTURES === 'record' ? 'record' : 'compare';
const DIR = path.join(root, 'test-output', 'panel-pictures', engine);
const ALL = ['masthead', 'trainbar', 'setup', 'training', 'outputs', 'attention', 'tokens', 'embeddings', 'walkthrough', 'files', 'about'];

// name → { hash, panels, prompt? }: the page's link and the panels worth a picture there.
const SETUPS = {
  seq2seq: { hash: 't.totalSteps=60&pace=0', panels: ALL, prompt: 'how are you' },
  decoder: { hash: 'm.arch=decoder-only&m.maxLen=16&m.window=3&m.layerPattern=LG&m.nLayers=2&t.totalSteps=60&pace=0&a.kind=dec', panels: ['setup', 'outputs', 'attention', 'tokens', 'embeddings'], prompt: 'how are you' },
  classify: { hash: 'task=sentiment&m.head=cls&t.totalSteps=30&pace=0', panels: ['setup', 'training', 'outputs', 'attention', 'tokens', 'embeddings'], predicts: true },
  tagging: { hash: 'task=tagging&t.totalSteps=20&pace=0', panels: ['outputs'], predicts: true },
  text: { hash: 'task=lm-char&t.totalSteps=8&pace=0&g.maxNewTokens=12', panels: ['outputs', 'tokens'], prompt: 'LOVE, n.' },
};
// TP_PICTURES_ONLY=seq2seq,text and TP_PICTURES_VARIANTS=en-light-1440 narrow a run down.
const only = process.env.TP_PICTURES_ONLY?.split(',');
const onlyVariants = process.env.TP_PICTURES_VARIANTS?.split(',');
const VARIANTS = [];
for (const lang of ['en', 'ko']) for (const scheme of ['light', 'dark']) for (const width of [375, 1440]) VARIANTS.push({ lang, scheme, width, name: `${lang}-${scheme}-${width}` });

const suite = useBrowser();
let dark = null, before = null;
suite.before(async () => {
  dark = await launchBrowser({ colorScheme: 'dark' });
  if (BEFORE) before = await serveBefore(BEFORE);
});
test.after(() => {
  dark?.close();
  before?.close();
});

// web/ as it is at git ref `ref`, with this checkout's wasm build, on a server of its own.
async function serveBefore(ref) {
  const dir = mkdtempSync(path.join(tmpdir(), 'tp-before-'));
  execFileSync('sh', ['-c', `git archive "$0" web | tar -x -C "$1"`, ref, dir], { cwd: root });
  cpSync(path.join(root, 'web', 'lib', 'wasm'), path.join(dir, 'web', 'lib', 'wasm'), { recursive: true });
  const { server, url } = await serveStatic({ root: path.join(dir, 'web') });
  return { url, close: () => {
    server.close();
    rmSync(dir, { recursive: true, force: true });
  } };
}

// Hides, in every shadow root of the page, what measures time or blinks (the caret); the kernel
// self-check, whose lines depend on the machine's speed, takes no room.
const HIDE = '#tps, #gen-meta, #kv-result { visibility: hidden !important; } tp-self-check { display: none !important; } * { caret-color: transparent !important; }';
function hideTiming(page, more = '') {
  return page.evaluate((css) => {
    const sheet = new CSSStyleSheet();
    sheet.replaceSync(css);
    const visit = (r) => {
      r.adoptedStyleSheets = [...r.adoptedStyleSheets, sheet];
      for (const el of r.querySelectorAll('*')) if (el.shadowRoot) visit(el.shadowRoot);
    };
    visit(document);
  }, HIDE + more);
}

// The page box of the first element with `id` in any shadow root, or null.
function boxOf(page, id) {
  return page.evaluate((id) => {
    const find = (r) => {
      const el = r.getElementById?.(id) ?? r.querySelector(`#${id}`);
      if (el) return el;
      for (const host of r.querySelectorAll('*')) if (host.shadowRoot) {
        const found = find(host.shadowRoot);
        if (found) return found;
      }
      return null;
    };
    const el = find(document);
    if (!el || el.hidden) return null;
    const r = el.getBoundingClientRect();
    return r.width && r.height ? { x: Math.round(r.left + scrollX), y: Math.round(r.top + scrollY), width: Math.round(r.width), height: Math.round(r.height) } : null;
  }, id);
}

// The set-up loaded from `base` in `variant`, trained, answered, every view drawn: { page, problems }.
async function reach(browser, base, setup, variant) {
  const url = `${base}#${setup.hash}${variant.lang === 'ko' ? '&lang=ko' : ''}`;
  const { page, problems } = await openPage(browser, url, { viewport: { width: variant.width, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await waitForText(page, '>>> tp-self-check >>> [data-testid=self-check]', /pass|FAIL|통과|실패/, { timeout: 60_000 });
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 120_000 });
  if (setup.prompt) await page.locator('>>> [data-testid=prompt]').fill(setup.prompt);
  await page.click('>>> [data-testid=generate]');
  // A generation is done when its timing line is written; a prediction when its output is.
  await page.waitForFunction((predicts) => {
    const find = (root, sel) => root.querySelector(sel) ?? [...root.querySelectorAll('*')].map((e) => e.shadowRoot && find(e.shadowRoot, sel)).find(Boolean);
    const r = document.querySelector('tp-playground').shadowRoot;
    return predicts ? Boolean(find(r, '#output')?.textContent) : /ms/.test(find(r, '#gen-meta')?.textContent ?? '');
  }, { timeout: 30_000 }, Boolean(setup.predicts));
  // Every view on screen at once: the viewport as tall as the page, again until the page stops
  // growing (views draw once seen, and the answer is still being revealed), then time for the
  // last frames.
  for (let i = 0, last = 0, same = 0; i < 12 && same < 2; ++i) {
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    same = height === last ? same + 1 : 0;
    last = height;
    await page.setViewport({ width: variant.width, height: Math.min(height, 16_000) });
    await sleep(700);
  }
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.evaluate(() => document.activeElement?.blur());
  await hideTiming(page, base === suite.url && HIDE_NOW ? `${HIDE_NOW} { display: none !important; }` : '');
  await sleep(400);
  return { page, problems };
}

// The picture of each panel of `setup` on the page at `base`: { panel: PNG | null }.
async function pictures(browser, base, setup, variant) {
  const { page, problems } = await reach(browser, base, setup, variant);
  assert.deepEqual(problems, [], `${variant.name}: problems on the page at ${base}`);
  const out = {};
  for (const panel of setup.panels) {
    let box = await boxOf(page, panel);
    // A panel that reaches below the viewport (the page grew after it was sized: the last panel,
    // About) would be cut where the viewport ends: the viewport grows to take it in first.
    const bottom = box ? box.y + box.height : 0;
    if (bottom > (page.viewport()?.height ?? 0)) {
      await page.setViewport({ width: variant.width, height: Math.min(bottom, 16_000) });
      await sleep(400);
      box = await boxOf(page, panel);
    }
    out[panel] = box ? await page.screenshot({ clip: box, captureBeyondViewport: false }) : null;
  }
  await page.close();
  return out;
}

// What differs between two pictures of a panel ('' when nothing beyond the tolerance).
async function difference(a, b, what) {
  if (!a || !b) return `${what}: ${a ? 'not on the page now' : b ? 'not on the page before' : 'on neither page'}`;
  const d = await differingPixels(suite.browser, a.toString('base64'), b.toString('base64'));
  if (d.differing === -1) return `${what}: size ${JSON.stringify(d.size)}`;
  return d.differing > 0.002 * d.total ? `${what}: ${d.differing} of ${d.total} pixels differ` : '';
}

for (const [name, setup] of Object.entries(SETUPS)) {
  if (only && !only.includes(name)) continue;
  test(`${name}: each panel looks as before (${MODE}${BEFORE ? ` ${BEFORE}` : ''})`, async () => {
    const differences = [];
    for (const variant of VARIANTS.filter((v) => !onlyVariants || onlyVariants.includes(v.name))) {
      const browser = variant.scheme === 'dark' ? dark : suite.browser;
      const dir = path.join(DIR, variant.name);
      mkdirSync(dir, { recursive: true });
      const file = (panel, suffix = '') => path.join(dir, `${name}-${panel}${suffix}.png`);
      const now = await pictures(browser, suite.url, setup, variant);
      if (MODE === 'record') {
        for (const [panel, png] of Object.entries(now)) if (png) writeFileSync(file(panel), png);
        continue;
      }
      const then = MODE === 'against' ? await pictures(browser, before.url, setup, variant)
        : Object.fromEntries(setup.panels.map((p) => [p, existsSync(file(p)) ? readFileSync(file(p)) : null]));
      for (const panel of setup.panels) {
        const d = await difference(then[panel], now[panel], `${variant.name} ${panel}`);
        if (!d) continue;
        differences.push(d);
        if (now[panel]) writeFileSync(file(panel, '-now'), now[panel]);
        if (MODE === 'against' && then[panel]) writeFileSync(file(panel, '-before'), then[panel]);
      }
    }
    assert.deepEqual(differences, [], differences.join('\n'));
  });
}
