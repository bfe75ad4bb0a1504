// Helpers for the model suites: small configurations and random padded batches.
#pragma once

#include <algorithm>
#include <string>

#include "core/rng.h"
#include "model/batch.h"
#include "model/config.h"
#include "model/transformer.h"

namespace tp::test {

constexpr int kPad = 2;

// A small model of the given architecture; tests change fields from here.
inline ModelConfig small_config(Arch arch) {
  ModelConfig c = model_shape(arch, 13, 8, 1, 12, 8);
  c.n_heads = 2;
  if (arch == Arch::EncoderOnly) c.head = HeadKind::Mlm;
  return c;
}

// Random ids in [6, vocab) with trailing <PAD>s on some rows (the first row is never padded, so
// a trace of row 0 sees real tokens); targets are −1 where the input is <PAD>.
inline Batch random_batch(const ModelConfig& c, int B, int T, Rng& rng, bool pad = true) {
  Batch batch;
  batch.size = B;
  batch.pad_id = kPad;
  auto fill = [&](std::vector<int>& ids, int len) {
    ids.assign(static_cast<std::size_t>(B) * len, kPad);
    for (int b = 0; b < B; ++b) {
      const int real = (pad && b > 0) ? std::max(1, len - 1 - rng.below(len / 2 + 1)) : len;
      for (int t = 0; t < real; ++t) ids[b * len + t] = 6 + rng.below(c.vocab_size - 6);
    }
  };
  const bool pooled = c.head == HeadKind::Cls || c.head == HeadKind::Mean;
  if (c.has_encoder()) {
    batch.src_len = T;
    fill(batch.src, T);
    if (c.head == HeadKind::Cls) {
      for (int b = 0; b < B; ++b) batch.src[b * T] = 4;  // <CLS>
    }
  }
  if (c.has_decoder()) {
    batch.tgt_len = c.arch == Arch::EncoderDecoder ? std::max(1, T - 1) : T;
    fill(batch.tgt_in, batch.tgt_len);
  }
  if (pooled) {
    for (int b = 0; b < B; ++b) batch.targets.push_back(rng.below(c.n_classes));
    return batch;
  }
  const std::vector<int>& in = c.has_decoder() ? batch.tgt_in : batch.src;
  const int classes = c.output_size();
  for (int id : in) batch.targets.push_back(id == kPad ? -1 : rng.below(classes));
  return batch;
}

}  // namespace tp::test
