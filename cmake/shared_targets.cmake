# The programs both targets build from the same sources; cmake/native_targets.cmake and
# cmake/wasm_targets.cmake add what differs (ctest registration natively; .cjs and link options
# for Node in wasm).
#   tp_add_test_program()   the Catch2 suite as `tp_tests`
#   tp_add_bench_program()  the benchmarks as `tp_bench` (from the object library tp_bench_objects,
#                           which the wasm build also links as `tp_bench_web` for browsers)
#
# The threaded wasm build (TP_THREADS) and the ThreadSanitizer build (TP_TSAN) compile only the
# test files with a [threads] case, and run only those cases: every other case is the
# single-threaded build's, which computes the same bits. (The native, sanitizer and
# single-threaded wasm builds compile every file.) A file joins them by tagging a case [threads];
# each test file is a configure dependency, so the list follows.
# The sanitizer build (TP_SANITIZE) defines TP_TEST_SHORT_TRAINING: its cases train at most a
# few steps (native_tests/test_util.h, docs/TESTING.md).
function(tp_add_test_program)
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/native_tests/*.cpp)
  if((EMSCRIPTEN AND TP_THREADS) OR TP_TSAN)
    set(threaded ${PROJECT_SOURCE_DIR}/native_tests/test_main.cpp)
    foreach(source ${sources})
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${source})
      file(STRINGS ${source} tagged REGEX "\"(\\[[a-z]+\\])*\\[threads\\]")
      if(tagged)
        list(APPEND threaded ${source})
      endif()
    endforeach()
    list(REMOVE_DUPLICATES threaded)
    set(sources ${threaded})
  endif()
  if(TP_TSAN)
    # ThreadSanitizer's runtime defines operator new/delete itself, which the allocation-counting
    # test replaces; that test is about allocations, not threads, and runs in every other build.
    list(FILTER sources EXCLUDE REGEX "/test_allocation\\.cpp$")
  endif()
  add_executable(tp_tests ${sources})
  # Catch2's own implementation (CATCH_CONFIG_MAIN) is the largest file of every configuration's
  # build, and none of the code under test: -O1 compiles it in a fraction of -O3's time.
  set_source_files_properties(${PROJECT_SOURCE_DIR}/native_tests/test_main.cpp PROPERTIES COMPILE_OPTIONS -O1
                              SKIP_UNITY_BUILD_INCLUSION ON)
  # The test files are compiled eight to a translation unit (CMake's unity build): each file
  # otherwise parses catch.hpp and the standard headers and compiles the same Catch2 templates
  # again. A name a test file keeps to itself (anonymous namespace) must therefore be unique among
  # the test files (docs/ARCHITECTURE.md, "Build time").
  set_target_properties(tp_tests PROPERTIES UNITY_BUILD ON UNITY_BUILD_BATCH_SIZE 8)
  target_link_libraries(tp_tests PRIVATE tp_core)
  target_compile_definitions(tp_tests PRIVATE TP_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/native_tests/data")
  if(TP_SANITIZE)
    target_compile_definitions(tp_tests PRIVATE TP_TEST_SHORT_TRAINING)
  endif()
  tp_set_warnings(tp_tests)
endfunction()

function(tp_add_bench_program)
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/bench/*.cpp)
  add_library(tp_bench_objects OBJECT ${sources})
  target_link_libraries(tp_bench_objects PRIVATE tp_core)
  target_include_directories(tp_bench_objects PRIVATE ${PROJECT_SOURCE_DIR})
  tp_set_warnings(tp_bench_objects)
  add_executable(tp_bench $<TARGET_OBJECTS:tp_bench_objects>)
  target_link_libraries(tp_bench PRIVATE tp_core)
endfunction()
