// The kernels this process runs, chosen once from the CPU and kept in one table — highway's
// HWY_DYNAMIC_DISPATCH idea: every entry point of kernels.h that has more than one
// implementation calls through kernel_table(), and nothing else looks at CPU features.
//
//   simd128      the SIMDe 128-bit kernels: what wasm runs, and what native tests test
//   simd128/vex  the same source compiled for AVX's VEX encoding (same operations, same bits)
//   avx2, avx512 the wide FMA kernels of a TP_WIDE build (kernels/wide/), on CPUs that have them
//
// The choice: the widest the build and the CPU allow; TP_KERNELS=simd128 in the environment keeps
// the 128-bit path (TP_KERNELS=avx2 caps a TP_WIDE build at AVX2). Tests and benchmarks switch
// between the 128-bit and the wide path with use_wide_matmul() (kernels.h).
#pragma once

#include "kernels/kernels.h"

namespace tp::kernels {

using MatmulFn = void (*)(Trans, Trans, int, int, int, const float*, int, const float*, int, float*, int, bool,
                          const float*, Band);

struct KernelTable {
  const char* name;         // "simd128", "avx2", "avx512": which arithmetic (VEX changes no bits)
  const char* encoding;     // "sse", "vex", "wasm", "avx2", "avx512": how it is encoded
  MatmulFn matmul;          // kernels::matmul
  MatmulFn matmul_simd128;  // the best 128-bit variant (kernels::matmul_simd128)
  int mr, nr;               // matmul's micro-tile (rows x columns of C): a split of a product
                            // across threads cuts only between whole tiles (kernels/matmul.cpp)
  double (*matmul_peak_gflops)(double seconds);
  void (*gelu_forward_gate)(const float* x, float* y, float* gate, int n);
  void (*gelu_backward_gate)(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                             float* dbias);
};

// The table in use (chosen on first use).
const KernelTable& kernel_table();

}  // namespace tp::kernels
