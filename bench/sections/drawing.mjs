// The `drawing` section: the playground page in headless Chromium training lm-char as fast as it
// can for two minutes (--seconds N for another length) with every panel in view (the viewport as
// tall as the page): the main thread's long tasks (Long Tasks API, which Firefox lacks) — how
// many per minute, how many over 50 ms, the longest and the median — frames drawn per second and
// the steps trained. The cost measured is the page's redrawing: training is in the worker. One
// page, no peer: nothing to interleave.
import { existsSync } from 'node:fs';
import { fmt, printTable } from '../harness/table.mjs';
import { wholeNumber } from '../harness/options.mjs';

export async function run(ctx) {
  const seconds = wholeNumber(ctx.args, '--seconds', 120, { min: 5 });
  console.log(`\ndrawing: the playground training lm-char for ${seconds} s with every panel in view (headless Chromium)…`);
  const { engines, launchEngine } = await import('../../scripts/browsers.mjs');
  if (!existsSync(engines.chromium.executablePath)) {
    console.log(`  (skipping: ${engines.chromium.executablePath} not found)`);
    return [];
  }
  const { serveStatic } = await import('../../scripts/serve.mjs');
  const { server, url } = await serveStatic();
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
    // Every panel in view: the viewport as tall as the page (measured again once the set-up has
    // drawn, as panels grow with their content).
    for (let i = 0; i < 2; ++i) {
      const height = await page.evaluate(() => document.documentElement.scrollHeight);
      await page.setViewport({ width: 1440, height: Math.min(height, 16_000) });
      await new Promise((r) => setTimeout(r, 500));
    }
    const viewport = page.viewport();
    await page.evaluate(() => {
      window.__drawing = { longTasks: [], frames: 0 };
      new PerformanceObserver((list) => window.__drawing.longTasks.push(...list.getEntries().map((e) => e.duration))).observe({ type: 'longtask' });
      const frame = () => { window.__drawing.frames += 1; requestAnimationFrame(frame); };
      requestAnimationFrame(frame);
    });
    const stepShown = () => page.$eval('>>> #step-text', (el) => Number.parseInt(el.textContent.replace(/[^\d\s]/g, ' ').trim().split(/\s+/)[0] ?? '0', 10));
    await page.click('>>> [data-testid=train]');
    const started = Date.now();
    await new Promise((r) => setTimeout(r, seconds * 1000));
    const elapsed = (Date.now() - started) / 1000;
    const { longTasks, frames } = await page.evaluate(() => window.__drawing);
    const steps = await stepShown();
    if (problems.length) throw new Error(`drawing: the page reported ${problems.join('; ')}`);
    const sorted = [...longTasks].sort((a, b) => a - b);
    const median = sorted.length ? (sorted.length % 2 ? sorted[(sorted.length - 1) / 2] : (sorted[sorted.length / 2 - 1] + sorted[sorted.length / 2]) / 2) : null;
    const minutes = elapsed / 60;
    const row = {
      impl: 'chromium', task: 'lm-char', seconds: Number(elapsed.toFixed(1)), viewport: `${viewport.width}x${viewport.height}`,
      steps, long_tasks: longTasks.length, long_tasks_per_min: Number((longTasks.length / minutes).toFixed(1)),
      over_50ms: longTasks.filter((d) => d > 50).length, longest_ms: sorted.at(-1) ?? 0, median_ms: median ?? 0,
      frames_per_s: Number((frames / elapsed).toFixed(1)), long_task_ms: sorted.map((d) => Math.round(d)),
      browser: await launched.browser.version(),
    };
    printTable('main-thread long tasks (> 50 ms by definition) while the playground trains lm-char, every panel in view (target: none)',
      ['impl', 'seconds', 'viewport', 'steps', 'long tasks', 'per minute', 'longest ms', 'median ms', 'frames/s'],
      [[row.impl, fmt(row.seconds, 0), row.viewport, row.steps, row.long_tasks, fmt(row.long_tasks_per_min), fmt(row.longest_ms, 0), fmt(row.median_ms, 0), fmt(row.frames_per_s)]]);
    return [row];
  } finally {
    await launched.close();
    server.close();
  }
}
