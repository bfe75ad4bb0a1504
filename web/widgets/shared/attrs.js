// attrs.js — reading widget attributes with validation. Every reader returns the default when
// the attribute is absent and throws an AttrError with a message that names the attribute, what
// it got and what is allowed when it is invalid; the widget shows that message inline.
//
//   const kind = choice(el, 'kind', ['char', 'word', 'bpe', 'byte'], 'char');
//   // kind="foo" -> AttrError: kind must be char, word, bpe or byte (got "foo")

export class AttrError extends Error {}

export function list(values, word = 'or') {
  const v = values.map(String);
  return v.length <= 1 ? v.join('') : `${v.slice(0, -1).join(', ')} ${word} ${v.at(-1)}`;
}

function got(value) {
  return ` (got "${String(value).slice(0, 60)}")`;
}

export function text(el, name, fallback = '') {
  const v = el.getAttribute(name);
  return v === null ? fallback : v;
}

export function choice(el, name, values, fallback) {
  const v = el.getAttribute(name);
  if (v === null || v === '') return fallback;
  const key = v.trim().toLowerCase();
  if (!values.includes(key)) throw new AttrError(`${name} must be ${list(values)}${got(v)}`);
  return key;
}

export function int(el, name, { min = -Infinity, max = Infinity, fallback } = {}) {
  const v = el.getAttribute(name);
  if (v === null || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isInteger(n) || n < min || n > max) {
    const range = Number.isFinite(min) && Number.isFinite(max) ? `from ${min} to ${max}` : Number.isFinite(min) ? `>= ${min}` : `<= ${max}`;
    throw new AttrError(`${name} must be a whole number ${range}${got(v)}`);
  }
  return n;
}

export function num(el, name, { min = -Infinity, max = Infinity, fallback, exclusiveMin = false } = {}) {
  const v = el.getAttribute(name);
  if (v === null || v.trim() === '') return fallback;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max || (exclusiveMin && n === min)) {
    throw new AttrError(`${name} must be a number ${exclusiveMin ? 'above' : 'from'} ${min}${Number.isFinite(max) ? ` ${exclusiveMin ? 'and at most' : 'to'} ${max}` : ''}${got(v)}`);
  }
  return n;
}

// A boolean attribute: present (any value but "false") means true.
export function flag(el, name) {
  const v = el.getAttribute(name);
  return v !== null && v.toLowerCase() !== 'false';
}

// A comma- or space-separated list of names from `values`.
export function names(el, name, values) {
  const v = el.getAttribute(name);
  if (v === null) return null;
  const out = v.split(/[\s,]+/).map((s) => s.trim().toLowerCase()).filter(Boolean);
  const bad = out.filter((s) => !values.includes(s));
  if (bad.length) throw new AttrError(`${name}: unknown ${bad.length > 1 ? 'names' : 'name'} ${list(bad.map((b) => `"${b}"`), 'and')}; allowed: ${values.join(', ')}`);
  return out;
}
