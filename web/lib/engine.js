// engine.js — loads the one WebAssembly instance of a page (or Node process) and calls into it.
//
// Every call into the Embind module goes through `call()`: the C++ side never throws into
// JavaScript; it records the error message, and `call()` rethrows it here as a JS Error, so a bad
// input leaves the module as usable as before. Works in browsers, Web Workers and Node (which
// gets the wasm bytes from disk, since the 3.1.6 glue cannot fetch file paths).

let modulePromise = null;

const isNode = typeof process === 'object' && process.versions?.node != null && typeof window === 'undefined';

async function instantiate(options = {}) {
  const { default: createModule } = await import('./wasm/transformer_playground.js');
  const wasmUrl = options.wasmUrl ?? new URL('./wasm/transformer_playground.wasm', import.meta.url);
  const moduleOptions = {};
  if (isNode) {
    const { readFile } = await import('node:fs/promises');
    moduleOptions.wasmBinary = await readFile(wasmUrl);
  } else {
    moduleOptions.locateFile = (file) => (file.endsWith('.wasm') ? String(wasmUrl) : new URL(`./wasm/${file}`, import.meta.url).href);
  }
  return createModule(moduleOptions);
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

// Runs fn(module) and turns an error recorded by the C++ side into a thrown JS Error.
export function call(module, fn) {
  const result = fn(module);
  const message = module.takeError();
  if (message) throw new Error(message);
  return result;
}
