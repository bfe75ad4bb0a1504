// scheme.js — which colour scheme a widget shows: its `theme` attribute, or (auto, the default)
// the host page's own dark mode, followed live as the page toggles it.
//
// theme="light" | "dark" fixes the scheme; theme="auto" (or no attribute) follows the page, the
// first of these that says something, looking from the widget outwards:
//   1. a `data-theme="dark"` / `"light"` on an ancestor (Docusaurus, Starlight, many themes);
//   2. a `dark` / `light` class on an ancestor (VitePress, Tailwind's and shadcn's convention);
//   3. the page's CSS `color-scheme` where it names one scheme (`color-scheme: dark`);
//   4. the reader's `prefers-color-scheme`.
// The result is written as `data-scheme="light|dark"` on the widget (ui/theme.js styles by it) and
// watchers are told (canvas views re-read their colours). The page is watched on the <html> and
// <body> elements (their class, data-theme and style attributes) and the media query: where the
// doc themes toggle. A change is applied in the mutation observer's microtask, before the next
// frame is drawn. No DOM (a server render): nothing runs.
export const THEME_VALUES = ['auto', 'light', 'dark'];

const hosts = new Set();     // elements whose data-scheme is kept here
const watchers = new Set();  // callbacks after the hosts were updated
let started = false;
let media = null;

function parentOf(node) {
  return node.parentNode?.nodeType === 11 ? node.parentNode.host : node.parentElement;
}

const named = (value) => (value === 'dark' || value === 'light' ? value : null);

// The host page's scheme around `el` (steps 1–4 above).
export function pageScheme(el) {
  for (let node = parentOf(el); node; node = parentOf(node)) {
    const byAttribute = named(node.getAttribute('data-theme'));
    if (byAttribute) return byAttribute;
    if (node.classList.contains('dark')) return 'dark';
    if (node.classList.contains('light')) return 'light';
  }
  const parent = parentOf(el) ?? document.documentElement;
  const words = getComputedStyle(parent).colorScheme.split(/\s+/);
  if (words.includes('dark') && !words.includes('light')) return 'dark';
  if (words.includes('light') && !words.includes('dark')) return 'light';
  return media?.matches ? 'dark' : 'light';
}

// The scheme `el` shows: its theme attribute (an unknown value counts as auto; the widget reports
// it), else the page's.
export function schemeOf(el) {
  const theme = el.getAttribute('theme')?.trim().toLowerCase();
  return theme === 'light' || theme === 'dark' ? theme : pageScheme(el);
}

function apply(el) {
  const scheme = schemeOf(el);
  if (el.getAttribute('data-scheme') !== scheme) el.setAttribute('data-scheme', scheme);
}

function refresh() {
  hosts.forEach(apply);
  watchers.forEach((cb) => cb());
}

function start() {
  if (started || typeof document === 'undefined') return;
  started = true;
  media = matchMedia('(prefers-color-scheme: dark)');
  media.addEventListener('change', refresh);
  const observer = new MutationObserver(refresh);
  const options = { attributes: true, attributeFilter: ['class', 'data-theme', 'style'] };
  observer.observe(document.documentElement, options);
  const watchBody = () => document.body && observer.observe(document.body, options);
  if (document.body) watchBody();
  else document.addEventListener('DOMContentLoaded', watchBody, { once: true });
}

// Keeps el's data-scheme in step with its theme attribute and the page; returns the undo.
// Call schemeChanged() when el's theme attribute changes.
export function followScheme(el) {
  start();
  hosts.add(el);
  apply(el);
  return () => hosts.delete(el);
}

// Re-applies one element's scheme (its theme attribute changed) and tells the watchers.
export function schemeChanged(el) {
  if (hosts.has(el)) apply(el);
  watchers.forEach((cb) => cb());
}

// cb() after any change of scheme anywhere on the page (canvas views re-read their colours).
export function onSchemeChange(cb) {
  start();
  watchers.add(cb);
  return () => watchers.delete(cb);
}
