// theme.js — the one theme of every Transformer Playground view: each colour and font is written
// here and nowhere else. Every shadow root (components, widgets, the playground) adopts
// THEME_CSS first (ui/sheets.js); canvas views read the resolved values back with
// getComputedStyle.
//
// Page authors override any token with the public custom property --tp-<name> on the element or
// an ancestor (`tp-attention { --tp-accent: #7a3cff }`); the sheet resolves it into the private
// --_<name> the styles use, falling back to the default of the scheme in force: the light or the
// dark value below. Which scheme is in force: a widget's `theme` attribute (light, dark, or auto:
// the host page's own dark mode, ui/scheme.js), which sets `data-scheme` on the widget; the
// scheme's values then flow down to every view inside it (inherited --_s-<name>). Without
// data-scheme (a view on its own, before a widget's script runs) prefers-color-scheme decides.
// The colour maps, role and head colours in components/shared/colormap.js are data (what a value
// or a head looks like), not theme, and stay there. docs/WIDGETS.md's table of these values is
// generated from this list (npm run generate).
// name: { light, dark (absent: the same in both), use: what it colours }.
export const THEME = {
  fg: { light: '#1b1f24', dark: '#e6e9ee', use: 'text' },
  muted: { light: '#58616d', dark: '#9aa4b1', use: 'secondary text, axes, ticks' },
  bg: { light: '#ffffff', dark: '#171b21', use: "a view's or widget's background" },
  page: { light: '#f3f5f8', dark: '#0f1216', use: "`<tp-playground>`'s background behind its cards" },
  panel: { light: '#f6f8fa', dark: '#1e242c', use: 'buttons, formula boxes' },
  rule: { light: '#d9dee4', dark: '#313943', use: 'borders, grid lines' },
  accent: { light: '#0072B2', dark: '#56B4E9', use: 'primary buttons, focus rings, highlights' },
  'accent-fg': { light: '#ffffff', dark: '#0b1620', use: 'text on the accent colour' },
  hatch: { light: '#e7e9ec', dark: '#29303a', use: 'masked (−∞) cells, special tokens' },
  'hatch-line': { light: '#a3a9b1', dark: '#5d6672', use: 'the lines across masked cells' },
  danger: { light: '#b3261e', dark: '#ff8a80', use: 'error messages, failed checks' },
  ok: { light: '#1a7f37', dark: '#56d37b', use: 'passed checks' },
  changed: { light: '#D55E00', dark: '#f0a04b', use: '"changed from default" marks, zeros cut by ReLU' },
  shadow: { light: '#000000', use: 'drop shadows, mixed with transparency where used' },
  font: { light: 'system-ui, -apple-system, "Segoe UI", "Noto Sans KR", "Apple SD Gothic Neo", "Malgun Gothic", Roboto, sans-serif', use: 'text' },
  mono: { light: 'ui-monospace, "SFMono-Regular", "JetBrains Mono", Menlo, Consolas, monospace', use: 'numbers, code' },
};

export const SCHEMES = ['light', 'dark'];
export const valueOf = (entry, scheme) => entry[scheme] ?? entry.light;
const schemed = Object.entries(THEME).filter(([, e]) => e.dark !== undefined);
const same = Object.entries(THEME).filter(([, e]) => e.dark === undefined);

// The resolved --_name: the page's --tp-name, else the scheme an ancestor widget set (--_s-name),
// else this sheet's default for the scheme the media query says.
const defaults = (scheme) => schemed.map(([name, e]) => `--_${name}: var(--tp-${name}, var(--_s-${name}, ${e[scheme]}));`).join(' ');
const fixed = same.map(([name, e]) => `--_${name}: var(--tp-${name}, ${e.light});`).join(' ');
const forced = (scheme) => `--_scheme: ${scheme}; color-scheme: ${scheme}; ${schemed.map(([name, e]) => `--_s-${name}: ${e[scheme]};`).join(' ')}`;

// :host inside a shadow root, :root when a document adopts it. `--_scheme` (light | dark) is set
// only where a scheme was chosen; color-scheme follows it, so native controls match.
export const THEME_CSS = `:host, :root { ${fixed} ${defaults('light')} color-scheme: var(--_scheme, light dark); }
@media (prefers-color-scheme: dark) { :host, :root { ${defaults('dark')} } }
:host([data-scheme=light]) { ${forced('light')} }
:host([data-scheme=dark]) { ${forced('dark')} }`;
