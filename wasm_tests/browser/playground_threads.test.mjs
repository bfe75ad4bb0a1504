// Browser: the playground page on every core where it can. Served with COOP/COEP (as `npm start`
// serves) the page is cross-origin isolated, trains on the threaded module and says "2 threads"
// (every core of the machine); served by a plain static server it trains on one thread and
// says why ("1 thread: this page is not cross-origin isolated"), in English and in Korean. Both
// train the seed's Q&A task to "i am fine". On the plain server the page offers to isolate
// itself: the button registers web/isolation-sw.js, the page reloads once, and from then on it
// is isolated and trains threaded.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, textOf, useBrowser, waitForText } from './browser.mjs';

// web/ served with COOP/COEP, and twice plain (two origins, so the service worker one test
// registers is never seen by another).
const suite = useBrowser({ isolated: true }, {}, {});

const isolatedHere = (page) => page.evaluate(() => globalThis.crossOriginIsolated === true);
const hidden = (page, sel) => page.$eval(sel, (el) => el.hidden);

// Trains the seed's Q&A task to the end and generates from "how are you".
async function trainToAnswer(page) {
  await page.select('>>> [data-testid=task]', 'qa-toy');
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  await page.click('>>> [data-testid=train]');
  // The toy trains at a reader's pace by default; this test is about the threads, not the pace.
  await page.select('>>> [data-testid=speed]', '0');
  await page.waitForSelector('>>> #status[data-key="status.finished"]', { timeout: 120_000 });
  await page.locator('>>> [data-testid=prompt]').fill('how are you');
  await page.click('>>> [data-testid=generate]');
  return waitForText(page, '>>> [data-testid=output]', /^i am fine$/, { timeout: 20_000 });
}

test('served with COOP/COEP: isolated, 2 threads reported, trains to "i am fine"', { timeout: 240_000 }, async () => {
  const { url } = suite.servers[0];
  const { page, problems } = await openPage(suite.browser, url, { viewport: { width: 1440, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  assert.equal(await isolatedHere(page), true);
  const cores = await page.evaluate(() => Math.min(64, navigator.hardwareConcurrency));
  assert.equal(await textOf(page, '>>> [data-testid=threads]'), String(cores));
  assert.match(await textOf(page, '>>> [data-testid=threads-note]'), new RegExp(`^${cores} threads: this page is cross-origin isolated`));
  assert.equal(await hidden(page, '>>> [data-testid=isolate]'), true);
  assert.equal(await trainToAnswer(page), 'i am fine');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a plain static server: 1 thread and why, in English and Korean; trains to "i am fine"', { timeout: 240_000 }, async () => {
  const { url } = suite.servers[1];
  const { page, problems } = await openPage(suite.browser, url, { viewport: { width: 1440, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  assert.equal(await isolatedHere(page), false);
  assert.equal(await textOf(page, '>>> [data-testid=threads]'), '1');
  assert.equal(await textOf(page, '>>> [data-testid=threads-note]'), '1 thread: this page is not cross-origin isolated.');
  assert.equal(await hidden(page, '>>> [data-testid=isolate]'), false, 'the page offers to isolate itself');
  await page.click('>>> #lang');
  await waitForText(page, '>>> [data-testid=threads-note]', /^스레드 1개: 이 페이지는 교차 출처 격리/);
  await page.click('>>> #lang');
  await waitForText(page, '>>> [data-testid=threads-note]', /^1 thread/);
  assert.equal(await trainToAnswer(page), 'i am fine');
  assert.deepEqual(problems, []);
  await page.close();
});

test('on a plain static server the page isolates itself with a service worker, after one reload', { timeout: 120_000 }, async () => {
  const { url } = suite.servers[2];
  const { page, problems } = await openPage(suite.browser, url, { viewport: { width: 1440, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  assert.equal(await isolatedHere(page), false);
  await Promise.all([page.waitForNavigation({ timeout: 60_000 }), page.click('>>> [data-testid=isolate]')]);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  assert.equal(await isolatedHere(page), true, 'isolated after the reload');
  assert.match(await textOf(page, '>>> [data-testid=threads-note]'), /^\d+ threads: this page is cross-origin isolated/);
  await page.click('>>> [data-testid=step]');
  await waitForText(page, '>>> [data-testid=loss]', /^\d/);
  // Later visits are isolated from the first request: no reload.
  await page.goto(url);
  await page.waitForSelector('body[data-ready=true]', { timeout: 60_000 });
  assert.equal(await isolatedHere(page), true);
  assert.deepEqual(problems, []);
  await page.close();
});
