// colormap.js — perceptually uniform, colour-blind-safe colour maps built in OKLab, plus the
// fixed role colours (Q, K, V, output) and one colour per attention head.
//
// sequential: dark blue -> grey -> pale yellow (the cividis idea): lightness rises linearly, so
//   order reads the same in greyscale and for every kind of colour blindness.
// diverging: blue <- near-white -> orange for signed values; both ends have the same lightness,
//   so +x and -x look equally strong.
// Both are 256-entry tables computed once at import, gamut-clipped by lowering chroma.

const clamp01 = (x) => Math.min(1, Math.max(0, x));

function linearToSrgb(c) {
  return c <= 0.0031308 ? 12.92 * c : 1.055 * c ** (1 / 2.4) - 0.055;
}

// OKLab (Björn Ottosson, 2020) to linear sRGB.
function oklabToLinear(L, a, b) {
  const l_ = L + 0.3963377774 * a + 0.2158037573 * b;
  const m_ = L - 0.1055613458 * a - 0.0638541728 * b;
  const s_ = L - 0.0894841775 * a - 1.291485548 * b;
  const l = l_ ** 3, m = m_ ** 3, s = s_ ** 3;
  return [
    4.0767416621 * l - 3.3077115913 * m + 0.2309699292 * s,
    -1.2684380046 * l + 2.6097574011 * m - 0.3413193965 * s,
    -0.0041960863 * l - 0.7034186147 * m + 1.707612701 * s,
  ];
}

// OKLCh -> [r, g, b] bytes, reducing chroma until the colour is inside sRGB.
function lchToRgb(L, C, hDeg) {
  const h = (hDeg * Math.PI) / 180;
  for (let c = C; c >= 0; c -= 0.002) {
    const rgb = oklabToLinear(L, c * Math.cos(h), c * Math.sin(h));
    if (rgb.every((v) => v >= -1e-4 && v <= 1 + 1e-4)) return rgb.map((v) => Math.round(255 * clamp01(linearToSrgb(clamp01(v)))));
  }
  const g = Math.round(255 * clamp01(linearToSrgb(L ** 3)));
  return [g, g, g];
}

// Piecewise-linear path through OKLab stops [L, C, h] at equal spacing.
function buildTable(stops, n = 256) {
  const lab = stops.map(([L, C, h]) => [L, C * Math.cos((h * Math.PI) / 180), C * Math.sin((h * Math.PI) / 180)]);
  const table = new Uint8ClampedArray(n * 3);
  for (let i = 0; i < n; ++i) {
    const t = (i / (n - 1)) * (lab.length - 1);
    const k = Math.min(lab.length - 2, Math.floor(t)), f = t - k;
    const [L, a, b] = lab[k].map((v, j) => v + (lab[k + 1][j] - v) * f);
    const C = Math.hypot(a, b), h = (Math.atan2(b, a) * 180) / Math.PI;
    table.set(lchToRgb(L, C, h), i * 3);
  }
  return table;
}

export const COLORMAPS = {
  sequential: buildTable([[0.27, 0.11, 262], [0.61, 0.035, 235], [0.95, 0.16, 102]]),
  diverging: buildTable([[0.47, 0.15, 255], [0.73, 0.09, 250], [0.975, 0.005, 90], [0.76, 0.11, 62], [0.55, 0.15, 48]]),
};

// [r, g, b] for t in [0, 1].
export function colorAt(name, t) {
  const table = COLORMAPS[name] ?? COLORMAPS.sequential;
  const i = Math.round(clamp01(Number.isFinite(t) ? t : 0) * 255) * 3;
  return [table[i], table[i + 1], table[i + 2]];
}

export function cssColor([r, g, b], alpha = 1) {
  return alpha === 1 ? `rgb(${r} ${g} ${b})` : `rgb(${r} ${g} ${b} / ${alpha})`;
}

// [r, g, b] of a #rrggbb or rgb(...) colour (grey when it is neither).
export function rgbOf(c) {
  const m = /^#([0-9a-f]{6})$/i.exec(c);
  if (m) return [0, 2, 4].map((i) => parseInt(m[1].slice(i, i + 2), 16));
  const r = /rgba?\((\d+)[ ,]+(\d+)[ ,]+(\d+)/.exec(c);
  return r ? [Number(r[1]), Number(r[2]), Number(r[3])] : [200, 200, 200];
}

// Text colour that reads on a cell of colour rgb (near-black or white: data, like the maps).
export function inkOn([r, g, b]) {
  // WCAG's relative luminance; the ink with the larger contrast ratio on this colour.
  const lin = (c) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
  const L = 0.2126 * lin(r) + 0.7152 * lin(g) + 0.0722 * lin(b);
  return 1.05 / (L + 0.05) >= (L + 0.05) / 0.0557 ? '#fff' : '#111';
}

// The value -> colour function of a heatmap: domain [lo, hi]; diverging maps 0 to the middle.
export function scaleFor(name, lo, hi) {
  if (name === 'diverging') {
    const m = Math.max(Math.abs(lo), Math.abs(hi)) || 1;
    return { lo: -m, hi: m, t: (v) => 0.5 + v / (2 * m) };
  }
  const span = hi - lo || 1;
  return { lo, hi, t: (v) => (v - lo) / span };
}

// Okabe–Ito, the colour-blind-safe qualitative palette: roles and heads. The heads' order keeps
// each colour apart from the three before it under deuteranopia and protanopia (CIELAB ΔE ≥ 21
// after Machado et al.'s simulation; Okabe–Ito's own order put bluish green beside reddish
// purple, ΔE 18, which read as one grey). The olive is light enough for near-black ink at 4.5:1
// (WCAG AA for the head view's 11 px labels, from the sixth head on).
export const ROLE_COLORS = { q: '#0072B2', k: '#D55E00', v: '#009E73', o: '#CC79A7', x: '#56B4E9' };
const HEADS = ['#0072B2', '#E69F00', '#009E73', '#56B4E9', '#882255', '#8E7E00', '#CC79A7', '#555555'];
export function headColor(h) {
  return HEADS[h % HEADS.length];
}
// Light chip backgrounds for tokens, distinguishable side by side.
const CHIPS = ['#cfe3f5', '#f9dfb0', '#c4ebdc', '#f1d2e4', '#d5ecfa', '#f6cdb5', '#ecebb4', '#dedede'];
const CHIPS_DARK = ['#1f4a6e', '#6b4c12', '#175a46', '#5e3450', '#2a5873', '#6e3417', '#57541a', '#444'];
export function chipColor(i, dark = false) {
  return (dark ? CHIPS_DARK : CHIPS)[i % CHIPS.length];
}
