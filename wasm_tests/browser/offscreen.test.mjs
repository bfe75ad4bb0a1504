// Browser: panels out of sight do no work while a run goes on. With only the masthead and the
// training bar in view, the Q&A toy is trained to the end of a 150-step run (the stop rule off,
// so the run's length is known); each other panel is drawn (its derive() and render()) exactly
// as often as the events it draws after whatever is on screen (the language, the set-up, a new
// run…), never for a snapshot, the history or the progress, while the training bar draws for
// them. Brought into view afterwards, a panel catches up once, to the step the timeline shows.
// Counted by wrapping each panel element's render() (the real one still runs) and listening to
// the playground's own events.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { STRICT_CSP, openPage, scrollTo, sleep, useBrowser, waitForModel } from './browser.mjs';

const suite = useBrowser({ headers: { 'content-security-policy': STRICT_CSP } });

// The events a panel draws after only while it is on screen (panels/index.js `lazy`): the ones
// a run sends many times.
const PER_SNAPSHOT = ['snapshot', 'history', 'progress'];
const HIDDEN = ['training', 'outputs', 'attention', 'tokens', 'embeddings', 'walkthrough', 'files', 'about'];

const counts = (page) => page.evaluate(() => JSON.parse(JSON.stringify(window.__offscreen)));

test('panels out of sight are not drawn per snapshot, and catch up once in view', async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.url}#task=qa-toy&stop=false&t.totalSteps=150`, { viewport: { width: 1280, height: 900 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  await waitForModel(page);
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  await page.select('>>> [data-testid=speed]', '20');  // paced: each snapshot its own news
  // Only the masthead and the training bar in view.
  const barBottom = await page.evaluate(() => {
    window.scrollTo(0, 0);
    return document.querySelector('tp-playground').shadowRoot.querySelector('.trainbar').getBoundingClientRect().bottom;
  });
  await page.setViewport({ width: 1280, height: Math.floor(barBottom) });
  await sleep(300);  // the intersection observers' first answers
  const onScreen = await page.evaluate((hidden) => {
    const root = document.querySelector('tp-playground').shadowRoot;
    return hidden.filter((name) => root.getElementById(name).getBoundingClientRect().top < innerHeight);
  }, HIDDEN);
  assert.deepEqual(onScreen, [], 'no panel but the training bar is in the viewport');

  await page.evaluate(async (hidden) => {
    const app = document.querySelector('tp-playground').app;
    const root = document.querySelector('tp-playground').shadowRoot;
    const { PANELS } = await import(new URL('playground/panels/index.js', document.baseURI).href);
    const w = (window.__offscreen = { renders: {}, events: {}, snapshots: 0, on: {} });
    for (const p of PANELS) {
      if (!hidden.includes(p.name) && p.name !== 'trainbar') continue;
      const el = root.querySelector(p.tag), own = el.render;
      w.renders[p.name] = 0;
      w.on[p.name] = p.on;
      el.render = function render(props) {
        w.renders[p.name] += 1;
        return own.call(this, props);
      };
      for (const type of p.on) {
        if (w.events[type] !== undefined) continue;
        w.events[type] = 0;
        app.addEventListener(type, () => (w.events[type] += 1));
      }
    }
    app.session.addEventListener('snapshot', () => (w.snapshots += 1));
  }, HIDDEN);

  await page.click('>>> [data-testid=train]');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 120_000 });
  await sleep(300);
  const run = await counts(page);
  assert.ok(run.snapshots >= 20, `the session had news of snapshots ${run.snapshots} times`);
  assert.ok(run.events.snapshot >= 10 && run.events.progress >= 10, `the page emitted ${run.events.snapshot} snapshot and ${run.events.progress} progress events`);
  assert.ok(run.renders.trainbar >= run.events.snapshot, `the training bar, in view, drew ${run.renders.trainbar} times for ${run.events.snapshot} snapshot events`);
  for (const name of HIDDEN) {
    const expected = run.on[name].filter((type) => !PER_SNAPSHOT.includes(type)).reduce((n, type) => n + run.events[type], 0);
    assert.equal(run.renders[name], expected,
      `${name}, out of sight, drew ${run.renders[name]} times; the events it draws after on screen (${run.on[name].filter((type) => !PER_SNAPSHOT.includes(type)).join(', ')}) came ${expected} times`);
  }

  // Scrolled to, the Attention card draws once, at the newest snapshot (the timeline follows it).
  const before = run.renders.attention;
  await page.setViewport({ width: 1280, height: 900 });
  await scrollTo(page, '>>> #attention');
  const step = await page.evaluate(() => document.querySelector('tp-playground').app.shown.step);
  await page.waitForFunction((s) => document.querySelector('tp-playground').shadowRoot.getElementById('attn-note').textContent.includes(`Step ${s}.`), { timeout: 30_000 }, step);
  await sleep(500);
  const seen = await counts(page);
  assert.equal(seen.renders.attention - before, 1, 'the Attention card caught up with one draw');
  assert.equal(step, 150, "the newest snapshot is of the run's last step");
  assert.deepEqual(problems, []);
  await page.close();
});
