// seen.js — a promise that resolves once the playground's element is first on screen, so nothing
// heavy (the wasm module, the worker) loads for an element no one has scrolled to.
export class SeenGate {
  #opened = null;  // { promise, resolve }, made by the first wait()

  // Resolves at once when `visible`, otherwise when open() is next called.
  wait(visible) {
    if (visible) return Promise.resolve();
    if (!this.#opened) {
      let resolve;
      const promise = new Promise((r) => (resolve = r));
      this.#opened = { promise, resolve };
    }
    return this.#opened.promise;
  }

  open() {
    this.#opened?.resolve();
  }
}
