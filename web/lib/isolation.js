// isolation.js — cross-origin isolation for a page on a static host, through a service worker
// (web/isolation-sw.js), so the training worker can run the threaded module there too:
//
//   import { isolatePage } from './lib/isolation.js';
//   button.onclick = () => isolatePage();   // registers the worker, reloads once
//
// Servers that can send headers need none of this: Cross-Origin-Opener-Policy: same-origin and
// Cross-Origin-Embedder-Policy: require-corp on every response isolate a page (npm start does).
// The service worker stays registered, so later visits are isolated from the first request.
// Only a page may call this, for itself — a widget must never register a service worker in a
// page that is not its own.

const RELOADED = 'transformer-playground:isolation-reload';  // sessionStorage: isolatePage() reloaded this tab

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

// Registers the service worker and reloads the page once it controls it; resolves with
// isolationStatus() when nothing is done, or rejects with the registration's error. The reload
// is guarded: if a reloaded page is still not isolated (a browser that ignores the headers),
// it does not reload again and resolves 'failed'.
export async function isolatePage({ serviceWorker = new URL('../isolation-sw.js', import.meta.url) } = {}) {
  const status = isolationStatus();
  if (status !== 'possible') return status;
  if (sessionStorage.getItem(RELOADED)) {
    sessionStorage.removeItem(RELOADED);
    return 'failed';
  }
  await navigator.serviceWorker.register(serviceWorker);
  await navigator.serviceWorker.ready;
  if (!navigator.serviceWorker.controller) {
    await new Promise((resolve) => navigator.serviceWorker.addEventListener('controllerchange', resolve, { once: true }));
  }
  sessionStorage.setItem(RELOADED, '1');
  location.reload();
  return new Promise(() => {});  // the page is going away
}
