// The views' words (web/components): each view declares English defaults for every label it
// uses (`static labels`), and web/ui/strings.js's VIEW_LABELS has a Korean label for exactly
// those keys — nothing missing, nothing left over. The views are imported with just enough of
// a DOM to define their classes (they draw nothing here).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { VIEW_LABELS, viewLabels } from '../web/ui/strings.js';

const dir = path.join(root, 'web', 'components');
const defined = new Map();  // element name -> class
globalThis.HTMLElement ??= class {};
globalThis.customElements ??= { define: (name, cls) => defined.set(name, cls), get: (name) => defined.get(name) };
globalThis.document ??= { createElement: () => ({ content: {} }) };

const files = readdirSync(dir).filter((f) => /^tp-.*\.js$/.test(f));

test('every view declares an English default for each label it uses', async () => {
  for (const file of files) {
    await import(path.join(dir, file));
    const name = file.replace(/\.js$/, '');
    const View = defined.get(name);
    assert.ok(View, `${file} defines <${name}>`);
    const text = readFileSync(path.join(dir, file), 'utf8');
    const used = new Set();
    for (const m of text.matchAll(/(?:this\.t|label\(this,)\(?\s*'([a-zA-Z0-9_.-]+)'/g)) used.add(m[1]);
    for (const m of text.matchAll(/\bt\(\s*'([a-zA-Z0-9_.-]+)'/g)) used.add(m[1]);
    for (const m of text.matchAll(/\bct\(\s*'([a-zA-Z0-9_.-]+)'/g)) used.add(`check.${m[1]}`);
    for (const m of text.matchAll(/data-k="([a-z]+)"/g)) used.add(`check.${m[1]}`);
    const missing = [...used].filter((k) => !(k in (View.labels ?? {})));
    assert.deepEqual(missing, [], `${file}: labels without an English default`);
  }
});

test('the Korean view labels are exactly the views\' label keys', async () => {
  for (const file of files) await import(path.join(dir, file));
  const keys = new Set([...defined.values()].flatMap((View) => Object.keys(View.labels ?? {})));
  const ko = Object.keys(VIEW_LABELS.ko);
  assert.deepEqual([...keys].filter((k) => !ko.includes(k)).sort(), [], 'keys with no Korean label');
  assert.deepEqual(ko.filter((k) => !keys.has(k)).sort(), [], 'Korean labels no view uses');
  for (const [k, v] of Object.entries(VIEW_LABELS.ko)) {
    const en = [...defined.values()].find((View) => View.labels?.[k])?.labels[k];
    const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();
    assert.deepEqual(holes(v), holes(en), `${k}: the same placeholders in both languages`);
  }
  assert.deepEqual(viewLabels('en'), {}, 'English: the views\' own defaults');
  assert.equal(viewLabels('ko'), viewLabels('ko'), 'one object per language (views skip a repeat)');
});
