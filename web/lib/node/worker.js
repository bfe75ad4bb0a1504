// node/worker.js — the training worker on Node's worker_threads (started by node/platform.js):
// web/lib/worker.js itself, given the Web Worker globals it expects first.
import './worker-scope.js';
import './platform.js';  // Node's platform in this thread too: the threaded module's pthreads
import '../worker.js';
