// mathml.js — tiny builders for MathML markup (the formulas of the playground and the widgets
// need no library). Inputs are trusted constants written in this repository, never user text.
export const mi = (x) => `<mi>${x}</mi>`;
export const mn = (x) => `<mn>${x}</mn>`;
export const mo = (x) => `<mo>${x}</mo>`;
export const mtext = (x) => `<mtext>${x}</mtext>`;
export const row = (...xs) => `<mrow>${xs.join('')}</mrow>`;
export const sub = (b, s) => `<msub>${b}${s}</msub>`;
export const sup = (b, s) => `<msup>${b}${s}</msup>`;
export const subsup = (b, s, p) => `<msubsup>${b}${s}${p}</msubsup>`;
export const frac = (a, b) => `<mfrac>${a}${b}</mfrac>`;
export const sqrt = (x) => `<msqrt>${x}</msqrt>`;
export const paren = (...xs) => row(mo('('), ...xs, mo(')'));
export const math = (...xs) => `<math display="block">${xs.join('')}</math>`;
export const T = mi('⊤');
// Named symbols used by several formulas.
export const W = (name) => sub(mi('W'), mi(name));
export const WT = (name) => subsup(mi('W'), mi(name), mo('⊤'));
export const b = (name) => sub(mi('b'), mi(name));
export const dk = sub(mi('d'), mi('k'));
export const softmax = (...xs) => row(mi('softmax'), paren(...xs));
