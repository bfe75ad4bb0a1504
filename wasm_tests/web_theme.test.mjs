// The web side's one theme (web/ui/theme.js): every colour value of the views, widgets and pages
// is written there, or is data in components/shared/colormap.js (maps, role and head colours,
// chip palette), or is the icon; every private theme variable a stylesheet reads (var(--_name))
// is one the theme defines (or its own file declares), and each public --tp-name overrides it.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { THEME, THEME_CSS } from '../web/ui/theme.js';

const web = path.join(root, 'web');
const ALLOWED_COLOURS = ['ui/theme.js', 'components/shared/colormap.js', 'favicon.svg'];

function files(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    const rel = path.relative(web, full).split(path.sep).join('/');
    if (rel === 'lib/wasm' || rel === 'lib/bundle') return [];  // build outputs
    if (e.isDirectory()) return files(full);
    return /\.(js|css|html|svg)$/.test(e.name) ? [rel] : [];
  });
}

// The text without comments (a colour in a comment is an example, not a value).
const code = (text, rel) => (rel.endsWith('.html') || rel.endsWith('.svg') ? text.replace(/<!--[\s\S]*?-->/g, '')
  : text.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1'));

test('no colour value outside the theme, the colour-map data and the icon', () => {
  const found = [];
  for (const rel of files(web)) {
    if (ALLOWED_COLOURS.includes(rel)) continue;
    const text = code(readFileSync(path.join(web, rel), 'utf8'), rel);
    for (const m of text.matchAll(/#[0-9a-fA-F]{3,8}\b|\brgba?\(\s*\d/g)) {
      const line = text.slice(0, m.index).split('\n').length;
      found.push(`web/${rel}:${line}: ${m[0]}`);
    }
  }
  assert.deepEqual(found, []);
});

test('every theme variable a style reads is defined, and each can be overridden with --tp-*', () => {
  const undefinedVars = [];
  // What the theme sheet defines: every THEME name, and its own --_scheme and --_s-<name>.
  const themed = new Set([...THEME_CSS.matchAll(/--_([\w-]+)\s*:/g)].map((m) => m[1]));
  for (const rel of files(web)) {
    if (rel === 'ui/theme.js') continue;  // writes the sheet; THEME_CSS itself is checked here
    const text = readFileSync(path.join(web, rel), 'utf8');
    const own = new Set([...text.matchAll(/--_([\w-]+)\s*:/g)].map((m) => m[1]));
    for (const m of text.matchAll(/var\(--_([\w-]+)/g)) {
      if (!themed.has(m[1]) && !own.has(m[1])) undefinedVars.push(`web/${rel}: --_${m[1]}`);
    }
  }
  assert.deepEqual([...new Set(undefinedVars)], []);
  for (const [name, entry] of Object.entries(THEME)) {
    assert.deepEqual(Object.keys(entry).filter((k) => !['light', 'dark', 'use'].includes(k)), [], `${name}: light, dark and use only`);
    assert.ok(entry.light && entry.use, `${name}: a value and what it colours`);
    if (entry.dark === undefined) {
      assert.ok(THEME_CSS.includes(`--_${name}: var(--tp-${name}, ${entry.light});`), `${name}: one default behind --tp-${name}`);
      continue;
    }
    for (const scheme of ['light', 'dark']) {
      assert.ok(THEME_CSS.includes(`--_${name}: var(--tp-${name}, var(--_s-${name}, ${entry[scheme]}));`), `${name}: ${scheme} default behind --tp-${name}`);
      assert.ok(THEME_CSS.includes(`--_s-${name}: ${entry[scheme]};`), `${name}: the ${scheme} value when a widget's scheme is ${scheme}`);
    }
  }
  assert.match(THEME_CSS, /@media \(prefers-color-scheme: dark\)/);
  assert.match(THEME_CSS, /:host\(\[data-scheme=dark\]\) \{ --_scheme: dark; color-scheme: dark;/);
});
