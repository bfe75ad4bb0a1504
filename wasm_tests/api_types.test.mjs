// node:test — the TypeScript declarations (web/lib/transformer-playground.d.ts and the
// declaration files it exports from, emitted from the JSDoc of web/lib by `npm run generate`;
// wasm_tests/generated.test.mjs checks they are current). TypeScript users get the API from them,
// so: a program using the whole API must compile with strict settings
// (wasm_tests/types/example.ts), a program misusing it must fail to compile with an error on each
// deliberate mistake and nowhere else (wasm_tests/types/negative/wrong.ts — declarations that
// were just `any` would pass the first check and fail this one), and every name the JavaScript
// module exports at run time must be declared, and the other way round.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import * as api from 'transformer-playground';

const root = fileURLToPath(new URL('..', import.meta.url));
const tsc = fileURLToPath(new URL('../node_modules/.bin/tsc', import.meta.url));
const libDir = new URL('../web/lib/', import.meta.url);
const read = (rel) => readFileSync(new URL(rel, libDir), 'utf8');
// The main declaration file and every file it exports from, following `export * from` and
// `export { … } from`: { file: text }.
function declarationFiles(rel = 'transformer-playground.d.ts', out = {}) {
  if (out[rel] !== undefined || !existsSync(new URL(rel, libDir))) return out;
  out[rel] = read(rel);
  for (const m of out[rel].matchAll(/^export (?:\*|\{[^}]*\}) from '\.\/([\w./-]+)\.js';/gm)) declarationFiles(`${m[1]}.d.ts`, out);
  return out;
}
const files = declarationFiles();
const dts = Object.values(files).join('\n');

// The names a declaration file exports as values (classes, functions, constants), with what it
// re-exports from the others.
function exportedValues(rel) {
  const text = files[rel];
  const names = [...text.matchAll(/^export declare (?:abstract )?(?:class|function|const) (\w+)/gm)].map((m) => m[1]);
  for (const m of text.matchAll(/^export \* from '\.\/([\w./-]+)\.js';/gm)) names.push(...exportedValues(`${m[1]}.d.ts`));
  for (const m of text.matchAll(/^export \{([^}]*)\} from '\.\/([\w./-]+)\.js';/gm)) names.push(...m[1].split(',').map((n) => n.trim()).filter(Boolean));
  return names;
}

function compile(project) {
  const r = spawnSync(tsc, ['--noEmit', '--pretty', 'false', '-p', project], { cwd: root, encoding: 'utf8' });
  assert.equal(r.error, undefined, `could not run tsc: ${r.error?.message}`);
  return { status: r.status, output: `${r.stdout}${r.stderr}` };
}

// The body of `export declare class Name ...{ ... }`, or of what load() resolves to ('tp').
function block(kind, name) {
  const start = name === 'tp' ? dts.indexOf('declare function makeApi(') : dts.search(new RegExp(`^export (?:declare )?${kind} ${name}\\b`, 'm'));
  assert.ok(start >= 0, `${kind} ${name} is declared`);
  return dts.slice(start, dts.indexOf('\n}', start));
}

test('package.json points "types" at the declarations', () => {
  const pkg = JSON.parse(readFileSync(new URL('../package.json', import.meta.url)));
  assert.equal(pkg.types, './web/lib/transformer-playground.d.ts');
  assert.equal(pkg.exports['.'].types, './web/lib/transformer-playground.d.ts');
  assert.equal(pkg.exports['.'].default, './web/lib/transformer-playground.js');
});

test('an example using the whole API type-checks (tsc --noEmit -p wasm_tests/types)', () => {
  const { status, output } = compile('wasm_tests/types');
  assert.equal(status, 0, output);
});

test('deliberately wrong uses fail to compile, each on its own line', () => {
  const source = readFileSync(new URL('./types/negative/wrong.ts', import.meta.url), 'utf8').split('\n');
  const marked = source.flatMap((line, i) => (/^[^/].*\/\/ error:/.test(line) ? [i + 1] : []));
  assert.ok(marked.length >= 30, `${marked.length} wrong uses`);
  const { status, output } = compile('wasm_tests/types/negative');
  assert.notEqual(status, 0, 'the wrong file compiled');
  const errorLines = [...output.matchAll(/wrong\.ts\((\d+),\d+\): error TS\d+/g)].map((m) => Number(m[1]));
  assert.ok(errorLines.length > 0, output);
  assert.deepEqual([...new Set(errorLines)].sort((a, b) => a - b), marked,
    `every marked line and no other line must have an error:\n${output}`);
});

test('every run-time export is declared, and every declared value exists', () => {
  const runtime = Object.keys(api).sort();
  const declared = [...new Set(exportedValues('transformer-playground.d.ts'))].sort();
  assert.deepEqual(declared, runtime);
});

test('every method and property of the objects at run time is declared', async () => {
  const tp = await api.load();
  const surface = block('function', 'tp');
  for (const key of Object.keys(tp)) assert.match(surface, new RegExp(`\\b${key}\\b[(:?<]`), `tp.${key}`);

  const task = tp.task('qa-toy');
  const model = tp.model({ ...task.defaults, seed: 1 });
  const trainer = tp.trainer(model, task);
  const tok = task.tokenizer();
  const objects = { Tokenizer: tok, Task: task, Model: model, Trainer: trainer };
  for (const [name, object] of Object.entries(objects)) {
    // With the members they inherit from their (unexported) base class.
    const base = dts.slice(dts.indexOf('declare class Owned'), dts.indexOf('\n}', dts.indexOf('declare class Owned')));
    const body = block('class', name) + base;
    const members = new Set([...Object.getOwnPropertyNames(Object.getPrototypeOf(object)), ...Object.keys(object)]);
    for (const member of ['dispose', 'disposed']) members.add(member);
    for (const member of members) {
      if (member === 'constructor' || member === 'module') continue;  // `module` is internal
      assert.match(body, new RegExp(`\\b${member}\\b[(:?]`), `${name}.${member}`);
    }
  }
  const session = block('class', 'TrainingSession');
  for (const member of Object.getOwnPropertyNames(api.TrainingSession.prototype)) {
    if (member !== 'constructor') assert.match(session, new RegExp(`\\b${member}\\b[(:?]`), `TrainingSession.${member}`);
  }
  for (const x of [trainer, model, tok, task]) x.dispose();
});
