// Finds assertions on elapsed time in test sources: an assert / REQUIRE / CHECK whose argument
// holds a time the test measured itself (performance.now(), Date.now(), process.hrtime,
// std::chrono clocks, or a value computed from one). Such a check tests the machine: on a loaded
// one the same code passes or fails by how busy it is. Intervals the product promises are
// asserted on the product's own clock instead (the training worker stamps each event it sends
// with its performance.now(): `workerTime`), and speed is measured by `npm run bench`.
//
//   scanSources([{ file, text }])  →  [{ file, line, term, source }]
// `file` decides the language: .mjs/.js/.ts (JavaScript), .html (its <script> blocks),
// .cpp/.h (C++). The scan is a taint pass over each file's code with strings, comments and
// regular expressions blanked out: a name assigned (or pushed) from a clock read or from another
// timed name is timed in its file — in JavaScript, in the block its const/let/var declares it in
// (two tests' `end`s are two names), and an object key given a timed value (`minGap: Math.min(...gaps)`)
// is timed everywhere, so `r.minGap` in the test that reads a page's result is caught. A wait's
// deadline (`if (Date.now() > end) throw new Error('waited ...')`) is not an assertion: it
// ends a hang with what was awaited, and is left alone.
const JS_CLOCK = /\bperformance\s*\.\s*now\s*\(|\bDate\s*\.\s*now\s*\(|\bprocess\s*\.\s*hrtime\b|\bnew\s+Date\s*\(\s*\)|\.getTime\s*\(\s*\)/;
const CPP_CLOCK = /\bstd\s*::\s*chrono\b|\b(?:steady|system|high_resolution)_clock\b|\bclock_gettime\s*\(|\bgettimeofday\s*\(|\bclock\s*\(\s*\)/;
const JS_ASSERT = /\b(?:assert(?:\s*\.\s*\w+)?|expect)\s*\(/g;
const CPP_ASSERT = /\b(?:REQUIRE|CHECK|REQUIRE_FALSE|CHECK_FALSE|REQUIRE_THAT|CHECK_THAT|CHECKED_IF|CHECKED_ELSE|STATIC_REQUIRE)\s*\(/g;
const IDENT = /[A-Za-z_$][\w$]*/y;

export function languageOf(file) {
  if (/\.(mjs|cjs|js|ts)$/.test(file)) return 'js';
  if (/\.html?$/.test(file)) return 'html';
  if (/\.(cpp|cc|h|hpp)$/.test(file)) return 'cpp';
  return null;
}

// The text with every string, comment and regular expression literal replaced by spaces (line
// breaks kept, so offsets and line numbers stay). Template literals keep their ${...} parts.
export function blank(text, lang) {
  const out = new Uint16Array(text.length);
  for (let k = 0; k < text.length; ++k) out[k] = text.charCodeAt(k);
  const wipe = (from, to) => {
    for (let k = from; k < to && k < out.length; ++k) if (out[k] !== 10) out[k] = 32;
  };
  let i = 0;
  let lastSignificant = '';  // the last non-space character outside literals (regex or divide?)
  const n = text.length;
  const templateStack = [];  // brace depth at which each open ${ returns to its template
  let depth = 0;
  const readTemplate = (start) => {  // from after the opening ` (or the } closing a ${): to the end or a ${
    let j = start;
    while (j < n && text[j] !== '`') {
      if (text[j] === '\\') j += 2;
      else if (text[j] === '$' && text[j + 1] === '{') {
        wipe(start, j);
        templateStack.push(depth);
        depth += 1;
        return j + 2;
      } else j += 1;
    }
    wipe(start, j);
    return j + 1;
  };
  while (i < n) {
    const c = text[i], d = text[i + 1];
    if (c === '/' && d === '/') {
      const end = text.indexOf('\n', i);
      const stop = end < 0 ? n : end;
      wipe(i, stop);
      i = stop;
    } else if (c === '/' && d === '*') {
      const end = text.indexOf('*/', i + 2);
      const stop = end < 0 ? n : end + 2;
      wipe(i, stop);
      i = stop;
    } else if (lang === 'cpp' && c === 'R' && d === '"' && !/[\w$]/.test(text[i - 1] ?? '')) {
      const open = text.indexOf('(', i + 2);
      const delim = text.slice(i + 2, open);
      const end = text.indexOf(`)${delim}"`, open);
      const stop = end < 0 ? n : end + delim.length + 2;
      wipe(i + 1, stop);
      i = stop;
      lastSignificant = '"';
    } else if (c === '"' || c === "'" || (c === '`' && lang !== 'cpp')) {
      if (c === '`') {
        i = readTemplate(i + 1);
      } else {
        let j = i + 1;
        while (j < n && text[j] !== c && text[j] !== '\n') j += text[j] === '\\' ? 2 : 1;
        wipe(i + 1, j);
        i = j + 1;
      }
      lastSignificant = c;
    } else if (c === '/' && lang !== 'cpp' && (lastSignificant === '' || /[(,=:[!&|?{};+\-*%<>~^]/.test(lastSignificant) || /\b(?:return|typeof|case|of|in)\s*$/.test(text.slice(Math.max(0, i - 8), i)))) {
      // A regular expression literal.
      let j = i + 1, inClass = false;
      while (j < n && text[j] !== '\n') {
        if (text[j] === '\\') j += 2;
        else if (text[j] === '[') inClass = true, j += 1;
        else if (text[j] === ']') inClass = false, j += 1;
        else if (text[j] === '/' && !inClass) break;
        else j += 1;
      }
      wipe(i + 1, j);
      i = j + 1;
      while (i < n && /[a-z]/.test(text[i])) i += 1;
      lastSignificant = '/';
    } else {
      if (c === '{') depth += 1;
      if (c === '}') {
        depth -= 1;
        if (templateStack.length && templateStack.at(-1) === depth) {
          templateStack.pop();
          i = readTemplate(i + 1);
          lastSignificant = '`';
          continue;
        }
      }
      if (!/\s/.test(c)) lastSignificant = c;
      i += 1;
    }
  }
  let result = '';
  for (let k = 0; k < out.length; k += 8192) result += String.fromCharCode(...out.subarray(k, k + 8192));
  return result;
}

// An HTML file's code: its <script> blocks, everything else blanked.
function htmlCode(text) {
  let code = text.replace(/[^\n]/g, ' ');
  for (const m of text.matchAll(/(<script\b[^>]*>)([\s\S]*?)<\/script>/gi)) {
    const start = m.index + m[1].length;
    code = code.slice(0, start) + m[2] + code.slice(start + m[2].length);
  }
  return code;
}

// From `open` (the index of an opening bracket), the index just past its matching close. The
// matches of a text are found once, in one pass, and kept for the text.
const matches = new Map();
function closing(code, open) {
  let table = matches.get(code);
  if (!table) {
    table = new Int32Array(code.length).fill(code.length);
    const stack = [];
    for (let i = 0; i < code.length; ++i) {
      const c = code[i];
      if (c === '(' || c === '[' || c === '{') stack.push(i);
      else if ((c === ')' || c === ']' || c === '}') && stack.length) table[stack.pop()] = i + 1;
    }
    if (matches.size > 64) matches.clear();
    matches.set(code, table);
  }
  return table[open];
}

// The expression that starts at `from`: up to a `;`, or a `,` / closing bracket at its own
// depth, or a line end at depth 0 where the line does not go on (an operator at its end).
function expressionAt(code, from) {
  let depth = 0;
  for (let i = from; i < code.length; ++i) {
    const c = code[i];
    if (c === '(' || c === '[' || c === '{') {
      i = closing(code, i) - 1;  // a bracketed part as a whole
    } else if (c === ')' || c === ']' || c === '}') {
      return i;
    } else if (depth === 0 && (c === ';' || c === ',')) return i;
    else if (c === '\n' && !/[=+\-*/%&|?:,(]\s*$/.test(code.slice(Math.max(from, i - 40), i)) && !/^\s*[.?:+\-*/%&|]/.test(code.slice(i + 1, i + 80))) {
      return i;
    }
  }
  return code.length;
}

// code[from, to) with the bodies of the functions in it taken out: a function that reads the
// clock is not itself a time (`page.evaluate(() => { ... })` returns what the page returns).
function withoutFunctions(code, from, to) {
  const re = /=>\s*\{|\bfunction\b[^{;]*\{|\)\s*\{/g;
  re.lastIndex = from;
  let out = '', at = from;
  for (let m; (m = re.exec(code)) && m.index < to; ) {
    const open = m.index + m[0].length - 1;
    const end = Math.min(to, closing(code, open));
    out += code.slice(at, m.index);
    at = end;
    re.lastIndex = end;
  }
  return out + code.slice(at, to);
}

const lineOf = (text, index) => text.slice(0, index).split('\n').length;

// For each index of the code, the index of the innermost `{` around it (-1: none).
function innermostBlocks(code) {
  const at = new Int32Array(code.length + 1).fill(-1);
  const stack = [];
  for (let i = 0; i < code.length; ++i) {
    at[i] = stack.length ? stack.at(-1) : -1;
    if (code[i] === '{') stack.push(i);
    else if (code[i] === '}' && stack.length) stack.pop();
  }
  return at;
}

// JavaScript's const/let/var declarations, so that a name is resolved to the binding it means at
// a place: `name@<block>` for a declared one, the bare name for the rest (and in C++).
function bindings(code, lang) {
  if (lang === 'cpp') return () => (name) => name;
  const blockAt = innermostBlocks(code);
  const decls = new Map();  // name -> [scope (index of its block's {, or -1)]
  for (const m of code.matchAll(/\b(?:const|let|var)\s+([A-Za-z_$][\w$]*)\s*=(?![=>])/g)) {
    const scope = blockAt[m.index];
    if (!decls.has(m[1])) decls.set(m[1], []);
    decls.get(m[1]).push(scope);
  }
  const contains = (scope, pos) => scope === -1 || (scope < pos && closing(code, scope) > pos);
  return (pos) => (name) => {
    let best = null;
    for (const scope of decls.get(name) ?? []) if (contains(scope, pos) && (best === null || scope > best)) best = scope;
    return best === null ? name : `${name}@${best}`;
  };
}

function prepared({ file, text }) {
  const lang = languageOf(file);
  if (!lang) return null;
  const code = lang === 'html' ? blank(htmlCode(text), 'js') : blank(text, lang);
  const clock = lang === 'cpp' ? CPP_CLOCK : JS_CLOCK;
  const asserts = [];
  for (const m of code.matchAll(lang === 'cpp' ? CPP_ASSERT : JS_ASSERT)) {
    const open = m.index + m[0].length - 1;
    asserts.push({ index: m.index, end: closing(code, open), args: withoutFunctions(code, open, closing(code, open)) });
  }
  const asserted = new Uint8Array(code.length + 1);
  for (const a of asserts) asserted.fill(1, a.index + 1, a.end);
  const inAssert = (i) => asserted[i] === 1;
  const resolverAt = bindings(code, lang);
  // Every place a name receives a value: `name = expr`, `name += expr`, `name: expr` (a key),
  // `name.push(expr)`, C++ `type name = expr` / `type name{expr}` / `type name(expr)`.
  const flows = [];
  for (const m of code.matchAll(/([A-Za-z_$][\w$]*)\s*(\+=|-=|=(?![=>])|:(?!:))/g)) {
    const before = code.slice(Math.max(0, m.index - 40), m.index);
    // A key is `{ name:` or `, name:` (not `a ? name : b`, not a C++ `case`/label/access).
    if (m[2] === ':' && (lang === 'cpp' || !/(?:^|[{,])\s*$/.test(before))) continue;
    const isKey = m[2] === ':' || /\.\s*$/.test(before);
    if (inAssert(m.index)) continue;  // an expected value, not a measured one
    const start = m.index + m[0].length;
    const resolve = resolverAt(m.index);
    flows.push({ name: isKey ? m[1] : resolve(m[1]), key: isKey, resolve, expr: withoutFunctions(code, start, expressionAt(code, start)) });
  }
  // Shorthand keys: `{ missingMs }` gives the key the name's value (a template's `${name}` is no key).
  if (lang !== 'cpp') {
    for (const m of code.matchAll(/(?:(?<!\$)\{|,)\s*([A-Za-z_$][\w$]*)(?=\s*[,}])/g)) {
      if (!inAssert(m.index)) flows.push({ name: m[1], key: true, resolve: resolverAt(m.index), expr: m[1] });
    }
  }
  for (const m of code.matchAll(/([A-Za-z_$][\w$]*)\s*\.\s*(?:push|unshift)\s*\(/g)) {
    const open = m.index + m[0].length - 1;
    const resolve = resolverAt(m.index);
    flows.push({ name: resolve(m[1]), key: false, resolve, expr: withoutFunctions(code, open, closing(code, open)) });
  }
  if (lang === 'cpp') {
    for (const m of code.matchAll(/\b([A-Za-z_]\w*)\s*([({])/g)) {
      const open = m.index + m[0].length - 1;
      flows.push({ name: m[1], key: false, resolve: (n) => n, expr: withoutFunctions(code, open, closing(code, open)) });
    }
  }
  for (const a of asserts) a.resolve = resolverAt(a.index);
  return { file, text, lang, clock, flows, asserts };
}

// The names an expression reads: bare ones and keys after a dot. How many times were taken
// (`times.length`) is a count, not a time, so a name followed by .length or .size is not read.
function reads(expr) {
  const bare = [], member = [];
  for (const m of expr.replace(/\.\.\./g, '   ').matchAll(/(\.\s*)?([A-Za-z_$][\w$]*)(?!\s*\.\s*(?:length|size)\b)/g)) (m[1] ? member : bare).push(m[2]);
  return { bare, member };
}

// The first timed name read (bare names resolved to their bindings where they are read), or null.
const timedRead = ({ bare, member }, names, keys, resolve) => bare.find((n) => names.has(resolve(n))) ?? member.find((n) => keys.has(n)) ?? null;

// Findings over a set of sources, each { file, line, term, source }.
export function scanSources(sources) {
  const files = sources.map(prepared).filter(Boolean);
  // Keys are shared by the files of one language (a page's result read by its test).
  const keysOf = { js: new Set(), cpp: new Set() };
  const names = new Map(files.map((f) => [f.file, new Set()]));
  for (let changed = true; changed; ) {
    changed = false;
    for (const f of files) {
      const own = names.get(f.file), keys = keysOf[f.lang === 'cpp' ? 'cpp' : 'js'];
      for (const flow of f.flows) {
        const { name, key } = flow;
        if (flow.clock === undefined) {
          // A function is not a value, and an object's keys are timed one by one.
          flow.skip = /^\s*(?:async\b|function\b|\{|\(?[\w$,\s{}[\]=]*\)?\s*=>)/.test(flow.expr);
          flow.clock = f.clock.test(flow.expr);
          flow.reads = reads(flow.expr);
        }
        if (flow.skip) continue;
        const timed = flow.clock || timedRead(flow.reads, own, keys, flow.resolve);
        if (!timed) continue;
        const set = key ? keys : own;
        if (!set.has(name)) {
          set.add(name);
          changed = true;
        }
      }
    }
  }
  const findings = [];
  for (const f of files) {
    const own = names.get(f.file), keys = keysOf[f.lang === 'cpp' ? 'cpp' : 'js'];
    for (const { index, args, resolve } of f.asserts) {
      const clock = f.clock.exec(args);
      const term = clock ? clock[0].replace(/\s+/g, '').replace(/\($/, '()') : timedRead(reads(args), own, keys, resolve);
      if (!term) continue;
      const line = lineOf(f.text, index);
      findings.push({ file: f.file, line, term, source: f.text.split('\n')[line - 1].trim() });
    }
  }
  return findings;
}

export const describe = ({ file, line, term, source }) => `${file}:${line}: an assertion on elapsed time (${term}): ${source}`;
