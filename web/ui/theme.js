// theme.js — the one theme of every Transformer Playground view: each colour and font is written
// here and nowhere else. Every shadow root (components, widgets, the playground) adopts
// THEME_CSS first (ui/sheets.js); canvas views read the resolved values back with
// getComputedStyle.
//
// Page authors override any token with the public custom property --tp-<name> on the element or
// an ancestor (`tp-attention { --tp-accent: #7a3cff }`); the sheet resolves it into the private
// --_<name> the styles use, falling back to the light or dark default (prefers-color-scheme).
// The colour maps, role and head colours in components/shared/colormap.js are data (what a value
// or a head looks like), not theme, and stay there.
// name: [light, dark] (one value: both schemes), and what it colours.
export const THEME = {
  fg: ['#1b1f24', '#e6e9ee'],            // text
  muted: ['#58616d', '#9aa4b1'],         // secondary text, axes, ticks
  bg: ['#ffffff', '#171b21'],            // a view's or widget's background
  page: ['#f3f5f8', '#0f1216'],          // the playground's background behind its cards
  panel: ['#f6f8fa', '#1e242c'],         // buttons, formula boxes
  rule: ['#d9dee4', '#313943'],          // borders, grid lines
  accent: ['#0072B2', '#56B4E9'],        // primary buttons, focus rings, highlights
  'accent-fg': ['#ffffff', '#0b1620'],   // text on the accent colour
  hatch: ['#e7e9ec', '#29303a'],         // masked (−∞) cells, special tokens
  'hatch-line': ['#a3a9b1', '#5d6672'],  // the lines across masked cells
  danger: ['#b3261e', '#ff8a80'],        // error messages, failed checks
  ok: ['#1a7f37', '#56d37b'],            // passed checks
  changed: ['#D55E00', '#f0a04b'],       // "changed from default" marks, zeros cut by ReLU
  shadow: ['#000000'],                   // drop shadows, mixed with transparency where used
  font: ['system-ui, -apple-system, "Segoe UI", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", Roboto, sans-serif'],
  mono: ['ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, monospace'],
};

const block = (scheme) => Object.entries(THEME)
  .filter(([, values]) => scheme === 0 || values.length > 1)
  .map(([name, values]) => `--_${name}: var(--tp-${name}, ${values[scheme]});`).join(' ');

// :host inside a shadow root, :root when a document adopts it.
export const THEME_CSS = `:host, :root { ${block(0)} }
@media (prefers-color-scheme: dark) { :host, :root { ${block(1)} } }`;

