// cross-origin.js — starting Workers whose scripts are on another origin than the page, as when
// the package is served from a CDN (unpkg, jsDelivr) and the page from the site.
//
// Browsers refuse `new Worker(url)` for a script of another origin, even one sent with
// Access-Control-Allow-Origin (Chromium throws a SecurityError, Firefox fires `error`). A Worker
// may start from a blob: URL made on the page's origin, though, and a module script may import
// from another origin with CORS: so the worker starts from a one-line same-origin blob whose
// body imports (a module worker) or importScripts (a classic one, as Emscripten's pthread
// workers are) the real script. Inside, import.meta.url is the real script's, so everything it
// loads resolves next to it. A Content-Security-Policy must then allow `worker-src blob:` and the
// CDN (every import of a module worker is fetched as a worker script; docs/WIDGETS.md, "Hosting
// from a CDN"). One blob per script and realm, kept for the
// page's life (a few dozen bytes).
const blobs = new Map();

// The origin this realm runs on (a blob: worker's is its creator's), or null (Node).
function hereOrigin() {
  const origin = globalThis.location?.origin;
  return origin && origin !== 'null' ? origin : null;
}

// Whether a Worker cannot start from `url` directly here: an http(s) URL of another origin than
// this realm's. (Other schemes are left to the browser or the bundler: Turbopack's browser
// bundles say import.meta.url = 'file:///ROOT/…' and rewrite the worker's URL themselves.)
export function isCrossOrigin(url) {
  const here = hereOrigin();
  if (!here) return false;
  const target = new URL(String(url), globalThis.location.href);
  return (target.protocol === 'http:' || target.protocol === 'https:') && target.origin !== here;
}

// A same-origin blob: URL that starts the script at `url`: kind 'module' imports it, 'classic'
// runs it with importScripts().
export function workerBlobUrl(url, kind) {
  const href = new URL(String(url), globalThis.location.href).href;
  const key = `${kind} ${href}`;
  if (!blobs.has(key)) {
    const body = kind === 'module' ? `import ${JSON.stringify(href)};\n` : `importScripts(${JSON.stringify(href)});\n`;
    blobs.set(key, URL.createObjectURL(new Blob([body], { type: 'text/javascript' })));
  }
  return blobs.get(key);
}

// Why a worker of another origin could not start, for error messages.
export function crossOriginAdvice(url) {
  const origin = new URL(url).origin;
  return `its script (${url}) is on another origin than this page (${hereOrigin()}), so it is started from a same-origin ` +
    `blob: module that imports it: a Content-Security-Policy must allow worker-src blob: ${origin} (a module worker's imports ` +
    `count as worker scripts), and ${origin} must send Access-Control-Allow-Origin (see "Hosting from a CDN" in docs/WIDGETS.md)`;
}
