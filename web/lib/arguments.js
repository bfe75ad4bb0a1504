// arguments.js — what the public API does to every argument before it enters the wasm module.
//
// - Copies: ids, pairs and checkpoint bytes are read here, once, into fresh arrays the caller
//   never sees. C++ then reads only those, so no getter, Proxy or typed-array subclass of the
//   caller's runs inside a C++ call, where a JS exception would skip the C++ destructors and leak
//   wasm memory (it did: 16 to 1,544 bytes per call).
// - Strings are made well-formed UTF-16 (each lone surrogate becomes U+FFFD, as TextEncoder does).
//   Emscripten's UTF-8 conversion would otherwise pair a lone surrogate with the next character
//   and drop that one ('ab\uD800cd' arrived as 'ab\u{10063}d'). The replacement keeps the
//   string's length, so spans computed on the well-formed string index the caller's string.
// - Objects of options must be plain objects ({...} or Object.create(null)), and only their own
//   keys count: a Map or a class instance is refused, and a key inherited from a prototype
//   (toString, constructor, or anything added to Object.prototype) is never read as an option.
// - Whole numbers are checked here where the API knows the range; where only the core knows it,
//   the binding takes the number as a double and narrows it after checking (bindings/convert.h),
//   so nothing wraps at 2**31.

export const INT32_MAX = 0x7fffffff;

// A short description of a bad argument for error messages: its value when short, else its type.
export function describe(value) {
  if (value === null) return 'null';
  if (value === undefined) return 'undefined';
  if (Array.isArray(value)) return 'an array';
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'string') return `the string '${value.slice(0, 40)}'`;
  if (typeof value === 'object') {
    let name;
    try {
      name = Object.getPrototypeOf(value) === null ? null : value.constructor?.name;
    } catch {
      name = null;  // a Proxy whose traps throw
    }
    if (!name || name === 'Object') return 'an object';
    const article = /^[AEIO]/.test(name) ? 'an' : 'a';  // a Uint8Array, an Int8Array
    // A Proxy around a typed array (or an object made from its prototype) has its name but none
    // of its bytes; say so, or "must be an Int32Array, got an Int32Array" would contradict itself.
    if (typedArrayPrototype.isPrototypeOf(value) && typedKind(value) === undefined) {
      return `${article} ${name} look-alike (a Proxy or an object made from its prototype, not the array itself)`;
    }
    return `${article} ${name}`;
  }
  return typeof value;
}

// {...} or Object.create(null): not an array, a typed array, a Map, a Date or a class instance.
export function isPlainObject(value) {
  if (value === null || typeof value !== 'object') return false;
  const proto = Object.getPrototypeOf(value);
  return proto === Object.prototype || proto === null;
}

// Refuses a Symbol key in an object of options (Object.keys skips them, so it would otherwise be
// ignored without a word): "<what> key Symbol(lr) is a Symbol; keys are strings; allowed: …".
export function refuseSymbolKeys(object, what, allowed) {
  const symbol = Object.getOwnPropertySymbols(object)[0];
  if (symbol === undefined) return;
  throw new Error(`${what} key ${String(symbol)} is a Symbol, not a string; the keys allowed are ${allowed.join(', ')}`);
}

// The caller's own value of `key` (undefined when `object` only inherits it).
export function ownValue(object, key) {
  return Object.hasOwn(object, key) ? object[key] : undefined;
}

const LONE_OR_PAIRED = /[\uD800-\uDBFF][\uDC00-\uDFFF]|[\uD800-\uDFFF]/g;

// `text` as well-formed UTF-16: each lone surrogate replaced by U+FFFD, length unchanged.
export function wellFormed(text) {
  if (typeof text.toWellFormed === 'function') return text.toWellFormed();
  return text.replace(LONE_OR_PAIRED, (m) => (m.length === 2 ? m : '\uFFFD'));
}

// A whole number in [min, max], for an argument whose range the API knows.
export function checkWhole(value, what, min = 0, max = INT32_MAX) {
  if (!Number.isInteger(value) || value < min || value > max) {
    const range = max === INT32_MAX ? `>= ${min}` : `from ${min} to ${max}`;
    throw new Error(`${what} must be a whole number ${range}, got ${describe(value)}`);
  }
}

const typedArrayPrototype = Object.getPrototypeOf(Int8Array.prototype);
const typedArrayTag = Object.getOwnPropertyDescriptor(typedArrayPrototype, Symbol.toStringTag).get;
// The typed array's own kind ('Int32Array', ...) from its internal slot, or undefined: a Proxy or
// an object that only inherits from a typed array's prototype has none.
export function typedKind(value) {
  return typedArrayTag.call(value);
}

// Token ids as a fresh Int32Array, each checked: a whole number from 0 to 2**31 - 1. One pass,
// stopping at the first bad entry, so a huge sparse array fails at its first hole, not by
// allocating its length.
export function idsCopy(ids, what) {
  const kind = typedKind(ids);
  if (kind === 'Int32Array') return new Int32Array(ids);
  if (!Array.isArray(ids) && kind !== 'Uint32Array') {
    throw new Error(`${what} must be an array, Int32Array or Uint32Array of token ids, got ${describe(ids)}`);
  }
  const out = [];
  const n = ids.length;
  for (let i = 0; i < n; ++i) {
    const id = ids[i];
    if (typeof id !== 'number') throw new Error(`${what}[${i}] is not a number, got ${describe(id)}`);
    if (!Number.isInteger(id) || id < 0) throw new Error(`${what}[${i}] = ${id} is not a token id (a whole number >= 0)`);
    if (id > INT32_MAX) throw new Error(`${what}[${i}] = ${id} is not a token id (at most ${INT32_MAX})`);
    out.push(id);
  }
  return Int32Array.from(out);
}

const bufferByteLength = Object.getOwnPropertyDescriptor(ArrayBuffer.prototype, 'byteLength').get;
function isArrayBuffer(value) {
  try {
    bufferByteLength.call(value);
    return true;
  } catch {
    return false;
  }
}
// Whether an ArrayBuffer's bytes were transferred away (a SharedArrayBuffer never is).
export function isDetached(buffer) {
  if (!isArrayBuffer(buffer)) return false;
  if ('detached' in ArrayBuffer.prototype) return buffer.detached;
  try {
    new Uint8Array(buffer);  // eslint-disable-line no-new
    return false;
  } catch {
    return true;
  }
}
const viewBuffer = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(Int8Array.prototype), 'buffer').get;

// File bytes (a Uint8Array or an ArrayBuffer) as a fresh Uint8Array.
export function bytesCopy(bytes, what) {
  const kind = typedKind(bytes);
  if (kind !== 'Uint8Array' && !isArrayBuffer(bytes)) {
    throw new Error(`${what} must be a Uint8Array or ArrayBuffer, got ${describe(bytes)}`);
  }
  const buffer = kind ? viewBuffer.call(bytes) : bytes;
  if (isArrayBuffer(buffer) && isDetached(buffer)) {
    throw new Error(`${what} is detached, so it holds no bytes: its ArrayBuffer was transferred (for example to a ` +
      'worker with postMessage, or by structuredClone with transfer); load the model before transferring the bytes, or transfer a copy (bytes.slice())');
  }
  return new Uint8Array(bytes);
}

// [[source, target], ...] as a fresh array of fresh pairs of well-formed strings.
export function pairsCopy(pairs) {
  if (!Array.isArray(pairs)) throw new Error('pairs must be an array of [source, target] string pairs');
  const out = [];
  const n = pairs.length;
  for (let i = 0; i < n; ++i) {
    const p = pairs[i];
    if (!Array.isArray(p) || p.length !== 2 || typeof p[0] !== 'string' || typeof p[1] !== 'string') {
      throw new Error(`pairs[${i}] must be a [source, target] pair of strings`);
    }
    out.push([wellFormed(p[0]), wellFormed(p[1])]);
  }
  return out;
}

// {options} → their JSON for the core: a plain object, its own keys only, each one of `keys`
// (or `allow`, which the caller reads itself), values finite numbers, booleans or well-formed
// strings — rejected here, so the message names the key as the caller wrote it.
export function optionsJson(options, keys, what, { allow = [] } = {}) {
  if (options === undefined) return '{}';
  if (!isPlainObject(options)) throw new Error(`${what} must be a plain object ({ key: value, … }), got ${describe(options)}`);
  refuseSymbolKeys(options, what, [...keys, ...allow]);
  const out = {};
  for (const key of Object.keys(options)) {
    if (allow.includes(key)) continue;
    if (!keys.includes(key)) {
      throw new Error(`unknown ${what} key '${wellFormed(key)}'; allowed: ${[...keys, ...allow].join(', ')}`);
    }
    const value = options[key];
    if (value === undefined) continue;
    if (!['number', 'string', 'boolean'].includes(typeof value) || (typeof value === 'number' && !Number.isFinite(value))) {
      throw new Error(`${what} key '${key}' must be a finite number, a string or a boolean, got ${describe(value)}`);
    }
    out[key] = typeof value === 'string' ? wellFormed(value) : value;
  }
  return JSON.stringify(out);
}

const IMPORT_KEYS = ['signal', 'stallTimeout'];

// The options of tp.importModel() and its siblings (and of a session's imports), checked:
// { signal: an AbortSignal, stallTimeout: ms >= 1 or Infinity }.
export function importOptions(options, what) {
  if (!isPlainObject(options)) throw new Error(`${what}(…, options): options must be a plain object ({ signal, stallTimeout }), got ${describe(options)}`);
  refuseSymbolKeys(options, `${what} option`, IMPORT_KEYS);
  const unknown = Object.keys(options).find((k) => !IMPORT_KEYS.includes(k));
  if (unknown !== undefined) throw new Error(`unknown ${what} option '${wellFormed(unknown)}'; allowed: ${IMPORT_KEYS.join(', ')}`);
  const signal = ownValue(options, 'signal'), stallTimeout = ownValue(options, 'stallTimeout');
  if (signal !== undefined && !(typeof AbortSignal !== 'undefined' && signal instanceof AbortSignal)) {
    throw new Error(`${what} option 'signal' must be an AbortSignal (new AbortController().signal), got ${describe(signal)}`);
  }
  if (stallTimeout !== undefined && !(typeof stallTimeout === 'number' && stallTimeout > 0 && (Number.isInteger(stallTimeout) || stallTimeout === Infinity))) {
    throw new Error(`${what} option 'stallTimeout' must be a whole number of milliseconds >= 1, or Infinity, got ${describe(stallTimeout)}`);
  }
  return { signal, stallTimeout };
}
