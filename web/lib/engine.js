// engine.js — loads the one WebAssembly instance of a page (or Node process) and calls into it.
//
// The .wasm file is fetched and compiled once per page; the compiled WebAssembly.Module can be
// handed to Web Workers (training sessions), which instantiate it without fetching or compiling
// again. Every call into the Embind module goes through `call()`: the C++ side never throws into
// JavaScript; it records the error message, and `call()` rethrows it here as a JS Error, so a bad
// input leaves the module as usable as before. Works in browsers, Web Workers and Node, whose
// entry (node/platform.js) sets platform.readWasm to read the bytes from disk (the 3.1.6 glue
// cannot fetch file paths); this file names no `node:` module, so browser bundles stay clean.
//
// The .wasm file's URL is the literal `new URL('…', import.meta.url)` form, so Vite, webpack 5 and
// Rollup copy it into a build. The Emscripten glue is a static import (it only defines the
// factory; nothing runs until load()): a worker bundle then needs no code splitting, which Vite
// up to 7 cannot do in its default `iife` worker format.
import { platform } from './platform.js';
import createModule from './wasm/transformer_playground.js';

let compiledPromise = null;
let modulePromise = null;
let loadedFrom = null;  // { wasmUrl } or { compiledModule }: what the first call asked for
const stats = { compilations: 0, instantiations: 0 };

function defaultWasmUrl() {
  return new URL('./wasm/transformer_playground.wasm', import.meta.url);
}

// A realm has one engine, so a later call cannot load another module: options that ask for a
// different one are an error rather than silently ignored (calling without options is fine).
function checkSameSource(options, caller) {
  const asked = [];
  if (options.wasmUrl !== undefined && String(options.wasmUrl) !== loadedFrom.wasmUrl) asked.push(`wasmUrl ${options.wasmUrl}`);
  if (options.compiledModule !== undefined && options.compiledModule !== loadedFrom.compiledModule) asked.push('another compiledModule');
  if (!asked.length) return;
  const loaded = loadedFrom.wasmUrl ? `from ${loadedFrom.wasmUrl}` : 'from a compiledModule';
  throw new Error(`${caller}: the WebAssembly module is already loaded (${loaded}), and this call asks for ${asked.join(' and ')}; ` +
    "a page, worker or process has one engine and only the first call's options choose it. Call it without options to share the loaded one.");
}

// The compiled module, fetched and compiled on first use (or taken from options.compiledModule).
export function compiledModule(options = {}, caller = 'compiledModule()') {
  if (compiledPromise) {
    try {
      checkSameSource(options, caller);
    } catch (error) {
      return Promise.reject(error);
    }
    return compiledPromise;
  }
  if (options.compiledModule !== undefined) {
    if (!(options.compiledModule instanceof WebAssembly.Module)) {
      return Promise.reject(new Error(`${caller}: compiledModule must be a WebAssembly.Module (from compiledModule()), got ${typeof options.compiledModule}`));
    }
    loadedFrom = { compiledModule: options.compiledModule };
    compiledPromise = Promise.resolve(options.compiledModule);
    return compiledPromise;
  }
  const url = options.wasmUrl ?? defaultWasmUrl();
  loadedFrom = { wasmUrl: String(url) };
  compiledPromise = (async () => {
    stats.compilations += 1;
    if (platform.readWasm) return WebAssembly.compile(await platform.readWasm(url));
    if (String(url).startsWith('file:')) {
      throw new Error(`${url} is a file: browsers fetch the module over http(s); in Node import 'transformer-playground' ` +
        '(its Node entry, web/lib/node/transformer-playground.js, reads the file from disk)');
    }
    const response = await fetch(url, { credentials: 'same-origin' });
    if (!response.ok) throw new Error(`fetching ${url} failed: HTTP ${response.status}`);
    // Streaming compilation needs the application/wasm type; plain hosts may send another.
    if (WebAssembly.compileStreaming && response.headers.get('content-type')?.startsWith('application/wasm')) {
      return WebAssembly.compileStreaming(response);
    }
    return WebAssembly.compile(await response.arrayBuffer());
  })().catch((error) => {
    compiledPromise = null;  // a failed load may be retried, with any options
    loadedFrom = null;
    throw error;
  });
  return compiledPromise;
}

async function instantiate(options) {
  const compiled = await compiledModule(options, 'load()');
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
export function loadEngine(options = {}) {
  if (modulePromise) {
    try {
      checkSameSource(options, 'load()');
    } catch (error) {
      return Promise.reject(error);
    }
  } else {
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
