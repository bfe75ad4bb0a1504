// api_docs.mjs — docs/API.md's reference tables, made from the API's declarations (which
// api_types.mjs emits from the JSDoc of web/lib): each table between
//   <!-- api table: NAME -->  and  <!-- end of api table -->
// lists the members of NAME (a class, a type, or `tp`, what load() resolves to) with their types
// and the first part of their JSDoc. The prose around the tables stays hand-written. A member
// whose doc is empty has no line; inherited members (dispose, disposed) are listed as in the
// class. scripts/generate.mjs writes the tables; a stale one fails its --check.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
export const API_DOC = path.join(root, 'docs', 'API.md');
const OPEN = /<!-- api table: ([\w.]+) -->\n[\s\S]*?<!-- end of api table -->/g;

// The text between the brace at `start` and its match.
function body(text, start) {
  let depth = 0;
  for (let i = start; i < text.length; ++i) {
    if (text[i] === '{') ++depth;
    else if (text[i] === '}' && --depth === 0) return text.slice(start + 1, i);
  }
  throw new Error('api_docs.mjs: unbalanced braces in the declarations');
}

// The block of declaration `name` in the declaration files: a class's or type's body, or `tp`
// (the object load() resolves to: makeApi's return type).
function blockOf(decls, name) {
  const all = Object.values(decls).join('\n');
  const patterns = name === 'tp' ? [/declare function makeApi\([^)]*\): Readonly<\{/]
    : [new RegExp(`(?:export )?declare class ${name}\\b[^{]*\\{`), new RegExp(`export type ${name} = \\{`)];
  for (const re of patterns) {
    const m = re.exec(all);
    if (m) return { text: body(all, m.index + m[0].length - 1), base: /extends (\w+)/.exec(m[0])?.[1] ?? null, all };
  }
  throw new Error(`api_docs.mjs: docs/API.md has a table of ${name}, which the declarations do not declare`);
}

// The JSDoc's description: its text before the first tag, on one line.
function description(doc) {
  const text = doc.replace(/^\/\*\*|\*\/$/g, '').split('\n').map((l) => l.replace(/^\s*\* ?/, '')).join(' ');
  return text.split(/(?:^|\s)@\w+/)[0].replace(/\s+/g, ' ').trim();
}

// [{ doc, decl }] of the members of a block at its top level.
function members(text) {
  const out = [];
  let i = 0, doc = '';
  while (i < text.length) {
    const rest = text.slice(i);
    const ws = /^\s+/.exec(rest);
    if (ws) {
      i += ws[0].length;
      continue;
    }
    if (rest.startsWith('/**')) {
      const end = rest.indexOf('*/') + 2;
      doc = rest.slice(0, end);
      i += end;
      continue;
    }
    // A declaration runs to the `;` at depth 0.
    let depth = 0, j = 0;
    for (; j < rest.length; ++j) {
      const c = rest[j];
      if ('({[<'.includes(c)) ++depth;
      else if (')}]>'.includes(c) && !(c === '>' && rest[j - 1] === '=')) --depth;
      else if (c === ';' && depth === 0) break;
    }
    out.push({ doc, decl: rest.slice(0, j).replace(/\s+/g, ' ').trim() });
    doc = '';
    i += j + 1;
  }
  return out;
}

const code = (s) => `\`${s.replace(/\|/g, '\\|')}\``;

// A parameter list split at its top-level commas.
function topLevel(list) {
  const out = [];
  let depth = 0, start = 0;
  for (let i = 0; i <= list.length; ++i) {
    const c = list[i];
    if (c === undefined || (c === ',' && depth === 0)) {
      if (list.slice(start, i).trim()) out.push(list.slice(start, i).trim());
      start = i + 1;
    } else if ('({[<'.includes(c)) ++depth;
    else if (')}]>'.includes(c)) --depth;
  }
  return out;
}

// One table line of a member, or null for what a table does not list.
function row({ doc, decl }, owner) {
  if (!doc || decl.startsWith('#') || decl.startsWith('[') || /^(private |protected )?constructor\b/.test(decl) || decl.startsWith('private ')) return null;
  const text = description(doc).replace(/\|/g, '\\|');
  if (!text) return null;
  const getter = /^get (\w+)\(\): (.+)$/.exec(decl);
  if (getter) return `| ${code(getter[1])} | ${code(getter[2])} | ${text} |`;
  const method = /^(static )?(\w+)(?:<[^(]*>)?\(([^)]*)\): (.+)$/.exec(decl);
  if (method) {
    const params = topLevel(method[3]).map((p) => (p.startsWith('{') ? `options${/}\?:/.test(p) ? '?' : ''}` : p.replace(/^(\w+)(\?)?:.*$/, '$1$2'))).join(', ');
    return `| ${code(`${method[1] ? `${owner}.` : ''}${method[2]}(${params})`)} | ${code(method[4])} | ${text} |`;
  }
  const prop = /^(?:readonly )?(\w+)(\?)?: (.+)$/.exec(decl);
  if (prop) return `| ${code(prop[1] + (prop[2] ?? ''))} | ${code(prop[3])} | ${text} |`;
  throw new Error(`api_docs.mjs: cannot read the declaration "${decl}"`);
}

// The table of `name`: its members (a class's own, then those of the class it extends).
export function table(decls, name) {
  const lines = ['| member | type | |', '| --- | --- | --- |'];
  let block = blockOf(decls, name);
  for (;;) {
    for (const m of members(block.text)) {
      const r = row(m, name);
      if (r && !lines.includes(r)) lines.push(r);
    }
    // A base the declarations hold (not EventTarget's, the DOM's).
    if (!block.base || !new RegExp(`declare class ${block.base}\\b`).test(block.all)) break;
    block = blockOf(decls, block.base);
  }
  return lines.join('\n');
}

// docs/API.md with every table made again from `decls` ({ file: declaration text }).
export function apiDoc(decls, text = readFileSync(API_DOC, 'utf8')) {
  return text.replace(OPEN, (_, name) => `<!-- api table: ${name} -->\n${table(decls, name)}\n<!-- end of api table -->`);
}
