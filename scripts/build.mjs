// Builds the native and/or wasm targets through the CMake presets.
//
//   node scripts/build.mjs native|native-wide|native-asan|native-tsan|wasm|wasm-single|web|all
// native-asan is the AddressSanitizer + UBSan build (clang-14) of the tests, the CLI and the
// libFuzzer harnesses; native-tsan the ThreadSanitizer build of the tests (for [threads]); wasm
// builds both web modules, single-threaded and threaded, with the Catch2 programs and benchmarks
// for Node (wasm-single only the first preset); web only the two web modules (what `npm start`
// serves); `all` is native + wasm, what the main test suites need.
// The wasm configure goes through `emcmake`, which supplies Emscripten's toolchain file; the
// NODE_PATH workaround for em++'s link step lives in cmake/wasm_targets.cmake.
import { spawnSync } from 'node:child_process';
import { existsSync, readFileSync, readdirSync, statSync, writeFileSync } from 'node:fs';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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
// webOnly: just the two web modules (`npm start`), not the Catch2 programs and benchmarks for
// Node, so neither Catch2 nor their build time is needed; a preset configured that way without
// Catch2 is configured again with its tests by the next full build.
export function buildWasm({ threads = true, webOnly = false } = {}) {
  const catch2 = existsSync('/usr/include/catch2/catch.hpp') || existsSync('/usr/local/include/catch2/catch.hpp');
  for (const preset of threads ? ['wasm', 'wasm-threads'] : ['wasm']) {
    const dir = path.join(root, 'build', preset);
    const cache = path.join(dir, 'CMakeCache.txt');
    const withoutTests = existsSync(cache) && /^TP_BUILD_TESTS:BOOL=OFF$/m.test(readFileSync(cache, 'utf8'));
    if (!existsSync(path.join(dir, 'build.ninja'))) {
      run('emcmake', ['cmake', '--preset', preset, `-DTP_BUILD_TESTS=${webOnly && !catch2 ? 'OFF' : 'ON'}`]);
    } else if (!webOnly && withoutTests) {
      run('emcmake', ['cmake', '--preset', preset, '-DTP_BUILD_TESTS=ON']);
    }
    run('cmake', ['--build', '--preset', preset, ...(webOnly ? ['--target', 'tp_web'] : []), ...jobs]);
  }
  compressWasm();
  // The widgets in one file for plain HTML pages (esbuild, a devDependency; npm start needs none).
  if (!webOnly) run(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')]);
}

// Each .wasm beside itself brotli- and gzip-compressed at the highest levels (.wasm.br, .wasm.gz),
// for hosts that serve precompressed files (docs/WIDGETS.md, "Compression"); rewritten only when
// the .wasm is newer.
export function compressWasm() {
  const dir = path.join(root, 'web', 'lib', 'wasm');
  for (const name of readdirSync(dir).filter((f) => f.endsWith('.wasm'))) {
    const file = path.join(dir, name);
    const bytes = readFileSync(file);
    const fresh = (out) => existsSync(out) && statSync(out).mtimeMs >= statSync(file).mtimeMs;
    if (!fresh(`${file}.br`)) {
      writeFileSync(`${file}.br`, brotliCompressSync(bytes, { params: { [constants.BROTLI_PARAM_QUALITY]: 11, [constants.BROTLI_PARAM_SIZE_HINT]: bytes.length } }));
    }
    if (!fresh(`${file}.gz`)) writeFileSync(`${file}.gz`, gzipSync(bytes, { level: 9 }));
  }
}

const targets = {
  native: () => buildNative(),
  'native-wide': () => buildNative({ wide: true }),
  'native-asan': () => buildNative({ sanitize: true }),
  'native-tsan': () => buildNative({ tsan: true }),
  wasm: () => buildWasm(),
  'wasm-single': () => buildWasm({ threads: false }),
  web: () => buildWasm({ webOnly: true }),
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
