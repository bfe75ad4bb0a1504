# Native targets: the `tp` command line, the Catch2 suite (registered with ctest), benchmarks.

file(GLOB TP_CLI_SOURCES CONFIGURE_DEPENDS src/cli/*.cpp)
if(TP_CLI_SOURCES)
  add_executable(tp ${TP_CLI_SOURCES})
  target_link_libraries(tp PRIVATE tp_core)
  tp_set_warnings(tp)
endif()

file(GLOB TP_BENCH_SOURCES CONFIGURE_DEPENDS bench/*.cpp)
if(TP_BENCH_SOURCES)
  add_executable(tp_bench ${TP_BENCH_SOURCES})
  target_link_libraries(tp_bench PRIVATE tp_core)
  target_include_directories(tp_bench PRIVATE ${PROJECT_SOURCE_DIR})
  tp_set_warnings(tp_bench)
endif()

if(TP_BUILD_TESTS)
  enable_testing()
  find_package(Catch2 REQUIRED)
  include(Catch)
  file(GLOB TP_TEST_SOURCES CONFIGURE_DEPENDS native_tests/*.cpp)
  add_executable(tp_tests ${TP_TEST_SOURCES})
  target_link_libraries(tp_tests PRIVATE tp_core)
  target_compile_definitions(tp_tests PRIVATE
    TP_TEST_DATA_DIR="${PROJECT_SOURCE_DIR}/native_tests/data")
  tp_set_warnings(tp_tests)
  # One ctest entry per TEST_CASE, so the summary counts test cases.
  catch_discover_tests(tp_tests)
  if(TARGET tp)
    add_test(NAME cli_end_to_end
             COMMAND ${CMAKE_COMMAND} -DTP=$<TARGET_FILE:tp> -DWORK=${CMAKE_BINARY_DIR}/cli_test
                     -P ${PROJECT_SOURCE_DIR}/native_tests/cli_test.cmake)
  endif()
endif()
