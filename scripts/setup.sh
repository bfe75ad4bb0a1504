#!/usr/bin/env bash
# Installs what Transformer Playground needs to build and test, only if it is missing.
#
# Idempotent: on a machine that has everything it prints one line and exits. Debian packages:
# emscripten (em++, with acorn for its link step), libsimde-dev (the SIMD layer), catch2 (v2),
# cmake/ninja/g++, gzip, time (peak memory in the CLI tests), clang-14 + libclang-rt-14-dev +
# llvm-14 for the sanitizer builds and the fuzzers (ASan, UBSan, TSan, libFuzzer, the symbolizer),
# clang-format-14 (the C++ style `npm test` checks, scripts/check_format.mjs), and chromium +
# firefox-esr + fonts-nanum for
# the browser tests (the suites run in both engines; skipped with --no-browser); with --bench
# also the benchmark's peer: python3-torch and libopenblas0-pthread (without it Debian's torch
# calls the reference BLAS, about 12x slower, and the comparison would flatter us).
# npm packages: `npm ci` when node_modules does not match package-lock.json; then the tools the
# consumer fixtures build with (Vite, webpack, VitePress, TypeScript; Docusaurus, Astro, Next.js;
# at pinned versions), once per machine into ~/.cache/transformer-playground/ (wasm_tests/consumers/
# install_tools.mjs and tool_cache.mjs; skipped with --no-consumers).
# --serve: only what `npm start` needs to build and serve the playground (Emscripten, SIMDe,
# CMake, Ninja); no compilers for the native build, no sanitizer, browser or npm packages.
set -euo pipefail
cd "$(dirname "$0")/.."

with_browser=1
with_bench=0
with_consumers=1
serve_only=0
for arg in "$@"; do
  case "$arg" in
    --no-browser) with_browser=0 ;;
    --no-consumers) with_consumers=0 ;;
    --bench) with_bench=1 ;;
    --serve) serve_only=1 ;;
    *) echo "setup.sh: unknown option '$arg' (allowed: --no-browser, --no-consumers, --bench, --serve)" >&2; exit 2 ;;
  esac
done

missing=()

# Installs the Debian packages listed in `missing` (none: prints "setup: $1").
install_missing() {
  if [ ${#missing[@]} -eq 0 ]; then
    echo "setup: $1"
    return
  fi
  echo "setup: installing ${missing[*]} with apt-get"
  local sudo=""
  if [ "$(id -u)" != 0 ]; then
    command -v sudo >/dev/null 2>&1 || { echo "setup: need root (or sudo) to install ${missing[*]}" >&2; exit 1; }
    sudo=sudo
  fi
  $sudo apt-get update -qq
  DEBIAN_FRONTEND=noninteractive $sudo apt-get install -y -qq "${missing[@]}" >/dev/null
}

# ---- --serve: what `npm start` needs, and nothing else ---------------------------------------
if [ "$serve_only" = 1 ]; then
  command -v em++ >/dev/null 2>&1 || missing+=(emscripten)
  [ -f /usr/include/simde/x86/sse2.h ] || missing+=(libsimde-dev)
  command -v cmake >/dev/null 2>&1 || missing+=(cmake)
  command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
  install_missing "what npm start needs is present"
  exit 0
fi

command -v em++ >/dev/null 2>&1 || missing+=(emscripten)
[ -f /usr/include/simde/x86/sse2.h ] || missing+=(libsimde-dev)
[ -f /usr/include/catch2/catch.hpp ] || missing+=(catch2)
command -v cmake >/dev/null 2>&1 || missing+=(cmake)
command -v ninja >/dev/null 2>&1 || missing+=(ninja-build)
command -v g++ >/dev/null 2>&1 || missing+=(g++)
command -v gzip >/dev/null 2>&1 || missing+=(gzip)
command -v clang++-14 >/dev/null 2>&1 || missing+=(clang-14)
compgen -G "/usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-*.a" >/dev/null || missing+=(libclang-rt-14-dev)
[ -x /usr/lib/llvm-14/bin/llvm-symbolizer ] || missing+=(llvm-14)
command -v clang-format-14 >/dev/null 2>&1 || missing+=(clang-format-14)
# /usr/bin/time: the CLI tests of hostile model files read a refusal's peak memory from it.
[ -x /usr/bin/time ] || missing+=(time)
if [ "$with_browser" = 1 ]; then
  command -v chromium >/dev/null 2>&1 || missing+=(chromium)
  command -v firefox-esr >/dev/null 2>&1 || missing+=(firefox-esr)
  # A Hangul font, so the Korean UI and text render in the browser tests' screenshots.
  [ -d /usr/share/fonts/truetype/nanum ] || missing+=(fonts-nanum)
fi
if [ "$with_bench" = 1 ]; then
  installed() { dpkg-query -W -f='${Status}' "$1" 2>/dev/null | grep -q 'install ok installed'; }
  installed python3-torch || missing+=(python3-torch)
  installed libopenblas0-pthread || missing+=(libopenblas0-pthread)
fi

install_missing "system packages present"

# npm packages (devDependencies: puppeteer-core, typescript, the tfjs benchmark peer).
lock_hash=$(sha1sum package-lock.json | cut -d' ' -f1)
if [ ! -f node_modules/.tp-lock-hash ] || [ "$(cat node_modules/.tp-lock-hash)" != "$lock_hash" ]; then
  echo "setup: npm ci"
  npm ci --no-audit --no-fund --loglevel=error
  echo "$lock_hash" > node_modules/.tp-lock-hash
else
  echo "setup: node_modules up to date"
fi

# The consumer fixtures' tools, once per machine (each set keyed by its pinned versions).
if [ "$with_consumers" = 1 ]; then
  node wasm_tests/consumers/install_tools.mjs
fi
