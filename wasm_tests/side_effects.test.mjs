// node:test — package.json's `sideEffects` names every module that defines a custom element when
// imported. Bundlers (Vite, webpack) drop a side-effect-only import (`import './x/element.js'`)
// of a module the list leaves out, and the element is then never defined in the bundle: the page
// calls a method the plain element does not have ("render is not a function").
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';

const EXCLUDED = ['web/lib/wasm/', 'web/lib/bundle/'];  // build outputs
// A call that defines an element at import: the platform's, or one of our wrappers of it.
const DEFINES = /^\s*(customElements\.define|defineElement|definePanel)\(/m;

// A sideEffects glob as a regular expression over "./web/…" paths (`*` within one folder).
const globRegex = (glob) => new RegExp(`^${glob.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '[^/]*')}$`);

function modules(dir) {
  return readdirSync(path.join(root, dir), { withFileTypes: true, recursive: true })
    .filter((e) => e.isFile() && e.name.endsWith('.js'))
    .map((e) => path.relative(root, path.join(e.parentPath ?? e.path, e.name)).split(path.sep).join('/'))
    .filter((f) => !EXCLUDED.some((x) => f.startsWith(x)));
}

test('every module that defines an element on import is in package.json sideEffects', () => {
  const globs = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8')).sideEffects.map(globRegex);
  const defining = modules('web').filter((f) => DEFINES.test(readFileSync(path.join(root, f), 'utf8')));
  assert.ok(defining.length >= 20, `found ${defining.length} modules that define elements`);
  const missing = defining.filter((f) => !globs.some((g) => g.test(`./${f}`)));
  assert.deepEqual(missing, [], 'modules that define elements but that bundlers may drop');
});
