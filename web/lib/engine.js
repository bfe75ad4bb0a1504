// engine.js — loads the one WebAssembly instance of a page (or Node process) and calls into it.
//
// Two builds of the module sit in wasm/: transformer_playground (one thread, runs anywhere) and
// transformer_playground_threads (pthreads: it needs SharedArrayBuffer, which browsers give only
// to cross-origin isolated pages, and their workers). threadSupport() says which this realm can
// run; load({ threads }) picks the build — the threaded one for threads > 1 — and says clearly
// why when threads > 1 is not possible here.
//
// The .wasm file is fetched and compiled once per page; the compiled WebAssembly.Module can be
// handed to Web Workers (training sessions), which instantiate it without fetching or compiling
// again. Every call into the Embind module goes through `call()`: the C++ side never throws into
// JavaScript; it records the error message, and `call()` rethrows it here as a JS Error, so a bad
// input leaves the module as usable as before. Works in browsers, Web Workers and Node, whose
// entry (node/platform.js) sets platform.readWasm to read the bytes from disk (the 3.1.6 glue
// cannot fetch file paths); this file names no `node:` module, so browser bundles stay clean.
// Node runs the threaded build too, its pthreads on worker_threads (platform.pthreads).
//
// The .wasm files' URLs are the literal `new URL('…', import.meta.url)` form, so Vite, webpack 5
// and Rollup copy them into a build. The single-threaded glue is a static import (it only
// defines the factory; nothing runs until load()): a worker bundle then needs no code splitting,
// which Vite up to 7 cannot do in its default `iife` worker format. The threaded glue is
// imported at run time from beside this file, hidden from bundlers: its own pthread workers are
// found the same way, which a bundle could not keep, so a bundled page runs on one thread
// (createTrainingSession() falls back to it and says why).
import { platform } from './platform.js';
import { isCrossOrigin, workerBlobUrl } from './cross-origin.js';
import createSingleModule from './wasm/transformer_playground.js';

const compiledPromises = {};  // by build: 'single' | 'threads'
let modulePromise = null;
let loadedFrom = null;  // { build, wasmUrl } or { build, compiledModule }: what the first load() asked for
const stats = { compilations: 0, instantiations: 0 };

const BUILDS = {
  single: {
    glue: async () => createSingleModule,
    wasmUrl: () => new URL('./wasm/transformer_playground.wasm', import.meta.url),
  },
  threads: {
    glueUrl: () => new URL('./wasm/transformer_playground_threads.js', import.meta.url),
    glue: async () => (await import(/* @vite-ignore */ /* webpackIgnore: true */ BUILDS.threads.glueUrl().href)).default,
    wasmUrl: () => new URL('./wasm/transformer_playground_threads.wasm', import.meta.url),
  },
};

// The most threads a module is prepared for (each is a Web Worker holding the module).
export const MAX_THREADS = 64;

/** @import { EngineOptions, ThreadSupport } from './types.js' */

/**
 * Whether this page, worker or process can run the threaded module: `reason` (when not
 * available) 'node' (a Node that cannot start its threads), 'not-isolated' or
 * 'no-shared-memory'; `cores` what the machine reports.
 * @returns {ThreadSupport}
 */
export function threadSupport() {
  if (platform.readWasm) {
    const { available, cores } = platform.pthreads;
    return { available, reason: available ? null : 'node', cores: Math.max(1, Math.min(MAX_THREADS, cores)) };
  }
  const cores = Math.max(1, Math.min(MAX_THREADS, globalThis.navigator?.hardwareConcurrency ?? 1));
  if (globalThis.crossOriginIsolated !== true) return { available: false, reason: 'not-isolated', cores };
  if (typeof SharedArrayBuffer !== 'function') return { available: false, reason: 'no-shared-memory', cores };
  return { available: true, reason: null, cores };
}

const WHY_NOT = {
  node: "this Node cannot start the module's threads (worker_threads)",
  'not-isolated': 'this page is not cross-origin isolated (it needs Cross-Origin-Opener-Policy: same-origin and ' +
    'Cross-Origin-Embedder-Policy: require-corp or credentialless, on the page and on every worker script)',
  'no-shared-memory': 'this browser has no SharedArrayBuffer',
};

// The thread count for an options.threads value: a whole number from 1 to MAX_THREADS, or
// undefined (1). Throws an Error saying what is allowed here when threads > 1 is not possible.
export function resolveThreads(threads, support = threadSupport()) {
  if (threads === undefined) return 1;
  if (!Number.isInteger(threads) || threads < 1 || threads > MAX_THREADS) {
    const got = typeof threads === 'number' ? `the number ${threads}` : typeof threads === 'string' ? `the string '${threads}'` : typeof threads;
    throw new Error(`threads must be a whole number from 1 to ${MAX_THREADS}, got ${got}`);
  }
  if (threads > 1 && !support.available) {
    throw new Error(`threads: ${threads} is not possible here: ${WHY_NOT[support.reason]}; allowed here: threads: 1`);
  }
  return threads;
}

const buildFor = (threads) => (threads > 1 ? 'threads' : 'single');
const buildName = (build) => (build === 'threads' ? 'threaded' : 'single-threaded');

// A realm has one engine, so a later call cannot load another module: options that ask for a
// different one are an error rather than silently ignored (calling without options is fine).
function checkSameSource(options, caller, build) {
  const asked = [];
  if (build !== undefined && build !== loadedFrom.build) asked.push(`the ${buildName(build)} module`);
  if (options.wasmUrl !== undefined && String(options.wasmUrl) !== loadedFrom.wasmUrl) asked.push(`wasmUrl ${options.wasmUrl}`);
  if (options.compiledModule !== undefined && options.compiledModule !== loadedFrom.compiledModule) asked.push('another compiledModule');
  if (!asked.length) return;
  const loaded = loadedFrom.wasmUrl ? `from ${loadedFrom.wasmUrl}` : `from a compiledModule, ${buildName(loadedFrom.build)}`;
  throw new Error(`${caller}: the WebAssembly module is already loaded (${loaded}), and this call asks for ${asked.join(' and ')}; ` +
    "a page, worker or process has one engine and only the first call's options choose it. Call it without options to share the loaded one.");
}

/**
 * The page's compiled WebAssembly.Module (fetched and compiled once per realm), to share with
 * workers: of the threaded build when options.threads > 1, or options.compiledModule.
 * @param {EngineOptions} [options]
 * @param {string} [caller] who asks, for the messages
 * @returns {Promise<WebAssembly.Module>}
 */
export function compiledModule(options = {}, caller = 'compiledModule()') {
  if (options.compiledModule !== undefined && !(options.compiledModule instanceof WebAssembly.Module)) {
    return Promise.reject(new Error(`${caller}: compiledModule must be a WebAssembly.Module (from compiledModule()), got ${typeof options.compiledModule}`));
  }
  if (options.compiledModule !== undefined) return Promise.resolve(options.compiledModule);
  const build = buildFor(options.threads ?? 1);
  if (compiledPromises[build]) return compiledPromises[build];
  const url = options.wasmUrl ?? BUILDS[build].wasmUrl();
  compiledPromises[build] = (async () => {
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
    delete compiledPromises[build];  // a failed load may be retried, with any options
    throw error;
  });
  return compiledPromises[build];
}

// Where the threaded glue is on another origin (a CDN), its pthread workers cannot start from
// their script directly: each starts from a same-origin blob: that importScripts() the real
// worker script, told where the glue is (mainScriptUrlOrBlob), since a blob has no folder.
function pthreadLocations() {
  const glue = BUILDS.threads.glueUrl();
  if (!isCrossOrigin(glue)) return {};
  return {
    mainScriptUrlOrBlob: glue.href,
    locateFile: (file) => (file.endsWith('.worker.js') ? workerBlobUrl(new URL(file, glue), 'classic') : new URL(file, glue).href),
  };
}

async function instantiate(options, threads) {
  const build = buildFor(threads);
  const [createModule, compiled] = await Promise.all([BUILDS[build].glue(), compiledModule({ ...options, threads }, 'load()')]);
  // In Node the glue's pthreads are worker_threads threads (node/pthreads.js), lent while it starts them.
  const nodeThreads = build === 'threads' ? platform.pthreads : null;
  const restore = nodeThreads?.install();
  try {
    return await start(createModule, compiled, build, threads, nodeThreads);
  } finally {
    restore?.();
  }
}

const nodeWarning = (text) => {
  if (!text.startsWith('Blocking on the main thread')) console.warn(text);
};

async function start(createModule, compiled, build, threads, nodeThreads) {
  const module = await createModule({
    // Instantiate from the compiled module: no second fetch, and the same module for workers.
    instantiateWasm(imports, receiveInstance) {
      WebAssembly.instantiate(compiled, imports).then((instance) => {
        stats.instantiations += 1;
        receiveInstance(instance, compiled);
      });
      return {};
    },
    // The threaded glue starts this many workers before it resolves (PTHREAD_POOL_SIZE).
    tpWorkers: threads - 1,
    ...(build === 'threads' && !nodeThreads ? pthreadLocations() : {}),
    // Where the pthread script import()s the glue from (Node runs it outside the glue's folder).
    // Node's main thread may block on its threads (the glue's warning is for a browser's UI thread).
    ...(nodeThreads ? { mainScriptUrlOrBlob: BUILDS.threads.glueUrl().href, printErr: nodeWarning } : {}),
  });
  if (build === 'threads') {
    call(module, (m) => m.setThreadLimit(threads));
    call(module, (m) => m.setThreads(threads));
  }
  nodeThreads?.settle();
  return module;
}

// Resolves with the Embind module; the first call instantiates it (the threaded build when
// options.threads > 1), later calls share it.
export function loadEngine(options = {}) {
  let threads;
  try {
    threads = resolveThreads(options.threads);
  } catch (error) {
    return Promise.reject(error);
  }
  if (modulePromise) {
    try {
      checkSameSource(options, 'load()', options.threads === undefined ? undefined : buildFor(threads));
    } catch (error) {
      return Promise.reject(error);
    }
    return modulePromise;
  }
  loadedFrom = options.compiledModule !== undefined ? { build: buildFor(threads), compiledModule: options.compiledModule }
    : { build: buildFor(threads), wasmUrl: String(options.wasmUrl ?? BUILDS[buildFor(threads)].wasmUrl()) };
  modulePromise = instantiate(options, threads).catch((error) => {
    modulePromise = null;  // a failed load may be retried
    loadedFrom = null;
    throw new Error(`Transformer Playground: could not load the WebAssembly module: ${error.message}`);
  });
  return modulePromise;
}

/**
 * How many times this realm compiled and instantiated the wasm module (tests check it is once).
 * @returns {{ compilations: number, instantiations: number }}
 */
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
