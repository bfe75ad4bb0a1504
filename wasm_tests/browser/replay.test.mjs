// Browser: record once, replay anywhere — the seed toy trained in the playground, saved with
// "Save run file", replays in <tp-replay> on a static page under the strict Content-Security-
// Policy: at every recorded step the replay's attention (the selected head and every head's
// thumbnail, encoder self-attention and cross-attention) holds the very numbers the playground
// showed at that step, cell by cell; the page starts no Worker and fetches no WebAssembly; a
// label with markup shows as text; Korean labels; and the playground opens the same file again
// as kept runs.
import { test, after } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { STRICT_CSP, openPage, scrollTo, useBrowser } from './browser.mjs';
import { root } from '../../scripts/build.mjs';
import { readHistory, writeHistory } from '../../web/lib/history-file.js';

// The static site of the replay page: the package's web/ folder beside it, the page, its files.
const site = mkdtempSync(path.join(tmpdir(), 'tp-replay-'));
symlinkSync(path.join(root, 'web'), path.join(site, 'web'));
after(() => rmSync(site, { recursive: true, force: true }));

const csp = { 'content-security-policy': STRICT_CSP };
const suite = useBrowser({ headers: csp }, { root: site, headers: csp });
const R = "document.querySelector('tp-playground').shadowRoot";

// A float array as JSON can hold it (−∞ marks a masked cell).
const cells = (a) => Array.from(a, (v) => (Number.isFinite(v) ? v : String(v)));

// The playground's attention at every step of its timeline, for kind `kind`: { step: { main, grid } }.
async function playgroundSteps(page, kind) {
  await scrollTo(page, '>>> #attn-main');
  // The kind's button, pressed from the page (a pointer click needs it laid out on screen).
  await page.evaluate((kind) => document.querySelector('tp-playground').shadowRoot.querySelector(`#attn-kinds [data-value=${kind}]`).click(), kind);
  await page.waitForFunction((kind) => document.querySelector('tp-playground').app.state.attn.kind === kind, {}, kind);
  return page.evaluate(async (kind) => {
    const root = document.querySelector('tp-playground').shadowRoot;
    const slider = root.querySelector('[data-testid=timeline]');
    const app = document.querySelector('tp-playground').app;
    const out = {};
    const frame = () => new Promise((r) => requestAnimationFrame(() => setTimeout(r, 0)));
    const cellsOf = (a) => Array.from(a, (v) => (Number.isFinite(v) ? v : String(v)));
    for (let i = 0; i <= Number(slider.max); ++i) {
      slider.value = String(i);
      slider.dispatchEvent(new Event('input', { bubbles: true }));
      const step = app.shown.step;
      const drawn = () => new RegExp(`Step ${step}\\b`).test(root.querySelector('#attn-note').textContent);
      for (let n = 0; n < 500 && !drawn(); ++n) await frame();
      if (!drawn()) throw new Error(`the attention view never drew step ${step}: ${root.querySelector('#attn-note').textContent}`);
      if (app.state.attn.kind !== kind) throw new Error(`the playground shows ${app.state.attn.kind}, not ${kind}`);
      const main = root.querySelector('#attn-main').matrix, grid = root.querySelector('#attn-grid').maps;
      out[step] = { main: cellsOf(main.data), grid: grid.probs.map(cellsOf), rows: main.rowLabels, cols: main.colLabels };
    }
    return out;
  }, kind);
}

// The replay's attention at every snapshot, for kind `kind` (the element's attribute).
function replaySteps(page, sel, kind) {
  return page.$eval(sel, (el, kind) => {
    el.setAttribute('kind', kind);
    const cellsOf = (a) => Array.from(a, (v) => (Number.isFinite(v) ? v : String(v)));
    return new Promise((resolve) => {
      el.addEventListener('tp-step', function first() {
        el.removeEventListener('tp-step', first);
        const scrub = el.shadowRoot.querySelector('[data-role=scrub]');
        const out = {};
        for (let i = 0; i <= Number(scrub.max); ++i) {
          scrub.value = String(i);
          scrub.dispatchEvent(new Event('input', { bubbles: true }));
          const main = el.shadowRoot.querySelector('tp-heatmap').matrix, grid = el.shadowRoot.querySelector('tp-attention-grid').maps;
          out[el.dataset.step] = { main: cellsOf(main.data), grid: grid.probs.map(cellsOf), rows: main.rowLabels, cols: main.colLabels };
        }
        resolve(out);
      });
    });
  }, kind);
}

test('a run saved in the playground replays in <tp-replay> with the same numbers at every step, no worker, strict CSP', async () => {
  // stop=false: the toy's whole run (600 steps), not only up to where it is learned.
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0&stop=false`, { viewport: { width: 1280, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])');
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 90_000 });
  const snapshots = await page.evaluate(() => document.querySelector('tp-playground').app.run.snapshots.length);
  assert.ok(snapshots >= 100, `the toy's 600 steps recorded ${snapshots} snapshots`);
  const shown = { enc: await playgroundSteps(page, 'enc'), cross: await playgroundSteps(page, 'cross') };
  assert.equal(Object.keys(shown.enc).length, snapshots, 'the playground showed every recorded step');

  await scrollTo(page, '>>> [data-testid=save-run]');
  const { name, body } = await suite.browser.download(() => page.click('>>> [data-testid=save-run]'));
  assert.match(name, /^qa-toy-step600\.tphistory$/);
  assert.match(await page.evaluate(`${R}.querySelector('#files-status').textContent`), /Saved qa-toy-step600\.tphistory: 1 runs, [\d.]+ kB\./);
  const file = readHistory(new Uint8Array(body), { name });
  assert.equal(file.runs[0].record.snapshots.length, snapshots, 'the file holds every snapshot');

  // The replay page: a static page under the strict CSP, counting Workers and .wasm requests.
  writeFileSync(path.join(site, 'run.tphistory'), body);
  const markup = '<img src=x data-injected="1"><b>bold</b>';
  writeFileSync(path.join(site, 'markup.tphistory'), writeHistory([{ record: file.runs[0].record, label: markup, note: '<script>window.__injected = 1</script>' }]));
  writeFileSync(path.join(site, 'replay.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>replay</title><link rel="icon" href="web/favicon.svg"></head>
<body>
<script type="module" src="web/lib/transformer-playground-widgets.js"></script>
<tp-replay id="run" src="run.tphistory"></tp-replay>
<tp-replay id="markup" src="markup.tphistory" panels="loss"></tp-replay>
<tp-replay id="ko" src="run.tphistory" lang="ko" panels="tokens outputs"></tp-replay>
</body></html>
`);
  const wasm = [];
  const replay = await openPage(suite.browser, `${suite.servers[1].url}replay.html`, {
    viewport: { width: 1280, height: 1000 },
    beforeLoad: async (p) => {
      p.on('request', (req) => /\.wasm(\?|$)/.test(req.url()) && wasm.push(req.url()));
      await p.evaluateOnNewDocument(() => {
        window.__workers = 0;
        const Native = window.Worker;
        window.Worker = class extends Native {
          constructor(...args) {
            window.__workers += 1;
            super(...args);
          }
        };
      });
    },
  });
  const rp = replay.page;
  const played = { enc: await replaySteps(rp, '#run', 'encoder'), cross: await replaySteps(rp, '#run', 'cross') };
  for (const kind of ['enc', 'cross']) {
    const steps = Object.keys(shown[kind]);
    assert.deepEqual(Object.keys(played[kind]), steps, `${kind}: the replay has every step the playground showed`);
    for (const step of steps) {
      const a = shown[kind][step], b = played[kind][step];
      assert.deepEqual(b.rows, a.rows, `${kind} step ${step}: the same query tokens`);
      assert.deepEqual(b.cols, a.cols, `${kind} step ${step}: the same key tokens`);
      assert.deepEqual(b.main, a.main, `${kind} step ${step}: the selected head's weights, cell by cell`);
      assert.deepEqual(b.grid, a.grid, `${kind} step ${step}: every head's weights, cell by cell`);
    }
  }
  assert.notDeepEqual(played.cross[0].main, played.cross[600].main, 'the attention changed while it learned');

  // Markup in the file is text; the Korean replay speaks Korean.
  await rp.waitForSelector('#markup[data-ready=true]');
  const shownMarkup = await rp.$eval('#markup', (el) => ({ title: el.shadowRoot.querySelector('.title').textContent,
    note: el.shadowRoot.querySelector('.note').textContent, injected: el.shadowRoot.querySelectorAll('img, b, script').length + document.querySelectorAll('[data-injected]').length,
    ran: window.__injected ?? 0 }));
  assert.deepEqual(shownMarkup, { title: markup, note: '<script>window.__injected = 1</script>', injected: 0, ran: 0 });
  await rp.$eval('#ko', (el) => el.scrollIntoView());
  await rp.waitForSelector('#ko[data-ready=true]');
  assert.equal(await rp.$eval('#ko', (el) => el.shadowRoot.querySelector('[data-role=play]').textContent), '재생');
  assert.match(await rp.$eval('#ko', (el) => el.shadowRoot.querySelector('.status').textContent), /학습하지 않습니다/);

  assert.equal(await rp.evaluate(() => window.__workers), 0, 'no Worker was started');
  assert.deepEqual(wasm, [], 'no WebAssembly was fetched');
  assert.deepEqual(replay.problems, []);
  await rp.close();

  // The playground opens the same file: its run becomes a kept run.
  const input = await page.$('>>> [data-testid=open-run]');
  await input.uploadFile(path.join(site, 'run.tphistory'));
  await page.waitForFunction(() => /Opened run\.tphistory: 1 runs/.test(document.querySelector('tp-playground').shadowRoot.querySelector('#files-status').textContent), { timeout: 30_000 });
  const kept = await page.evaluate(() => document.querySelector('tp-playground').app.kept.entries.map((e) => e.record.snapshots.length));
  assert.deepEqual(kept, [snapshots].map((n) => Math.min(n, 40)), 'kept, with a kept run\'s thinned history');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a broken run file shows what is wrong in the widget, in the page\'s language', async () => {
  writeFileSync(path.join(site, 'broken.tphistory'), Buffer.concat([Buffer.from('TPHISTRY'), Buffer.from([1, 0, 0, 0, 0xff, 0xff, 0, 0]), Buffer.from('{')]));
  const expected = {
    en: [/^broken\.tphistory cannot be opened as a run file: header length is 65535 bytes but the file has 1 after its prefix \(truncated\?\)\.$/,
      /^src: could not fetch missing\.tphistory \(HTTP 404\)\.$/],
    ko: [/^broken\.tphistory은\(는\) 실행 파일로 열 수 없습니다: header length 항목이 맞지 않습니다\(is 65535 bytes but the file has 1 after its prefix \(truncated\?\)\)\.$/,
      /^src: missing\.tphistory을\(를\) 가져올 수 없습니다 \(HTTP 404\)\.$/],
  };
  for (const lang of ['en', 'ko']) {
    writeFileSync(path.join(site, `broken-${lang}.html`), `<!doctype html>
<html lang="${lang}"><head><meta charset="utf-8"><title>broken</title><link rel="icon" href="web/favicon.svg"></head>
<body><script type="module" src="web/lib/transformer-playground-widgets.js"></script>
<tp-replay src="broken.tphistory"></tp-replay><tp-replay src="missing.tphistory"></tp-replay></body></html>
`);
    const { page } = await openPage(suite.browser, `${suite.servers[1].url}broken-${lang}.html`);
    await page.waitForFunction(() => [...document.querySelectorAll('tp-replay')].every((e) => e.dataset.error), { timeout: 30_000 });
    const errors = await page.$$eval('tp-replay', (els) => els.map((e) => e.dataset.error));
    errors.forEach((e, i) => assert.match(e, expected[lang][i], lang));
    await page.close();
  }
});
