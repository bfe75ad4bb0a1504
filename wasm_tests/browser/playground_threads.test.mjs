// Browser: the playground page on every core where it can. Served with COOP/COEP (as `npm start`
// serves) the page is cross-origin isolated, trains on the threaded module and says "2 threads"
// (every core of the machine); served by a plain static server it trains on one thread and
// says why ("1 thread: this page is not cross-origin isolated"), in English and in Korean. Both
// train the seed's Q&A task to "i am fine". On the plain server the page offers to isolate
// itself: the button registers web/isolation-sw.js for that page alone (a sibling page stays as
// it was), the page reloads once, and from then on it is isolated and trains threaded, until
// the About panel's undo unregisters it. A registration an older version made for the whole
// folder removes itself.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { openPage, textOf, useBrowser, waitForModel, waitForText } from './browser.mjs';

// web/ served with COOP/COEP, and three times plain (three origins, so the service worker one
// test registers is never seen by another).
const suite = useBrowser({ isolated: true }, {}, {}, {});

const isolatedHere = (page) => page.evaluate(() => globalThis.crossOriginIsolated === true);
const hidden = (page, sel) => page.$eval(sel, (el) => el.hidden);

// Trains the seed's Q&A task until it is learned (where the page stops it) and generates from "how are you".
async function trainToAnswer(page) {
  await page.select('>>> [data-testid=task]', 'qa-toy');
  await waitForModel(page);
  await page.waitForSelector('>>> [data-testid=train]:not([disabled])', { timeout: 30_000 });
  await page.click('>>> [data-testid=train]');
  // The toy trains at a reader's pace by default; this test is about the threads, not the pace.
  await page.select('>>> [data-testid=speed]', '0');
  await page.waitForSelector('>>> #status[data-key="status.met"]', { timeout: 120_000 });
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

// This origin's service worker registrations: [{ scope, script }].
const registrations = (page) => page.evaluate(async () => (await navigator.serviceWorker.getRegistrations())
  .map((r) => ({ scope: r.scope, script: (r.active ?? r.waiting ?? r.installing)?.scriptURL ?? null })));
const controlled = (page) => page.evaluate(() => navigator.serviceWorker.controller !== null);

test('on a plain static server the page isolates itself, and only itself, with a service worker; the About panel undoes it', { timeout: 420_000 }, async () => {
  // Each wait below is for a reload that loads the module and builds the model again: up to two
  // minutes on a loaded machine (13 s quiet).
  const { url } = suite.servers[2];
  const { page, problems } = await openPage(suite.browser, url, { viewport: { width: 1440, height: 1000 } });
  await page.waitForSelector('body[data-ready=true]', { timeout: 120_000 });
  assert.equal(await isolatedHere(page), false);
  assert.equal(await hidden(page, '>>> #isolation-undo'), true, 'nothing to undo yet');
  // Reached by its folder's address, the page is isolated as its index.html.
  await Promise.all([page.waitForNavigation({ timeout: 120_000 }), page.click('>>> [data-testid=isolate]')]);
  await page.waitForSelector('body[data-ready=true]', { timeout: 120_000 });
  assert.equal(new URL(page.url()).pathname, '/index.html');
  assert.equal(await isolatedHere(page), true, 'isolated after the reload');
  const scopes = (await registrations(page)).sort((a, b) => a.scope.localeCompare(b.scope));
  assert.deepEqual(scopes, [{ scope: `${url}index.html`, script: `${url}isolation-sw.js` }, { scope: `${url}lib/`, script: `${url}isolation-sw.js` }],
    'registered for the page and the folder of its workers\' scripts alone');
  assert.match(await textOf(page, '>>> [data-testid=threads-note]'), /^\d+ threads: this page is cross-origin isolated/);
  await page.click('>>> [data-testid=step]');
  await waitForText(page, '>>> [data-testid=loss]', /^\d/);
  // Later visits are isolated from the first request: no reload.
  await page.goto(`${url}index.html`);
  await page.waitForSelector('body[data-ready=true]', { timeout: 120_000 });
  assert.equal(await isolatedHere(page), true);
  // A sibling page of the same site is not touched: no service worker, not isolated.
  const sibling = await openPage(suite.browser, `${url}docs/attention.html`);
  await sibling.page.waitForFunction(() => document.readyState === 'complete');
  assert.equal(await controlled(sibling.page), false, 'a sibling page is not controlled by the service worker');
  assert.equal(await isolatedHere(sibling.page), false);
  await sibling.page.close();
  // The undo, in the About panel: unregistered, the page reloads as the host serves it.
  await page.waitForSelector('>>> #isolation-undo:not([hidden])', { timeout: 10_000 });
  assert.match(await textOf(page, '>>> #isolation-undo-note'), /registered for this page and its training workers alone \(.*index\.html.*\)/);
  await Promise.all([page.waitForNavigation({ timeout: 120_000 }), page.click('>>> [data-testid=unisolate]')]);
  await page.waitForSelector('body[data-ready=true]', { timeout: 120_000 });
  assert.equal(await isolatedHere(page), false, 'no longer isolated');
  assert.deepEqual(await registrations(page), []);
  assert.equal(await hidden(page, '>>> #isolation-undo'), true);
  assert.equal(await hidden(page, '>>> [data-testid=isolate]'), false, 'it can be isolated again');
  assert.deepEqual(problems, []);
  await page.close();
});

test('a service worker an older version registered for the whole folder removes itself', { timeout: 60_000 }, async () => {
  const { url } = suite.servers[3];
  const { page, problems } = await openPage(suite.browser, `${url}docs/attention.html`);
  await page.waitForFunction(() => document.readyState === 'complete');
  await page.evaluate(() => navigator.serviceWorker.register(new URL('../isolation-sw.js', location.href), { scope: new URL('../', location.href).href }));
  await page.waitForFunction(async () => (await navigator.serviceWorker.getRegistrations()).length === 0, { timeout: 30_000, polling: 200 });
  await page.reload();
  assert.equal(await controlled(page), false);
  assert.equal(await isolatedHere(page), false);
  assert.deepEqual(problems, []);
  await page.close();
});
