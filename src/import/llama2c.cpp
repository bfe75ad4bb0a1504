// llama2.c's model and tokenizer files (run.c reads the same layout).
//
// model .bin (the "legacy" export): seven little-endian int32 — dim, hidden_dim, n_layers,
// n_heads, n_kv_heads, vocab_size, seq_len; a negative vocab_size means the classifier is a
// separate matrix — then float32 arrays in this order, each stacked over the layers where it
// has one: token_embedding [V, D], rms_att [L, D], wq [L, D, D], wk [L, KV, D], wv [L, KV, D],
// wo [L, D, D], rms_ffn [L, D], w1 [L, F, D], w2 [L, D, F], w3 [L, F, D], rms_final [D], two
// RoPE tables [seq_len, head/2] (skipped: we compute the same rotation), and wcls [V, D] when
// separate. Linear weights are [out, in] as ours; w1 is the gate, w3 the up and w2 the down
// projection of SwiGLU; RoPE rotates adjacent pairs with base 10000 and RMSNorm uses eps 1e-5.
//
// tokenizer.bin: int32 max_token_length, then per token: float32 score, int32 length, bytes.
// Pieces use ' ' where SentencePiece writes ▁ (we write ▁ back); ids 0, 1, 2 are <unk>, <s>, </s>.
#include <cmath>
#include <cstring>
#include <limits>

#include "core/error.h"
#include "core/text_escape.h"
#include "core/utf8.h"
#include "import/import_internal.h"

namespace tp::import {
namespace {

struct Reader {
  std::string_view bytes;
  const char* file;
  std::size_t pos = 0;

  std::int32_t i32() {
    TP_CHECK(pos + 4 <= bytes.size(), file, " ends early, at byte ", bytes.size());
    std::uint32_t v = 0;
    for (int b = 3; b >= 0; --b) v = (v << 8) | static_cast<unsigned char>(bytes[pos + b]);
    pos += 4;
    std::int32_t out;
    std::memcpy(&out, &v, 4);
    return out;
  }
  float f32() {
    const std::int32_t bits = i32();
    float f;
    std::memcpy(&f, &bits, 4);
    return f;
  }
  void floats(float* out, std::size_t n) {
    TP_CHECK(pos + 4 * n <= bytes.size(), file, " ends early, at byte ", bytes.size());
    for (std::size_t i = 0; i < n; ++i) out[i] = f32();
  }
};

constexpr std::int32_t kVersionedMagic = 0x616b3432;  // "ak42": llama2.c's version 1/2 exports

}  // namespace

ModelConfig read_llama2c_config(std::string_view bin) {
  Reader r{bin, "the llama2.c model file"};
  const std::int32_t first = r.i32();
  TP_CHECK(first != kVersionedMagic, "the llama2.c model file is a version 1 or 2 export (magic \"ak42\"); supported: ",
           "the legacy export (version 0: a header of seven int32 values, then float32 weights)");
  r.pos = 0;
  const char* names[] = {"dim", "hidden_dim", "n_layers", "n_heads", "n_kv_heads", "vocab_size", "seq_len"};
  std::int32_t h[7];
  for (int i = 0; i < 7; ++i) {
    h[i] = r.i32();
    // vocab_size may be negative (an untied classifier), but not INT32_MIN, whose negation overflows.
    const bool ok = i == 5 ? h[i] != 0 && h[i] != std::numeric_limits<std::int32_t>::min() : h[i] > 0;
    TP_CHECK(ok, "the llama2.c model header field ", names[i], " = ", h[i], " is out of range; allowed: 1 .. ",
             std::numeric_limits<std::int32_t>::max(), i == 5 ? " (negative: a separate classifier)" : "",
             "; is this a llama2.c .bin file?");
  }
  ModelConfig m;
  m.arch = Arch::DecoderOnly;
  m.d_model = h[0];
  m.d_ff = h[1];
  m.n_layers = h[2];
  m.n_heads = h[3];
  m.n_kv_heads = h[4];
  m.vocab_size = h[5] < 0 ? -h[5] : h[5];
  m.tie_embeddings = h[5] > 0;
  m.max_len = h[6];
  m.pos = PosKind::Rope;
  m.rope_pairs = RopePairs::Adjacent;
  m.rope_theta = 10000.0f;
  m.norm = NormKind::Rms;
  m.norm_eps = 1e-5f;
  m.ffn = FfnKind::SwiGlu;
  m.bias = false;
  try {
    m.validate();
  } catch (const Error& e) {
    TP_FAIL("the llama2.c model header describes a model this build cannot hold: ", e.what());
  }
  return m;
}

LoadedCheckpoint read_llama2c(std::string_view bin, std::string_view tokenizer_bin, const LoadOptions& options) {
  const ModelConfig c = read_llama2c_config(bin);
  const std::int64_t D = c.d_model, F = c.d_ff, L = c.n_layers, V = c.vocab_size, T = c.max_len;
  const std::int64_t KV = static_cast<std::int64_t>(c.kv_heads()) * c.head_dim();
  const std::int64_t floats =
      V * D + L * (2 * D + 2 * D * D + 2 * KV * D + 3 * F * D) + D + T * c.head_dim() + (c.tie_embeddings ? 0 : V * D);
  const std::int64_t expected = static_cast<std::int64_t>(kLlama2cHeaderBytes) + 4 * floats;
  TP_CHECK(static_cast<std::int64_t>(bin.size()) == expected, "the llama2.c model file has ", bin.size(),
           " bytes, but its header (dim ", D, ", hidden_dim ", F, ", n_layers ", L, ", n_heads ", c.n_heads,
           ", n_kv_heads ", c.n_kv_heads, ", vocab_size ", c.tie_embeddings ? V : -V, ", seq_len ", T, ") implies ",
           expected);

  LoadedCheckpoint out;
  // Everything that can be refused is checked before the model is allocated (import.h): the
  // weights' values in the file, then the tokenizer.
  const std::pair<const char*, std::int64_t> arrays[] = {{"token_embedding", V * D},
                                                         {"rms_att", L * D},
                                                         {"wq", L * D * D},
                                                         {"wk", L * KV * D},
                                                         {"wv", L * KV * D},
                                                         {"wo", L * D * D},
                                                         {"rms_ffn", L * D},
                                                         {"w1", L * F * D},
                                                         {"w2", L * D * F},
                                                         {"w3", L * F * D},
                                                         {"rms_final", D},
                                                         {"freq_cis", T * c.head_dim()},
                                                         {"wcls", c.tie_embeddings ? 0 : V * D}};
  NonFiniteSummary non_finite;
  std::size_t at = kLlama2cHeaderBytes;
  for (const auto& [name, count] : arrays) {
    std::size_t bad = 0, first_at = 0;
    float first = 0.0f;
    for (std::int64_t i = 0; i < count; ++i, at += 4) {
      std::uint32_t bits = 0;
      for (int b = 3; b >= 0; --b) bits = (bits << 8) | static_cast<unsigned char>(bin[at + b]);
      if ((bits & 0x7F800000u) != 0x7F800000u) continue;
      if (bad++ == 0) {
        first_at = static_cast<std::size_t>(i);
        std::memcpy(&first, &bits, 4);
      }
    }
    if (std::string_view(name) != "freq_cis") non_finite.add(name, bad, first_at, first);  // skipped, never read
  }
  TP_ASSERT(at == bin.size());
  report_non_finite("the llama2.c model file", non_finite, options, out.warnings);
  out.tokenizer = read_llama2c_tokenizer(tokenizer_bin, static_cast<int>(V), options, out.warnings);
  out.model = std::make_unique<Transformer>(c, 0, WeightInit::Unset);
  ParameterSet& p = out.model->params();
  Reader r{bin, "the llama2.c model file", kLlama2cHeaderBytes};
  const auto layer_param = [&](int l, const char* rest) {
    return p.value(p.index_of("dec." + std::to_string(l) + "." + rest));
  };
  r.floats(p.value(p.index_of("tok_emb.weight")), V * D);
  const std::pair<const char*, std::int64_t> stacked[] = {{"norm1.weight", D},
                                                          {"self_attn.q.weight", D * D},
                                                          {"self_attn.k.weight", KV * D},
                                                          {"self_attn.v.weight", KV * D},
                                                          {"self_attn.o.weight", D * D},
                                                          {"norm2.weight", D},
                                                          {"ffn.gate.weight", F * D},
                                                          {"ffn.down.weight", D * F},
                                                          {"ffn.up.weight", F * D}};
  for (const auto& [name, size] : stacked) {
    for (int l = 0; l < L; ++l) r.floats(layer_param(l, name), static_cast<std::size_t>(size));
  }
  r.floats(p.value(p.index_of("dec.final_norm.weight")), D);
  r.pos += static_cast<std::size_t>(4 * T * c.head_dim());  // freq_cis_real, freq_cis_imag
  if (!c.tie_embeddings) r.floats(p.value(p.index_of("lm_head.weight")), V * D);
  TP_ASSERT(r.pos == bin.size());
  return out;
}

std::unique_ptr<Tokenizer> read_llama2c_tokenizer(std::string_view bytes, int vocab_size, const LoadOptions& options,
                                                  std::vector<std::string>& warnings) {
  check_import_file_size("tokenizer.bin", bytes.size());
  Reader r{bytes, "tokenizer.bin"};
  const std::int32_t max_len = r.i32();
  TP_CHECK(max_len > 0 && max_len < 1 << 16, "tokenizer.bin: max_token_length = ", max_len, " is not plausible; is ",
           "this llama2.c's tokenizer.bin?");
  SentencePieceVocab vocab;
  NonFiniteSummary non_finite;  // of the scores
  std::size_t non_finite_scores = 0;
  while (r.pos < bytes.size() && (vocab_size < 0 || static_cast<int>(vocab.pieces.size()) < vocab_size)) {
    const float score = r.f32();
    const std::int32_t len = r.i32();
    TP_CHECK(len >= 0 && len <= max_len && r.pos + len <= bytes.size(), "tokenizer.bin: token ", vocab.pieces.size(),
             " has length ", len, " (max_token_length ", max_len, ", ", bytes.size() - r.pos, " bytes left)");
    std::string piece;
    for (char ch : bytes.substr(r.pos, len)) {
      if (ch == ' ') {
        piece += "\xE2\x96\x81";
      } else {
        piece += ch;
      }
    }
    TP_CHECK(utf8::is_valid(piece), "tokenizer.bin: token ", vocab.pieces.size(), " ", quote(piece),
             " is not valid UTF-8 (llama2.c writes bytes as <0xNN> pieces)");
    r.pos += len;
    vocab.pieces.push_back(std::move(piece));
    vocab.scores.push_back(score);
    if (!std::isfinite(score)) {
      non_finite.add(str_cat("score of token ", vocab.pieces.size() - 1), 1, 0, score);
      ++non_finite_scores;
    }
  }
  if (non_finite.tensors > 0) {
    const char* shown = std::isnan(non_finite.value) ? "NaN" : non_finite.value > 0 ? "inf" : "-inf";
    const std::string problem =
        str_cat("tokenizer.bin: ", non_finite_scores, " token score", non_finite_scores == 1 ? " is" : "s are",
                " not finite (the first: ", non_finite.first_tensor, " is ", shown,
                "); scores order the merges, so such a file is damaged");
    const char* flag = schema::name_of(options, options.allow_non_finite);
    if (!options.allow_non_finite) TP_FAIL(problem, "; to import it anyway set ", flag);
    warnings.push_back(str_cat(problem, "; imported because ", flag, " is set (NaN scores merge last)"));
  }
  TP_CHECK(vocab_size < 0 || static_cast<int>(vocab.pieces.size()) == vocab_size, "tokenizer.bin has ",
           vocab.pieces.size(), " tokens but the model's vocab_size is ", vocab_size);
  TP_CHECK(r.pos == bytes.size(), "tokenizer.bin has ", bytes.size() - r.pos, " bytes after its ", vocab_size,
           " tokens; is it the tokenizer of this model?");
  TP_CHECK(vocab.pieces.size() >= 3, "tokenizer.bin has ", vocab.pieces.size(),
           " tokens; it needs at least <unk>, <s>, </s>");
  vocab.pieces[0] = "<unk>";  // llama2.c writes <s> and </s> wrapped in newlines
  vocab.pieces[1] = "<s>";
  vocab.pieces[2] = "</s>";
  vocab.mark_in_text_is_space = false;  // run.c: a ▁ in the text is no piece's (they hold spaces)
  auto tok = make_sentencepiece_tokenizer(std::move(vocab));
  tok->set_specials_template(SpecialsTemplate{{1}, {}});  // run.c encodes a prompt with <s> first
  return tok;
}

}  // namespace tp::import
