// isolation-sw.js — a service worker that makes one page cross-origin isolated on a static host
// that sends no headers: it answers every same-origin request of the page it controls from the
// network with Cross-Origin-Opener-Policy: same-origin and Cross-Origin-Embedder-Policy:
// require-corp added, the two headers that give a page (and its workers) SharedArrayBuffer and
// so the threaded module. Registered only by a page that asks for it, for that page's address
// and for web/lib/ (the scripts it starts as workers) (web/lib/isolation.js; the playground's
// "use every core" button, undone in its About panel), never by a widget. A page it isolates
// can load only same-origin resources or those sent with Cross-Origin-Resource-Policy: the
// playground does. A registration for this file's whole folder (the default scope, as an older
// version registered it, which isolated every page of the site) removes itself: its pages are
// served as the host sends them again after a reload.
const ISOLATION = { 'Cross-Origin-Opener-Policy': 'same-origin', 'Cross-Origin-Embedder-Policy': 'require-corp' };
const FOLDER = self.registration.scope === new URL('./', self.location.href).href;

self.addEventListener('install', () => self.skipWaiting());
self.addEventListener('activate', (event) => event.waitUntil(FOLDER ? self.registration.unregister() : self.clients.claim()));

self.addEventListener('fetch', (event) => {
  if (FOLDER) return;  // being removed: the browser's own handling
  const request = event.request;
  if (new URL(request.url).origin !== self.location.origin) return;  // the browser's own handling
  if (request.cache === 'only-if-cached' && request.mode !== 'same-origin') return;
  event.respondWith((async () => {
    const response = await fetch(request);
    if (response.type === 'opaque' || response.type === 'opaqueredirect') return response;
    const headers = new Headers(response.headers);
    for (const [name, value] of Object.entries(ISOLATION)) headers.set(name, value);
    return new Response(response.body, { status: response.status, statusText: response.statusText, headers });
  })());
});
