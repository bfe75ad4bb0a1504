# TP_WIDE=ON (preset native-wide): the wide native matmul kernels, AVX2 and AVX-512 with FMA,
# chosen at run time from the CPU (src/kernels/wide/, put in the kernel table by
# src/kernels/dispatch.cpp). Each kernel file gets only the flags of its instruction set, so an
# AVX2-only CPU never meets an AVX-512 instruction; the dispatcher is compiled for the baseline.
# Ignored for wasm, which has one 128-bit path.
if(TP_WIDE AND NOT EMSCRIPTEN)
  target_sources(tp_core PRIVATE
    src/kernels/wide/avx2.cpp
    src/kernels/wide/avx512.cpp)
  set_source_files_properties(src/kernels/wide/avx2.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx2;-mfma")
  # (-Wno-maybe-uninitialized: GCC 12's own avx512fintrin.h trips it through _mm512_undefined.)
  set_source_files_properties(src/kernels/wide/avx512.cpp PROPERTIES
    COMPILE_OPTIONS "-mavx512f;-mavx2;-mfma;-Wno-maybe-uninitialized")
  # Their instruction-set flags differ from the core's, so the core's precompiled header does
  # not fit them.
  set_source_files_properties(src/kernels/wide/avx2.cpp src/kernels/wide/avx512.cpp PROPERTIES
    SKIP_PRECOMPILE_HEADERS ON)
  target_compile_definitions(tp_core PUBLIC TP_WIDE=1)
endif()
