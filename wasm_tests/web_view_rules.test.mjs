// node:test — the views take the core's rules instead of writing them again: no file of
// web/playground, web/components or web/widgets (but the string tables) names a special token
// ('<PAD>', '<CLS>', …: their ids and texts are the tokenizer's, `tokenizer.specials`) or compares
// a token id with a number (`id: 4`, `id !== 1`). Code only: comments and the text of template
// literals are not read (js_tokens.mjs), and every string table is left out, where the words
// <EOS> and <PAD> are prose.
import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { root } from '../scripts/build.mjs';
import { tokenize } from './js_tokens.mjs';

const SPECIAL = /^<(SOS|EOS|PAD|UNK|CLS|MASK)>$/;
const COMPARE = new Set([':', '===', '!==', '==', '!=']);
const STRING_TABLES = /(^|\/)strings(\/|\.js$)/;

function files(d) {
  return readdirSync(d, { withFileTypes: true }).flatMap((e) => (e.isDirectory() ? files(path.join(d, e.name)) : e.name.endsWith('.js') ? [path.join(d, e.name)] : []));
}

// ["file:line what"] of one module's source.
export function ruleProblems(src, rel) {
  const tokens = tokenize(src);
  const out = [];
  tokens.forEach((t, i) => {
    if ((t.type === 'string' || (t.type === 'template' && !t.subst)) && SPECIAL.test(t.value)) out.push(`${rel}:${t.line} names the special token '${t.value}'`);
    const next = tokens[i + 1], after = tokens[i + 2];
    if (t.type === 'name' && /^(id|ids?\w*Id|\w+Id)$/.test(t.value) && next?.type === 'punct' && COMPARE.has(next.value) && after?.type === 'number') {
      out.push(`${rel}:${t.line} gives a token id as a number (${t.value} ${next.value} …)`);
    }
  });
  return out;
}

test('no view names a special token or a numeric token id', () => {
  const problems = [];
  let read = 0;
  for (const folder of ['playground', 'components', 'widgets']) {
    for (const file of files(path.join(root, 'web', folder))) {
      const rel = path.relative(path.join(root, 'web'), file);
      if (STRING_TABLES.test(rel)) continue;
      problems.push(...ruleProblems(readFileSync(file, 'utf8'), rel));
      read += 1;
    }
  }
  assert.ok(read > 50, `read ${read} files`);
  assert.deepEqual(problems, []);
});

test('the check finds what the views once wrote', () => {
  const found = ruleProblems([
    "list.unshift({ id: 4, text: '<CLS>', span: null });",
    "const rows = [...rowTokens, '<PAD>', '<PAD>'];",
    'const ids = r.ids.filter((id) => id !== 1);',
    '// a comment about <PAD> and id: 3 is prose',
    'const label = `the <EOS> of ${name}`;',
    'const fine = { id: cls, text: vocab[cls] };',
  ].join('\n'), 'x.js');
  assert.deepEqual(found, [
    'x.js:1 gives a token id as a number (id : …)', "x.js:1 names the special token '<CLS>'",
    "x.js:2 names the special token '<PAD>'", "x.js:2 names the special token '<PAD>'",
    'x.js:3 gives a token id as a number (id !== …)',
  ]);
});
