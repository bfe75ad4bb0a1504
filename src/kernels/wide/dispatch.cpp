// Which wide kernels run, chosen once from the CPU (compiled without AVX flags, so this file
// runs anywhere): AVX-512 when the CPU has AVX-512F, else AVX2 + FMA, else none. The
// environment variable TP_KERNELS=simd128 keeps the 128-bit path (TP_KERNELS=avx2 caps at AVX2).
#include <cstdlib>
#include <cstring>

#include "kernels/wide/wide.h"

namespace tp::kernels::wide {

namespace {

enum class Level { None, Avx2, Avx512 };

Level detect() {
  __builtin_cpu_init();
  const bool avx2 = __builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma");
  if (!avx2) return Level::None;
  return __builtin_cpu_supports("avx512f") ? Level::Avx512 : Level::Avx2;
}

// What the CPU offers, detected on first use (static initialisers elsewhere may ask early).
Level available() {
  static const Level level = detect();
  return level;
}

Level initial() {
  const char* env = std::getenv("TP_KERNELS");
  if (env && std::strcmp(env, "simd128") == 0) return Level::None;
  if (env && std::strcmp(env, "avx2") == 0 && available() != Level::None) return Level::Avx2;
  return available();
}

// The routing state, created on first use (so a static initializer elsewhere — the test suite
// turning the wide path off — cannot run before it).
struct State {
  Level level = initial();
  Level chosen = level != Level::None ? level : available();  // what set_active(true) restores
};
State& state() {
  static State s;
  return s;
}

}  // namespace

bool active() { return state().level != Level::None; }

const char* best_available() {
  switch (available()) {
    case Level::Avx512: return "avx512";
    case Level::Avx2: return "avx2";
    case Level::None: break;
  }
  return nullptr;
}

bool set_active(bool on) {
  state().level = on ? state().chosen : Level::None;
  return active();
}

void matmul(Trans trans_a, Trans trans_b, int M, int N, int K, const float* A, int lda, const float* B, int ldb,
            float* C, int ldc, bool accumulate, const float* bias, Band band) {
  if (state().level == Level::Avx512) {
    matmul_avx512(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band);
  } else {
    matmul_avx2(trans_a, trans_b, M, N, K, A, lda, B, ldb, C, ldc, accumulate, bias, band);
  }
}

double kernel_peak_gflops(double seconds) {
  return state().level == Level::Avx512 ? kernel_peak_gflops_avx512(seconds) : kernel_peak_gflops_avx2(seconds);
}

void gelu_forward_gate(const float* x, float* y, float* gate, int n) {
  if (state().level == Level::Avx512) {
    gelu_forward_gate_avx512(x, y, gate, n);
  } else {
    gelu_forward_gate_avx2(x, y, gate, n);
  }
}

void gelu_backward_gate(const float* x, const float* gate, const float* dy, float* dx, int rows, int cols,
                        float* dbias) {
  if (state().level == Level::Avx512) {
    gelu_backward_gate_avx512(x, gate, dy, dx, rows, cols, dbias);
  } else {
    gelu_backward_gate_avx2(x, gate, dy, dx, rows, cols, dbias);
  }
}

}  // namespace tp::kernels::wide

namespace tp::kernels {

const char* matmul_path() {
  switch (wide::state().level) {
    case wide::Level::Avx512: return "avx512";
    case wide::Level::Avx2: return "avx2";
    case wide::Level::None: break;
  }
  return "simd128";
}

bool use_wide_matmul(bool on) { return wide::set_active(on); }

}  // namespace tp::kernels
