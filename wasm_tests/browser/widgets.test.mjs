// Browser: the documentation widgets (web/lib/transformer-playground-widgets.js) as a course page
// uses them — served from a sub-path by the plain static server with the strict
// Content-Security-Policy `default-src 'self'; script-src 'self' 'wasm-unsafe-eval'` (nothing
// for styles):
//   - the example page web/docs/attention.html: every widget renders once scrolled to, with no
//     CSP violation, no console error, no request leaving the origin, and one WebAssembly fetch
//     and compilation for the page (workers reuse the page's compiled module);
//   - a widget inside an iframe works;
//   - a widget below the fold does nothing until it is seen, pauses when scrolled away and
//     resumes when back;
//   - changing `text` on <tp-tokenizer> re-renders it; an invalid attribute shows a message;
//   - a <tp-train> or live <tp-attention> whose run diverges pauses there and says so; a
//     <tp-train> with stop-when-met pauses where it has learned its task, says so and trains on
//     with Resume; a <tp-train> whose attributes are refused says why, and its buttons still
//     have their names;
//   - how many bytes a page with one <tp-tokenizer>, and the page with every widget, loads.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { STRICT_CSP, intoView, onlyWhere, openPage, reachWidget, screenshot, sleep, useBrowser } from './browser.mjs';
import { root } from '../../scripts/build.mjs';
import { WIDGET_STRINGS } from '../../web/widgets/shared/strings.js';

const PREFIX = '/course/notes/';   // a sub-path, as on a documentation host
const WIDGETS = ['tp-tokenizer', 'tp-positional-encoding', 'tp-attention', 'tp-walkthrough', 'tp-train', 'tp-replay', 'tp-playground'];
const served = [];                 // every request the server answered: { path, status }
const suite = useBrowser({ root, prefix: PREFIX, headers: { 'content-security-policy': STRICT_CSP } });

suite.before(() => {
  suite.server.on('request', (req, res) => res.on('finish', () => served.push({ path: decodeURIComponent(new URL(req.url, 'http://x').pathname), status: res.statusCode })));
});

// Opens a page that records CSP violations (in every frame) and every request it makes.
async function open(url, viewport = { width: 1280, height: 900 }) {
  const requests = [];
  const mark = served.length;
  const { page, problems } = await openPage(suite.browser, url, {
    viewport,
    async beforeLoad(p) {
      await p.evaluateOnNewDocument(() => {
        window.__csp = [];
        document.addEventListener('securitypolicyviolation', (e) => window.__csp.push(`${e.violatedDirective} ${e.blockedURI}`));
      });
      p.on('request', (r) => requests.push(r.url()));
    },
  });
  return { page, problems, requests, servedSince: () => served.slice(mark) };
}

// Bytes of the files the server sent for these requests: raw and gzipped (level 9).
function bytes(list) {
  let raw = 0, gz = 0;
  const files = new Set(list.filter((r) => r.status === 200).map((r) => r.path));
  for (const p of files) {
    const file = path.join(root, p.slice(PREFIX.length));
    const stat = statSync(file, { throwIfNoEntry: false });
    if (!stat?.isFile()) continue;
    const body = readFileSync(file);
    raw += body.length;
    gz += gzipSync(body, { level: 9 }).length;
  }
  return { files: files.size, raw, gz };
}
const kB = (n) => `${(n / 1024).toFixed(0)} kB`;

// Scrolls to each widget in turn and waits until it has rendered without error.
async function visitEveryWidget(page) {
  const widgets = await page.$$(WIDGETS.join(','));
  for (const el of widgets) {
    const name = await el.evaluate((e) => `${e.localName}${e.getAttribute('model') ? ` model=${e.getAttribute('model')}` : ''}${e.getAttribute('kind') ? ` kind=${e.getAttribute('kind')}` : ''}`);
    assert.equal(await reachWidget(el), 'ready', name);
    await sleep(150);
  }
  return widgets.length;
}

// The canvases a widget drew (inside nested shadow roots), as [width, height] in CSS pixels.
function drawnCanvases(el) {
  return el.evaluate((el) => {
    const out = [];
    const walk = (node) => {
      for (const c of node.querySelectorAll('*')) {
        if (c.localName === 'canvas') out.push([c.width, c.height]);
        if (c.shadowRoot) walk(c.shadowRoot);
      }
    };
    walk(el.shadowRoot);
    return out;
  });
}

test('the example page under a strict CSP: every widget renders, one wasm module, nothing from elsewhere', async (t) => {
  const { page, problems, requests, servedSince } = await open(`${suite.url}web/docs/attention.html`);
  const origin = new URL(suite.url).origin;
  // No training widget is on the first screen, so no worker yet.
  await sleep(500);
  assert.equal(page.workers().length, 0, 'a worker started before any training widget was on screen');

  const count = await visitEveryWidget(page);
  const kinds = await page.evaluate((names) => names.filter((n) => document.querySelector(n)), WIDGETS);
  assert.deepEqual(kinds, WIDGETS, 'the page shows every kind of widget');
  assert.ok(count >= 12, `only ${count} widgets on the page`);

  // Each visual widget drew something.
  for (const sel of ['tp-tokenizer', 'tp-positional-encoding', 'tp-attention[kind=cross]', 'tp-walkthrough', 'tp-train', 'tp-replay']) {
    const el = await page.$(sel);
    await intoView(el);
    await sleep(200);
    const canvases = await drawnCanvases(el);
    assert.ok(canvases.some(([w, h]) => w > 50 && h > 20), `${sel} drew no canvas: ${JSON.stringify(canvases)}`);
  }
  // The live widget trains once seen (its trace shows a step > 0).
  const live = await page.$('tp-attention[task]');
  assert.equal(await reachWidget(live), 'ready');
  await page.waitForFunction((e) => Number(e.dataset.step) > 0, { timeout: 60_000 }, live);
  // The trainer trains when asked and answers.
  const trainer = await page.$('tp-train');
  await intoView(trainer);
  await page.locator('tp-train >>> [data-testid=widget-train]:not([disabled])').click();
  await page.waitForFunction((e) => Number(e.dataset.step) >= 50, { timeout: 60_000 }, trainer);
  await screenshot(page, 'widgets-train-1280', 'tp-train');

  // One wasm fetch and one compilation for the whole page; workers reused the compiled module.
  const stats = await page.evaluate(async () => (await import(new URL('../lib/transformer-playground.js', location.href))).engineStats());
  assert.equal(stats.compilations, 1, JSON.stringify(stats));
  assert.ok(stats.instantiations <= 1, JSON.stringify(stats));
  const wasm = servedSince().filter((r) => r.path.endsWith('.wasm'));
  assert.equal(wasm.length, 1, `the .wasm was requested ${wasm.length} times (page and workers): ${wasm.map((r) => r.path).join(', ')}`);
  // At most one worker per widget that trains: <tp-train>, the live <tp-attention>, <tp-playground>.
  const trainers = (await page.$$('tp-train, tp-attention[task], tp-attention:not([model]), tp-playground')).length;
  assert.ok(page.workers().length <= trainers, `${page.workers().length} workers for ${trainers} training widgets`);

  assert.deepEqual(await page.evaluate(() => window.__csp), [], 'CSP violations');
  assert.deepEqual(requests.filter((u) => !u.startsWith(origin) && !u.startsWith('data:') && !u.startsWith('blob:')), [], 'requests that left the origin');
  assert.deepEqual(problems, []);
  const all = bytes(servedSince());
  t.diagnostic(`the example page with all ${count} widgets, each scrolled into view: ${all.files} files, ${kB(all.raw)} raw, ${kB(all.gz)} gzipped`);
  await page.close();
});

test('the example page at 375 px and in dark mode: no sideways scrolling', async (t) => {
  const { page, problems } = await open(`${suite.url}web/docs/attention.html`, { width: 375, height: 800 });
  await onlyWhere(t, 'emulate-color-scheme', () => page.emulateMediaFeatures([{ name: 'prefers-color-scheme', value: 'dark' }]));
  for (const [sel, nth] of [['tp-positional-encoding', 1], ['tp-attention[kind=cross]', 0]]) {
    const el = (await page.$$(sel))[nth];
    assert.equal(await reachWidget(el), 'ready');
    await intoView(el);
    await sleep(300);
    await screenshot(page, `widgets-375-dark-${sel.split(/[ [>]/)[0]}`, el);
  }
  const width = await page.evaluate(() => document.documentElement.scrollWidth);
  assert.ok(width <= 375, `the page is ${width} px wide at 375`);
  assert.deepEqual(problems, []);
  await page.close();
});

test('one <tp-tokenizer>: changing text re-renders, a bad kind shows a message; it also works in an iframe', async (t) => {
  const { page, problems, servedSince } = await open(`${suite.url}web/docs/embed-tokenizer.html`);
  const tok = await page.waitForSelector('tp-tokenizer[data-ready=true]', { timeout: 60_000 });
  const one = bytes(servedSince());
  t.diagnostic(`a page with one <tp-tokenizer>: ${one.files} files, ${kB(one.raw)} raw, ${kB(one.gz)} gzipped`);
  assert.ok(!servedSince().some((r) => /tp-playground|playground\/app|tp-attention/.test(r.path)), 'the one-widget page loaded other widgets');
  const chips = () => tok.evaluate((el) => el.shadowRoot.querySelector('tp-token-chips').tokens.map((x) => x.text));
  assert.deepEqual(await chips(), ['The', 'dog', 'bites', 'the', 'man', '.']);
  assert.equal(await tok.evaluate((el) => el.dataset.tokens), '6');

  await tok.evaluate((el) => el.setAttribute('text', 'the man bites'));
  await page.waitForFunction(() => document.querySelector('tp-tokenizer').dataset.tokens === '3');
  assert.deepEqual(await chips(), ['the', 'man', 'bites']);
  assert.match(await tok.evaluate((el) => el.shadowRoot.querySelector('[part=summary]').textContent), /^3 tokens/);

  await tok.evaluate((el) => el.setAttribute('kind', 'foo'));
  await page.waitForFunction(() => document.querySelector('tp-tokenizer').dataset.error);
  assert.match(await tok.evaluate((el) => el.shadowRoot.querySelector('[part=message]').textContent), /^kind must be char, word, bpe or byte \(got "foo"\)$/);
  await tok.evaluate((el) => el.setAttribute('kind', 'byte'));
  await page.waitForFunction(() => !document.querySelector('tp-tokenizer').dataset.error && document.querySelector('tp-tokenizer').dataset.tokens === '13');
  // Typing in the editor updates the attribute.
  await page.locator('tp-tokenizer >>> input').fill('한');
  await page.waitForFunction(() => document.querySelector('tp-tokenizer').getAttribute('text') === '한' && document.querySelector('tp-tokenizer').dataset.tokens === '3');
  assert.deepEqual(await page.evaluate(() => window.__csp), []);
  assert.deepEqual(problems, []);
  await page.close();

  // The same page inside an iframe of another page (same origin, same CSP).
  const host = await open(`${suite.url}wasm_tests/browser/pages/widgets_iframe.html`);
  const frame = await (await host.page.waitForSelector('#frame')).contentFrame();
  const framed = await frame.waitForSelector('tp-tokenizer[data-ready=true]', { timeout: 60_000 });
  assert.equal(await framed.evaluate((el) => el.dataset.tokens), '6');
  const canvases = await framed.evaluate((el) => {
    const c = el.shadowRoot.querySelector('tp-token-chips').shadowRoot.querySelector('canvas');
    return [c.width, c.height];
  });
  assert.ok(canvases[0] > 50 && canvases[1] > 20, `the tokens were not drawn in the iframe: ${canvases}`);
  await framed.evaluate((el) => el.setAttribute('text', 'how are you'));
  await frame.waitForSelector('tp-tokenizer[data-tokens="3"]');
  await screenshot(host.page, 'widgets-iframe');
  assert.deepEqual(host.problems, []);
  await host.page.close();
});

test('a widget below the fold does no work until seen, pauses when scrolled away and resumes when back', async () => {
  const { page, problems, servedSince } = await open(`${suite.url}wasm_tests/browser/pages/widgets_offscreen.html`);
  const trainer = await page.$('#trainer');
  const step = async () => Number(await trainer.evaluate((el) => el.dataset.step));
  await sleep(1500);
  assert.equal(page.workers().length, 0, 'a worker started for a widget nobody has seen');
  assert.equal(await trainer.evaluate((el) => el.dataset.ready ?? null), null);
  assert.equal(servedSince().filter((r) => r.path.endsWith('.wasm')).length, 0, 'the wasm was fetched for a widget nobody has seen');

  await intoView(trainer);
  await page.waitForFunction(() => Number(document.querySelector('#trainer').dataset.step) > 20, { timeout: 60_000 });
  assert.equal(page.workers().length, 1);

  // Away: it pauses (and says so), and its step count stops.
  await page.evaluate(() => document.querySelector('#top').scrollIntoView());
  await page.waitForFunction(() => document.querySelector('#trainer').dataset.state === 'offscreen', { timeout: 10_000 });
  // The worker has stopped once its 'paused' state reached the page (steps trained before it
  // still count).
  await page.waitForFunction(() => {
    const el = document.querySelector('#trainer');
    return !el.driver.running && Number(el.dataset.step) === el.driver.step;
  }, { timeout: 30_000 });
  const stopped = await step();
  await sleep(1200);
  assert.equal(await step(), stopped, 'it kept training while out of view');
  assert.match(await trainer.evaluate((el) => el.shadowRoot.querySelector('[part=status]').textContent), /paused while out of view/);

  // Back: it resumes from where it stopped.
  await intoView(trainer);
  await page.waitForFunction((s) => Number(document.querySelector('#trainer').dataset.step) > s + 10, { timeout: 30_000 }, stopped);
  assert.equal(page.workers().length, 1, 'one worker for the widget, however often it pauses');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a <tp-train> (and a live <tp-attention>) whose run diverges pauses at that step and says what to change', async () => {
  const { page, problems } = await open(`${suite.url}wasm_tests/browser/pages/widgets_train.html`);
  const trainer = await page.$('#diverges');
  await intoView(trainer);
  await page.waitForFunction(() => document.querySelector('#diverges').dataset.state === 'diverged', { timeout: 60_000 });
  const { step, divergedAt, total } = await trainer.evaluate((el) => ({ step: Number(el.dataset.step), divergedAt: el.driver.report.divergedAt, total: el.driver.totalSteps }));
  assert.equal(step, divergedAt, 'paused at the step that diverged');
  assert.ok(step < total / 10, `step ${step} of ${total}`);
  const status = await trainer.evaluate((el) => el.shadowRoot.querySelector('[part=status]').textContent);
  assert.equal(status, `paused at step ${step}: training diverged (the loss became infinite or rose far above a uniform guess); lower lr or add warmup steps, then Reset`);
  await sleep(1000);
  assert.equal(await trainer.evaluate((el) => Number(el.dataset.step)), step, 'it stays paused');
  assert.equal(await trainer.evaluate((el) => el.shadowRoot.querySelector('[data-role=toggle]').textContent), 'Resume');
  // In Korean, the same.
  await trainer.evaluate((el) => el.setAttribute('lang', 'ko'));
  await page.waitForFunction(() => /단계에서 일시 정지: 학습이 발산했습니다/.test(document.querySelector('#diverges').shadowRoot.querySelector('[part=status]').textContent), { timeout: 10_000 });
  // A live <tp-attention> trains in the same kind of session: it pauses there too, and says so.
  const attention = await page.$('#attention-diverges');
  await intoView(attention);
  await page.waitForFunction(() => {
    const el = document.querySelector('#attention-diverges');
    return el.driver?.run?.reason === 'diverged' && / · paused at step \d+: training diverged/.test(el.shadowRoot.querySelector('[part=status]').textContent);
  }, { timeout: 60_000 });
  assert.equal(await attention.evaluate((el) => el.driver.step), await attention.evaluate((el) => el.driver.report.divergedAt));
  assert.deepEqual(problems, []);
  await page.close();
});

test('a <tp-train> with stop-when-met pauses where the task is learned, says so in both languages, and Resume trains on to the end', async () => {
  const { page, problems } = await open(`${suite.url}wasm_tests/browser/pages/widgets_train.html`);
  const trainer = await page.$('#learns');
  // Below the fold, before it is seen (no update yet), its buttons already have their names. Each
  // widget's module is imported when its tag is first found, so wait for the element to upgrade.
  await page.waitForFunction(() => customElements.get('tp-train') && document.querySelector('#learns').shadowRoot, { timeout: 30_000 });
  assert.equal(await trainer.evaluate((el) => el.dataset.ready), undefined, 'not rendered yet: it has not been on screen');
  const names = () => trainer.evaluate((el) => [...el.shadowRoot.querySelectorAll('button')].map((b) => b.textContent.trim()));
  assert.deepEqual(await names(), ['Train', 'Reset', 'Generate']);
  assert.equal(await reachWidget(trainer), 'ready');
  await page.waitForFunction(() => document.querySelector('#learns').dataset.state === 'met', { timeout: 90_000 });
  const at = await trainer.evaluate((el) => ({ step: Number(el.dataset.step), total: el.driver.totalSteps, reason: el.driver.run.reason }));
  assert.equal(at.reason, 'met');
  assert.ok(at.step > 0 && at.step < at.total, `paused at step ${at.step} of ${at.total}`);
  const status = () => trainer.evaluate((el) => el.shadowRoot.querySelector('[part=status]').textContent);
  assert.equal(await status(), `paused at step ${at.step}: the task is learned; Resume keeps training`);
  // The answer shown is the learned one.
  await page.waitForFunction(() => document.querySelector('#learns').dataset.output === 'i am fine', { timeout: 30_000 });
  await sleep(500);
  assert.equal(await trainer.evaluate((el) => Number(el.dataset.step)), at.step, 'it stays paused');
  await trainer.evaluate((el) => el.setAttribute('lang', 'ko'));
  await page.waitForFunction((s) => document.querySelector('#learns').shadowRoot.querySelector('[part=status]').textContent === `${s}단계에서 일시 정지: 과제를 다 배웠습니다. 이어서 학습하려면 계속을 누르세요`, { timeout: 10_000 }, at.step);
  assert.equal(await trainer.evaluate((el) => el.shadowRoot.querySelector('[data-role=toggle]').textContent), '계속');
  await trainer.evaluate((el) => el.shadowRoot.querySelector('[data-role=toggle]').click());
  await page.waitForFunction(() => document.querySelector('#learns').dataset.state === 'finished', { timeout: 120_000 });
  assert.equal(await trainer.evaluate((el) => Number(el.dataset.step)), at.total, 'Resume trains on to the last step, not stopping there again');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a live <tp-attention> with stop-when-met pauses where the task is learned, draws that step\'s attention and says so in both languages', async () => {
  const { page, problems } = await open(`${suite.url}wasm_tests/browser/pages/widgets_train.html`);
  const attention = await page.$('#attention-learns');
  // Below the fold, before its first update, its pickers already have their names.
  await page.waitForFunction(() => customElements.get('tp-attention') && document.querySelector('#attention-learns').shadowRoot, { timeout: 30_000 });
  assert.equal(await attention.evaluate((el) => el.dataset.ready), undefined, 'not rendered yet: it has not been on screen');
  assert.deepEqual(await attention.evaluate((el) => ['kind', 'layer', 'head'].map((r) => el.shadowRoot.querySelector(`[data-role=${r}-label]`).textContent)), ['Which attention', 'layer', 'head']);
  assert.equal(await reachWidget(attention), 'ready');
  await page.waitForFunction(() => document.querySelector('#attention-learns').driver?.run?.reason === 'met', { timeout: 90_000 });
  const at = await attention.evaluate((el) => ({ step: el.driver.step, total: el.driver.totalSteps }));
  assert.ok(at.step > 0 && at.step < at.total, `paused at step ${at.step} of ${at.total}`);
  // The trace drawn is the paused step's, and the status says why it stopped.
  await page.waitForFunction((s) => document.querySelector('#attention-learns').dataset.step === String(s), { timeout: 30_000 }, at.step);
  const status = () => attention.evaluate((el) => el.shadowRoot.querySelector('[part=status]').textContent);
  assert.ok((await status()).endsWith(` · paused at step ${at.step}: the task is learned; Resume keeps training`), await status());
  assert.equal(await attention.evaluate((el) => el.shadowRoot.querySelector('[data-role=toggle]').textContent), 'Resume');
  await sleep(500);
  assert.equal(await attention.evaluate((el) => el.driver.step), at.step, 'it stays paused');
  await attention.evaluate((el) => el.setAttribute('lang', 'ko'));
  await page.waitForFunction((s) => document.querySelector('#attention-learns').shadowRoot.querySelector('[part=status]').textContent.endsWith(` · ${s}단계에서 일시 정지: 과제를 다 배웠습니다. 이어서 학습하려면 계속을 누르세요`), { timeout: 10_000 }, at.step);
  assert.deepEqual(problems, []);
  await page.close();
});

test('a <tp-train> with a task that does not exist says why, and each of its buttons still has its name, in both languages', async () => {
  const { page, problems } = await open(`${suite.url}wasm_tests/browser/pages/widgets_train.html`);
  const trainer = await page.$('#no-task');
  const names = () => trainer.evaluate((el) => [...el.shadowRoot.querySelectorAll('button')].map((b) => [b.dataset.role, b.textContent.trim(), b.disabled]));
  for (const lang of ['en', 'ko']) {
    const words = ['w.train', 'w.reset', 'w.generate'].map((k) => WIDGET_STRINGS[lang][k]);
    await trainer.evaluate((el, l) => el.setAttribute('lang', l), lang);
    assert.match(await reachWidget(trainer), /^error .*no-such-task/);
    await page.waitForFunction((el, w) => el.shadowRoot.querySelector('[data-role=toggle]').textContent.trim() === w, { timeout: 10_000 }, trainer, words[0]);
    assert.deepEqual(await names(), [['toggle', words[0], true], ['reset', words[1], true], ['go', words[2], true]], lang);
  }
  assert.deepEqual(problems, []);
  await page.close();
});
