// Browser: what a one-widget page downloads, served with brotli (bench/size.mjs's server and
// pages): the table docs/WIDGETS.md and docs/PERFORMANCE.md show — written by
// `npm run bench -- --only size` — says what the built files weigh now (the same files, the same
// requests before the .wasm, bytes within 3 %); a page with the single-file bundle sends at most
// 4 requests before the .wasm's; a page that only tokenizes loads no training module; the
// bundle's widgets find what they load at run time where the package keeps it (the training
// worker, the checkpoints by name, the walk-through).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { openPage, reachWidget, useBrowser } from './browser.mjs';
import { root } from '../../scripts/build.mjs';
import { DOCS, PAGES, docRegion, measurePages } from '../../bench/size.mjs';

const suite = useBrowser({}, { root });
const STALE = 'stale: run npm run bench -- --only size, which rewrites the table';

// The documented rows: { label: { files, raw, br, gz, beforeWasm } } (MB as bytes).
function documented(file) {
  const rows = docRegion(readFileSync(file, 'utf8')).split('\n').slice(2);
  return Object.fromEntries(rows.map((line) => {
    const [label, files, raw, br, gz, before] = line.split(' | ').map((c) => c.replace(/^\| |\|$/g, '').trim());
    const bytes = (s) => Number(s.replace(' MB', '')) * 1e6;
    return [label, { files: Number(files), raw: bytes(raw), br: bytes(br), gz: bytes(gz), beforeWasm: Number(before) }];
  }));
}

test('the documented page weight is what the built files weigh; the bundle page needs at most 4 requests before the .wasm', async () => {
  const rows = await measurePages(suite.browser);
  assert.deepEqual(rows.map((r) => r.page), PAGES.map((p) => p.path));
  for (const file of Object.values(DOCS)) {
    const doc = documented(file);
    for (const r of rows) {
      const d = doc[r.label];
      assert.ok(d, `${file}: a row for ${r.page} (${STALE})`);
      assert.equal(d.files, r.files, `${file}: ${r.page} files (${STALE}); now: ${r.list.join(' ')}`);
      assert.equal(d.beforeWasm, r.beforeWasm, `${file}: ${r.page} requests before the .wasm (${STALE})`);
      for (const k of ['raw', 'br', 'gz']) {
        assert.ok(Math.abs(d[k] - r[k]) <= 0.03 * r[k] + 5e3, `${file}: ${r.page} ${k} says ${d[k]} bytes, the built files weigh ${r[k]} (${STALE})`);
      }
    }
  }
  const [modules, bundle] = rows;
  assert.ok(bundle.beforeWasm <= 4, `the bundle page sends ${bundle.beforeWasm} requests before the .wasm: ${bundle.list.join(' ')}`);
  assert.ok(bundle.br < modules.br, 'the bundle weighs less than the modules');
  for (const r of rows) {
    assert.deepEqual(r.list.filter((f) => /training-session|run-record|lib\/worker\.js|session-driver/.test(f) && !f.endsWith('session-driver.js')), [],
      `${r.page} loads no training module`);
  }
  console.log(rows.map((r) => `${r.page}: ${r.files} files, ${(r.br / 1e6).toFixed(2)} MB brotli, ${r.beforeWasm} before the .wasm`).join('\n'));
});

test("the bundle's widgets train, load shipped checkpoints and draw, finding their files where the package keeps them", async () => {
  const { page, problems } = await openPage(suite.browser, `${suite.servers[1].url}wasm_tests/browser/pages/bundle.html`, { viewport: { width: 1000, height: 1200 } });
  for (const el of await page.$$('tp-attention, tp-positional-encoding, tp-walkthrough')) assert.equal(await reachWidget(el), 'ready');
  // Last the trainer, which trains while it is on screen.
  const trainer = await page.$('tp-train');
  assert.equal(await reachWidget(trainer), 'ready');
  await page.waitForFunction((e) => e.dataset.state === 'finished', { timeout: 120_000 }, trainer);
  await page.waitForFunction((e) => e.dataset.output === 'i am fine', { timeout: 30_000 }, trainer);
  assert.deepEqual(problems, []);
  await page.close();
});
