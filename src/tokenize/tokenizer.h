// The tokenizer interface: text <-> ids, with the span of input each token covers.
//
// Four built-in kinds share it: character, word (whitespace + punctuation), BPE (learned merges
// with byte fallback) and byte-level (256 byte ids). Their special tokens have fixed ids:
//   <SOS>=0 <EOS>=1 <PAD>=2 <UNK>=3 <CLS>=4 <MASK>=5
// A built-in tokenizer holds the first `num_specials` of them (3 for the seed's Q&A vocabulary,
// which has exactly <SOS>, <EOS>, <PAD>; 6 otherwise), and its ordinary tokens start right after.
// Two more kinds come with imported models and keep their own vocabularies' layout: GPT-2's
// byte-level BPE (<|endoftext|> as <EOS>) and SentencePiece-style BPE (<unk>, <s>, </s> as <UNK>,
// <SOS>, <EOS>; Llama, llama2.c). This header is the one place those layouts are written:
// everyone else asks specials().
#pragma once

#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/enum_names.h"
#include "core/json.h"
#include "core/schema.h"
#include "tokenize/special_tokens.h"

namespace tp {

enum SpecialId : int { kSos = 0, kEos = 1, kPad = 2, kUnk = 3, kCls = 4, kMask = 5 };
constexpr int kAllSpecials = 6;
const char* special_token_text(int id);  // "<SOS>" ... "<MASK>"

enum class TokenizerKind { Char, Word, Bpe, Byte, Gpt2, SentencePiece };
inline constexpr EnumName<TokenizerKind> kTokenizerKindNames[] = {
    {TokenizerKind::Char, "char"}, {TokenizerKind::Word, "word"}, {TokenizerKind::Bpe, "bpe"},
    {TokenizerKind::Byte, "byte"}, {TokenizerKind::Gpt2, "gpt2"}, {TokenizerKind::SentencePiece, "sentencepiece"}};
// The kinds that come with an imported model's files and are never learned from text.
inline bool is_imported_kind(TokenizerKind kind) {
  return kind == TokenizerKind::Gpt2 || kind == TokenizerKind::SentencePiece;
}
inline const char* tokenizer_kind_name(TokenizerKind kind) { return enum_name(kTokenizerKindNames, kind); }
TokenizerKind parse_tokenizer_kind(std::string_view name);  // tp::Error listing the names

// What a model without a tokenizer assumes: the built-in tokenizers' layout, all six specials.
SpecialTokens default_specials();

struct Span {
  int begin = 0;  // [begin, end)
  int end = 0;
};

// The special ids an imported tokenizer's files put around every text it encodes for its model
// (tokenizer.json's post_processor, tokenizer_config.json's add_bos_token / add_eos_token;
// llama2.c: <s> first, as its run.c). Empty for the built-in kinds and GPT-2.
struct SpecialsTemplate {
  std::vector<int> before, after;
  bool empty() const { return before.empty() && after.empty(); }
};

struct Encoding {
  std::vector<int> ids;
  std::vector<std::string> tokens;  // display form (BPE continuation pieces start with "##")
  std::vector<Span> byte_spans;     // into the UTF-8 input
  std::vector<Span> utf16_spans;    // into the same text as UTF-16 code units (what JS indexes)
};

class Tokenizer {
 public:
  virtual ~Tokenizer() = default;

  virtual TokenizerKind kind() const = 0;
  virtual int vocab_size() const = 0;  // including the specials
  // Built-in kinds: the specials sit at ids 0 .. num_specials - 1. Imported kinds: 0 (their
  // specials sit wherever their vocabulary puts them; ask specials()).
  int num_specials() const { return num_specials_; }
  // The ids of this tokenizer's special tokens (-1 for the kinds it lacks).
  virtual SpecialTokens specials() const;
  bool has_token(int id) const { return id >= 0 && id < vocab_size(); }

  // Special tokens are never produced from text; callers add <SOS>/<EOS>/<CLS> as they need.
  virtual Encoding encode(std::string_view text) const = 0;
  // encode() with the specials template around it, as the model's own tokenizer encodes a
  // prompt (the template's tokens have empty spans at the start and the end of the text).
  Encoding encode_with_specials(std::string_view text) const;
  const SpecialsTemplate& specials_template() const { return template_; }
  // Throws tp::Error on an id outside [0, vocab_size).
  void set_specials_template(SpecialsTemplate t);
  // The bytes `ids` stand for. Specials are skipped, except <UNK> which decodes as U+FFFD. Byte
  // tokens make these any bytes, not always UTF-8 (decode() is the text). Throws tp::Error on an
  // id outside [0, vocab_size).
  virtual std::string decode_bytes(const std::vector<int>& ids) const = 0;
  // The text of `ids`: decode_bytes() as well-formed UTF-8, each run of bytes that forms no
  // character (a character cut short, a stray byte token) one U+FFFD, as TextDecoder does.
  std::string decode(const std::vector<int>& ids) const;
  // The text `ids` add after `context` (a prompt and its continuation): the bytes of context + ids
  // past those of context, as a streaming decoder would show them after the context's — which
  // differs from decode(ids) where a character's bytes or a leading-space convention straddle
  // the boundary (the imported kinds). Well-formed, as decode().
  std::string decode_continuation(const std::vector<int>& context, const std::vector<int>& ids) const;
  // The text each id of `ids` adds after `context`, one string per id, as a streaming decoder
  // shows it (TextDecoder's stream mode): a character whose bytes are spread over several ids
  // appears with the id that completes it, and the last string ends with U+FFFD for bytes still
  // incomplete. Their concatenation is decode_continuation(context, ids).
  std::vector<std::string> decode_steps(const std::vector<int>& context, const std::vector<int>& ids) const;
  // Display text of one id (specials as "<SOS>" etc.).
  virtual std::string token_text(int id) const = 0;

  // Serialised form stored in checkpoint metadata; from_json(to_json()) behaves identically.
  virtual json::Value to_json() const = 0;
  static std::unique_ptr<Tokenizer> from_json(const json::Value& value);

 protected:
  explicit Tokenizer(int num_specials) : num_specials_(num_specials) {}
  // The bytes `ids` add after `context`, and in `before` the context's own bytes (the prefix of
  // the whole they follow). The built-in kinds decode token by token, so the bytes are
  // decode_bytes(ids); `before` is the context's bytes for the byte-level ones (byte, bpe), whose
  // tokens can split a character between the two, and empty for char and word.
  virtual std::string continuation_bytes(const std::vector<int>& context, const std::vector<int>& ids,
                                         std::string& before) const;
  int num_specials_;
  SpecialsTemplate template_;
};

// An imported GPT-2 vocabulary: vocab.json's tokens by id (bytes in GPT-2's byte-to-unicode
// form), merges.txt's pairs in rank order (no pair twice, at most one per token), and the id of
// the end-of-text token (-1: none), which is a special by its id whatever its text.
struct Gpt2Vocab {
  std::vector<std::string> tokens;
  std::vector<std::pair<std::string, std::string>> merges;
  int eos = -1;
};
std::unique_ptr<Tokenizer> make_gpt2_tokenizer(Gpt2Vocab vocab);

// An imported SentencePiece vocabulary: pieces by id (valid UTF-8; ▁ for a space, <0xNN> byte
// pieces), and either their scores (merge order: the merged piece's score, highest first;
// tokenizer.bin) or an explicit merges list in rank order, no pair twice (tokenizer.json). The
// special ids may be -1 (absent). A score that is NaN ranks below every number (such scores come
// only from a file imported with allow_non_finite; checkpoints write them as "NaN", "Infinity",
// "-Infinity").
struct SentencePieceVocab {
  std::vector<std::string> pieces;
  std::vector<float> scores;
  std::vector<std::pair<std::string, std::string>> merges;
  int unk = 0, bos = 1, eos = 2;
  bool add_dummy_prefix = true;  // encode as " " + text, and drop that space when decoding
  // A U+2581 in the text is the space piece, as SentencePiece's and Hugging Face's normalisers
  // make it; false: an ordinary character (llama2.c's run.c, whose tokenizer.bin holds its
  // pieces with spaces), which has no piece and falls back to its bytes.
  bool mark_in_text_is_space = true;
};
std::unique_ptr<Tokenizer> make_sentencepiece_tokenizer(SentencePieceVocab vocab);

// The vocabulary a BPE tokenizer learns when none is asked for.
constexpr int kDefaultBpeVocab = 512;

struct TokenizerOptions {
  TokenizerKind kind = TokenizerKind::Char;
  int vocab_size = 0;               // BPE: target vocabulary size (specials + 256 bytes + merges)
  bool lowercase = false;           // word: fold ASCII case before lookup
  int num_specials = kAllSpecials;  // the built-in tasks' choice, not an option

  // The options a user chooses (train_tokenizer() checks them, kind by kind).
  // clang-format off: one line per field (the table is read as a table)
  template <typename Self, typename Visit>
  static void fields(Self& o, Visit&& visit) {
    using namespace schema;
    visit(Choice("kind", "kind", kTokenizerKindNames, "characters, words, learned sub-words (BPE) or bytes")
              .parser(parse_tokenizer_kind),
          o.kind);
    visit(Int("vocab_size", "vocabSize", 0, 1000000,
              "bpe: the vocabulary to learn, specials and 256 bytes included; 0 = the kind's default"),
          o.vocab_size);
    visit(Flag("lowercase", "lowercase", "word: fold ASCII letters to lower case"), o.lowercase);
  }
  // clang-format on
  // The options a user's choice means: vocab_size 0 asks for the kind's default (BPE: 512).
  TokenizerOptions with_defaults() const {
    TokenizerOptions o = *this;
    if (o.kind == TokenizerKind::Bpe && o.vocab_size == 0) o.vocab_size = kDefaultBpeVocab;
    return o;
  }
};

// Learns a vocabulary from `text` (char: its characters; word: its words; bpe: merges up to
// vocab_size; byte: nothing to learn) and returns the tokenizer.
std::unique_ptr<Tokenizer> train_tokenizer(const TokenizerOptions& options, std::string_view text);

// A word tokenizer over an exact vocabulary (ordinary tokens in order, ids from num_specials);
// the seed's Q&A toy uses this to get its published ids.
std::unique_ptr<Tokenizer> word_tokenizer_from_vocab(const std::vector<std::string>& words, int num_specials,
                                                     bool lowercase);

}  // namespace tp
