// Browser: every ```html snippet in README.md and docs/WIDGETS.md, taken from the Markdown as
// written, and every example in the header comments of the widgets' modules (web/widgets/*.js,
// the lines `//   <tp-…>…</tp-…>`) renders in English and in Korean: each widget in it reaches data-ready (none shows a
// widget error) and shows no error anywhere inside it (no visible role="alert" with text: a
// playground that rejects its set-up is ready but says so in its training bar), with no console
// error, under the strict Content-Security-Policy the docs promise.
//
// The snippets of one file (the headers: of all the widgets' modules) that load the same module
// script share one page per language (the widgets are made to sit many to a page): a snippet without a script tag is an element
// section's, for a page that already loads the widgets entry, so it joins the page of the file's
// first snippet that loads that entry. The snippets' URLs are relative to where the docs say the
// page sits, so the site here is laid out that way: `web/` (README: a page beside a checkout's
// web/ folder), `transformer-playground/` and `tp/` (WIDGETS.md: the package copied beside the
// page under those names) and `models/` and `docs/` (the element sections: a page in the web/
// folder itself, as `npm start` serves it; the headers' examples too). A CDN snippet's package URL (jsDelivr, at the package's version)
// stands for the package copied beside the page (the CDN itself: wasm_tests/browser/cdn.test.mjs).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, readdirSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { after } from 'node:test';
import { STRICT_CSP, openPage, reachWidget, useBrowser } from './browser.mjs';
import { root } from '../../scripts/build.mjs';

const site = mkdtempSync(path.join(tmpdir(), 'tp-snippets-'));
for (const [name, target] of [['web', 'web'], ['transformer-playground', '.'], ['tp', '.'], ['models', 'web/models'], ['docs', 'web/docs']]) {
  symlinkSync(path.join(root, target), path.join(site, name));
}
after(() => rmSync(site, { recursive: true, force: true }));

const { version } = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
const CDN = /https:\/\/cdn\.jsdelivr\.net\/npm\/transformer-playground@([^/]+)\//g;
const SCRIPT = /<script\b[^>]*\bsrc="([^"]+)"[^>]*><\/script>\n?/g;
const ENTRY = /(^|\/)web\/lib\/transformer-playground-widgets\.js$/;
const LANGS = ['en', 'ko'];

const HEADERS = 'web/widgets/*.js headers';
// A snippet `html` found at `index` of `text` (the file `at`), for the page of `file`.
const snippet = (file, at, text, index, html) => {
  const local = html.replace(CDN, 'transformer-playground/');
  return { file, at: `${at}:${text.slice(0, index).split('\n').length}`, versions: [...html.matchAll(CDN)].map((c) => c[1]),
    scripts: [...local.matchAll(SCRIPT)].map((s) => s[1]), body: local.replace(SCRIPT, '') };
};
const snippets = [
  ...['README.md', 'docs/WIDGETS.md'].flatMap((file) => {
    const text = readFileSync(path.join(root, file), 'utf8');
    return [...text.matchAll(/^```html\n([\s\S]*?)^```$/gm)].map((m) => snippet(file, file, text, m.index, m[1]));
  }),
  ...readdirSync(path.join(root, 'web/widgets')).filter((f) => /^tp-.*\.js$/.test(f)).sort().flatMap((f) => {
    const text = readFileSync(path.join(root, 'web/widgets', f), 'utf8');
    const head = text.slice(0, text.search(/^(?!\/\/)/m));
    return [...head.matchAll(/^\/\/ {3}(<(tp-[a-z-]+)\b[^\n]*?<\/\2>)/gm)].map((m) => snippet(HEADERS, `web/widgets/${f}`, text, m.index, `${m[1]}\n`));
  }),
];

// The pages: per file, one per module script its snippets load (a snippet without one: the
// file's widgets entry), each in every language.
const pages = [];
for (const file of new Set(snippets.map((s) => s.file))) {
  const own = snippets.filter((s) => s.file === file);
  const entry = own.flatMap((s) => s.scripts).find((src) => ENTRY.test(src)) ?? 'web/lib/transformer-playground-widgets.js';
  const groups = new Map();
  for (const s of own) {
    assert.ok(s.scripts.length <= 1, `${s.at}: one module script per snippet`);
    const src = s.scripts[0] ?? entry;
    groups.set(src, [...(groups.get(src) ?? []), s]);
  }
  for (const [src, group] of groups) for (const lang of LANGS) pages.push({ file, src, group, lang });
}

const suite = useBrowser({ root: site, headers: { 'content-security-policy': STRICT_CSP } });

test('the docs have HTML snippets to check, each naming the package\'s version on a CDN', () => {
  assert.ok(snippets.filter((s) => s.file === 'README.md').length >= 1);
  assert.ok(snippets.filter((s) => s.file === 'docs/WIDGETS.md').length >= 8, `${snippets.length} snippets`);
  assert.ok(new Set(snippets.filter((s) => s.file === HEADERS).map((s) => s.at.split(':')[0])).size >= 6, 'every widget module\'s header has examples');
  for (const s of snippets) for (const v of s.versions) assert.equal(v, version, `${s.at}: a CDN snippet names the package's version`);
});

// The text of every visible role="alert" inside a widget (through its shadow roots, nested ones
// too): what it shows as an error.
const shownAlerts = (el) => el.evaluate((host) => {
  const out = [];
  const visible = (e) => (e.checkVisibility ? e.checkVisibility() : e.getClientRects().length > 0);
  const visit = (node) => {
    for (const e of node.querySelectorAll('*')) {
      if (e.shadowRoot) visit(e.shadowRoot);
      if (e.getAttribute('role') === 'alert' && e.textContent.trim() && visible(e)) out.push(e.textContent.trim());
    }
  };
  if (host.shadowRoot) visit(host.shadowRoot);
  return out;
});

// The widgets of a document (a page or an iframe's), each scrolled to until it is ready or failed,
// then asked what error it shows.
async function renderAll(doc, where) {
  const states = [];
  for (const el of await doc.$$('*')) {
    const name = await el.evaluate((e) => (e.localName.startsWith('tp-') ? e.outerHTML.slice(0, e.outerHTML.indexOf('>') + 1) : null));
    if (!name) continue;
    const state = await reachWidget(el, { timeout: 90_000 });
    const alerts = state === 'ready' ? await shownAlerts(el) : [];
    states.push(`${where} ${name}: ${alerts.length ? `ready, but shows ${JSON.stringify(alerts)}` : state}`);
  }
  return states;
}

for (const [i, { file, src, group, lang }] of pages.entries()) {
  const lines = group.map((s) => s.at.slice(s.at.lastIndexOf(':') + 1)).join(', ');
  test(`${file}${file === HEADERS ? '' : ` (lines ${lines})`}${src.includes('/bundle/') ? ', the bundle' : ''} in lang="${lang}": every widget ready, no error shown`, async () => {
    const name = `snippets-${i}.html`;
    const body = group.map((s) => `<section data-snippet="${s.at}">\n${s.body}</section>\n`).join('');
    writeFileSync(path.join(site, name), `<!doctype html>\n<html lang="${lang}">\n<head><meta charset="utf-8"><title>${file} ${lang}</title><link rel="icon" href="web/favicon.svg"></head>\n<body>\n<script type="module" src="${src}"></script>\n${body}</body>\n</html>\n`);
    const { page, problems } = await openPage(suite.browser, suite.url + name, { viewport: { width: 1280, height: 900 } });
    const states = await renderAll(page, 'page');
    for (const frameEl of await page.$$('iframe')) {
      const frame = await frameEl.contentFrame();
      await frame.waitForFunction(() => document.readyState === 'complete', { timeout: 30_000 });
      states.push(...(await renderAll(frame, `iframe ${await frameEl.evaluate((e) => e.getAttribute('src'))}`)));
    }
    const widgets = group.reduce((n, s) => n + (s.body.match(/<tp-[a-z-]+/g) ?? []).length, 0);
    assert.ok(states.filter((s) => s.startsWith('page ')).length >= widgets, `the page holds the snippets' ${widgets} widgets:\n${states.join('\n')}`);
    assert.deepEqual(states.filter((x) => !x.endsWith(': ready')), [], states.join('\n'));
    assert.deepEqual(problems, []);
    await page.close();
  });
}
