// `node wasm_tests/consumers/install_tools.mjs`: every consumer fixture's tool set into the
// machine's tool cache (tool_cache.mjs), those not there yet; scripts/setup.sh's last step.
import path from 'node:path';
import { TOOL_SET } from './fixture.mjs';
import { TOOL_SETS } from './frameworks.mjs';
import { cacheRoot, installToolSet, isReady, toolSetDir } from './tool_cache.mjs';

try {
  for (const set of [TOOL_SET, ...Object.values(TOOL_SETS)]) {
    const dir = toolSetDir(set);
    if (isReady(dir)) continue;
    const started = Date.now();
    await installToolSet(set);
    console.log(`setup: ${set.name}'s tools installed in ${dir} (${((Date.now() - started) / 1000).toFixed(0)} s)`);
  }
  console.log(`setup: the consumer fixtures' tools are in ${path.join(cacheRoot(), 'tools')}`);
} catch (e) {
  console.error(`setup: installing the consumer fixtures' tools failed: ${e.message}`);
  process.exit(1);
}
