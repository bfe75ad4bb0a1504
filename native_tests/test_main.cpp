// Catch2 entry point, shared by the native ctest run and the wasm run under Node.
#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>
