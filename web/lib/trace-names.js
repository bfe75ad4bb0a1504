// trace-names.js — builds and reads the names of a trace's entries ("dec.0.cross_attn.probs"),
// from the one list the C++ forward pass records under (src/model/trace_names.h, carried here as
// TRACE_NAMES). Views never write a name by hand: they ask for a pattern with its parts.
//
//   traceName('{stack}.{layer}.{attn}.probs', { stack: 'dec', layer: 0, attn: 'cross_attn' })  // 'dec.0.cross_attn.probs'
//   parseTraceName('enc.1.self_attn.q')  // { pattern: '{stack}.{layer}.{attn}.q', stack: 'enc', layer: 1, attn: 'self_attn', shape, doc }
//   attentionOf('cross')                 // { kind: 'cross', stack: 'dec', attn: 'cross_attn' }
import { TRACE_NAMES } from './generated/schema.js';

// The values each placeholder takes (trace_names.h's header comment).
export const TRACE_STACKS = Object.freeze(['enc', 'dec']);
export const TRACE_ATTNS = Object.freeze(['self_attn', 'cross_attn']);

// The three kinds of attention a model may have, as a stack and an attention sublayer.
const KINDS = Object.freeze({
  enc: Object.freeze({ kind: 'enc', stack: 'enc', attn: 'self_attn' }),
  dec: Object.freeze({ kind: 'dec', stack: 'dec', attn: 'self_attn' }),
  cross: Object.freeze({ kind: 'cross', stack: 'dec', attn: 'cross_attn' }),
});
export const ATTENTION_KINDS = Object.freeze(Object.keys(KINDS));

const PATTERNS = new Map(TRACE_NAMES.map((e) => [e.pattern, e]));
const PART = { stack: `(${TRACE_STACKS.join('|')})`, layer: '(0|[1-9][0-9]*)', attn: `(${TRACE_ATTNS.join('|')})` };
const escape = (s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
// Each pattern as a regular expression, with the placeholders it uses in order.
const MATCHERS = TRACE_NAMES.map((e) => {
  const parts = [];
  const source = e.pattern.split(/(\{[a-z]+\})/).map((piece) => {
    const m = /^\{([a-z]+)\}$/.exec(piece);
    if (!m) return escape(piece);
    parts.push(m[1]);
    return PART[m[1]];
  }).join('');
  return { entry: e, parts, re: new RegExp(`^${source}$`) };
});

function check(part, value, pattern) {
  if (part === 'stack' && !TRACE_STACKS.includes(value)) throw new Error(`traceName('${pattern}'): stack must be ${TRACE_STACKS.join(' or ')}, got ${JSON.stringify(value)}`);
  if (part === 'attn' && !TRACE_ATTNS.includes(value)) throw new Error(`traceName('${pattern}'): attn must be ${TRACE_ATTNS.join(' or ')}, got ${JSON.stringify(value)}`);
  if (part === 'layer' && !(Number.isInteger(value) && value >= 0)) throw new Error(`traceName('${pattern}'): layer must be a whole number >= 0, got ${JSON.stringify(value)}`);
}

/**
 * The parts of a trace name: which stack, layer and attention sublayer.
 * @typedef {{ stack?: 'enc' | 'dec', layer?: number, attn?: 'self_attn' | 'cross_attn' }} TraceNameParts
 */

/**
 * A name a trace holds, read: the TRACE_NAMES pattern it matches, with its shape, doc and parts.
 * @typedef {TraceNameParts & { pattern: string, shape: string, doc: string }} ParsedTraceName
 */

/**
 * The name of a TRACE_NAMES pattern with its placeholders filled in; throws on a bad part.
 * @param {string} pattern
 * @param {TraceNameParts} [parts]
 * @returns {string}
 */
export function traceName(pattern, parts = {}) {
  if (!PATTERNS.has(pattern)) throw new Error(`traceName: '${pattern}' is not a trace pattern; allowed: ${TRACE_NAMES.map((e) => e.pattern).join(', ')}`);
  return pattern.replace(/\{([a-z]+)\}/g, (_, part) => {
    const value = parts[part];
    check(part, value, pattern);
    return String(value);
  });
}

/**
 * The pattern and parts of a name a trace holds, or null.
 * @param {string} name
 * @returns {ParsedTraceName | null}
 */
export function parseTraceName(name) {
  if (typeof name !== 'string') return null;
  for (const { entry, parts, re } of MATCHERS) {
    const m = re.exec(name);
    if (!m) continue;
    const out = { pattern: entry.pattern, shape: entry.shape, doc: entry.doc };
    parts.forEach((part, i) => (out[part] = part === 'layer' ? Number(m[i + 1]) : m[i + 1]));
    return out;
  }
  return null;
}

// The stack and attention sublayer of an attention kind ('enc', 'dec', 'cross').
export function attentionOf(kind) {
  const k = KINDS[kind];
  if (!k) throw new Error(`attentionOf: kind must be ${ATTENTION_KINDS.join(', ')}, got ${JSON.stringify(kind)}`);
  return k;
}

// The attention kinds a model of this architecture has, in the forward pass's order.
export function attentionKinds(arch) {
  if (arch === 'encoder-decoder') return ['enc', 'dec', 'cross'];
  if (arch === 'encoder-only') return ['enc'];
  return ['dec'];
}

// The name of stage `stage` ('probs', 'masked', 'q', ...) of attention `kind` in `layer`.
export function attentionName(kind, layer, stage) {
  const { stack, attn } = attentionOf(kind);
  return traceName(`{stack}.{layer}.{attn}.${stage}`, { stack, layer, attn });
}

// The stack whose embeddings a trace starts with: the encoder's when it has one.
export function firstStack(names) {
  const has = new Set(names);
  return TRACE_STACKS.find((stack) => has.has(traceName('{stack}.embed.sum', { stack }))) ?? null;
}
