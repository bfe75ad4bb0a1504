// node:test — the npm package as a user installs it: `npm pack`, installed from the tarball into
// a fresh project (wasm_tests/consumers/fixture.mjs, shared with the browser suite's bundled apps).
//   - the tarball holds what the exports map, the README and the docs point at, and nothing of the
//     build, the tests or the C++ sources; docs/API.md lists what it holds;
//   - the README's JavaScript quick start, extracted from README.md as written, runs in Node in
//     that project and prints what its comments say;
//   - every export resolves, to the Node entry under Node's conditions and to the browser files
//     under a browser bundler's (whose files name no `node:` module);
//   - a TypeScript consumer of the API and the widget element types compiles with --strict,
//     under module resolution node16 and bundler.
import { test, before } from 'node:test';
import assert from 'node:assert/strict';
import { execFileSync, spawnSync } from 'node:child_process';
import { readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { consumers } from './consumers/fixture.mjs';

const pkg = JSON.parse(readFileSync(path.join(root, 'package.json'), 'utf8'));
let built;
before(async () => {
  built = await consumers();
});

// The first ```js block after a heading, as written.
export function codeBlock(markdown, heading) {
  const at = markdown.indexOf(`\n${heading}\n`);
  assert.ok(at >= 0, `a heading "${heading}"`);
  const m = /```js\n([\s\S]*?)```/.exec(markdown.slice(at));
  assert.ok(m, `a js code block under "${heading}"`);
  return m[1];
}

test('the tarball holds the package and nothing of the build, the tests or the sources', () => {
  const files = built.tarball.files;
  for (const f of ['package.json', 'README.md', 'LICENSE', 'custom-elements.json', 'docs/API.md', 'docs/WIDGETS.md',
    'web/lib/wasm/transformer_playground.wasm', 'web/lib/wasm/transformer_playground.js']) assert.ok(files.includes(f), `${f} is packed`);
  // (The one file from src/ is the notice of where the built-in tasks' texts come from.)
  const stray = files.filter((f) => (/^(build|test-output|node_modules|wasm_tests|native_tests|src|bench|scripts|tools|cmake)\//.test(f) || f.endsWith('.tgz')) &&
    f !== 'src/tasks/data/SOURCES.md');
  assert.deepEqual(stray, [], 'files that have no place in the package');
  // Every file an export names (patterns: at least one match).
  const targets = Object.values(pkg.exports).flatMap((v) => (typeof v === 'string' ? [v] : Object.values(v))).map((t) => t.replace(/^\.\//, ''));
  for (const t of new Set(targets)) {
    const re = new RegExp(`^${t.replace(/[.+?^${}()|[\]\\]/g, '\\$&').replace('\\*', '.+').replace('*', '.+')}$`);
    assert.ok(files.some((f) => re.test(f)), `the export target ${t} is packed`);
  }
  assert.match(readFileSync(path.join(root, 'LICENSE'), 'utf8'), /^MIT License\n\nCopyright \(c\) 2026 The Transformer Playground authors\n/);
  assert.equal(pkg.license, 'MIT');
  assert.ok(pkg.keywords.length >= 5 && pkg.description.length > 40, 'keywords and a description');
});

test('docs/API.md lists what the package holds, and every relative link of the packed docs works from the package', () => {
  const files = built.tarball.files;
  const api = readFileSync(path.join(root, 'docs', 'API.md'), 'utf8');
  const section = api.slice(api.indexOf('\n### What the package contains\n'));
  const listed = [...section.slice(0, section.indexOf('\n#', 5)).matchAll(/^\| `([^`]+)` \|/gm)].map((m) => m[1]);
  assert.ok(listed.length >= 5, `the table lists the package's parts (${listed.length})`);
  const covers = (entry, f) => (entry.endsWith('/') ? f.startsWith(entry) : f === entry);
  assert.deepEqual(files.filter((f) => !listed.some((e) => covers(e, f))), [], 'packed files the table does not list');
  assert.deepEqual(listed.filter((e) => !files.some((f) => covers(e, f))), [], 'listed entries that are not packed');
  const dead = [];
  for (const doc of files.filter((f) => f.endsWith('.md'))) {
    const text = readFileSync(path.join(root, doc), 'utf8').replace(/```[\s\S]*?```/g, '');
    for (const [, target] of text.matchAll(/\]\(([^)#\s]+)(?:#[^)]*)?\)/g)) {
      if (/^[a-z]+:/.test(target)) continue;
      const resolved = path.posix.normalize(path.posix.join(path.posix.dirname(doc), target)).replace(/\/$/, '');
      if (!files.some((f) => f === resolved || f.startsWith(`${resolved}/`))) dead.push(`${doc}: ${target}`);
    }
  }
  assert.deepEqual(dead, [], 'links that lead nowhere in the installed package');
});

test("the README's JavaScript quick start, as written, runs in Node and prints what its comments say", () => {
  const code = codeBlock(readFileSync(path.join(root, 'README.md'), 'utf8'), '## The JavaScript API');
  // Each console.log line's comment begins with what it prints.
  const expected = code.split('\n').filter((l) => /^\s*(?:.*\s)?console\.log\(/.test(l) && l.includes('//')).map((l) => l.slice(l.lastIndexOf('//') + 2).trim());
  assert.ok(expected.length >= 3, 'the quick start prints something');
  const file = path.join(built.dir, 'quickstart.mjs');
  writeFileSync(file, code);
  const r = spawnSync(process.execPath, [file], { cwd: built.dir, encoding: 'utf8', timeout: 120_000 });
  assert.equal(r.error, undefined);
  assert.equal(r.stderr, '');
  assert.equal(r.status, 0);
  const lines = r.stdout.trimEnd().split('\n');
  assert.equal(lines.length, expected.length, r.stdout);
  lines.forEach((line, i) => assert.ok(expected[i].startsWith(line), `line ${i + 1} prints "${line}", its comment says "${expected[i]}"`));
  assert.equal(lines.filter((l) => l === 'i am fine').length, 2, 'both halves answer "i am fine"');
});

test('every export resolves: to the Node entry in Node, to the browser files for a browser bundle, which name no node: module', () => {
  const resolve = (conditions) => JSON.parse(execFileSync(process.execPath, [...conditions, '--input-type=module', '-e', `
    const names = ${JSON.stringify(Object.keys(pkg.exports).filter((k) => !k.includes('*')).map((k) => k.replace(/^\./, 'transformer-playground')))};
    console.log(JSON.stringify(Object.fromEntries(names.map((n) => [n, import.meta.resolve(n).replace(/^.*node_modules\\/transformer-playground\\//, '')]))));`],
  { cwd: built.dir, encoding: 'utf8' }));
  const node = resolve([]), browser = resolve(['--conditions=browser']);
  assert.equal(node['transformer-playground'], 'web/lib/node/transformer-playground.js');
  assert.equal(node['transformer-playground/worker'], 'web/lib/node/worker.js');
  assert.equal(browser['transformer-playground'], 'web/lib/transformer-playground.js');
  assert.equal(browser['transformer-playground/worker'], 'web/lib/worker.js');
  assert.equal(node['transformer-playground/widgets/tp-train'], 'web/widgets/tp-train.js');
  assert.equal(node['transformer-playground/widgets/tp-replay'], 'web/widgets/tp-replay.js');
  assert.equal(node['transformer-playground/package.json'], 'package.json');
  // Vite warns when a browser build meets a node: import; webpack fails on one.
  assert.doesNotMatch(built.logs.vite, /node:|externalized for browser compatibility/);
  assert.doesNotMatch(built.logs.webpack, /node:|ERROR|WARNING/);
  // The widgets entry can be imported where there is no DOM (server-side rendering): it registers nothing.
  const out = execFileSync(process.execPath, ['--input-type=module', '-e',
    "const w = await import('transformer-playground/widgets'); console.log(w.WIDGET_NAMES.length)"], { cwd: built.dir, encoding: 'utf8' });
  assert.equal(out.trim(), '7', 'the seven widgets, <tp-replay> among them');
});

for (const resolution of ['node16', 'bundler']) {
  test(`a TypeScript consumer of the API and the widget element types compiles with --strict (moduleResolution ${resolution})`, () => {
    const tsc = path.join(built.dir, 'node_modules', '.bin', 'tsc');
    const r = spawnSync(tsc, ['--noEmit', '--pretty', 'false', '-p', `ts/tsconfig.${resolution}.json`], { cwd: built.dir, encoding: 'utf8' });
    assert.equal(r.error, undefined);
    assert.equal(r.status, 0, `${r.stdout}${r.stderr}`);
    // And a misuse is caught: the consumer's deliberate errors fail, each on its marked line.
    const bad = spawnSync(tsc, ['--noEmit', '--pretty', 'false', '-p', `ts/tsconfig.${resolution}.wrong.json`], { cwd: built.dir, encoding: 'utf8' });
    const lines = [...bad.stdout.matchAll(/wrong\.ts\((\d+),\d+\): error/g)].map((m) => Number(m[1]));
    const marked = readFileSync(path.join(built.dir, 'ts', 'wrong.ts'), 'utf8').split('\n').flatMap((l, i) => (l.includes('// error') ? [i + 1] : []));
    assert.deepEqual([...new Set(lines)], marked, bad.stdout);
  });
}
