# TP_SANITIZE=ON (preset native-asan): AddressSanitizer + UndefinedBehaviorSanitizer for every
# target of the native build, and TP_FUZZ=ON: the libFuzzer harnesses in fuzz/ on top of it.
#
# Both need clang (Debian's clang-14 + libclang-rt-14-dev, installed by scripts/setup.sh): GCC has
# no libFuzzer, and one compiler for the core, the tests and the harnesses lets one build serve
# all of them. UBSan stops at the first report (-fno-sanitize-recover=all), so a report fails the
# test that caused it instead of scrolling past. With TP_FUZZ the core also gets libFuzzer's
# coverage instrumentation (fuzzer-no-link), which the Catch2 binary links without harm: the
# ASan runtime supplies the coverage callbacks, so tests and harnesses share one compiled core.
option(TP_SANITIZE "Build every native target with AddressSanitizer + UBSan (clang)" OFF)
option(TP_TSAN "Build every native target with ThreadSanitizer (clang; preset native-tsan)" OFF)
option(TP_FUZZ "Build the libFuzzer harnesses in fuzz/ (needs TP_SANITIZE)" OFF)

if(TP_FUZZ AND NOT TP_SANITIZE)
  message(FATAL_ERROR "TP_FUZZ needs TP_SANITIZE=ON (the harnesses run under ASan + UBSan); use the native-asan preset")
endif()

if(TP_SANITIZE)
  if(EMSCRIPTEN OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TP_SANITIZE needs a native clang build (got ${CMAKE_CXX_COMPILER_ID}); "
                        "use the native-asan preset, which selects clang++-14")
  endif()
  set(TP_SANITIZER_FLAGS -fsanitize=address,undefined -fno-sanitize-recover=all)
  add_compile_options(${TP_SANITIZER_FLAGS} -fno-omit-frame-pointer -gline-tables-only)
  add_link_options(${TP_SANITIZER_FLAGS})
  # Parameters a loader leaves unset start as NaN here (core/params.h), so a value it never
  # writes fails the finite-weight checks and the load tests instead of reading as zero.
  add_compile_definitions(TP_POISON_UNSET_PARAMETERS)
  if(TP_FUZZ)
    add_compile_options(-fsanitize=fuzzer-no-link)
  endif()
endif()

# TP_TSAN=ON (preset native-tsan): ThreadSanitizer, for the [threads] Catch2 cases that drive the
# hand-written lock-free thread pool (core/thread_pool.cpp). A separate build: TSan cannot be
# combined with ASan. Reports stop the run (halt_on_error, set where the tests are run).
if(TP_TSAN)
  if(TP_SANITIZE OR EMSCRIPTEN OR NOT CMAKE_CXX_COMPILER_ID STREQUAL "Clang")
    message(FATAL_ERROR "TP_TSAN needs a native clang build without TP_SANITIZE; use the native-tsan preset")
  endif()
  add_compile_options(-fsanitize=thread -fno-omit-frame-pointer -gline-tables-only)
  add_link_options(-fsanitize=thread)
endif()
