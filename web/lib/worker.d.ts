// worker.d.ts — 'transformer-playground/worker' is the training worker's script (web/lib/worker.js,
// on Node: web/lib/node/worker.js). It exports nothing: createTrainingSession() starts it, and
// a page that serves it elsewhere passes that URL as `workerUrl`.
export {};
