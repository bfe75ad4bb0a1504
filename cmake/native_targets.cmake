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
  # One ctest entry per TEST_CASE, so the summary counts test cases. --warn NoTests: an entry
  # whose name matches no case fails instead of passing with nothing run (CMake's lists split a
  # name at ';', so a test name must not hold one).
  catch_discover_tests(tp_tests EXTRA_ARGS --warn NoTests)
  if(TARGET tp)
    add_test(NAME cli_end_to_end
             COMMAND ${CMAKE_COMMAND} -DTP=$<TARGET_FILE:tp> -DWORK=${CMAKE_BINARY_DIR}/cli_test
                     -DDATA=${PROJECT_SOURCE_DIR}/native_tests/data
                     -P ${PROJECT_SOURCE_DIR}/native_tests/cli_test.cmake)
    # Hostile model files through the CLI, one entry per case (native_tests/cli_hostile_test.mjs):
    # messages, peak memory (2 x the files + 64 MB; not under the sanitizers, whose shadow memory
    # is not the program's) and what is read.
    find_program(TP_NODE node)
    if(TP_NODE)
      execute_process(COMMAND ${TP_NODE} ${PROJECT_SOURCE_DIR}/native_tests/cli_hostile_test.mjs --list
                      OUTPUT_VARIABLE TP_HOSTILE_CASES OUTPUT_STRIP_TRAILING_WHITESPACE RESULT_VARIABLE listed)
      if(NOT listed EQUAL 0)
        message(FATAL_ERROR "native_tests/cli_hostile_test.mjs --list failed")
      endif()
      set(memory_flag "")
      if(TP_SANITIZE)
        set(memory_flag --no-memory)
      endif()
      foreach(hostile_case IN LISTS TP_HOSTILE_CASES)
        add_test(NAME cli_hostile.${hostile_case}
                 COMMAND ${TP_NODE} ${PROJECT_SOURCE_DIR}/native_tests/cli_hostile_test.mjs $<TARGET_FILE:tp>
                         ${hostile_case} ${CMAKE_BINARY_DIR}/cli_hostile ${memory_flag})
      endforeach()
      set_property(DIRECTORY APPEND PROPERTY CMAKE_CONFIGURE_DEPENDS ${PROJECT_SOURCE_DIR}/native_tests/cli_hostile_test.mjs
                                                                    ${PROJECT_SOURCE_DIR}/native_tests/hostile_models.mjs)
      # tp generate --json on the imported fixtures: valid UTF-8 whatever the byte tokens produce.
      add_test(NAME cli_text COMMAND ${TP_NODE} ${PROJECT_SOURCE_DIR}/native_tests/cli_text_test.mjs
                                     $<TARGET_FILE:tp> ${PROJECT_SOURCE_DIR}/native_tests/data)
    else()
      message(WARNING "node not found: the cli_hostile and cli_text tests are not registered")
    endif()
    add_test(NAME cli_reliability
             COMMAND ${CMAKE_COMMAND} -DTP=$<TARGET_FILE:tp> -DWORK=${CMAKE_BINARY_DIR}/cli_reliability_test
                     -P ${PROJECT_SOURCE_DIR}/native_tests/cli_reliability_test.cmake)
  endif()
endif()
