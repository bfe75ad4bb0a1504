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

// A control whose accessible name (key `…Aria`) is longer than its visible text (the key without
// it) must hold that text as whole words, in order, so a voice-control user can say what they
// see (WCAG 2.5.3; axe-core's label-content-name-mismatch compares words, not characters: the
// Korean "설정" inside "설정으로" is not the word "설정").
test('every accessible name holds its control\'s visible text as whole words, in both languages', () => {
  const words = (s) => s.normalize('NFKD').toLowerCase().replace(/\{\w+\}/g, ' ').split(/[^\p{L}\p{N}\p{M}]+/u).filter(Boolean);
  let pairs = 0;
  for (const [lang, strings] of Object.entries(STRINGS)) {
    for (const [key, name] of Object.entries(strings)) {
      const visible = strings[key.replace(/Aria$/, '')];
      if (!key.endsWith('Aria') || visible === undefined) continue;
      pairs += 1;
      const n = words(name), v = words(visible);
      assert.ok(n.some((_, i) => v.every((w, j) => n[i + j] === w)), `${lang} ${key}: "${name}" does not hold the words of "${visible}"`);
    }
  }
  assert.ok(pairs >= 10, `${pairs} pairs checked`);
});
