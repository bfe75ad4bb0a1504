// isolation.js — cross-origin isolation for a page on a static host, through a service worker
// (web/isolation-sw.js), so the training worker can run the threaded module there too:
//
//   import { isolatePage, unisolatePage, isolationStatus, isolatingWorker } from './lib/isolation.js';
//   button.onclick = () => isolatePage();     // registers the worker for this page, reloads once
//   undo.onclick = () => unisolatePage();     // unregisters it, reloads once
//
// Servers that can send headers need none of this: Cross-Origin-Opener-Policy: same-origin and
// Cross-Origin-Embedder-Policy: require-corp on every response isolate a page (npm start does).
// The service worker is registered for the page's own address — only that page is isolated,
// never its siblings (an isolated page can load only same-origin resources or those sent with
// Cross-Origin-Resource-Policy, so isolating a whole site would break other pages' images and
// iframes) — and for this folder (web/lib/), whose scripts the page starts as workers: a worker's
// script is answered by the service worker of the worker's own address, and an isolated page may
// only start a worker whose script carries the headers too. A page reached by its folder's
// address ("/") is isolated as its index.html, where isolatePage() then takes it. It stays
// registered, so later visits are isolated from the first request, until unisolatePage() undoes
// it. Only a page may call these, for itself — a widget must never register a service worker in
// a page that is not its own.

const RELOADED = 'transformer-playground:isolation-reload';  // sessionStorage: isolatePage() reloaded this tab
const SERVICE_WORKER = new URL('../isolation-sw.js', import.meta.url);
// The training worker's and the threaded module's folder, this module's own. Derived from the
// text of import.meta.url: a bundler would take new URL('./', import.meta.url) for an asset to
// resolve, and Turbopack fails the build on a folder.
const WORKERS = import.meta.url.split(/[?#]/)[0].replace(/[^/]*$/, '');

// Whether isolatePage() can work here: 'isolated' (nothing to do), 'possible', or why not:
// 'insecure' (service workers need https or localhost), 'unsupported'.
export function isolationStatus() {
  if (globalThis.crossOriginIsolated === true) {
    globalThis.sessionStorage?.removeItem(RELOADED);
    return 'isolated';
  }
  if (!globalThis.isSecureContext) return 'insecure';
  if (!globalThis.navigator?.serviceWorker) return 'unsupported';
  return 'possible';
}

// The address a page is isolated at: its own, or its folder's index.html for a folder address.
export function isolationScope(page = location.href) {
  const url = new URL(page);
  return new URL(url.pathname.endsWith('/') ? 'index.html' : url.pathname, url).href;
}

// Registers the service worker for this page alone (and its workers' folder) and reloads it (or, reached by its folder's
// address, opens its index.html) once the worker controls it; resolves with isolationStatus()
// when nothing is done, or rejects with the registration's error. The reload is guarded: if a
// reloaded page is still not isolated (a browser that ignores the headers), it does not reload
// again and resolves 'failed'.
export async function isolatePage({ serviceWorker = SERVICE_WORKER } = {}) {
  const status = isolationStatus();
  if (status !== 'possible') return status;
  if (sessionStorage.getItem(RELOADED)) {
    sessionStorage.removeItem(RELOADED);
    return 'failed';
  }
  const scope = isolationScope();
  await activated(await navigator.serviceWorker.register(serviceWorker, { scope: WORKERS }));
  const registration = await navigator.serviceWorker.register(serviceWorker, { scope });
  await activated(registration);
  sessionStorage.setItem(RELOADED, '1');
  if (scope !== new URL(location.pathname, location.href).href) {
    location.assign(`${scope}${location.search}${location.hash}`);  // the folder's address: its index.html is the page isolated
    return new Promise(() => {});
  }
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  }
  location.reload();
  return new Promise(() => {});  // the page is going away
}

function activated(registration) {
  const worker = registration.installing ?? registration.waiting ?? registration.active;
  if (!worker || worker.state === 'activated') return Promise.resolve();
  return new Promise((resolve) => worker.addEventListener('statechange', () => worker.state === 'activated' && resolve()));
}

// This origin's registrations of the isolation service worker (any scope: also one an older
// version registered for a whole folder).
export async function isolatingWorker({ serviceWorker = SERVICE_WORKER } = {}) {
  if (!globalThis.isSecureContext || !globalThis.navigator?.serviceWorker) return [];
  const script = new URL(serviceWorker, location.href).href;
  const all = await navigator.serviceWorker.getRegistrations();
  return all.filter((r) => [r.active, r.waiting, r.installing].some((w) => w?.scriptURL === script));
}

// The undo: unregisters every registration of the isolation service worker on this origin and
// reloads the page, which is then served as the host sends it (not isolated on a static host).
// Resolves 'none' when there was nothing to undo.
export async function unisolatePage(options = {}) {
  const registrations = await isolatingWorker(options);
  if (!registrations.length) return 'none';
  await Promise.all(registrations.map((r) => r.unregister()));
  sessionStorage.removeItem(RELOADED);
  location.reload();
  return new Promise(() => {});
}
