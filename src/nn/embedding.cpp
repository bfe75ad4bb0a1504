// Embedding lookup and scatter-add, and the sinusoidal table.
#include "nn/embedding.h"

#include <algorithm>
#include <cstring>

#include "core/det_math.h"
#include "core/error.h"
#include "core/profiler.h"
#include "core/thread_pool.h"
#include "kernels/kernels.h"

namespace tp::nn {

std::vector<float> sinusoidal_table(int max_len, int d, double base) {
  std::vector<float> table(static_cast<std::size_t>(max_len) * d);
  for (int i = 0; 2 * i < d; ++i) {
    const double inv_freq = det::pow(base, -2.0 * i / d);
    for (int t = 0; t < max_len; ++t) {
      const double angle = t * inv_freq;
      table[static_cast<std::size_t>(t) * d + 2 * i] = static_cast<float>(det::sin(angle));
      if (2 * i + 1 < d) table[static_cast<std::size_t>(t) * d + 2 * i + 1] = static_cast<float>(det::cos(angle));
    }
  }
  return table;
}

Embedding Embedding::create(ParameterSet& params, int vocab, int d, PosKind pos, int max_len) {
  Embedding e;
  e.vocab = vocab;
  e.d = d;
  e.pos = pos;
  e.table = params.add("tok_emb.weight", {vocab, d}, true);
  if (pos == PosKind::Learned) e.positions = params.add("pos_emb.weight", {max_len, d}, true);
  if (pos == PosKind::Sinusoidal) e.sinusoid = sinusoidal_table(max_len, d);
  return e;
}

void Embedding::position_row(const ParameterSet& params, int t, float* out) const {
  if (pos == PosKind::Learned) {
    std::memcpy(out, params.value(positions) + static_cast<std::size_t>(t) * d, sizeof(float) * d);
  } else if (pos == PosKind::Sinusoidal) {
    std::memcpy(out, sinusoid.data() + static_cast<std::size_t>(t) * d, sizeof(float) * d);
  } else {
    std::fill(out, out + d, 0.0f);
  }
}

void Embedding::forward(const ParameterSet& params, const int* ids, int B, int T, float* x, int pos0) const {
  ProfileScope scope(ProfileKind::Embedding, false);
  const int max_len =
      positions >= 0 ? params.info(positions).shape[0] : static_cast<int>(sinusoid.size() / std::max(1, d));
  if (pos == PosKind::Learned || pos == PosKind::Sinusoidal) {
    TP_CHECK(pos0 + T <= max_len, "a sequence of ", pos0 + T, " tokens does not fit this model's max_len = ", max_len);
  }
  for (int i = 0; i < B * T; ++i) {
    TP_CHECK(ids[i] >= 0 && ids[i] < vocab, "token id ", ids[i], " is out of range; this model's vocabulary has ",
             vocab, " tokens (ids 0..", vocab - 1, ")");
  }
  // Rows are independent: large batches split across the thread pool.
  const float* E = params.value(table);
  threads::parallel_split(B * T, 1, 2.0 * B * T * d, [&](int i0, int i1, int) {
    for (int i = i0; i < i1; ++i) {
      const int t = i % T;
      float* row = x + static_cast<std::size_t>(i) * d;
      const float* e = E + static_cast<std::size_t>(ids[i]) * d;
      if (pos == PosKind::Learned) {
        kernels::add(e, params.value(positions) + static_cast<std::size_t>(pos0 + t) * d, row, d);
      } else if (pos == PosKind::Sinusoidal) {
        kernels::add(e, sinusoid.data() + static_cast<std::size_t>(pos0 + t) * d, row, d);
      } else {
        std::memcpy(row, e, sizeof(float) * d);
      }
    }
  });
}

void Embedding::backward(ParameterSet& params, const int* ids, int B, int T, const float* dx) const {
  ProfileScope scope(ProfileKind::Embedding, true);
  float* dE = params.grad(table);
  float* dP = pos == PosKind::Learned ? params.grad(positions) : nullptr;
  // Rows with the same id add into the same gradient row in (b, t) order; split by columns, each
  // thread keeps that order for its columns (the additions are kernels::axpy's, y + 1·x).
  threads::parallel_split(d, 16, 2.0 * B * T * d, [&](int c0, int c1, int) {
    const int width = c1 - c0;
    for (int i = 0; i < B * T; ++i) {
      const float* g = dx + static_cast<std::size_t>(i) * d + c0;
      kernels::axpy(1.0f, g, dE + static_cast<std::size_t>(ids[i]) * d + c0, width);
      if (dP) kernels::axpy(1.0f, g, dP + static_cast<std::size_t>(i % T) * d + c0, width);
    }
  });
}

}  // namespace tp::nn
