// RoPE rotations and ALiBi slopes.
#include "nn/positional.h"

#include "core/det_math.h"
#include "core/error.h"
#include "core/thread_pool.h"

namespace tp::nn {

RopeTable RopeTable::create(int max_len, int head_dim, double base, RopePairs pairs) {
  RopeTable t;
  t.max_len = max_len;
  t.half = head_dim / 2;
  t.pairs = pairs;
  t.cos.resize(static_cast<std::size_t>(max_len) * t.half);
  t.sin.resize(t.cos.size());
  for (int i = 0; i < t.half; ++i) {
    const double theta = det::pow(base, -2.0 * i / head_dim);
    for (int p = 0; p < max_len; ++p) {
      t.cos[static_cast<std::size_t>(p) * t.half + i] = static_cast<float>(det::cos(p * theta));
      t.sin[static_cast<std::size_t>(p) * t.half + i] = static_cast<float>(det::sin(p * theta));
    }
  }
  return t;
}

namespace {

void rotate(float* x, int rows, int heads, int head_dim, const int* positions, const RopeTable& table, float sign) {
  const int half = head_dim / 2;
  // Pair i is (first + i·step, first + i·step + other): adjacent (2i, 2i+1) or halves (i, i+half).
  const bool adjacent = table.pairs == RopePairs::Adjacent;
  const int step = adjacent ? 2 : 1, other = adjacent ? 1 : half;
  for (int r = 0; r < rows; ++r) {
    const int p = positions[r];
    TP_CHECK(p >= 0 && p < table.max_len, "position ", p, " is past this model's max_len = ", table.max_len);
  }
  // Rows are independent: large calls split across the thread pool.
  threads::parallel_split(rows, 1, 3.0 * rows * heads * head_dim, [&](int r0, int r1, int) {
    for (int r = r0; r < r1; ++r) {
      const int p = positions[r];
      const float* c = table.cos.data() + static_cast<std::size_t>(p) * half;
      const float* s = table.sin.data() + static_cast<std::size_t>(p) * half;
      float* row = x + static_cast<std::size_t>(r) * heads * head_dim;
      for (int h = 0; h < heads; ++h) {
        float* v = row + h * head_dim;
        for (int i = 0; i < half; ++i) {
          float* x0 = v + i * step;
          float* x1 = x0 + other;
          const float a = *x0, b = *x1, sn = sign * s[i];
          *x0 = a * c[i] - b * sn;
          *x1 = a * sn + b * c[i];
        }
      }
    }
  });
}

}  // namespace

void rope_forward(float* x, int rows, int heads, int head_dim, const int* positions, const RopeTable& table) {
  rotate(x, rows, heads, head_dim, positions, table, 1.0f);
}

void rope_backward(float* dx, int rows, int heads, int head_dim, const int* positions, const RopeTable& table) {
  rotate(dx, rows, heads, head_dim, positions, table, -1.0f);
}

std::vector<float> alibi_slopes(int n_heads) {
  std::vector<float> slopes(n_heads);
  for (int h = 0; h < n_heads; ++h) slopes[h] = static_cast<float>(det::pow(2.0, -8.0 * (h + 1) / n_heads));
  return slopes;
}

}  // namespace tp::nn
