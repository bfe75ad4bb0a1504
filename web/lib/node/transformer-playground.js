// node/transformer-playground.js — the package's entry in Node (the "node" export condition):
// the same API as web/lib/transformer-playground.js, with the .wasm file read from disk and
// training sessions on worker_threads (node/platform.js). Browser bundles never reach this file,
// so they never see a `node:` import.
import './platform.js';

export * from '../transformer-playground.js';
