// Builds the native and/or wasm targets through the CMake presets.
//
//   node scripts/build.mjs native|native-wide|native-asan|native-tsan|wasm|wasm-single|all
// native-asan is the AddressSanitizer + UBSan build (clang-14) of the tests, the CLI and the
// libFuzzer harnesses; native-tsan the ThreadSanitizer build of the tests (for [threads]); wasm builds both web modules, single-threaded and threaded (wasm-single
// only the first); `all` is native + wasm, what the page and the main test suites need.
// The wasm configure goes through `emcmake`, which supplies Emscripten's toolchain file; the
// NODE_PATH workaround for em++'s link step lives in cmake/wasm_targets.cmake.
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import path from 'node:path';

export const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

function run(cmd, args) {
  const result = spawnSync(cmd, args, { cwd: root, stdio: 'inherit' });
  if (result.error) throw new Error(`${cmd}: ${result.error.message}`);
  if (result.status !== 0) throw new Error(`${cmd} ${args.join(' ')} failed (exit ${result.status})`);
}

const jobs = ['--', '-j2'];

export function buildNative({ wide = false, sanitize = false, tsan = false } = {}) {
  const preset = tsan ? 'native-tsan' : sanitize ? 'native-asan' : wide ? 'native-wide' : 'native';
  if (!existsSync(path.join(root, 'build', preset, 'build.ninja'))) run('cmake', ['--preset', preset]);
  run('cmake', ['--build', '--preset', preset, ...jobs]);
}

// The single-threaded build, and (threads: true) the one with pthreads — every object file
// compiled again with -pthread — for cross-origin isolated pages (web/lib/engine.js chooses).
export function buildWasm({ threads = true } = {}) {
  for (const preset of threads ? ['wasm', 'wasm-threads'] : ['wasm']) {
    if (!existsSync(path.join(root, 'build', preset, 'build.ninja'))) run('emcmake', ['cmake', '--preset', preset]);
    run('cmake', ['--build', '--preset', preset, ...jobs]);
  }
}

const targets = {
  native: () => buildNative(),
  'native-wide': () => buildNative({ wide: true }),
  'native-asan': () => buildNative({ sanitize: true }),
  'native-tsan': () => buildNative({ tsan: true }),
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
