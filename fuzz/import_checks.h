// What the import harnesses share: the fixture files they complete a fuzzed file with, the
// promises an imported tokenizer keeps, and the promise of every accepted import — it saves a
// checkpoint that loads again, with the same tokenizer and the same outputs.
//
// Promises of an imported tokenizer (gpt2, sentencepiece) on any text: ids in the vocabulary and
// never a special but <UNK>; byte spans in order, never overlapping, inside the text, covering
// it (a piece that stands for no input byte — SentencePiece's dummy prefix, the extra bytes of a
// ▁ spelled by byte pieces — has an empty span); UTF-16 spans inside the string JavaScript sees;
// and for valid UTF-8 without ▁ that met no <UNK>, decode gives the text back.
#pragma once

#include <cmath>
#include <cstdlib>
#include <fstream>
#include <sstream>
#include <string>
#include <vector>

#include "core/utf8.h"
#include "fuzz_common.h"
#include "import/import.h"
#include "io/checkpoint.h"
#include "tokenize/tokenizer.h"
#include "tokenizer_checks.h"

namespace tp::fuzz {

// A file of native_tests/data/import (TP_SOURCE_DIR is the repository, from fuzz/CMakeLists.txt).
inline std::string fixture(const std::string& relative) {
  std::ifstream in(std::string(TP_SOURCE_DIR) + "/native_tests/data/import/" + relative, std::ios::binary);
  if (!in) finding("missing fixture", relative.c_str());
  std::ostringstream out;
  out << in.rdbuf();
  return out.str();
}

inline const std::vector<std::string_view>& probes() {
  static const std::vector<std::string_view> all = {"the dog sleeps; it's 2024.",
                                                    " a  b \t\n",
                                                    "a b ",
                                                    "a bc",
                                                    "",
                                                    "\xEA\xB0\x9C e\xCC\x81 \xF0\x9F\x98\x80\xE2\x80\x8D!",
                                                    "\xE2\x96\x81x",
                                                    "\xFF\xC3\x28 \xED\xA0\x80"};
  return all;
}

inline void check_imported_tokenizer(const Tokenizer& tok) {
  FUZZ_EXPECT(is_imported_kind(tok.kind()));
  for (int id = 0; id < tok.vocab_size() && id < 4096; ++id) (void)tok.token_text(id);
  for (std::string_view p : probes()) check_encode(tok, p);
  const std::string written = tok.to_json().dump();
  std::unique_ptr<Tokenizer> again;
  try {
    again = Tokenizer::from_json(json::parse(written));
  } catch (const Error& e) {
    finding("an imported tokenizer does not read back from its own JSON", e.what());
  }
  FUZZ_EXPECT(again->to_json().dump() == written);
  for (std::string_view p : probes()) FUZZ_EXPECT(again->encode(p).ids == tok.encode(p).ids);
}

// An accepted import saves a checkpoint that loads again (with the options it was imported with)
// to the same tokenizer and the same logits.
inline void check_saves_and_loads(LoadedCheckpoint& loaded, const LoadOptions& options) {
  const std::string saved = save_checkpoint(*loaded.model, loaded.tokenizer.get(), "");
  LoadedCheckpoint again;
  try {
    again = load_checkpoint(saved, options);
  } catch (const Error& e) {
    finding("an accepted import saves a checkpoint that does not load", e.what());
  }
  FUZZ_EXPECT(again.tokenizer->to_json().dump() == loaded.tokenizer->to_json().dump());
  FUZZ_EXPECT(save_checkpoint(*again.model, again.tokenizer.get(), "") == saved);
  const std::vector<int> prompt = loaded.tokenizer->encode("the dog").ids;
  if (prompt.empty() || static_cast<int>(prompt.size()) > loaded.model->config().max_len) return;
  Batch batch;
  batch.size = 1;
  batch.tgt_len = static_cast<int>(prompt.size());
  batch.tgt_in = prompt;
  loaded.model->forward(batch, false);
  again.model->forward(batch, false);
  const std::size_t n = prompt.size() * static_cast<std::size_t>(loaded.model->config().vocab_size);
  for (std::size_t i = 0; i < n; ++i) {
    const float a = loaded.model->logits()[i], b = again.model->logits()[i];
    FUZZ_EXPECT(a == b || (std::isnan(a) && std::isnan(b)));
  }
}

// Options from the input: odd sizes import with allow_non_finite (then NaN scores and weights
// are kept and must still round-trip).
inline LoadOptions options_for(std::size_t size) {
  LoadOptions o;
  o.allow_non_finite = size % 2 == 1;
  return o;
}

}  // namespace tp::fuzz
