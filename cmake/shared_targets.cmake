# The programs both targets build from the same sources; cmake/native_targets.cmake and
# cmake/wasm_targets.cmake add what differs (ctest registration natively; .cjs and link options
# for Node in wasm).
#   tp_add_test_program()   the Catch2 suite as `tp_tests`
#   tp_add_bench_program()  the benchmarks as `tp_bench` (from the object library tp_bench_objects,
#                           which the wasm build also links as `tp_bench_web` for browsers)
function(tp_add_test_program)
  file(GLOB sources CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/native_tests/*.cpp)
  # ThreadSanitizer's runtime defines operator new/delete itself, which the allocation-counting
  # test replaces; that test is about allocations, not threads, and runs in every other build.
  if(TP_TSAN)
    list(FILTER sources EXCLUDE REGEX "/test_allocation\\.cpp$")
  endif()
  add_executable(tp_tests ${sources})
  target_link_libraries(tp_tests PRIVATE tp_core)
  target_compile_definitions(tp_tests PRIVATE TP_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/native_tests/data")
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
