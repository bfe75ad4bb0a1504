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
import os from 'node:os';
import { brotliCompressSync, constants, gzipSync } from 'node:zlib';
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
// (`npm test` builds what its suites run; a plain build, everything). A wasm preset is configured
// without its Catch2 programs only for webOnly on a machine without Catch2 (`npm start`), and
// configured again with them by the next build that needs them.
export function presetCommands(preset, { targets, webOnly = false } = {}) {
  const commands = [];
  const dir = path.join(root, 'build', preset);
  const wasm = preset.startsWith('wasm');
  const configure = (args) => commands.push(wasm ? ['emcmake', ['cmake', ...args]] : ['cmake', args]);
  if (!existsSync(path.join(dir, 'build.ninja'))) {
    const catch2 = existsSync('/usr/include/catch2/catch.hpp') || existsSync('/usr/local/include/catch2/catch.hpp');
    configure(['--preset', preset, ...(wasm ? [`-DTP_BUILD_TESTS=${webOnly && !catch2 ? 'OFF' : 'ON'}`] : [])]);
  } else if (wasm && !webOnly && /^TP_BUILD_TESTS:BOOL=OFF$/m.test(readFileSync(path.join(dir, 'CMakeCache.txt'), 'utf8'))) {
    configure(['--preset', preset, '-DTP_BUILD_TESTS=ON']);
  }
  commands.push(['cmake', ['--build', '--preset', preset, ...(targets ? ['--target', ...targets] : []), '--', `-j${cores}`]]);
  return commands;
}

// What follows a wasm preset's build, as a command: its .wasm compressed beside it, and after the
// single-threaded one (whose glue it holds) the widgets' bundle (`node scripts/build.mjs assets <preset>`).
export function assetCommands(preset, { webOnly = false } = {}) {
  return [[process.execPath, [path.join(root, 'scripts', 'build.mjs'), 'assets', preset, ...(webOnly ? ['--web-only'] : [])]]];
}

function assets(preset, { webOnly = false } = {}) {
  compressWasm([preset === 'wasm-threads' ? 'transformer_playground_threads.wasm' : 'transformer_playground.wasm']);
  // The widgets in one file for plain HTML pages (esbuild, a devDependency; npm start needs none).
  if (preset === 'wasm' && !webOnly) run(process.execPath, [path.join(root, 'scripts', 'bundle.mjs')]);
}

export function buildNative({ wide = false, sanitize = false, tsan = false } = {}) {
  const preset = tsan ? 'native-tsan' : sanitize ? 'native-asan' : wide ? 'native-wide' : 'native';
  for (const [cmd, args] of presetCommands(preset)) run(cmd, args);
}

// The single-threaded build, and (threads: true) the one with pthreads — every object file
// compiled again with -pthread — for cross-origin isolated pages (web/lib/engine.js chooses).
// webOnly: just the two web modules (`npm start`), not the Catch2 programs and benchmarks for
// Node, so neither Catch2 nor their build time is needed; a preset configured that way without
// Catch2 is configured again with its tests by the next full build.
export function buildWasm({ threads = true, webOnly = false } = {}) {
  for (const preset of threads ? ['wasm', 'wasm-threads'] : ['wasm']) {
    for (const [cmd, args] of presetCommands(preset, { webOnly, targets: webOnly ? ['tp_web'] : undefined })) run(cmd, args);
    assets(preset, { webOnly });
  }
}

// Each .wasm beside itself brotli- and gzip-compressed at the highest levels (.wasm.br, .wasm.gz),
// for hosts that serve precompressed files (docs/WIDGETS.md, "Compression"); rewritten only when
// the .wasm is newer.
export function compressWasm(names) {
  const dir = path.join(root, 'web', 'lib', 'wasm');
  for (const name of names ?? readdirSync(dir).filter((f) => f.endsWith('.wasm'))) {
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

if (process.argv[1] === fileURLToPath(import.meta.url) && process.argv[2] === 'assets') {
  try {
    assets(process.argv[3], { webOnly: process.argv.includes('--web-only') });
  } catch (e) {
    console.error(`build.mjs: ${e.message}`);
    process.exit(1);
  }
} else if (process.argv[1] === fileURLToPath(import.meta.url)) {
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
