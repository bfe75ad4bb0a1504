// Builds the native and/or wasm targets through the CMake presets.
//
//   node scripts/build.mjs native|native-wide|native-asan|wasm|wasm-single|all
// native-asan is the AddressSanitizer + UBSan build (clang-14) of the tests, the CLI and the
// libFuzzer harnesses; wasm builds both web modules, single-threaded and threaded (wasm-single
// only the first); `all` is native + wasm, what the page and the main test suites need.
// The wasm configure goes through `emcmake`, which supplies Emscripten's toolchain file; the
// NODE_PATH workaround for em++'s link step lives in cmake/wasm_targets.cmake.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

// The machine's cores: ninja's and ctest's parallelism.
export const cores = Math.max(1, os.availableParallelism?.() ?? os.cpus().length);

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw new Error(`${cmd}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status})`);
}

// The commands that build a preset, each [cmd, args]: its configure step when the build folder
// has none yet (wasm presets through emcmake), then the build, of `targets` only when given
// (`npm test` builds what its suites run; a plain build, everything).
export function presetCommands(preset, { targets } = {}) {
  const commands = [];
  if (!existsSync(path.join(root, 'build', preset, 'build.ninja'))) {
    commands.push(preset.startsWith('wasm') ? ['emcmake', ['cmake', '--preset', preset]] : ['cmake', ['--preset', preset]]);
  }
  commands.push(['cmake', ['--build', '--preset', preset, ...(targets ? ['--target', ...targets] : []), '--', `-j${cores}`]]);
  return commands;
}

export function buildNative({ wide = false, sanitize = false } = {}) {
  const preset = sanitize ? 'native-asan' : wide ? 'native-wide' : 'native';
  for (const [cmd, args] of presetCommands(preset)) run(cmd, args);
}

// The single-threaded build, and (threads: true) the one with pthreads — every object file
// compiled again with -pthread — for cross-origin isolated pages (web/lib/engine.js chooses).
export function buildWasm({ threads = true } = {}) {
  for (const preset of threads ? ['wasm', 'wasm-threads'] : ['wasm']) {
    for (const [cmd, args] of presetCommands(preset)) run(cmd, args);
  }
}

const targets = {
  native: () => buildNative(),
  'native-wide': () => buildNative({ wide: true }),
  'native-asan': () => buildNative({ sanitize: true }),
  wasm: () => buildWasm(),
  'wasm-single': () => buildWasm({ threads: false }),
};

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const what = process.argv[2] ?? 'all';
  const chosen = what === 'all' ? ['native', 'wasm'] : [what];
  for (const name of chosen) {
    if (!targets[name]) {
      console.error(`build.mjs: unknown target '${name}'; allowed: ${Object.keys(targets).join(', ')}, all`);
      process.exit(2);
    }
  }
  try {
    for (const name of chosen) targets[name]();
  } catch (e) {
    console.error(`build.mjs: ${e.message}`);
    process.exit(1);
  }
}
