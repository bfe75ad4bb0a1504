// transformer-playground.js — the public JavaScript API (the npm package's entry point):
// the engine's objects (api.js: load, Tokenizer, Task, Model, Trainer, the option tables) and the
// training sessions in a Web Worker (training-session.js), their run records, the trace names and
// the run files (history-file.js: a recorded run written to and read from `.tphistory` bytes).
//
//   import { load, createTrainingSession } from 'transformer-playground';
//
// Full reference: docs/API.md; types: transformer-playground.d.ts, emitted from the JSDoc of
// these modules by `npm run generate` (scripts/api_types.mjs), which also re-exports the shapes
// of types.js from it.
export * from './api.js';
export * from './training-session.js';
export { RunRecord } from './run-record.js';
export { traceName, parseTraceName } from './trace-names.js';
export { writeHistory, readHistory, HistoryFileError, HISTORY_PANELS, HISTORY_LIMITS } from './history-file.js';
