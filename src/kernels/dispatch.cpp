// Choosing the kernel table once (see dispatch.h). Compiled for the baseline instruction set, so
// it runs on any CPU; each variant it points at is compiled for its own.
#include "kernels/dispatch.h"

#include <cstdlib>
#include <cstring>

#include "kernels/variants.h"
#include "kernels/wide/wide.h"

namespace tp::kernels {

#ifdef TP_WIDE
const char* wide::best_available() {
  static const char* best = [] {
    __builtin_cpu_init();
    if (!__builtin_cpu_supports("avx2") || !__builtin_cpu_supports("fma")) return static_cast<const char*>(nullptr);
    return __builtin_cpu_supports("avx512f") ? "avx512" : "avx2";
  }();
  return best;
}
#endif

namespace {

KernelTable simd128_table() {
  const bool vex = variants::has_vex();
#ifdef __EMSCRIPTEN__
  const char* encoding = "wasm";
#else
  const char* encoding = vex ? "vex" : "sse";
#endif
  const MatmulFn matmul = vex ? &variants::matmul_vex : &variants::matmul_sse;
  return {"simd128",
          encoding,
          matmul,
          matmul,
          variants::kSimd128Mr,
          variants::kSimd128Nr,
          vex ? &variants::matmul_peak_vex : &variants::matmul_peak_sse,
          &gelu_forward_gate_simd128,
          &gelu_backward_gate_simd128};
}

// The wide table for `name` ("avx2", "avx512"), over the 128-bit one; false when the build or the
// CPU lacks it.
bool wide_table(const char* name, KernelTable& table) {
#ifdef TP_WIDE
  const char* best = wide::best_available();
  if (best == nullptr) return false;
  const bool avx512 = std::strcmp(name, "avx512") == 0 && std::strcmp(best, "avx512") == 0;
  if (!avx512 && std::strcmp(name, "avx2") != 0 && std::strcmp(name, "avx512") != 0) return false;
  table.name = avx512 ? "avx512" : "avx2";
  table.encoding = table.name;
  table.matmul = avx512 ? &wide::matmul_avx512 : &wide::matmul_avx2;
  table.mr = avx512 ? wide::kAvx512Mr : wide::kAvx2Mr;
  table.nr = avx512 ? wide::kAvx512Nr : wide::kAvx2Nr;
  table.matmul_peak_gflops = avx512 ? &wide::kernel_peak_gflops_avx512 : &wide::kernel_peak_gflops_avx2;
  table.gelu_forward_gate = avx512 ? &wide::gelu_forward_gate_avx512 : &wide::gelu_forward_gate_avx2;
  table.gelu_backward_gate = avx512 ? &wide::gelu_backward_gate_avx512 : &wide::gelu_backward_gate_avx2;
  return true;
#else
  (void)name;
  (void)table;
  return false;
#endif
}

// What TP_KERNELS asks for, or the widest available.
const char* wanted() {
  const char* env = std::getenv("TP_KERNELS");
  if (env && (std::strcmp(env, "simd128") == 0 || std::strcmp(env, "avx2") == 0)) return env;
  return "avx512";
}

struct Selection {
  KernelTable table = simd128_table();
  const char* wide = wanted();  // what use_wide_matmul(true) selects
  Selection() {
    if (std::strcmp(wide, "simd128") != 0) wide_table(wide, table);
  }
};

Selection& selection() {
  static Selection s;  // on first use, so a static initializer elsewhere cannot run before it
  return s;
}

}  // namespace

const KernelTable& kernel_table() { return selection().table; }

bool use_wide_matmul(bool on) {
  Selection& s = selection();
  s.table = simd128_table();
  return on && wide_table(std::strcmp(s.wide, "simd128") == 0 ? "avx512" : s.wide, s.table);
}

}  // namespace tp::kernels
