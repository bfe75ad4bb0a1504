// Browser: watching the model learn, as a new user does — the seed toy trains at the page's
// default pace and its history of snapshots is recorded; the timeline brings back the attention of
// an early step in every view; a kept run and a pre-norm run are overlaid on the loss chart with a
// legend, listed both (the list saying which is kept), exported with it, and still listed after a reload; hovering an attention cell explains
// its weight with numbers that add up to the model's own score; a run pushed out of the six kept
// leaves the store too, and a page opened without a link lists the six kept last; a probe too
// large for one snapshot is kept shortened, and the attention view says so.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, openPage, screenshot, scrollTo, sleep, useBrowser, waitForModel } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });
const R = "document.querySelector('tp-playground').shadowRoot";

// The attention grid's pixels (scrolled into view: views off screen wait to be seen).
async function gridPixels(page, id = 'attn-grid') {
  await scrollTo(page, `>>> #${id}`);
  await sleep(250);
  return page.evaluate((sel) => {
    const el = document.querySelector('tp-playground').shadowRoot.querySelector(sel);
    el.render();
    const canvas = el.shadowRoot.querySelector('canvas');
    const { data } = canvas.getContext('2d').getImageData(0, 0, canvas.width, canvas.height);
    let painted = 0;
    for (let i = 3; i < data.length; i += 4) if (data[i] > 0) painted += 1;
    return { painted, hash: Array.from(data.filter((_, i) => i % 53 === 0)).join(',') };
  }, `#${id}`);
}

const timeline = (page) => page.$eval('>>> [data-testid=timeline]', (el) => ({ max: Number(el.max), value: Number(el.value), step: Number(el.dataset.step) }));

test('at the default pace the toy records its history, and the timeline brings back an early step everywhere', async () => {
  // stop=false: the whole run of 600 steps, not only up to where the toy is learned.
  const { page, problems } = await openPage(suite.browser, `${suite.url}#stop=false`, { viewport: { width: 1440, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])');
  const pace = await page.$eval('>>> [data-testid=speed]', (el) => el.value);
  assert.equal(pace, '5', 'the seed toy trains at 5 steps per second by default');
  await page.click('>>> [data-testid=train]');
  // At 5 steps a second, 30 snapshots (every step is recorded at first) take about six seconds.
  await page.waitForFunction(() => Number(document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=timeline]').max) >= 30, { timeout: 30_000 });
  const early = await page.evaluate(`${R}.querySelector('#step-text').textContent`);
  assert.match(early, /step \d+ \/ 600/);
  assert.ok(Number(early.match(/step (\d+)/)[1]) < 200, `the default pace is a reader's: ${early} after ~6 s`);
  // Then as fast as possible to the end.
  await page.select('>>> [data-testid=speed]', '0');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 90_000 });
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=timeline]').dataset.step === '600', { timeout: 30_000 }).catch(() => {});
  const end = await timeline(page);
  assert.ok(end.max + 1 >= 30, `${end.max + 1} snapshots`);
  assert.equal(end.step, 600, 'the timeline ends at the last step');
  const final = await gridPixels(page);
  assert.ok(final.painted > 1000, 'the grid is drawn');

  // Drag the timeline back (keyboard: Home, then a few steps right): step ≤ 10.
  await scrollTo(page, '>>> [data-testid=timeline]');
  await page.focus('>>> [data-testid=timeline]');
  await page.keyboard.press('Home');
  for (let i = 0; i < 5; ++i) await page.keyboard.press('ArrowRight');
  // The views follow the timeline as they redraw (a card out of sight once it is in view): wait
  // until the attention's note names its step.
  await scrollTo(page, '>>> #attention');
  await page.waitForFunction(() => {
    const root = document.querySelector('tp-playground').shadowRoot;
    const step = root.querySelector('[data-testid=timeline]').dataset.step;
    return Number(step) <= 10 && new RegExp(`Step ${step}\\b`).test(root.querySelector('#attn-note').textContent);
  }, { timeout: 30_000 }).catch(() => {});
  const back = await timeline(page);
  assert.ok(back.step <= 10 && back.step >= 1, `the timeline shows step ${back.step}`);
  assert.match(await page.evaluate(`${R}.querySelector('#attn-note').textContent`), new RegExp(`Step ${back.step}\\b`));
  const earlyGrid = await gridPixels(page);
  assert.notEqual(earlyGrid.hash, final.hash, 'the attention grid at an early step is the one of that step, not the final one');
  // The attention data itself differs (not only the picture), and the outputs follow the step.
  const differs = await page.evaluate(() => {
    const app = document.querySelector('tp-playground').app;
    const first = app.run.snapshotAt(app.shownStep).probes.main.tensors['enc.0.self_attn.probs'].data;
    const last = app.run.snapshots.at(-1).probes.main.tensors['enc.0.self_attn.probs'].data;
    return first.some((v, i) => Math.abs(v - last[i]) > 1e-3);
  });
  assert.ok(differs, 'the attention at the early step differs from the final one');
  await scrollTo(page, '>>> #out-at-step');
  await page.waitForFunction((re) => new RegExp(re).test(document.querySelector('tp-playground').shadowRoot.querySelector('#out-at-step').textContent), { timeout: 30_000 }, `At step ${back.step}[ ,]`).catch(() => {});
  assert.match(await page.evaluate(`${R}.querySelector('#out-at-step').textContent`), new RegExp(`At step ${back.step}[ ,]`));
  await screenshot(page, 'history-early-step');

  // The replay has its own speed: picking it leaves the training pace (and the link) as they
  // were, and a new pace leaves the replay speed.
  const paceThen = await page.$eval('>>> [data-testid=speed]', (el) => el.value), linkThen = await page.evaluate(() => location.hash);
  assert.equal(await page.$eval('>>> [data-testid=replay-speed]', (el) => el.value), '20', 'a replay runs at 20 steps/s until another speed is picked');
  await page.select('>>> [data-testid=replay-speed]', '100');
  assert.equal(await page.$eval('>>> [data-testid=speed]', (el) => el.value), paceThen, 'the replay speed is not the training pace');
  assert.equal(await page.evaluate(() => location.hash), linkThen, 'nor part of the link');
  await page.select('>>> [data-testid=speed]', '20');
  await page.waitForFunction(() => /(^|&)pace=20(&|$)/.test(location.hash.slice(1)), { timeout: 10_000 });
  assert.equal(await page.$eval('>>> [data-testid=replay-speed]', (el) => el.value), '100', 'a new training pace leaves the replay speed');
  // Play replays to the end, where the views follow the newest snapshot again.
  await page.click('>>> [data-testid=play]');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=timeline]').dataset.step === '600', { timeout: 30_000 });
  assert.equal((await gridPixels(page)).hash, final.hash, 'after the replay the grid shows the final step again');
  assert.deepEqual(problems, []);
  await page.close();
});

test('kept runs: a post-norm and a pre-norm run overlaid with a legend, exported with it, and still listed after a reload', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0&stop=false`, { viewport: { width: 1440, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])');
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 60_000 });
  await page.click('>>> [data-testid=pin-run]');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=run-list]').children.length === 1);
  await page.select('>>> [data-testid=field-normPlacement]', 'pre');
  await waitForModel(page);
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=loss-chart]').dataset.series === '2', { timeout: 30_000 }).catch(() => {});
  assert.equal(await page.$eval('>>> [data-testid=loss-chart]', (el) => el.dataset.series), '2');
  const names = await page.$eval('>>> [data-testid=loss-chart]', (el) => el.series.map((s) => s.name));
  assert.deepEqual(names, ['norm placement: post-norm (2017)', 'norm placement: pre-norm']);
  // The list holds what the chart draws: the kept run and this one, and says so.
  assert.deepEqual(await page.$$eval('>>> [data-testid=run-list] > li', (els) => els.map((e) => [e.querySelector('.name').textContent, e.dataset.kept])),
    [[names[0], 'true'], [names[1], 'false']]);
  assert.equal(await page.$eval('>>> [data-testid=runs-holds]', (el) => el.textContent), 'kept: 1 · this run');
  await scrollTo(page, '>>> [data-testid=loss-chart]');
  const { body } = await suite.browser.download(() => page.click('>>> [data-testid=loss-chart] >>> button.exp[data-format=svg]'));
  const svg = body.toString('utf8');
  for (const name of names) assert.ok(svg.includes(`>${name}</text>`), `the exported SVG has "${name}"`);
  // Its title names the task and how many runs it compares, not a generic "Training".
  assert.match(svg, />Seed Q&amp;A[^<]* · 2 runs: loss<\/text>/, 'the exported SVG\'s title');
  await page.click('>>> [data-testid=pin-run]');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=run-list] > li[data-kept=false]') === null);
  assert.equal(await page.$eval('>>> [data-testid=runs-holds]', (el) => el.textContent), 'kept: 2');
  // The link names both kept runs' set-ups, never their weights; a few hundred bytes.
  const hash = await page.evaluate(() => location.hash);
  assert.equal(new URLSearchParams(hash.slice(1)).getAll('run').length, 2);
  assert.ok(hash.length < 600, `the link is ${hash.length} characters`);
  // The kept run's attention beside this one's at the same step.
  await page.waitForSelector('>>> #attn-compare:not([hidden])');
  assert.ok((await gridPixels(page, 'attn-grid-b')).painted > 1000, 'the other run\'s attention is drawn');
  await screenshot(page, 'history-kept-runs', '>>> #training');

  await page.reload();
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=run-list]').children.length === 2, { timeout: 10_000 });
  const listed = await page.$$eval('>>> [data-testid=run-list] > li .name', (els) => els.map((e) => e.textContent));
  assert.deepEqual(listed, names);
  assert.equal(await page.$eval('>>> [data-testid=loss-chart]', (el) => el.dataset.series), '2', 'both kept curves are drawn after the reload');
  // Forget runs empties the list, the chart and the link.
  await page.click('>>> [data-testid=forget-runs]');
  await page.waitForFunction(() => document.querySelector('tp-playground').shadowRoot.querySelector('[data-testid=run-list]').children.length === 0);
  assert.equal(new URLSearchParams((await page.evaluate(() => location.hash)).slice(1)).getAll('run').length, 0);
  assert.deepEqual(problems, []);
  await page.close();
});

// The kept runs' store (IndexedDB) as the test sees it: its rows' keys, oldest first.
const STORED = () => new Promise((resolve, reject) => {
  const open = indexedDB.open('transformer-playground', 1);
  open.onsuccess = () => {
    const req = open.result.transaction('kept-runs').objectStore('kept-runs').getAll();
    req.onsuccess = () => resolve(req.result.sort((a, b) => a.keptAt - b.keptAt).map((r) => r.setup.seed));
    req.onerror = () => reject(req.error);
  };
  open.onerror = () => reject(open.error);
});

// The store's rows once `done(rows)` holds (the writes are asynchronous), or after 30 s as they are.
async function settled(page, done) {
  const end = Date.now() + 30_000;
  for (;;) {
    const rows = await page.evaluate(STORED);
    if (done(rows) || Date.now() > end) return rows;
    await sleep(100);
  }
}

test('kept runs: a run pushed out of the six kept is deleted from the store, and a page without a link lists the newest six', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  // Eight runs kept one after another (set-ups differing in their seed): the first two go.
  await page.evaluate(async () => {
    const { RunRecord } = await import(new URL('lib/run-record.js', document.baseURI).href);
    const kept = document.querySelector('tp-playground').app.kept;
    await kept.forget();
    for (let seed = 1; seed <= 8; ++seed) {
      kept.keep({ task: 'qa-toy', seed, model: {}, train: {} }, new RunRecord({ id: seed, task: { name: 'qa-toy' } }));
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  });
  assert.deepEqual(await settled(page, (rows) => rows.length <= 6 && rows.at(-1) === 8), [3, 4, 5, 6, 7, 8], 'the store holds the six kept runs');
  // A store holding more (an older version let it grow): a page opened without runs in its link
  // lists the six kept last, and forgets the rest.
  await page.evaluate(async () => {
    const { setupKey } = await import(new URL('playground/hash.js', document.baseURI).href);
    await new Promise((resolve, reject) => {
      const open = indexedDB.open('transformer-playground', 1);
      open.onerror = () => reject(open.error);
      open.onsuccess = () => {
        try {
          const t = open.result.transaction('kept-runs', 'readwrite');
          const store = t.objectStore('kept-runs');
          store.clear();
          for (let seed = 1; seed <= 9; ++seed) {
            const setup = { task: 'qa-toy', seed, model: {}, train: {} };
            store.put({ key: setupKey(setup), setup, keptAt: 1000 + seed, record: { id: seed, points: [], snapshots: [] } });
          }
          t.oncomplete = resolve;
          t.onerror = () => reject(t.error);
        } catch (error) {
          reject(error);  // rejected here, not left pending until the protocol times out
        }
      };
    });
  });
  await page.close();
  const fresh = await openPage(suite.browser, `${suite.url}`);
  await fresh.page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await fresh.page.waitForFunction(() => document.querySelector('tp-playground').app.kept.entries.length > 0, { timeout: 10_000 });
  const listed = await fresh.page.evaluate(() => document.querySelector('tp-playground').app.kept.entries.map((e) => e.setup.seed));
  assert.deepEqual(listed, [4, 5, 6, 7, 8, 9], 'the newest six, in the order they were kept');
  assert.deepEqual(await settled(fresh.page, (rows) => rows.length <= 6), [4, 5, 6, 7, 8, 9], 'the older runs are gone from the store');
  await fresh.page.evaluate(() => document.querySelector('tp-playground').app.kept.forget());
  assert.deepEqual([...problems, ...fresh.problems], []);
  await fresh.page.close();
});

test('a probe too large for one snapshot of the history is shortened, and the attention view says so', async () => {
  // 8 layers × 8 heads over 120 characters: the attention maps alone are ~15 MB, a snapshot may keep 3 MB.
  const input = 'the quick brown fox jumps over the lazy dog; '.repeat(3).slice(0, 120);
  const { page, problems } = await openPage(suite.browser, `${suite.url}#task=lm-char&m.nLayers=8&m.nHeads=8&m.dModel=64&m.maxLen=128&input=${encodeURIComponent(input)}`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await scrollTo(page, '>>> #attention');
  await page.waitForFunction(() => /The history keeps its first/.test(document.querySelector('tp-playground').shadowRoot.getElementById('attn-note').textContent), { timeout: 60_000 });
  const note = await page.$eval('>>> #attn-note', (el) => el.textContent);
  const [, kept] = /The history keeps its first (\d+) of 120 tokens: a snapshot may take at most 3\.0 MB\./.exec(note) ?? [];
  assert.ok(kept > 0 && kept < 120, note);
  const shown = await page.evaluate(() => document.querySelector('tp-playground').app.shown.probes.main.input.tokens.length);
  assert.equal(shown, Number(kept), 'the views show the tokens kept');
  assert.deepEqual(problems, []);
  await page.close();
});

test('hovering an attention cell shows how its weight was computed, adding up to the model\'s score', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#pace=0&stop=false&m.pos=alibi&a.kind=dec`, { viewport: { width: 1440, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])');
  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 60_000 });
  // Decoder self-attention (a.kind=dec): causal, so some cells are masked; ALiBi adds its
  // distance penalty.
  await scrollTo(page, '>>> #attn-main');
  await sleep(300);
  for (const [r, c] of [[2, 0], [1, 1], [0, 2]]) {
    const at = await page.$eval('>>> #attn-main', (el, [r, c]) => {
      el.render();
      const g = el._geom, box = el.canvas.getBoundingClientRect();
      return { x: box.left + g.x0 + (c + 0.5) * g.cw, y: box.top + g.y0 + (r + 0.5) * g.ch };
    }, [r, c]);
    await page.mouse.move(at.x, at.y);
    await sleep(150);
    const shown = await page.$eval('>>> [data-testid=score-explain]', (el) => ({ ...el.dataset, text: el.shadowRoot.textContent }));
    assert.equal(Number(shown.row), r);
    assert.equal(Number(shown.col), c);
    // The model's own score for that cell, traced again here.
    const traced = await page.evaluate(async ([r, c, head]) => {
      const app = document.querySelector('tp-playground').app;
      const t = await app.session.snapshot({ input: app.input });
      const m = t.tensors['dec.0.self_attn.masked'];
      const [, T, S] = m.shape;
      return m.data[head * T * S + r * S + c];
    }, [r, c, Number(shown.head)]);
    const computed = Number(shown.total) / Math.sqrt(Number(shown.dk)) + Number(shown.mask);
    if (traced === -Infinity) {
      assert.equal(computed, -Infinity, 'a masked cell adds −∞');
      assert.match(shown.text, /−∞/);
    } else {
      assert.ok(Math.abs(computed - traced) <= 1e-5, `q·k ÷ √d_k + mask = ${computed}, the trace says ${traced}`);
      if (c < r) assert.ok(Number(shown.mask) < 0, 'ALiBi\'s penalty is the mask term of a past key');
      else assert.equal(Number(shown.mask), 0);
    }
    assert.match(shown.text, /q_i · k_j/);
    assert.match(shown.text, /softmax/);
  }
  await screenshot(page, 'history-score-explain', '>>> #attention');
  assert.deepEqual(problems, []);
  await page.close();
});
