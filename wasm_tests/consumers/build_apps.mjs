// `node wasm_tests/consumers/build_apps.mjs`: every consumer app built from `npm pack` — the
// bundlers' (fixture.mjs) and the documentation sites' (frameworks.mjs) — where it is not built
// yet; `npm test` runs it as soon as the package is built, beside the suites. Each build is the
// one the tests would do themselves, under the same lock.
import { consumers } from './fixture.mjs';
import { TOOLS, frameworkApp } from './frameworks.mjs';

const timed = async (name, fn) => {
  const started = Date.now();
  await fn();
  console.log(`${name}: ready (${((Date.now() - started) / 1000).toFixed(1)} s)`);
};
await timed('vite, webpack, vitepress', consumers);
for (const app of Object.keys(TOOLS)) await timed(app, () => frameworkApp(app));
