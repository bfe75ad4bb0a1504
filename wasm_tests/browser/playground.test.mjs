// Browser: the playground page, end to end, as a new user meets it — served by the plain static
// server under the strict Content-Security-Policy the page promises to work with. Choose the
// seed's Q&A task, train until the loss shown is below 0.1, see the attention view drawn and changed by training, generate "i am fine", walk
// through every step, switch to Korean and back, reload from a copied link and get the same
// set-up; no console errors or uncaught exceptions anywhere. Screenshots of every panel go to
// test-output/screenshots/<engine>/. The page is one <tp-playground standalone> element: its
// panels live in the element's shadow root (selectors reach into it with `>>>`; page.evaluate
// code goes through `document.querySelector('tp-playground').shadowRoot`).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { gzipSync } from 'node:zlib';
import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { STRICT_CSP, openPage, screenshot, screenshotDir, scrollTo, shadowStyle, sleep, textOf, useBrowser, waitForModel, waitForText } from './browser.mjs';
import { minimumVersions } from '../../web/lib/browser-support.js';
import { TRAIN_OPTIONS } from '../../web/lib/generated/schema.js';
import { t } from '../../web/playground/strings/index.js';

const PANELS = ['setup', 'training', 'tokens', 'embeddings', 'attention', 'walkthrough', 'outputs', 'files', 'about'];
const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });

// Pixels of the main attention heatmap (a canvas inside <tp-heatmap>'s shadow root), as the
// user sees it: scrolled into view (views off screen wait to be seen before they draw).
async function attentionPixels(page) {
  await scrollTo(page, '>>> #attn-main');
  await sleep(200);
  return page.evaluate(() => {
    const canvas = document.querySelector('tp-playground').shadowRoot.querySelector('#attn-main').shadowRoot.querySelector('canvas[data-testid=attention]');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0;
    const colours = new Set();
    for (let i = 0; i < data.length; i += 4) {
      if (data[i + 3] > 0) {
        painted += 1;
        colours.add((data[i] << 16) | (data[i + 1] << 8) | data[i + 2]);
      }
    }
    return { painted, colours: colours.size, hash: Array.from(data.filter((_, i) => i % 97 === 0)).join(',') };
  });
}

const lossShown = (page) => textOf(page, '>>> [data-testid=loss]').then((s) => Number.parseFloat(s));
const wtTitle = (page) => page.$eval('>>> #wt', (el) => el.shadowRoot.querySelector('h3').textContent);

// Element screenshots with the sticky training bar out of the way.
async function panelShots(page, prefix) {
  await shadowStyle(page, 'tp-playground', '.trainbar, .setup { position: static !important; } .setup { max-height: none !important; }');
  for (const id of PANELS) await screenshot(page, `${prefix}-${id}`, `>>> #${id}`);
  mkdirSync(screenshotDir, { recursive: true });
  await page.screenshot({ path: path.join(screenshotDir, `${prefix}-full.png`), fullPage: true });
  await shadowStyle(page, 'tp-playground', null);
}

test('a new user trains the seed example, watches attention change and gets "i am fine"', async (t) => {
  const { page, problems } = await openPage(suite.browser, suite.url, { viewport: { width: 1440, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  // The kernel self-check runs once the page is idle; let it finish first.
  await waitForText(page, '>>> tp-self-check >>> [data-testid=self-check]', /pass|FAIL/, { timeout: 60_000 });

  // The About panel states the browser versions the page needs, from web/lib/browser-support.js.
  const min = minimumVersions(['api', 'page']);
  const shownMin = await page.$eval('>>> #browsers tr[data-min="api+page"]', (tr) => [...tr.cells].slice(1).map((c) => c.firstChild.textContent));
  assert.deepEqual(shownMin, [min.chrome.version, min.firefox.version, min.safari.version]);

  await page.select('>>> [data-testid=task]', 'qa-toy');
  await waitForModel(page);
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('#attn-main')?.matrix);
  await sleep(300);
  const before = await attentionPixels(page);
  assert.ok(before.painted > 1000 && before.colours > 10, `the attention heatmap is blank: ${JSON.stringify({ ...before, hash: undefined })}`);
  await screenshot(page, 'playground-1440-before-training');

  await page.click('>>> [data-testid=train]');
  await page.waitForFunction(() => Number.parseFloat(document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=loss]').textContent) < 0.1, { timeout: 90_000 });
  assert.ok((await lossShown(page)) < 0.1);
  // The page trains the toy at a reader's pace (5 steps/s); the rest as fast as possible. It stops
  // where the toy is learned; Keep training lets the run finish (600 steps) and the last snapshot arrive.
  await page.select('>>> [data-testid=speed]', '0');
  await page.waitForSelector('>>> #status[data-key="status.met"]', { timeout: 90_000 });
  await page.click('>>> [data-testid=keep-training]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 90_000 });
  await sleep(800);
  const afterTraining = await attentionPixels(page);
  assert.ok(afterTraining.painted > 1000, 'the attention heatmap is blank after training');
  assert.notEqual(afterTraining.hash, before.hash, 'the attention view did not change while the model trained');

  // Hover a token chip: every view lights that token up. (Scrolled to first: views draw once seen.)
  await page.$eval('>>> #chips', (el) => el.scrollIntoView());
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('#chips')._boxes?.length > 1);
  const chip = await page.$eval('>>> #chips', (el) => {
    const b = el._boxes[1], r = el.canvas.getBoundingClientRect();
    return { x: r.left + b.x + b.w / 2, y: r.top + b.y + b.h / 2 };
  });
  await page.mouse.move(chip.x, chip.y);
  for (const view of ['#attn-main', '#head-view', '#attn-grid', '#emb-sum']) {
    assert.deepEqual(await page.$eval(`>>> ${view}`, (el) => el.highlight), { side: 'in', index: 1 }, view);
  }
  await page.mouse.move(0, 0);

  // Any view exports as PNG and SVG (under the strict CSP).
  await scrollTo(page, '>>> #attn-main');
  for (const [format, magic] of [['svg', '<svg'], ['png', '\x89PNG']]) {
    const { name, body } = await suite.browser.download(() => page.click(`>>> #attn-main >>> button.exp[data-format=${format}]`));
    assert.match(name, new RegExp(`\\.${format}$`));
    assert.ok(format === 'svg' ? body.toString('utf8').startsWith(magic) : body[0] === 0x89 && body.toString('latin1', 1, 4) === 'PNG', `${format} export`);
  }

  await page.locator('>>> [data-testid=prompt]').fill('how are you');
  await page.click('>>> [data-testid=generate]');
  await waitForText(page, '>>> [data-testid=output]', /^i am fine$/, { timeout: 20_000 });
  assert.equal(await textOf(page, '>>> [data-testid=output]'), 'i am fine');
  await waitForText(page, '>>> #gen-meta', /ms/);

  // Every step of the walk-through, in order, until "next" is disabled.
  const next = '>>> [data-testid=walkthrough-next]';
  await scrollTo(page, next);
  const titles = [];
  for (let i = 0; i < 60 && (await page.$eval(next, (el) => !el.disabled)); ++i) {
    titles.push(await wtTitle(page));
    await page.click(next);
  }
  titles.push(await wtTitle(page));
  const steps = await page.$eval('>>> #wt', (el) => el.steps.length);
  assert.equal(titles.length, steps);
  assert.ok(steps >= 20, `only ${steps} walk-through steps`);
  for (const want of [/Embedding/, /position/, /Queries/, /Q Kᵀ/, /√d_k/, /Mask/, /Softmax/, /× V/, /Concatenate/, /W_O/, /Norm/, /ReLU/, /causal/, /Cross-attention/, /vocabulary/, /prediction/]) {
    assert.ok(titles.some((t) => want.test(t)), `no walk-through step matches ${want}: ${titles.join(' | ')}`);
  }
  assert.match(await page.$eval('>>> #wt', (el) => el.shadowRoot.querySelector('.count').textContent), new RegExp(`${steps} of ${steps}`));
  await page.$eval('>>> #wt', (el) => (el.step = 9));  // the softmax step for the screenshot

  await panelShots(page, 'playground-1440');

  // Korean and back.
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  assert.equal(await textOf(page, '>>> #training-h'), '학습');
  assert.match(await textOf(page, '>>> [data-testid=generate]'), /생성/);
  assert.match(await page.$eval('>>> #wt', (el) => el.shadowRoot.querySelector('.next').textContent), /다음/);
  assert.match(await textOf(page, '>>> #browsers caption'), /브라우저마다/);
  await panelShots(page, 'playground-1440-ko');
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=en]');
  assert.equal(await textOf(page, '>>> #training-h'), 'Training');

  assert.deepEqual(problems, []);
  await page.close();
});

// At 375 px every control of the Training card — "Use every core (reloads the page once)" among
// them (this test server is not cross-origin isolated, so the page offers it) — stays inside the
// card's padding, as the other controls do: its box, not just the page's width.
async function assertInsideTrainingCard(page, lang) {
  const { content, boxes } = await page.evaluate(() => {
    const card = document.querySelector('tp-playground').shadowRoot.getElementById('training');
    const r = card.getBoundingClientRect(), cs = getComputedStyle(card);
    const content = { left: r.left + parseFloat(cs.borderLeftWidth) + parseFloat(cs.paddingLeft), right: r.right - parseFloat(cs.borderRightWidth) - parseFloat(cs.paddingRight) };
    const boxes = [...card.querySelectorAll('button, select, input')].filter((el) => el.getClientRects().length).map((el) => {
      const b = el.getBoundingClientRect();
      return { id: el.id || el.textContent.trim(), left: b.left, right: b.right };
    });
    return { content, boxes };
  });
  assert.ok(boxes.some((b) => b.id === 'isolate'), `${lang}: the "Use every core" button is shown at 375 px (${boxes.map((b) => b.id).join(', ')})`);
  for (const b of boxes) {
    assert.ok(b.left >= content.left - 0.5 && b.right <= content.right + 0.5,
      `${lang}: #${b.id} spans ${b.left.toFixed(1)}–${b.right.toFixed(1)} px, outside the card's content box ${content.left.toFixed(1)}–${content.right.toFixed(1)} px`);
  }
}

test('a copied link reproduces the set-up, and the page works at 375 px with the keyboard', async (t) => {
  const sizes = [];
  const first = await suite.browser.newPage();
  first.on('response', async (res) => {
    if (res.status() === 200 && /\.(html|js|wasm|css|svg)$|\/$/.test(new URL(res.url()).pathname)) sizes.push({ url: res.url(), body: await res.buffer().catch(() => Buffer.alloc(0)) });
  });
  await first.setViewport({ width: 1440, height: 1000 });
  const started = Date.now();
  await first.goto(suite.url);
  await first.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 60_000 });
  const interactive = Date.now() - started;
  const gz = sizes.reduce((n, s) => n + gzipSync(s.body, { level: 9 }).length, 0);
  const raw = sizes.reduce((n, s) => n + s.body.length, 0);
  t.diagnostic(`first load: ${sizes.length} files, ${(raw / 1024).toFixed(0)} kB, ${(gz / 1024).toFixed(0)} kB gzipped; interactive (Train enabled) after ${interactive} ms on loopback`);

  // Change the set-up: the "modern" preset, another seed, Korean, a walk-through step.
  const { page, problems } = await openPage(suite.browser, suite.url, { viewport: { width: 1440, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.click('>>> #presets button:nth-child(5)');
  // The preset redraws the fields and rebuilds the model 200 ms later; type once that is done,
  // as a user who sees the new fields would.
  await waitForModel(page);
  await page.locator('>>> #f-seed').fill('7');
  await page.focus('>>> #f-seed');
  await page.keyboard.press('Enter');
  await page.select('>>> #f-ffn', 'gelu');
  // The model is rebuilt 200 ms after the last change, and the set-up panel redrawn: the
  // language button is clicked once the page has settled (a click during the redraw can land on
  // a node being replaced).
  await waitForModel(page);
  await page.click('>>> [data-testid=lang]');
  await page.waitForSelector('html[lang=ko]');
  await waitForModel(page);
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])');
  const read = (p) => p.evaluate(() => ({
    hash: location.hash,
    lang: document.documentElement.lang,
    fields: Object.fromEntries([...document.querySelector('tp-playground').shadowRoot.querySelectorAll('#arch-fields .field, #train-fields .field, #seed-fields .field')].map((f) => {
      const c = f.querySelector('input, select');
      return [f.dataset.key, c.type === 'checkbox' ? c.checked : c.value];
    })),
    changed: [...document.querySelector('tp-playground').shadowRoot.querySelectorAll('.field.changed')].map((f) => f.dataset.key).sort(),
    summary: document.querySelector('tp-playground').shadowRoot.querySelector('#arch-summary').textContent,
  }));
  const original = await read(page);
  assert.match(original.summary, /파라미터/);
  assert.equal(original.fields.pos, 'rope');
  assert.equal(original.fields.ffn, 'gelu');
  assert.equal(original.fields.seed, '7');
  assert.ok(original.changed.includes('pos') && original.changed.includes('nKvHeads'), original.changed.join(','));
  await page.click('>>> #copy-link');
  const link = await page.evaluate(() => location.href);
  const copy = await openPage(suite.browser, link, { viewport: { width: 375, height: 800 } });
  await copy.page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await copy.page.waitForSelector('>>> #status[data-key="status.ready"]', { timeout: 30_000 });
  const reproduced = await read(copy.page);
  assert.deepEqual(reproduced, original);

  // 375 px: nothing scrolls sideways in either language (the link brought Korean); every panel
  // is there.
  const width = () => copy.page.evaluate(() => document.documentElement.scrollWidth);
  assert.equal(reproduced.lang, 'ko');
  assert.ok((await width()) <= 375, `the Korean page is ${await width()} px wide at 375`);
  await assertInsideTrainingCard(copy.page, 'ko');
  await copy.page.click('>>> [data-testid=lang]');
  await copy.page.waitForSelector('html[lang=en]');
  await sleep(200);
  assert.ok((await width()) <= 375, `the English page is ${await width()} px wide at 375`);
  await assertInsideTrainingCard(copy.page, 'en');
  // Train ▶ and the replay's ▶ are both icons here: the replay's is not under Train's.
  const box = (sel) => copy.page.$eval(sel, (el) => {
    const b = el.getBoundingClientRect();
    return { left: b.left, right: b.right };
  });
  const train = await box('>>> [data-testid=train]'), replay = await box('>>> [data-testid=play]');
  assert.ok(replay.left >= train.right || replay.right <= train.left, `the replay's ▶ (${replay.left}–${replay.right} px) is under Train ▶ (${train.left}–${train.right} px)`);
  // The model view's thumbnails, the last column's frame included, fit its width.
  await scrollTo(copy.page, '>>> #attn-grid');
  const grid = await copy.page.$eval('>>> #attn-grid', (el) => ({ canvas: el.shadowRoot.querySelector('canvas').getBoundingClientRect().width, stage: el.shadowRoot.querySelector('.stage').clientWidth }));
  assert.ok(grid.canvas > 0 && grid.canvas <= grid.stage, `the model view draws ${grid.canvas} px in a ${grid.stage} px view`);
  await panelShots(copy.page, 'playground-375');

  // Keyboard only: Tab reaches the train button (with a visible focus ring) and Enter starts it.
  await copy.page.evaluate(() => window.scrollTo(0, 0));
  let found = false;
  for (let i = 0; i < 30 && !found; ++i) {
    await copy.page.keyboard.press('Tab');
    found = await copy.page.evaluate(() => document.querySelector('tp-playground').shadowRoot.activeElement?.dataset.testid === 'train');
  }
  assert.ok(found, 'Tab never reached the train button');
  const outline = await copy.page.evaluate(() => getComputedStyle(document.querySelector('tp-playground').shadowRoot.activeElement).outlineStyle);
  assert.notEqual(outline, 'none');
  await copy.page.keyboard.press('Enter');
  await copy.page.waitForFunction(() => Number.parseInt(document.querySelector('tp-playground').shadowRoot.querySelector('#step-text').textContent.match(/\d+/)?.[0] ?? '0', 10) > 0, { timeout: 30_000 });
  await copy.page.click('>>> [data-testid=pause]').catch(() => {});

  assert.deepEqual(problems, []);
  assert.deepEqual(copy.problems, []);
  await first.close();
  await page.close();
  await copy.page.close();
});

test('a run that diverges pauses at that step with the hint, and one click lowers the learning rate and starts a run that trains', async () => {
  // A link with a learning rate far too high and no warm-up (the trainer's diverged flag).
  const { page, problems } = await openPage(suite.browser, `${suite.url}#task=qa-toy&t.lr=10&t.warmup=0`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  assert.equal(await page.$eval('>>> [data-testid=diverged]', (el) => el.hidden), true, 'the hint shows before training');
  assert.equal(await page.$eval('>>> [data-testid=lower-lr]', (el) => el.hidden), true, 'the button shows before training');
  // As fast as it goes: a run that carried on would be at its last step within a second or two.
  await page.select('>>> [data-testid=speed]', '0');
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.diverged"]', { timeout: 60_000 });
  const hint = await textOf(page, '>>> [data-testid=diverged]');
  const at = Number(hint.match(/^Training diverged at step (\d+): /)?.[1]);
  assert.match(hint, /Training paused there\. Lower the learning rate \(now 10\) or add warm-up steps \(now 0\), then reset; or press Train to go on\.$/);
  assert.match(await textOf(page, '>>> #status'), new RegExp(`^paused at step ${at}: training diverged`));
  await sleep(1500);
  const run = () => page.evaluate(() => {
    const app = document.querySelector('tp-playground').app;
    return { id: app.run.id, step: app.run.step, total: app.run.totalSteps, running: app.run.running, reason: app.run.reason, lr: app.state.train.lr };
  });
  const paused = await run();
  assert.deepEqual({ step: paused.step, running: paused.running, reason: paused.reason }, { step: at, running: false, reason: 'diverged' }, 'paused at the step that diverged');
  assert.ok(at < paused.total / 10, `diverged at step ${at} of ${paused.total}`);
  assert.equal(await textOf(page, '>>> #step-text'), `step ${at} / ${paused.total}`, 'paused, not reset');
  assert.equal(await page.$eval('>>> [data-testid=train]', (el) => el.disabled), false, 'Train goes on from there');
  // The one button: a tenth of the learning rate, in the set-up (box and link), and a new run.
  // The toy diverges at lr 1 too (at step 2), so the button is pressed again until a run trains
  // to its end (lr 0.1 does); each press divides the run's rate by 10.
  let lr = 10, last = paused;
  for (let press = 1; ; ++press) {
    assert.ok(press <= 3, `still diverging at lr ${lr}`);
    lr /= 10;
    assert.equal(await textOf(page, '>>> [data-testid=lower-lr]'), `Lower the learning rate to ${lr} and reset`);
    await page.click('>>> [data-testid=lower-lr]');
    await page.waitForFunction((id) => {
      const app = document.querySelector('tp-playground').app;
      return app.run && app.run.id !== id && !app.page.busy;
    }, { timeout: 30_000 }, last.id);
    assert.equal(await page.$eval('>>> [data-testid=field-lr]', (el) => el.value), String(lr));
    assert.ok((await page.evaluate(() => location.hash)).split(/[#&]/).includes(`t.lr=${lr}`), 'the link holds the new rate');
    assert.equal(await textOf(page, '>>> #step-text'), `step 0 / ${paused.total}`, 'a new run');
    assert.equal(await page.$eval('>>> [data-testid=diverged]', (el) => el.hidden), true, 'the hint goes with the run');
    assert.equal(await page.$eval('>>> [data-testid=lower-lr]', (el) => el.hidden), true);
    await page.click('>>> [data-testid=train]');
    await page.waitForSelector('>>> #status:is([data-key="status.diverged"], [data-key="status.met"], [data-key="status.finished"])', { timeout: 90_000 });
    // A rate low enough may learn the toy before the end: Keep training goes on to it.
    if ((await run()).reason === 'met') {
      await page.click('>>> [data-testid=keep-training]');
      await page.waitForSelector('>>> #status:is([data-key="status.diverged"], [data-key="status.finished"])', { timeout: 90_000 });
    }
    last = await run();
    assert.equal(last.lr, lr);
    if (last.reason === 'finished') break;
    assert.match(await textOf(page, '>>> [data-testid=diverged]'), new RegExp(`Lower the learning rate \\(now ${lr}\\)`));
  }
  assert.equal(last.step, paused.total, 'the last run trained to its end');
  assert.equal(await page.evaluate(() => document.querySelector('tp-playground').app.run.report.divergedAt), 0);
  assert.equal(await page.$eval('>>> [data-testid=diverged]', (el) => el.hidden), true);
  await page.click('>>> [data-testid=pause]').catch(() => {});
  assert.deepEqual(problems, []);
  await page.close();
});

test('a learning rate of 0 is refused in its box, in the words of the core\'s range, in both languages', async () => {
  // The core's table: lr > 0 (an open end) and at most its max.
  const lr = TRAIN_OPTIONS.find((f) => f.js === 'lr');
  assert.deepEqual([lr.minOpen, lr.maxOpen], [true, false]);
  for (const lang of ['en', 'ko']) {
    const { page, problems } = await openPage(suite.browser, `${suite.url}#task=qa-toy&lang=${lang}`, { viewport: { width: 1280, height: 900 } });
    await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
    await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
    // Typed as a user types it: the box's text replaced, then Tab.
    const retype = async (text) => {
      const box = await page.$('>>> [data-testid=field-lr]');
      await box.focus();
      await page.keyboard.down('Control');
      await page.keyboard.press('a');
      await page.keyboard.up('Control');
      await page.keyboard.type(text);
      await page.keyboard.press('Tab');
      return box;
    };
    const box = await retype('0');
    const why = t(lang, 'setup.invalidReal', { range: t(lang, 'range.minOpen', { min: lr.min, max: lr.max }) });
    const shown = () => box.evaluate((el) => {
      const w = el.closest('.field').querySelector('.why');
      return w.hidden ? null : w.textContent;
    });
    assert.equal(await shown(), why, lang);
    assert.equal(await box.evaluate((el) => el.getAttribute('aria-invalid')), 'true', lang);
    assert.equal(await page.$eval('>>> [data-testid=train]', (el) => el.disabled), true, `${lang}: Train waits`);
    assert.equal(await page.evaluate(() => document.querySelector('tp-playground').app.state.train.lr), undefined, `${lang}: the state keeps its valid rate`);
    // A rate the core takes clears it.
    await retype('0.02');
    await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
    assert.equal(await page.evaluate(() => document.querySelector('tp-playground').app.state.train.lr), 0.02);
    assert.deepEqual(problems, []);
    await page.close();
  }
});
