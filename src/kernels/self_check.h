// The kernel self-check the page shows on load: the fast (SIMD) kernels against the scalar
// reference on random inputs, in whatever build is running (the browser's wasm, or native).
// It proves on the user's own machine that the vector code computes what the reference does.
#pragma once

#include <string>
#include <vector>

namespace tp::kernels {

struct SelfCheckCase {
  std::string kernel;  // "matmul nn 33x17x65", "softmax 7x31", ...
  double error = 0.0;  // relative (matmul, norms) or max-abs (softmax, activations) error
  double tolerance = 0.0;
  bool pass = false;
};

struct SelfCheckReport {
  bool pass = false;
  std::string backend;  // "wasm-simd128" or "native-sse"
  std::vector<SelfCheckCase> cases;
  double simd_gflops = 0.0;    // 128x128x128 matmul, measured
  double scalar_gflops = 0.0;  // the same through the reference
};

SelfCheckReport run_self_check(unsigned seed = 1);

}  // namespace tp::kernels
