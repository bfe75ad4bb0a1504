// engine.js — loads the one WebAssembly instance of a page (or Node process) and calls into it.
//
// The .wasm file is fetched and compiled once per page; the compiled WebAssembly.Module can be
// handed to Web Workers (training sessions), which instantiate it without fetching or compiling
// again. Every call into the Embind module goes through `call()`: the C++ side never throws into
// JavaScript; it records the error message, and `call()` rethrows it here as a JS Error, so a bad
// input leaves the module as usable as before. Works in browsers, Web Workers and Node (which
// reads the wasm bytes from disk, since the 3.1.6 glue cannot fetch file paths).

let compiledPromise = null;
let modulePromise = null;
const stats = { compilations: 0, instantiations: 0 };

const isNode = typeof process === 'object' && process.versions?.node != null && typeof window === 'undefined' &&
  typeof importScripts === 'undefined';

function defaultWasmUrl() {
  return new URL('./wasm/transformer_playground.wasm', import.meta.url);
}

// The compiled module, fetched and compiled on first use (or taken from options.compiledModule).
export function compiledModule(options = {}) {
  if (options.compiledModule) return Promise.resolve(options.compiledModule);
  if (!compiledPromise) {
    const url = options.wasmUrl ?? defaultWasmUrl();
    compiledPromise = (async () => {
      stats.compilations += 1;
      if (isNode) {
        const { readFile } = await import('node:fs/promises');
        return WebAssembly.compile(await readFile(url));
      }
      const response = await fetch(url, { credentials: 'same-origin' });
      if (!response.ok) throw new Error(`fetching ${url} failed: HTTP ${response.status}`);
      // Streaming compilation needs the application/wasm type; plain hosts may send another.
      if (WebAssembly.compileStreaming && response.headers.get('content-type')?.startsWith('application/wasm')) {
        return WebAssembly.compileStreaming(response);
      }
      return WebAssembly.compile(await response.arrayBuffer());
    })().catch((error) => {
      compiledPromise = null;
      throw error;
    });
  }
  return compiledPromise;
}

async function instantiate(options = {}) {
  const [{ default: createModule }, compiled] = await Promise.all([import('./wasm/transformer_playground.js'), compiledModule(options)]);
  return createModule({
    // Instantiate from the compiled module: no second fetch, and the same module for workers.
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(compiled, imports).then((instance) => {
        stats.instantiations += 1;
        receiveInstance(instance, compiled);
      });
      return {};
    },
  });
}

// Resolves with the Embind module; the first call instantiates it, later calls share it.
export function loadEngine(options) {
  if (!modulePromise) {
    modulePromise = instantiate(options).catch((error) => {
      modulePromise = null;  // a failed load may be retried
      throw new Error(`Transformer Playground: could not load the WebAssembly module: ${error.message}`);
    });
  }
  return modulePromise;
}

// How many times this realm compiled and instantiated the wasm module (tests check it is once).
export function engineStats() {
  return { ...stats };
}

// Runs fn(module) and turns an error recorded by the C++ side into a thrown JS Error.
export function call(module, fn) {
  const result = fn(module);
  const message = module.takeError();
  if (message) throw new Error(message);
  return result;
}
