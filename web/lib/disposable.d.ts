// disposable.d.ts — the global declarations of explicit resource management (`using`), for
// TypeScript projects whose "lib" does not list ESNext.Disposable: the same declarations
// TypeScript's lib has, which merge with it. Hand-written (JSDoc cannot declare globals);
// transformer-playground.d.ts references it.
declare global {
  interface SymbolConstructor {
    readonly dispose: unique symbol;
  }
  interface Disposable {
    [Symbol.dispose](): void;
  }
}
export {};
