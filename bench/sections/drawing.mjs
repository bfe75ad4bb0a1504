// The `drawing` section: the playground page in headless Chromium training lm-char as fast as it
// can for two minutes (--seconds N for another length), once in each view of --views (default
// both): `all`, every panel in view (the viewport as tall as the page), and `trainbar`, only the
// training bar in view (the viewport as tall as the masthead and the bar: every other panel is
// off screen and should do no work per snapshot). Per view: the main thread's long tasks (Long
// Tasks API, which Firefox lacks) — how many per minute, the longest and the median — frames
// drawn per second, the steps trained and the snapshots received, and the main thread's work
// per snapshot two ways: the page's handling of each snapshot (the panels' derive and render
// that the playground's 'history' and 'snapshot' events run, timed around each emission; the
// median over the run's snapshots) and all of the main thread's task time over the run divided
// by its snapshots (Chromium's TaskDuration: progress, drawing, style, layout, garbage
// collection, everything). The cost measured is the page's: training is in the worker. One
// page, no peer: nothing to interleave.
import { existsSync } from 'node:fs';
import { fmt, printTable } from '../harness/table.mjs';
import { wholeNumber } from '../harness/options.mjs';

const VIEWS = {
  all: 'every panel in view',
  trainbar: 'only the training bar in view',
};

const median = (values) => {
  const s = [...values].sort((a, b) => a - b);
  if (!s.length) return null;
  return s.length % 2 ? s[(s.length - 1) / 2] : (s[s.length / 2 - 1] + s[s.length / 2]) / 2;
};

export async function run(ctx) {
  const seconds = wholeNumber(ctx.args, '--seconds', 120, { min: 5 });
  const views = ctx.args.has('--views') ? String(ctx.args.get('--views')).split(',') : Object.keys(VIEWS);
  for (const v of views) if (!Object.hasOwn(VIEWS, v)) throw new Error(`--views: '${v}' is not a view (allowed: ${Object.keys(VIEWS).join(', ')})`);
  const { engines, launchEngine } = await import('../../scripts/browsers.mjs');
  if (!existsSync(engines.chromium.executablePath)) {
    console.log(`  (skipping: ${engines.chromium.executablePath} not found)`);
    return [];
  }
  const { serveStatic } = await import('../../scripts/serve.mjs');
  const { server, url } = await serveStatic();
  const rows = [];
  try {
    for (const view of views) {
      console.log(`\ndrawing: the playground training lm-char for ${seconds} s, ${VIEWS[view]} (headless Chromium)…`);
      rows.push(await measure(url, view, seconds, launchEngine));
    }
  } finally {
    server.close();
  }
  printTable('the main thread while the playground trains lm-char (long tasks: > 50 ms by definition, target none; work per snapshot with only the training bar in view: target <= 1 ms)',
    ['view', 'seconds', 'viewport', 'steps', 'snapshots', 'long tasks', 'per minute', 'longest ms', 'median ms', 'frames/s', 'handling ms/snapshot (median)', 'all task ms/snapshot', 'load'],
    rows.map((r) => [r.view, fmt(r.seconds, 0), r.viewport, r.steps, r.snapshots, r.long_tasks, fmt(r.long_tasks_per_min), fmt(r.longest_ms, 0), fmt(r.median_ms, 0),
      fmt(r.frames_per_s), fmt(r.snapshot_ms_median, 2), fmt(r.task_ms_per_snapshot, 1), `${fmt(r.load[0], 1)} → ${fmt(r.load[1], 1)}`]));
  return rows;
}

async function measure(url, view, seconds, launchEngine) {
  const { loadavg } = await import('node:os');
  const launched = await launchEngine('chromium');
  try {
    const page = await launched.context.newPage();
    const problems = [];
    page.on('pageerror', (e) => problems.push(e.message));
    page.on('console', (m) => m.type() === 'error' && problems.push(m.text()));
    await page.setViewport({ width: 1440, height: 1000 });
    await page.goto(url);
    await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
    await page.select('>>> [data-testid=task]', 'lm-char');
    await page.waitForSelector('>>> #status[data-key="status.ready"]', { timeout: 60_000 });
    await page.waitForSelector('>>> [data-testid=train]:not([disabled])');
    await page.select('>>> [data-testid=speed]', '0');
    // The viewport: as tall as the page (measured again once the set-up has drawn, as panels grow
    // with their content), or as tall as the masthead and the training bar at the top.
    for (let i = 0; i < 2; ++i) {
      const height = await page.evaluate((only) => {
        if (!only) return document.documentElement.scrollHeight;
        window.scrollTo(0, 0);
        return document.querySelector('tp-playground').shadowRoot.querySelector('.trainbar').getBoundingClientRect().bottom;
      }, view === 'trainbar');
      await page.setViewport({ width: 1440, height: Math.min(Math.ceil(height), 16_000) });
      await new Promise((r) => setTimeout(r, 500));
    }
    const viewport = page.viewport();
    await page.evaluate(() => {
      const app = document.querySelector('tp-playground').app;
      const d = (window.__drawing = { longTasks: [], frames: 0, snapshots: 0, handling: [], pending: 0 });
      new PerformanceObserver((list) => d.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
      const frame = () => { d.frames += 1; requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
      app.session.addEventListener('snapshot', () => { d.snapshots += 1; });
      // The playground's frame queue emits 'history' then 'snapshot' for new snapshots: their
      // listeners (the panels' derive and render) run inside emit().
      const emit = app.frames.emit;
      app.frames.emit = (type, detail) => {
        if (type !== 'history' && type !== 'snapshot') return emit(type, detail);
        const t0 = performance.now();
        emit(type, detail);
        d.pending += performance.now() - t0;
        if (type === 'snapshot') {
          d.handling.push(d.pending);
          d.pending = 0;
        }
      };
    });
    const stepShown = () => page.$eval('>>> #step-text', (el) => Number.parseInt(el.textContent.replace(/[^\d\s]/g, ' ').trim().split(/\s+/)[0] ?? '0', 10));
    const load0 = loadavg()[0];
    const before = await page.metrics();
    await page.click('>>> [data-testid=train]');
    const started = Date.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const elapsed = (Date.now() - started) / 1000;
    const after = await page.metrics();
    const load1 = loadavg()[0];
    const { longTasks, frames, snapshots, handling } = await page.evaluate(() => window.__drawing);
    const steps = await stepShown();
    if (problems.length) throw new Error(`drawing: the page reported ${problems.join('; ')}`);
    const sorted = [...longTasks].sort((a, b) => a - b);
    const minutes = elapsed / 60;
    const taskMs = (after.TaskDuration - before.TaskDuration) * 1000;
    return {
      impl: 'chromium', view, task: 'lm-char', seconds: Number(elapsed.toFixed(1)), viewport: `${viewport.width}x${viewport.height}`,
      steps, snapshots, long_tasks: longTasks.length, long_tasks_per_min: Number((longTasks.length / minutes).toFixed(1)),
      over_50ms: longTasks.filter((d) => d > 50).length, longest_ms: sorted.at(-1) ?? 0, median_ms: median(sorted) ?? 0,
      frames_per_s: Number((frames / elapsed).toFixed(1)), long_task_ms: sorted.map((d) => Math.round(d)),
      snapshot_ms_median: median(handling), snapshot_ms: handling.map((ms) => Number(ms.toFixed(3))),
      task_ms_per_snapshot: snapshots ? taskMs / snapshots : null, task_ms: Math.round(taskMs),
      load: [load0, load1], browser: await launched.browser.version(),
    };
  } finally {
    await launched.close();
  }
}
