// Shared set-up for the browser suites: Debian's Chromium through playwright-core, a local static
// server, and a page wrapper that records console errors and uncaught exceptions.
import { chromium } from 'playwright-core';
import { mkdtempSync, mkdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { serveStatic } from '../../scripts/serve.mjs';
import { root } from '../../scripts/build.mjs';

export const screenshotDir = path.join(root, 'test-output', 'screenshots');

// Flags for a root user on a machine with no outside network (see docs/ARCHITECTURE.md).
const chromiumArgs = ['--no-sandbox', '--disable-gpu', '--disable-background-networking', '--disable-component-update',
  '--no-first-run', '--disable-sync', '--disable-quic', '--disable-dev-shm-usage'];

export async function launchBrowser() {
  const userDataDir = mkdtempSync(path.join(tmpdir(), 'tp-chromium-'));
  const context = await chromium.launchPersistentContext(userDataDir, {
    executablePath: process.env.CHROMIUM_PATH ?? '/usr/bin/chromium',
    headless: true,
    args: chromiumArgs,
  });
  return {
    context,
    async close() {
      await context.close();
      rmSync(userDataDir, { recursive: true, force: true });
    },
  };
}

// Opens url in a new page and collects problems: console errors, page errors, failed requests.
export async function openPage(context, url, { viewport } = {}) {
  const page = await context.newPage();
  if (viewport) await page.setViewportSize(viewport);
  const problems = [];
  page.on('console', (msg) => {
    if (msg.type() === 'error') problems.push(`console error: ${msg.text()}`);
  });
  page.on('pageerror', (err) => problems.push(`uncaught: ${err.message}`));
  page.on('requestfailed', (req) => problems.push(`request failed: ${req.url()} ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    if (res.status() >= 400) problems.push(`HTTP ${res.status()}: ${res.url()}`);
  });
  await page.goto(url);
  return { page, problems };
}

export async function screenshot(page, name, locator) {
  mkdirSync(screenshotDir, { recursive: true });
  const target = locator ?? page;
  await target.screenshot({ path: path.join(screenshotDir, `${name}.png`) });
}

export { serveStatic };
