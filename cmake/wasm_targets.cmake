# Emscripten targets: the Catch2 suite as tp_tests.js (run under Node) and the Embind module.
# With TP_THREADS (preset wasm-threads) the same targets are built with pthreads: the web module
# as transformer_playground_threads.{js,wasm,worker.js} beside the single-threaded one, and the
# Node programs in build/wasm-threads.

# em++'s link step runs Debian's acorn-optimizer, which finds acorn only through NODE_PATH
# (Debian installs it under /usr/share/nodejs). Every link goes through this launcher.
find_path(TP_NODE_MODULES_DIR NAMES acorn/package.json
          PATHS /usr/share/nodejs /usr/lib/nodejs /usr/lib/node_modules
          NO_DEFAULT_PATH NO_CMAKE_FIND_ROOT_PATH)
if(NOT TP_NODE_MODULES_DIR)
  message(FATAL_ERROR "acorn (needed by em++) not found; run scripts/setup.sh")
endif()
set(CMAKE_CXX_LINKER_LAUNCHER ${CMAKE_COMMAND} -E env "NODE_PATH=${TP_NODE_MODULES_DIR}")

if(TP_BUILD_TESTS)
  enable_testing()
  tp_add_test_program()
  set_target_properties(tp_tests PROPERTIES SUFFIX ".cjs")
  # .cjs: the package is "type": "module", and this glue is CommonJS.
  # NODERAWFS: tests read fixture files straight from disk. EXIT_RUNTIME: Catch2's exit code
  # becomes node's exit code.
  target_link_options(tp_tests PRIVATE
    -sENVIRONMENT=node -sNODERAWFS=1 -sEXIT_RUNTIME=1 -sALLOW_MEMORY_GROWTH=1
    -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=64MB -sTOTAL_STACK=8MB)
  # Linked at -O1: binaryen's whole-program -O3 over the test program takes half a minute per
  # link and shortens its run by about a second. The code under test is LLVM's, compiled -O3 as
  # for the web module, which keeps -O3 at link (the node and browser suites run it).
  target_link_options(tp_tests PRIVATE -O1)
  # Node 20's global fetch() trips the 3.1.6 glue on file paths; the flag turns it off.
  add_test(NAME wasm_catch2 COMMAND node --no-experimental-fetch $<TARGET_FILE:tp_tests>)
  # Threads for the [threads] suites (which run up to three): workers made before main() runs,
  # since a thread started later needs the event loop that main() is blocking.
  if(TP_THREADS)
    target_link_options(tp_tests PRIVATE -sPTHREAD_POOL_SIZE=4)
  endif()
endif()
if(TP_THREADS)
  # Each thread of a Node program runs <program>.worker.js, CommonJS like the program; without
  # this the repository's "type": "module" would make Node read it as an ES module.
  file(WRITE "${CMAKE_BINARY_DIR}/package.json" "{ \"type\": \"commonjs\" }\n")
endif()

file(GLOB TP_BINDING_SOURCES CONFIGURE_DEPENDS src/bindings/*.cpp)
if(TP_BINDING_SOURCES)
  add_executable(tp_web ${TP_BINDING_SOURCES})
  target_link_libraries(tp_web PRIVATE tp_core)
  tp_set_warnings(tp_web)
  # One ES-module build serves browsers, workers and Node (Node passes wasmBinary itself).
  # DYNAMIC_EXECUTION=0 keeps `new Function` out of the glue for strict CSP pages.
  # MAXIMUM_MEMORY=4GB (the default is 2 GB): an imported GPT-2 small holds 500 MB of weights
  # plus its file while loading; addresses above 2 GB reach JavaScript as numbers (see
  # web/lib/model-files.js), never as negative int32s.
  target_link_options(tp_web PRIVATE
    --bind -sMODULARIZE=1 -sEXPORT_ES6=1 -sENVIRONMENT=web,worker
    -sEXPORT_NAME=createTransformerPlaygroundModule -sDYNAMIC_EXECUTION=0
    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=32MB -sFILESYSTEM=0 -sTOTAL_STACK=2MB)
  set(web_name transformer_playground)
  if(TP_THREADS)
    # The loader (web/lib/engine.js) says how many workers to prepare, as `tpWorkers` in the
    # module arguments: threads cannot be started later while the training worker is busy.
    target_link_options(tp_web PRIVATE -sPTHREAD_POOL_SIZE=Module.tpWorkers|0)
    set(web_name transformer_playground_threads)
  endif()
  set_target_properties(tp_web PROPERTIES
    OUTPUT_NAME ${web_name}
    SUFFIX ".js"
    RUNTIME_OUTPUT_DIRECTORY "${PROJECT_SOURCE_DIR}/web/lib/wasm")
endif()

tp_add_bench_program()
set_target_properties(tp_bench PROPERTIES SUFFIX ".cjs")
# --profiling-funcs keeps function names, so `perf record node --perf-basic-prof ...` names the
# wasm functions (it changes no code).
target_link_options(tp_bench PRIVATE -sENVIRONMENT=node -sNODERAWFS=1 -sEXIT_RUNTIME=1
                    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=64MB --profiling-funcs)
if(TP_THREADS)
  target_link_options(tp_bench PRIVATE -sPTHREAD_POOL_SIZE=8)  # --threads up to 9
endif()

# The same benchmark program for browsers (bench/browser/tp-bench.html runs it in a module worker
# of Chromium or Firefox): an ES module whose callMain(args) runs `tp_bench <args>`, printing
# through the page's print callback. Same objects and kernels as tp_bench.cjs and the web module,
# so one engine's figures can be set beside another's for the same code.
add_executable(tp_bench_web $<TARGET_OBJECTS:tp_bench_objects>)
target_link_libraries(tp_bench_web PRIVATE tp_core)
set_target_properties(tp_bench_web PROPERTIES SUFFIX ".mjs")
target_link_options(tp_bench_web PRIVATE -sMODULARIZE=1 -sEXPORT_ES6=1 -sENVIRONMENT=web,worker
                    -sEXPORT_NAME=createTpBench -sINVOKE_RUN=0 -sEXIT_RUNTIME=0 -sEXPORTED_RUNTIME_METHODS=callMain
                    -sALLOW_MEMORY_GROWTH=1 -sMAXIMUM_MEMORY=4GB -sINITIAL_MEMORY=64MB -sFILESYSTEM=0 --profiling-funcs)
if(TP_THREADS)
  target_link_options(tp_bench_web PRIVATE -sPTHREAD_POOL_SIZE=3)  # --threads up to 4
endif()
