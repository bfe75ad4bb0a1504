// `npm start`: set up what is missing for it (scripts/setup.sh --serve: Emscripten, SIMDe, CMake,
// Ninja — no test or browser packages, no npm install), build only what it serves (the two web
// modules, single-threaded and threaded: `node scripts/build.mjs web`), then serve web/
// cross-origin isolated, so the playground trains on every core. Prints how long it took.
//   PORT=9000 npm start   serves on another port
import { spawnSync } from 'node:child_process';
import { buildWasm, root } from './build.mjs';
import { serveStatic } from './serve.mjs';

const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`start: PORT must be an integer 0-65535, got '${process.env.PORT}'`);
  process.exit(2);
}
const began = Date.now();
const setup = spawnSync('bash', ['scripts/setup.sh', '--serve'], { cwd: root, stdio: 'inherit' });
if (setup.status !== 0) process.exit(1);
const setUp = Date.now();
try {
  buildWasm({ webOnly: true });
} catch (e) {
  console.error(`start: ${e.message}`);
  process.exit(1);
}
const seconds = (ms) => `${(ms / 1000).toFixed(1)} s`;
console.log(`start: ready in ${seconds(Date.now() - began)} (set-up ${seconds(setUp - began)}, build ${seconds(Date.now() - setUp)})`);
serveStatic({ port, isolated: true })
  .then(({ url }) => console.log(`\nTransformer Playground: ${url}  (cross-origin isolated: training uses every core; Ctrl+C stops it)`))
  .catch((e) => {
    console.error(`start: cannot listen on port ${port}: ${e.message}`);
    process.exit(1);
  });
