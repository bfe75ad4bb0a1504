# Native targets: the `tp` command line, the Catch2 suite (registered with ctest), benchmarks.

file(GLOB TP_CLI_SOURCES CONFIGURE_DEPENDS src/cli/*.cpp)
if(TP_CLI_SOURCES)
  add_executable(tp ${TP_CLI_SOURCES})
  target_link_libraries(tp PRIVATE tp_core)
  tp_set_warnings(tp)
endif()

tp_add_bench_program()

if(TP_BUILD_TESTS)
  enable_testing()
  find_package(Catch2 REQUIRED)
  include(Catch)
  tp_add_test_program()
  # One ctest entry per TEST_CASE, so the summary counts test cases.
  catch_discover_tests(tp_tests)
  if(TARGET tp)
    add_test(NAME cli_end_to_end
             COMMAND ${CMAKE_COMMAND} -DTP=$<TARGET_FILE:tp> -DWORK=${CMAKE_BINARY_DIR}/cli_test
                     -DDATA=${PROJECT_SOURCE_DIR}/native_tests/data
                     -P ${PROJECT_SOURCE_DIR}/native_tests/cli_test.cmake)
    # tp generate --json on the imported fixtures: valid UTF-8 whatever the byte tokens produce.
    find_program(TP_NODE_FOR_TEXT node)
    if(TP_NODE_FOR_TEXT)
      add_test(NAME cli_text COMMAND ${TP_NODE_FOR_TEXT} ${PROJECT_SOURCE_DIR}/native_tests/cli_text_test.mjs
                                     $<TARGET_FILE:tp> ${PROJECT_SOURCE_DIR}/native_tests/data)
    endif()
    add_test(NAME cli_reliability
             COMMAND ${CMAKE_COMMAND} -DTP=$<TARGET_FILE:tp> -DWORK=${CMAKE_BINARY_DIR}/cli_reliability_test
                     -P ${PROJECT_SOURCE_DIR}/native_tests/cli_reliability_test.cmake)
  endif()
endif()
