// node:test — the playground's strings per language (web/playground/strings/<lang>/<part>.js):
// each part has the same keys in English and Korean, each string the same {placeholders} in both,
// and what every language writes alike (strings/common.js) is in neither. A table that is not
// `key = text` lines, or names a key twice, fails when it is read (strings/table.js).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { table } from '../web/playground/strings/table.js';
import { COMMON, STRINGS } from '../web/playground/strings/index.js';

const dir = path.join(root, 'web', 'playground', 'strings');
const holes = (s) => [...s.matchAll(/\{(\w+)\}/g)].map((m) => m[1]).sort();

test('every part of the strings has the same keys and placeholders in English and Korean', async () => {
  const parts = readdirSync(path.join(dir, 'en')).sort();
  assert.deepEqual(readdirSync(path.join(dir, 'ko')).sort(), parts, 'the same parts in both languages');
  for (const part of parts) {
    const en = (await import(path.join(dir, 'en', part))).default, ko = (await import(path.join(dir, 'ko', part))).default;
    assert.deepEqual(Object.keys(ko), Object.keys(en), `${part}: the same keys, in the same order`);
    for (const [key, text] of Object.entries(en)) {
      assert.deepEqual(holes(ko[key]), holes(text), `${part} ${key}: the same placeholders`);
      assert.notEqual(ko[key], text, `${part} ${key}: the same in both languages, so it belongs in strings/common.js`);
    }
  }
  assert.ok(Object.keys(STRINGS.en).length > 300);
  assert.deepEqual(Object.keys(COMMON).filter((k) => k in STRINGS.en || k in STRINGS.ko), []);
});

test('a table says which line is not a string, and which key it has twice', () => {
  assert.deepEqual(table('\na.b = one {n}\n\nc = two\n', 'x.js'), { 'a.b': 'one {n}', c: 'two' });
  assert.throws(() => table('\na = one\nb two\n', 'x.js'), /^Error: x\.js: line 2 is not "key = text": b two$/);
  assert.throws(() => table('\na = one\na = two\n', 'x.js'), /^Error: x\.js: line 2: a is given twice$/);
});
