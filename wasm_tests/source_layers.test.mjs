// node:test — the C++ layers point down. docs/ARCHITECTURE.md ("Allowed includes (C++)") lists,
// for each folder of src/, the folders it may include; every `#include "folder/..."` in src/
// must be on its folder's line, and only src/bindings may include Emscripten's headers. The doc
// is the one place the order is written: change it there, with the reason, when the design does.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const src = path.join(root, 'src');

// { folder: Set(allowed folders) } from the fenced block under the doc's heading.
function allowedIncludes() {
  const doc = readFileSync(path.join(root, 'docs/ARCHITECTURE.md'), 'utf8');
  const section = doc.split(/^#+ Allowed includes \(C\+\+\)\s*$/m)[1];
  assert.ok(section, 'docs/ARCHITECTURE.md has no "Allowed includes (C++)" section');
  const block = section.match(/```text\n([\s\S]*?)```/);
  assert.ok(block, 'the "Allowed includes (C++)" section has no ```text block');
  const allowed = {};
  for (const line of block[1].split('\n')) {
    const m = line.match(/^(\w+):\s*(.*)$/);
    if (m) allowed[m[1]] = new Set(m[2].split(/\s+/).filter(Boolean));
  }
  return allowed;
}

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    if (e.isDirectory()) return sources(full);
    return /\.(h|cpp)$/.test(e.name) ? [full] : [];
  });
}

test('every include in src/ points down the order in docs/ARCHITECTURE.md', () => {
  const allowed = allowedIncludes();
  const folders = readdirSync(src, { withFileTypes: true }).filter((e) => e.isDirectory()).map((e) => e.name);
  for (const folder of folders) assert.ok(allowed[folder], `src/${folder} has no line in "Allowed includes (C++)"`);
  const problems = [];
  for (const file of sources(src)) {
    const folder = path.relative(src, file).split(path.sep)[0];
    readFileSync(file, 'utf8').split('\n').forEach((line, i) => {
      const where = `${path.relative(root, file)}:${i + 1}`;
      const m = line.match(/^\s*#\s*include\s+"(\w+)\//);
      if (m && m[1] !== folder && !allowed[folder].has(m[1])) problems.push(`${where} (${folder}) includes ${m[1]}/`);
      if (/^\s*#\s*include\s+<emscripten\//.test(line) && folder !== 'bindings') problems.push(`${where} includes Emscripten`);
    });
  }
  assert.deepEqual(problems, [], problems.join('\n'));
});

test('the order has no cycle', () => {
  const allowed = allowedIncludes();
  const state = {};
  const visit = (f, trail) => {
    assert.notEqual(state[f], 'open', `cycle: ${[...trail, f].join(' -> ')}`);
    if (state[f] === 'done') return;
    state[f] = 'open';
    for (const g of allowed[f] ?? []) visit(g, [...trail, f]);
    state[f] = 'done';
  };
  for (const f of Object.keys(allowed)) visit(f, []);
});
