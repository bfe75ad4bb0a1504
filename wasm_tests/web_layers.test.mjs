// The web side's layers, checked: every import, dynamic import() and
// new URL('…', import.meta.url) in web/**/*.js (not the wasm build output in web/lib/wasm/)
// follows the allowed directions written once, in docs/ARCHITECTURE.md under
// "Allowed imports (web)". An edge the block does not list fails with the file and line, and
// says when it points up (a lower layer importing a higher one); so does an import whose
// specifier is computed at run time (a bundler cannot follow it, and neither can this test).
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { tokenize } from './js_tokens.mjs';

const web = path.join(root, 'web');
const EXCLUDED = ['lib/wasm/', 'lib/bundle/'];  // build outputs: the wasm glue, the widgets in one file

// ---- the allowed edges -------------------------------------------------------------------------

// { rules: Map(name -> Set(names)), line: Map(name -> line in the doc) } from the fenced block
// under the heading. A name is a folder of web/ (`lib`), a file under web/ (`playground/app.js`)
// or `node:` (Node's built-in modules).
export function readRules(markdown) {
  const lines = markdown.split('\n');
  const head = lines.findIndex((l) => /^#+\s+Allowed imports \(web\)/.test(l));
  assert.ok(head >= 0, 'docs/ARCHITECTURE.md has a heading "Allowed imports (web)"');
  const open = lines.findIndex((l, i) => i > head && l.startsWith('```'));
  const close = lines.findIndex((l, i) => i > open && l.startsWith('```'));
  assert.ok(open > head && close > open, 'a fenced block follows the "Allowed imports (web)" heading');
  const rules = new Map(), line = new Map();
  for (let i = open + 1; i < close; ++i) {
    const text = lines[i].replace(/#.*/, '').trim();
    if (!text) continue;
    const m = /^([\w./-]+):\s*(.*)$/.exec(text);
    assert.ok(m, `docs/ARCHITECTURE.md:${i + 1}: expected "name: name name ...", got "${lines[i]}"`);
    assert.ok(!rules.has(m[1]), `docs/ARCHITECTURE.md:${i + 1}: ${m[1]} is listed twice`);
    rules.set(m[1], new Set(m[2].split(/\s+/).filter(Boolean)));
    line.set(m[1], i + 1);
  }
  return { rules, line };
}

// The rule a path falls under: the longest listed name that is the path or a folder holding it.
function ruleFor(rules, rel) {
  let best = null;
  for (const name of rules.keys()) {
    if ((rel === name || rel.startsWith(`${name}/`)) && (!best || name.length > best.length)) best = name;
  }
  return best;
}

const covers = (name, rel) => rel === name || rel.startsWith(`${name}/`) || (name === 'node:' && rel.startsWith('node:'));
const folderOf = (rel) => (rel.includes('/') ? rel.slice(0, rel.indexOf('/')) : rel);

// Each folder's layer: 0 for one that imports no other folder, else one above the highest it
// imports. Throws on a cycle (the block would not describe layers).
function layers(rules) {
  const folders = [...rules.keys()].filter((n) => !n.includes('/'));
  const depth = new Map();
  const visit = (f, stack) => {
    if (depth.has(f)) return depth.get(f);
    assert.ok(!stack.includes(f), `the allowed imports have a cycle: ${[...stack, f].join(' → ')}`);
    let d = 0;
    for (const to of rules.get(f)) if (folders.includes(to)) d = Math.max(d, visit(to, [...stack, f]) + 1);
    depth.set(f, d);
    return d;
  };
  for (const f of folders) visit(f, []);
  return depth;
}

// ---- the imports of a file ---------------------------------------------------------------------


// [{ line, specifier } | { line, computed: 'import()' | 'new URL()' }] of one module.
export function importsOf(src) {
  const tokens = tokenize(src);
  const out = [];
  const is = (t, type, value) => t && t.type === type && (value === undefined || t.value === value);
  const literal = (t) => t && (t.type === 'string' || t.type === 'template');
  const spec = (t) => ({ line: t.line, specifier: t.value, dynamic: t.type === 'template' && t.subst });
  for (let i = 0; i < tokens.length; ++i) {
    const t = tokens[i];
    if (is(t, 'name', 'import') && literal(tokens[i + 1]) && tokens[i + 1].type === 'string') out.push(spec(tokens[i + 1]));
    else if (is(t, 'name', 'from') && is(tokens[i + 1], 'string')) out.push(spec(tokens[i + 1]));
    else if (is(t, 'name', 'import') && is(tokens[i + 1], 'punct', '(')) {
      if (literal(tokens[i + 2]) && (is(tokens[i + 3], 'punct', ')') || is(tokens[i + 3], 'punct', ','))) out.push(spec(tokens[i + 2]));
      else out.push({ line: t.line, computed: 'import()' });
    } else if (is(t, 'name', 'new') && is(tokens[i + 1], 'name', 'URL') && is(tokens[i + 2], 'punct', '(')) {
      // The first argument's tokens, up to the comma at this level.
      let j = i + 3, depth = 0;
      const first = [];
      for (; j < tokens.length; ++j) {
        const u = tokens[j];
        if (u.type === 'punct' && '([{'.includes(u.value)) ++depth;
        if (u.type === 'punct' && ')]}'.includes(u.value)) {
          if (depth === 0) break;
          --depth;
        }
        if (depth === 0 && is(u, 'punct', ',')) break;
        first.push(u);
      }
      const meta = ['import', '.', 'meta', '.', 'url'];
      const relative = is(tokens[j], 'punct', ',') && meta.every((v, k) => tokens[j + 1 + k]?.value === v);
      if (!relative) continue;
      if (first.length === 1 && literal(first[0])) out.push(spec(first[0]));
      else out.push({ line: t.line, computed: 'new URL()' });
    }
  }
  return out;
}

// ---- the check ----------------------------------------------------------------------------------

function sources(dir) {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const full = path.join(dir, e.name);
    const rel = path.relative(web, full).split(path.sep).join('/');
    if (EXCLUDED.some((x) => `${rel}/`.startsWith(x))) return [];
    if (e.isDirectory()) return sources(full);
    return e.name.endsWith('.js') ? [rel] : [];
  });
}

// Every problem of the web side's imports against the rules, as "file:line: message".
export function check(rules, files, read) {
  const depth = layers(rules);
  const problems = [];
  for (const file of files) {
    const from = ruleFor(rules, file);
    if (!from) {
      problems.push(`web/${file}: its folder ${folderOf(file)} is not in docs/ARCHITECTURE.md's "Allowed imports (web)"`);
      continue;
    }
    const src = read(file);
    const lines = src.split('\n');
    for (const imp of importsOf(src)) {
      const where = `web/${file}:${imp.line}`;
      // The bundlers' own opt-out, written out for both: a deliberate run-time import that no
      // bundle should follow (engine.js's threaded glue, whose pthread workers must sit beside it).
      const optedOut = /@vite-ignore/.test(lines[imp.line - 1] ?? '') && /webpackIgnore: true/.test(lines[imp.line - 1] ?? '');
      if (imp.computed === 'import()' && optedOut) continue;
      if (imp.computed) {
        problems.push(`${where}: ${imp.computed} with a specifier computed at run time; write it literally (bundlers follow only literals)`);
        continue;
      }
      if (imp.dynamic) {
        // Vite turns a template into a glob, webpack 5 does not follow it at all: one literal each.
        problems.push(`${where}: '${imp.specifier}\${…}' splices a name into the specifier; write each one literally (webpack follows only literals)`);
        continue;
      }
      // A bundler resolves the literal as a module or an asset: a folder ('./', '.') is neither,
      // and Next.js's Turbopack fails the whole build on it ("Can't resolve './'").
      if (/(^|\/)\.{0,2}\/?$/.test(imp.specifier)) {
        problems.push(`${where}: '${imp.specifier}' names a folder; bundlers resolve only files (derive the folder from import.meta.url's text)`);
        continue;
      }
      let target;
      if (imp.specifier.startsWith('node:')) target = imp.specifier;
      else if (imp.specifier.startsWith('.')) {
        target = path.posix.normalize(path.posix.join(path.posix.dirname(file), imp.specifier)).replace(/\/$/, '');
        if (target.startsWith('..')) {
          problems.push(`${where}: '${imp.specifier}' points outside web/`);
          continue;
        }
      } else {
        problems.push(`${where}: bare specifier '${imp.specifier}' (the page loads no packages)`);
        continue;
      }
      if (EXCLUDED.some((x) => `${target}/`.startsWith(x)) && folderOf(target) === folderOf(file)) continue;  // lib → lib/wasm
      if (folderOf(target) === folderOf(file) && !target.startsWith('node:')) continue;  // within a folder
      const allowed = [...(rules.get(from) ?? [])].some((name) => covers(name, target))
        || (from !== folderOf(file) && [...(rules.get(folderOf(file)) ?? [])].some((name) => covers(name, target)));
      if (allowed) continue;
      const a = depth.get(folderOf(file)), b = depth.get(folderOf(target));
      const up = a !== undefined && b !== undefined && b > a;
      problems.push(`${where}: imports '${imp.specifier}' (${target}): ${up ? `an upward edge, ${folderOf(file)} (layer ${a}) below ${folderOf(target)} (layer ${b})` : `${from} → ${folderOf(target)} is not an allowed edge`}`);
    }
  }
  return problems;
}

const doc = readFileSync(path.join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');
const read = (rel) => readFileSync(path.join(web, rel), 'utf8');

test('every import in web/ follows the allowed directions of docs/ARCHITECTURE.md', () => {
  const { rules } = readRules(doc);
  const files = sources(web);
  assert.ok(files.length > 40, `found the web sources (${files.length})`);
  const problems = check(rules, files, read);
  assert.deepEqual(problems, [], `\n${problems.join('\n')}`);
});

test('the check finds the imports and fails on a bad edge, naming file and line', () => {
  const { rules } = readRules(doc);
  // What a component importing the playground's strings would look like, among the real cases.
  const src = [
    "// import { x } from '../playground/comment.js';",
    "import { VizElement } from './shared/viz-element.js';",
    "const re = /['\"`]/g, s = 'import(\"../nope.js\")';",
    "import { t } from '../playground/strings.js';",
    "const m = await import(`../widgets/${name}.js`);",
    "const u = new URL(x, import.meta.url);",
    "export { load } from '../lib/transformer-playground.js';",
  ].join('\n');
  assert.deepEqual(importsOf(src).map((i) => [i.line, i.specifier ?? i.computed]),
    [[2, './shared/viz-element.js'], [4, '../playground/strings.js'], [5, '../widgets/'], [6, 'new URL()'], [7, '../lib/transformer-playground.js']]);
  const problems = check(rules, ['components/tp-x.js'], () => src);
  assert.equal(problems.length, 3, problems.join('\n'));
  assert.match(problems[0], /^web\/components\/tp-x\.js:4: .*upward edge, components \(layer \d\) below playground/);
  assert.match(problems[1], /^web\/components\/tp-x\.js:5: .*widgets/);
  assert.match(problems[2], /^web\/components\/tp-x\.js:6: new URL\(\) with a specifier computed at run time/);
  // A computed import() passes only with both bundlers' opt-out comments on its line.
  const hidden = (comments) => `const m = await import(${comments} url);`;
  assert.deepEqual(check(rules, ['lib/x.js'], () => hidden('/* @vite-ignore */ /* webpackIgnore: true */')), []);
  assert.match(check(rules, ['lib/x.js'], () => hidden('/* @vite-ignore */'))[0], /import\(\) with a specifier computed at run time/);
  // A folder the block does not list.
  assert.match(check(rules, ['extras/x.js'], () => '')[0], /extras is not in/);
});

test('web/models/models.js names every shipped checkpoint with a literal URL, and nothing else', async () => {
  const files = readdirSync(path.join(web, 'models')).filter((f) => f.endsWith('.safetensors')).sort();
  const listed = importsOf(read('models/models.js')).map((i) => i.specifier).sort();
  assert.deepEqual(listed, files.map((f) => `./${f}`));
  const { SHIPPED_MODELS } = await import('../web/models/models.js');
  for (const [name, url] of Object.entries(SHIPPED_MODELS)) assert.ok(url.pathname.endsWith(`/${name}.safetensors`), `${name}: ${url}`);
});

// The architecture doc names files of the repository in backticks (`web/playground/app.js`,
// `src/model/attention_masks.h`, `wasm_tests/…`): each must exist, so the doc cannot go on
// describing a file after it is moved or gone. Names with a placeholder (<name>, NAME, *) are
// patterns, not files; build outputs (what .gitignore leaves out, e.g. web/lib/wasm/) need not
// exist before a build.
test('every file docs/ARCHITECTURE.md names exists', () => {
  const doc = readFileSync(path.join(root, 'docs', 'ARCHITECTURE.md'), 'utf8');
  const named = [...new Set([...doc.matchAll(/`((?:web|src|wasm_tests|native_tests|scripts|cmake|fuzz)\/[\w./-]+)`/g)].map((m) => m[1]))]
    .filter((p) => !/[<>*]|NAME/.test(p));
  assert.ok(named.length > 60, `the doc names ${named.length} files`);
  const ignored = (p) => spawnSync('git', ['check-ignore', '-q', p], { cwd: root }).status === 0;
  assert.deepEqual(named.filter((p) => !existsSync(path.join(root, p.replace(/\/$/, ''))) && !ignored(p)), []);
});
