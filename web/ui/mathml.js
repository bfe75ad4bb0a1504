// mathml.js — tiny builders for the MathML formulas of the playground and the widgets (no
// library needed). A formula is plain data — { tag, attrs, kids }, each kid a formula or a string
// — so code that has no DOM (walkthrough-steps.js, server-side rendering) can build one; mathNode()
// turns it into MathML elements. Every string becomes a text node, never markup: a token from
// someone else's tokenizer inside mtext() is shown as the characters it is
// (`<img src=x onerror=…>` stays text), and only the tags and attributes below can be made.
const MATHML = 'http://www.w3.org/1998/Math/MathML';
const TAGS = new Set(['math', 'mi', 'mn', 'mo', 'mtext', 'mrow', 'msub', 'msup', 'msubsup', 'mfrac', 'msqrt', 'mspace', 'mtable', 'mtr', 'mtd']);
const ATTRS = new Set(['display', 'width']);

const node = (tag, attrs, kids) => Object.freeze({ tag, attrs: Object.freeze({ ...attrs }), kids: Object.freeze(kids) });
const text = (tag) => (x) => node(tag, {}, [String(x)]);

export const mi = text('mi');
export const mn = text('mn');
export const mo = text('mo');
export const mtext = text('mtext');
export const row = (...xs) => node('mrow', {}, xs);
export const sub = (b, s) => node('msub', {}, [b, s]);
export const sup = (b, s) => node('msup', {}, [b, s]);
export const subsup = (b, s, p) => node('msubsup', {}, [b, s, p]);
export const frac = (a, b) => node('mfrac', {}, [a, b]);
export const sqrt = (x) => node('msqrt', {}, [x]);
export const paren = (...xs) => row(mo('('), ...xs, mo(')'));
export const math = (...xs) => node('math', { display: 'block' }, xs);
export const mspace = (width = '1.2em') => node('mspace', { width }, []);
// rows: [[cell, cell], …], each cell a formula.
export const mtable = (rows) => node('mtable', {}, rows.map((cells) => node('mtr', {}, cells.map((c) => node('mtd', {}, [c])))));
export const T = mi('⊤');
// Named symbols used by several formulas.
export const W = (name) => sub(mi('W'), mi(name));
export const WT = (name) => subsup(mi('W'), mi(name), mo('⊤'));
export const b = (name) => sub(mi('b'), mi(name));
export const dk = sub(mi('d'), mi('k'));
export const softmax = (...xs) => row(mi('softmax'), paren(...xs));

// The formula as MathML elements of `doc`: strings are text nodes; a tag or attribute outside
// the lists above is refused (a formula is data, and data may come from anywhere).
export function mathNode(formula, doc = document) {
  if (typeof formula === 'string') return doc.createTextNode(formula);
  if (!formula || !TAGS.has(formula.tag)) throw new Error(`mathNode: not a formula (tag ${JSON.stringify(formula?.tag)})`);
  const el = doc.createElementNS(MATHML, formula.tag);
  for (const [name, value] of Object.entries(formula.attrs ?? {})) {
    if (!ATTRS.has(name)) throw new Error(`mathNode: attribute '${name}' is not allowed; allowed: ${[...ATTRS].join(', ')}`);
    el.setAttribute(name, String(value));
  }
  for (const kid of formula.kids ?? []) el.append(mathNode(kid, doc));
  return el;
}

// The formula's text as a reader (or a test) sees it, without markup.
export function mathText(formula) {
  return typeof formula === 'string' ? formula : (formula?.kids ?? []).map(mathText).join('');
}
