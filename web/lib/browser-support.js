// browser-support.js — the browser versions Transformer Playground needs, and the feature that
// sets each: the one table the playground's About panel shows and docs/API.md repeats (a test
// checks the two agree). Versions are the first release with the feature on by default, from
// MDN's browser-compat-data (as summarised by the web-features project). Edge is Chromium-based
// from 79 and has Chrome's version unless `edge` says otherwise.
//
// `part`: 'api' — web/lib (the module, the engine, the training worker): nothing works without it;
//         'page' — the views, widgets and playground on top (layout, formulas, colours);
//         'threads' — what the threaded module needs (web/lib/engine.js; it also needs the page to be
//         served cross-origin isolated: COOP same-origin + COEP require-corp or credentialless).
// What the code uses that is older than every figure here (custom elements, shadow DOM, ::part,
// IntersectionObserver, ResizeObserver 64/69/13.1, :focus-visible 86/85/15.4, optional chaining)
// is not listed. Not used at all: structuredClone, top-level await.
export const BROWSER_FEATURES = [
  // The .wasm uses no post-MVP feature but fixed-width SIMD (built with -msimd128; the
  // exceptions are Emscripten's JS trampolines, not wasm exception handling).
  { id: 'wasmSimd', part: 'api', chrome: '91', firefox: '89', safari: '16.4' },
  { id: 'moduleWorker', part: 'api', chrome: '80', firefox: '114', safari: '15' },       // training-session.js
  { id: 'privateMethods', part: 'api', chrome: '84', firefox: '90', safari: '15' },      // training-session.js
  { id: 'finalizationRegistry', part: 'api', chrome: '84', firefox: '79', safari: '14.1' }, // transformer-playground.js
  { id: 'arrayAt', part: 'page', chrome: '92', firefox: '90', safari: '15.4' },
  { id: 'containerQueries', part: 'page', chrome: '105', firefox: '110', safari: '16' },
  { id: 'has', part: 'page', chrome: '105', firefox: '121', safari: '15.4' },
  { id: 'mathml', part: 'page', chrome: '109', firefox: '4', safari: '5.1' },
  // Styles are constructable sheets (adoptedStyleSheets), which a strict CSP allows.
  { id: 'constructableSheets', part: 'page', chrome: '73', firefox: '101', safari: '16.4' },
  { id: 'colorMix', part: 'page', chrome: '111', firefox: '113', safari: '16.2' },
  { id: 'crossOriginIsolated', part: 'threads', chrome: '87', firefox: '72', safari: '15.2' },
  { id: 'wasmThreads', part: 'threads', chrome: '74', edge: '79', firefox: '79', safari: '15.2' },
];

export const BROWSERS = ['chrome', 'edge', 'firefox', 'safari'];

const versionOf = (feature, browser) => feature[browser] ?? (browser === 'edge' ? feature.chrome : undefined);
const newer = (a, b) => {
  const [x, y] = [a, b].map((v) => v.split('.').map(Number));
  for (let i = 0; i < Math.max(x.length, y.length); ++i) if ((x[i] ?? 0) !== (y[i] ?? 0)) return (x[i] ?? 0) > (y[i] ?? 0);
  return false;
};

// The oldest version of each browser that has every feature of these parts, and the feature that
// sets it: { chrome: { version, feature }, edge: …, firefox: …, safari: … }.
export function minimumVersions(parts = ['api', 'page']) {
  const out = {};
  for (const browser of BROWSERS) {
    for (const f of BROWSER_FEATURES.filter((x) => parts.includes(x.part))) {
      const version = versionOf(f, browser);
      if (!out[browser] || newer(version, out[browser].version)) out[browser] = { version, feature: f.id };
    }
  }
  return out;
}

export const featureVersion = versionOf;
