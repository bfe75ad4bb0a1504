// js_tokens.mjs — a small tokenizer of JavaScript modules for the source tests (the web layers'
// imports, the playground's function sizes): strings, template literals, regular expressions,
// names and punctuation with their lines, comments dropped. Not a parser: enough to tell code
// from text.

// Tokens of a JS module: strings, template literals (with their text before the first ${),
// regular expressions, names and punctuation, each with its line; comments are dropped.
export function tokenize(src) {
  const tokens = [];
  const lineAt = (() => {
    const starts = [0];
    for (let i = 0; i < src.length; ++i) if (src[i] === '\n') starts.push(i + 1);
    return (pos) => {
      let lo = 0, hi = starts.length - 1;
      while (lo < hi) {
        const mid = (lo + hi + 1) >> 1;
        if (starts[mid] <= pos) lo = mid;
        else hi = mid - 1;
      }
      return lo + 1;
    };
  })();
  const VALUE_KEYWORDS = new Set(['this', 'super', 'null', 'true', 'false', 'undefined']);
  const regexAllowed = () => {
    const prev = tokens.at(-1);
    if (!prev) return true;
    if (prev.type === 'name') return !VALUE_KEYWORDS.has(prev.value) && /^(return|typeof|instanceof|in|of|new|delete|void|throw|case|do|else|yield|await)$/.test(prev.value);
    if (prev.type === 'punct') return !/^[)\]}]$/.test(prev.value);
    return false;
  };
  // Lexes from i; in a template's ${…} stops at the unmatched }. Returns the end index.
  const lex = (i, inTemplate) => {
    let depth = 0;
    while (i < src.length) {
      const c = src[i];
      if (/\s/.test(c)) {
        ++i;
      } else if (c === '/' && src[i + 1] === '/') {
        while (i < src.length && src[i] !== '\n') ++i;
      } else if (c === '/' && src[i + 1] === '*') {
        const end = src.indexOf('*/', i + 2);
        i = end < 0 ? src.length : end + 2;
      } else if (c === '"' || c === "'") {
        let j = i + 1, value = '';
        while (j < src.length && src[j] !== c) {
          if (src[j] === '\\') value += src[++j];
          else value += src[j];
          ++j;
        }
        tokens.push({ type: 'string', value, line: lineAt(i) });
        i = j + 1;
      } else if (c === '`') {
        const start = i;
        let j = i + 1, head = '', subst = false;
        while (j < src.length && src[j] !== '`') {
          if (src[j] === '\\') {
            if (!subst) head += src[j + 1];
            j += 2;
          } else if (src[j] === '$' && src[j + 1] === '{') {
            subst = true;
            const saved = tokens.length;
            j = lex(j + 2, true);
            tokens.length = saved;  // what is inside ${…} is not an import specifier
          } else {
            if (!subst) head += src[j];
            ++j;
          }
        }
        tokens.push({ type: 'template', value: head, subst, line: lineAt(start) });
        i = j + 1;
      } else if (c === '/' && regexAllowed()) {
        let j = i + 1, cls = false;
        while (j < src.length && (cls || src[j] !== '/')) {
          if (src[j] === '\\') ++j;
          else if (src[j] === '[') cls = true;
          else if (src[j] === ']') cls = false;
          ++j;
        }
        ++j;
        while (/[a-z]/i.test(src[j] ?? '')) ++j;
        tokens.push({ type: 'regex', line: lineAt(i) });
        i = j;
      } else if (/[A-Za-z_$]/.test(c)) {
        let j = i;
        while (/[\w$]/.test(src[j] ?? '')) ++j;
        tokens.push({ type: 'name', value: src.slice(i, j), line: lineAt(i) });
        i = j;
      } else if (/[0-9]/.test(c)) {
        let j = i;
        while (/[\w.]/.test(src[j] ?? '')) ++j;
        tokens.push({ type: 'number', line: lineAt(i) });
        i = j;
      } else {
        if (c === '{') ++depth;
        if (c === '}') {
          if (inTemplate && depth === 0) return i + 1;
          --depth;
        }
        const three = src.slice(i, i + 3), two = src.slice(i, i + 2);
        const op = ['...', '===', '!==', '**=', '>>>', '&&=', '||=', '??='].includes(three) ? three
          : ['=>', '==', '!=', '<=', '>=', '&&', '||', '??', '?.', '++', '--', '+=', '-=', '*=', '/=', '**', '<<', '>>'].includes(two) ? two : c;
        tokens.push({ type: 'punct', value: op, line: lineAt(i) });
        i += op.length;
      }
    }
    return i;
  };
  lex(0, false);
  return tokens;
}
