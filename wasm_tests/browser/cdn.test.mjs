// Browser: the package served from a CDN — another origin than the page, with
// Access-Control-Allow-Origin: * and Cross-Origin-Resource-Policy: cross-origin, as unpkg and
// jsDelivr send — as a documentation author writes it: module scripts from the CDN's URL, a page
// on the site's own origin (here: a second local server on another port, which is another
// origin). Under the exact Content-Security-Policy docs/WIDGETS.md gives for it:
//   - <tp-train> trains the seed's toy to "i am fine" (its Worker starts through a same-origin
//     blob: module), <tp-attention model="reverse"> finds the shipped checkpoint on the CDN, and
//     createTrainingSession() imported from the CDN trains the toy too; no console error, failed
//     request or policy violation;
//   - on a cross-origin isolated page (COOP + COEP require-corp), a session runs the threaded
//     module on two threads: its pthread workers start through blob: scripts as well, and the
//     losses equal one thread's bit for bit;
//   - without `worker-src blob:` the session fails with a message that names the cause.
// (worker-src names the CDN too: every import of a module worker is fetched as a worker script.)
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { openPage, recordViolations, reachWidget, screenshot, serveStatic, useBrowser } from './browser.mjs';
import { ISOLATION_HEADERS } from '../../scripts/serve.mjs';
import { root } from '../../scripts/build.mjs';

const CDN_HEADERS = { 'access-control-allow-origin': '*', 'cross-origin-resource-policy': 'cross-origin' };
const pages = path.join(root, 'test-output', 'cdn-pages');
const suite = useBrowser({ root: path.join(root, 'web'), headers: CDN_HEADERS });
const servers = {};
let cdn;

// The policy of docs/WIDGETS.md "Hosting from a CDN", for a CDN at `origin`.
export const cdnPolicy = (origin, { blob = true } = {}) =>
  `default-src 'self'; script-src 'self' ${origin} 'wasm-unsafe-eval'; connect-src 'self' ${origin}; worker-src 'self' ${origin}${blob ? ' blob:' : ''}`;

suite.before(async () => {
  cdn = suite.url.replace(/\/$/, '');
  mkdirSync(pages, { recursive: true });
  writeFileSync(path.join(pages, 'index.html'), `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>widgets from a CDN</title><link rel="icon" href="favicon.svg">
<script type="module" src="${cdn}/lib/transformer-playground-widgets.js"></script>
<script type="module" src="./session.js"></script>
</head><body>
<p>answer <output id="answer"></output> threads <output id="threads"></output></p>
<tp-train task="qa-toy" prompt="how are you" autoplay></tp-train>
<tp-attention model="reverse" text="abcdefghij" kind="cross"></tp-attention>
</body></html>
`);
  // The API from the CDN: one session trains the toy and answers; ?threads=1 asks for one thread.
  writeFileSync(path.join(pages, 'session.js'), `import { createTrainingSession } from '${cdn}/lib/transformer-playground.js';
window.train = async (threads) => {
  const session = await createTrainingSession(threads ? { threads } : {});
  try {
    await session.configure({ task: 'qa-toy', model: { seed: 1 }, training: { seed: 1, totalSteps: 300 } });
    const done = new Promise((resolve) => session.addEventListener('state', (e) => e.detail.reason === 'finished' && resolve()));
    await session.start();
    await done;
    return { threads: session.threads, support: session.threadSupport, answer: (await session.generate('how are you')).text,
      losses: session.history.map((p) => p.loss) };
  } finally {
    session.dispose();
  }
};
window.trainError = async () => createTrainingSession().then(() => 'started', (e) => e.message);
`);
  writeFileSync(path.join(pages, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 1 1"></svg>\n');
  const policy = { 'content-security-policy': cdnPolicy(cdn) };
  servers.plain = await serveStatic({ root: pages, headers: policy });
  servers.isolated = await serveStatic({ root: pages, headers: { ...policy, ...ISOLATION_HEADERS } });
  servers.noBlob = await serveStatic({ root: pages, headers: { 'content-security-policy': cdnPolicy(cdn, { blob: false }) } });
});
test.after(() => Object.values(servers).forEach(({ server }) => server.close()));

function open(url) {
  return openPage(suite.browser, url, {
    viewport: { width: 1000, height: 1400 },
    beforeLoad: recordViolations,
  });
}

test('from a CDN: <tp-train> trains the toy, a shipped checkpoint loads by name, a session trains, under the documented CSP', async () => {
  const { page, problems } = await open(servers.plain.url);
  assert.notEqual(new URL(servers.plain.url).origin, new URL(cdn).origin, 'the page and the package are on two origins');
  const trainer = await page.$('tp-train');
  assert.equal(await reachWidget(trainer), 'ready');
  await page.waitForFunction((e) => e.dataset.state === 'finished', { timeout: 120_000 }, trainer);
  await page.waitForFunction((e) => e.dataset.output === 'i am fine', { timeout: 30_000 }, trainer);
  const attention = await page.$('tp-attention');
  assert.equal(await reachWidget(attention), 'ready');
  const r = await page.evaluate(() => window.train());
  assert.equal(r.answer, 'i am fine');
  assert.equal(r.threads, 1, 'a page that is not isolated trains on one thread');
  await screenshot(page, 'cdn-widgets');
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'CSP violations');
  assert.deepEqual(problems, []);
  await page.close();
});

test('from a CDN on a cross-origin isolated page: the threaded module on two threads, the same losses as one', async () => {
  const { page, problems } = await open(servers.isolated.url);
  assert.equal(await page.evaluate(() => crossOriginIsolated), true);
  const two = await page.evaluate(() => window.train(2));
  assert.equal(two.threads, 2, JSON.stringify(two.support));
  assert.equal(two.answer, 'i am fine');
  const one = await page.evaluate(() => window.train(1));
  assert.equal(one.threads, 1);
  assert.deepEqual(two.losses, one.losses, 'bit-identical losses at 1 and 2 threads');
  assert.ok(one.losses.length >= 300);
  assert.deepEqual(await page.evaluate(() => window.__violations), [], 'CSP violations');
  // (The widgets on this page start too; only their results are not asserted here.)
  assert.deepEqual(problems.filter((p) => !/tp-train|tp-attention/.test(p)), []);
  await page.close();
});

test('from a CDN without worker-src blob:, a session fails saying why', async () => {
  const { page } = await open(servers.noBlob.url);
  await page.waitForFunction(() => typeof window.trainError === 'function');
  const message = await page.evaluate(() => window.trainError());
  assert.match(message, /^the training worker could not start: .*is on another origin than this page .*worker-src blob: http:\/\/127\.0\.0\.1:\d+ /);
  await page.close();
});
