// node:test — the package where a site is rendered on a server (Astro's frontmatter, Next.js
// server components, Docusaurus's server render): every widget and view module, and the widgets
// entry, imports in plain Node without throwing and registers nothing there (there is no
// customElements); the Node platform reads the .wasm from whatever URL object a bundler hands
// over (Turbopack's own URL class, a URL string, a path).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync } from 'node:child_process';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
import { root } from '../scripts/build.mjs';

const modules = [
  'web/lib/transformer-playground-widgets.js',
  ...readdirSync(path.join(root, 'web/widgets')).filter((f) => /^tp-.*\.js$/.test(f)).map((f) => `web/widgets/${f}`),
  ...readdirSync(path.join(root, 'web/components')).filter((f) => /^tp-.*\.js$/.test(f)).map((f) => `web/components/${f}`),
];

test('every widget and view module imports where there is no DOM, and defines nothing there', () => {
  assert.ok(modules.length >= 15, `${modules.length} modules`);
  // A fresh process each, as a server render meets one module at a time.
  for (const m of modules) {
    const out = execFileSync(process.execPath, ['--input-type=module', '-e', `
      const mod = await import(${JSON.stringify(pathToFileURL(path.join(root, m)).href)});
      console.log(JSON.stringify({ customElements: typeof customElements, HTMLElement: typeof HTMLElement, exports: Object.keys(mod).length }));`],
    { encoding: 'utf8', stdio: ['ignore', 'pipe', 'pipe'] });
    const r = JSON.parse(out);
    assert.equal(r.customElements, 'undefined', m);
    assert.equal(r.HTMLElement, 'undefined', `${m} leaves no HTMLElement behind`);
  }
});

test("a widget class imported on a server is still the widget's class (extends the DOM's base where there is one)", async () => {
  const { TpTrain } = await import('../web/widgets/tp-train.js');
  const { TpWidget } = await import('../web/widgets/shared/widget.js');
  assert.equal(typeof TpTrain, 'function');
  assert.ok(TpTrain.prototype instanceof TpWidget);
  assert.ok(TpTrain.observedAttributes.includes('theme'));
});

test('the Node platform reads the module from a URL object of any class, a URL string or a path', async () => {
  const { filePath } = await import('../web/lib/node/platform.js');
  const file = path.join(root, 'web/lib/wasm/transformer_playground.wasm');
  const href = pathToFileURL(file).href;
  // What Turbopack hands over: its own URL-like object, not an instance of Node's URL.
  class BundlerUrl {
    constructor(h) { this.href = h; }
    toString() { return this.href; }
  }
  for (const u of [new URL(href), new BundlerUrl(href), href, file]) assert.equal(filePath(u), file, String(u));
  assert.throws(() => filePath('https://cdn.example/x.wasm'), /https:\/\/cdn\.example\/x\.wasm is not a file: Node reads the module from disk/);
  const { load } = await import('../web/lib/node/transformer-playground.js');
  const tp = await load({ wasmUrl: new BundlerUrl(href) });
  assert.match(tp.version, /^\d+\.\d+\.\d+/);
});
