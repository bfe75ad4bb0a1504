// Embedding lookup and scatter-add, and the sinusoidal table.
#include "nn/embedding.h"

#include <algorithm>
#include <cstring>

#include "core/det_math.h"
#include "core/error.h"
#include "core/profiler.h"
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
  const int max_len = positions >= 0 ? params.info(positions).shape[0]
                                     : static_cast<int>(sinusoid.size() / std::max(1, d));
  if (pos == PosKind::Learned || pos == PosKind::Sinusoidal) {
    TP_CHECK(pos0 + T <= max_len, "a sequence of ", pos0 + T, " tokens does not fit this model's max_len = ", max_len);
  }
  const float* E = params.value(table);
  for (int b = 0; b < B; ++b) {
    for (int t = 0; t < T; ++t) {
      const int id = ids[b * T + t];
      TP_CHECK(id >= 0 && id < vocab, "token id ", id, " is out of range; this model's vocabulary has ", vocab,
               " tokens (ids 0..", vocab - 1, ")");
      float* row = x + (static_cast<std::size_t>(b) * T + t) * d;
      const float* e = E + static_cast<std::size_t>(id) * d;
      if (pos == PosKind::Learned) {
        kernels::add(e, params.value(positions) + static_cast<std::size_t>(pos0 + t) * d, row, d);
      } else if (pos == PosKind::Sinusoidal) {
        kernels::add(e, sinusoid.data() + static_cast<std::size_t>(pos0 + t) * d, row, d);
      } else {
        std::memcpy(row, e, sizeof(float) * d);
      }
    }
  }
}

void Embedding::backward(ParameterSet& params, const int* ids, int B, int T, const float* dx) const {
  ProfileScope scope(ProfileKind::Embedding, true);
  float* dE = params.grad(table);
  for (int b = 0; b < B; ++b) {
    for (int t = 0; t < T; ++t) {
      const float* g = dx + (static_cast<std::size_t>(b) * T + t) * d;
      kernels::axpy(1.0f, g, dE + static_cast<std::size_t>(ids[b * T + t]) * d, d);
      if (pos == PosKind::Learned) kernels::axpy(1.0f, g, params.grad(positions) + static_cast<std::size_t>(t) * d, d);
    }
  }
}

}  // namespace tp::nn
