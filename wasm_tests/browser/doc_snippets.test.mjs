// Browser: every ```html snippet in README.md and docs/WIDGETS.md, taken from the Markdown as
// written, is a page that renders: each widget in it reaches data-ready (none shows a widget
// error), with no console error, under the strict Content-Security-Policy the docs promise.
// The snippets' URLs are relative to where the docs say the page sits, so the site here is laid
// out that way: `web/` (README: a page beside a checkout's web/ folder), `transformer-playground/`
// and `tp/` (WIDGETS.md: the package copied beside the page under those names) and `models/`
// (the element sections: a page in the web/ folder itself, as `npm start` serves it). A snippet
// without a script tag is an element section's, for a page that already loads the widgets: the
// page gets that one script tag. A CDN snippet's package URL (jsDelivr, at the package's version)
// stands for the package copied beside the page (the CDN itself: wasm_tests/browser/cdn.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { STRICT_CSP, openPage, reachWidget, useBrowser } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const site = mkdtempSync(path.join(tmpdir(), 'tp-snippets-'));
for (const [name, target] of [['web', 'web'], ['transformer-playground', '.'], ['tp', '.'], ['models', 'web/models']]) {
  symlinkSync(path.join(root, target), path.join(site, name));
}
after(() => rmSync(site, { recursive: true, force: true }));

const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const CDN = /https:\/\/cdn\.jsdelivr\.net\/npm\/transformer-playground@([^/]+)\//g;
const snippets = ['README.md', 'docs/WIDGETS.md'].flatMap((file) => {
  const text = readFileSync(path.join(root, file), 'utf8');
  return [...text.matchAll(/^```html\n([\s\S]*?)^```$/gm)].map((m) => ({
    file, line: text.slice(0, m.index).split('\n').length, html: m[1],
  }));
});

const suite = useBrowser({ root: site, headers: { 'content-security-policy': STRICT_CSP } });

test('the docs have HTML snippets to check', () => {
  assert.ok(snippets.filter((s) => s.file === 'README.md').length >= 1);
  assert.ok(snippets.filter((s) => s.file === 'docs/WIDGETS.md').length >= 8, `${snippets.length} snippets`);
});

// The widgets of a document (a page or an iframe's), each scrolled to until it is ready or failed.
async function renderAll(doc, where) {
  const widgets = await doc.$$('*');
  const states = [];
  for (const el of widgets) {
    const name = await el.evaluate((e) => (e.localName.startsWith('tp-') ? e.outerHTML.slice(0, e.outerHTML.indexOf('>') + 1) : null));
    if (name) states.push(`${where} ${name}: ${await reachWidget(el, { timeout: 90_000 })}`);
  }
  return states;
}

for (const [i, s] of snippets.entries()) {
  test(`${s.file}:${s.line} renders without a widget error`, async () => {
    for (const [, v] of s.html.matchAll(CDN)) assert.equal(v, version, 'a CDN snippet names the package\'s version');
    s.html = s.html.replace(CDN, 'transformer-playground/');
    const script = /<script\b/.test(s.html) ? '' : '<script type="module" src="web/lib/transformer-playground-widgets.js"></script>\n';
    const page = `snippet-${i}.html`;
    writeFileSync(path.join(site, page), `<!doctype html>\n<html lang="en">\n<head><meta charset="utf-8"><title>${s.file}:${s.line}</title><link rel="icon" href="web/favicon.svg"></head>\n<body>\n${script}${s.html}</body>\n</html>\n`);
    const { page: p, problems } = await openPage(suite.browser, suite.url + page, { viewport: { width: 1280, height: 900 } });
    const states = await renderAll(p, 'page');
    for (const frameEl of await p.$$('iframe')) {
      const frame = await frameEl.contentFrame();
      await frame.waitForFunction(() => document.readyState === 'complete', { timeout: 30_000 });
      states.push(...(await renderAll(frame, `iframe ${await frameEl.evaluate((e) => e.getAttribute('src'))}`)));
    }
    assert.ok(states.length > 0, `no widget in the snippet:\n${s.html}`);
    assert.deepEqual(states.filter((x) => !x.endsWith(': ready')), [], states.join('\n'));
    assert.deepEqual(problems, []);
    await p.close();
  });
}
