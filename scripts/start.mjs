// `npm start`: set up what is missing, build the wasm modules (Release; single-threaded and
// threaded), serve web/ cross-origin isolated, so the playground trains on every core.
//   PORT=9000 npm start   serves on another port
import { spawnSync } from 'node:child_process';
import { buildWasm, root } from './build.mjs';
import { serveStatic } from './serve.mjs';

const setup = spawnSync('bash', ['scripts/setup.sh', '--no-browser'], { cwd: root, stdio: 'inherit' });
if (setup.status !== 0) process.exit(1);
try {
  buildWasm();
} catch (e) {
  console.error(`start: ${e.message}`);
  process.exit(1);
}
const port = Number(process.env.PORT ?? 8080);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`start: PORT must be an integer 0-65535, got '${process.env.PORT}'`);
  process.exit(2);
}
serveStatic({ port, isolated: true })
  .then(({ url }) => console.log(`\nTransformer Playground: ${url}  (cross-origin isolated: training uses every core; Ctrl+C stops it)`))
  .catch((e) => {
    console.error(`start: cannot listen on port ${port}: ${e.message}`);
    process.exit(1);
  });
