// transformer-playground.js — the public JavaScript API (the npm package's entry point):
// the engine's objects (api.js: load, Tokenizer, Task, Model, Trainer, the option tables) and the
// training sessions in a Web Worker (training-session.js), their run records and the trace names.
//
//   import { load, createTrainingSession } from 'transformer-playground';
//
// Full reference: docs/API.md; types: transformer-playground.d.ts.
export * from './api.js';
export { createTrainingSession, TrainingSession } from './training-session.js';
export { RunRecord } from './run-record.js';
export { traceName, parseTraceName } from './trace-names.js';
