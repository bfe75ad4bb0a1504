// node:test — the playground stays in small pieces: no file under web/playground/ longer than
// 300 lines, no function (a declaration, a method or an arrow function with a body) longer than
// 80. The largest file and the largest function are printed, so a growing one is seen before it
// reaches the limit. Functions are found by the same tokenizer the layers test reads imports
// with (strings, templates and comments are not code).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { tokenize } from './js_tokens.mjs';

const MAX_FILE_LINES = 300, MAX_FUNCTION_LINES = 80;
const dir = path.join(root, 'web', 'playground');
const NOT_CALLS = new Set(['if', 'for', 'while', 'switch', 'catch', 'with', 'return', 'typeof', 'await']);

function files(d) {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(d, e.name)) : e.name.endsWith('.js') ? [path.join(d, e.name)] : []));
}

// [{ name, line, lines }] of every function body in `src`.
export function functionsOf(src) {
  const tokens = tokenize(src);
  const close = new Map(), stack = [];
  tokens.forEach((t, i) => {
    if (t.type !== 'punct') return;
    if ('([{'.includes(t.value)) stack.push(i);
    else if (')]}'.includes(t.value)) close.set(stack.pop(), i);
  });
  const open = new Map([...close].map(([a, b]) => [b, a]));
  const out = [];
  tokens.forEach((t, i) => {
    if (t.type !== 'punct' || t.value !== '{' || !close.has(i)) return;
    const prev = tokens[i - 1];
    let name = null;
    if (prev?.value === '=>') {
      name = '(arrow)';
    } else if (prev?.value === ')' && open.has(i - 1)) {
      const before = tokens[open.get(i - 1) - 1];
      const heritage = tokens[open.get(i - 1) - 2]?.value === 'extends';  // class X extends base(…) {
      if (before?.value === 'function') name = '(function)';
      else if (before?.type === 'name' && !NOT_CALLS.has(before.value) && !heritage) name = before.value;
    }
    if (name) out.push({ name, line: t.line, lines: tokens[close.get(i)].line - t.line + 1 });
  });
  return out;
}

test(`no playground file over ${MAX_FILE_LINES} lines and no function over ${MAX_FUNCTION_LINES}`, (t) => {
  const sizes = [], functions = [];
  for (const file of files(dir)) {
    const src = readFileSync(file, 'utf8');
    const rel = path.relative(root, file);
    sizes.push({ rel, lines: src.split('\n').length - (src.endsWith('\n') ? 1 : 0) });
    for (const f of functionsOf(src)) functions.push({ ...f, rel });
  }
  sizes.sort((a, b) => b.lines - a.lines);
  functions.sort((a, b) => b.lines - a.lines);
  t.diagnostic(`largest files: ${sizes.slice(0, 3).map((s) => `${s.rel} ${s.lines}`).join(', ')}`);
  t.diagnostic(`largest functions: ${functions.slice(0, 3).map((f) => `${f.name} (${f.rel}:${f.line}) ${f.lines}`).join(', ')}`);
  assert.ok(sizes.length > 20 && functions.length > 100, `found ${sizes.length} files and ${functions.length} functions: the scan is broken`);
  assert.deepEqual(sizes.filter((s) => s.lines > MAX_FILE_LINES).map((s) => `${s.rel}: ${s.lines} lines`), []);
  assert.deepEqual(functions.filter((f) => f.lines > MAX_FUNCTION_LINES).map((f) => `${f.rel}:${f.line} ${f.name}: ${f.lines} lines`), []);
});

test('the function scan finds declarations, methods and arrows, and nothing else', () => {
  const src = [
    'function a(x) {', '  if (x) {', '    return 1;', '  }', '}',
    'class B {', '  m(y) {', '    for (const z of y) {', '      go(z);', '    }', '  }', '}',
    'const c = (q) => {', '  return { q };', '};',
    'const d = function (r) {', '  return r;', '};',
    'class E extends mix(A) {', '  n() {', '    return 1;', '  }', '}',
  ].join('\n');
  assert.deepEqual(functionsOf(src).map((f) => [f.name, f.line, f.lines]), [['a', 1, 5], ['m', 7, 5], ['(arrow)', 13, 3], ['(function)', 16, 3], ['n', 20, 3]]);
});
