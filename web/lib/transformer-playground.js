// transformer-playground.js — the public JavaScript API (the npm package's entry point).
//
//   import { load } from 'transformer-playground';
//   const tp = await load();   // one wasm instance per page or process; later calls return it
//   tp.version; tp.kernelSelfCheck();
//
// Full reference: docs/API.md. Works in browsers, Web Workers and Node 20+.
import { loadEngine, call } from './engine.js';

let apiPromise = null;

function makeApi(module) {
  return Object.freeze({
    version: module.version(),
    // Runs the SIMD kernels against the scalar reference in this very runtime.
    kernelSelfCheck(seed = 1) {
      if (!Number.isInteger(seed) || seed < 0) throw new Error(`kernelSelfCheck: seed must be a non-negative integer, got ${seed}`);
      return call(module, (m) => m.kernelSelfCheck(seed));
    },
  });
}

export function load(options) {
  if (!apiPromise) {
    apiPromise = loadEngine(options).then(makeApi, (error) => {
      apiPromise = null;
      throw error;
    });
  }
  return apiPromise;
}
