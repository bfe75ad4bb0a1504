// The shared part of the tokenizers: special tokens, kind names, option validation, the factory
// (train_tokenizer, word_tokenizer_from_vocab, Tokenizer::from_json) and the helpers every kind
// uses for ids, errors and JSON. The kinds themselves live in char_/word_/bpe_/byte_tokenizer.cpp.
#include <algorithm>

#include "core/error.h"
#include "tokenize/tokenizer_internal.h"
#include "tokenize/utf8.h"

namespace tp {

namespace {
const char* const kSpecialTexts[kAllSpecials] = {"<SOS>", "<EOS>", "<PAD>", "<UNK>", "<CLS>", "<MASK>"};
}  // namespace

std::vector<int> SpecialTokens::input_only() const {
  std::vector<int> ids;
  for (int id : {sos, pad, cls, mask}) {
    if (id >= 0) ids.push_back(id);
  }
  return ids;
}

namespace {
// The fixed layout of tokenizer.h: a tokenizer holds the first `count` of these.
SpecialTokens first_specials(int count) {
  SpecialTokens s;
  int* const ids[kAllSpecials] = {&s.sos, &s.eos, &s.pad, &s.unk, &s.cls, &s.mask};
  for (int id = 0; id < count && id < kAllSpecials; ++id) *ids[id] = id;
  return s;
}
}  // namespace

SpecialTokens Tokenizer::specials() const { return first_specials(num_specials_); }
SpecialTokens default_specials() { return first_specials(kAllSpecials); }

Encoding Tokenizer::encode_with_specials(std::string_view text) const {
  Encoding e = encode(text);
  if (template_.empty()) return e;
  int utf16_end = 0;  // the text's length in UTF-16 code units, where the trailing specials sit
  for (const char c : text) {
    const auto b = static_cast<unsigned char>(c);
    if ((b & 0xC0) != 0x80) utf16_end += b >= 0xF0 ? 2 : 1;
  }
  const int byte_end = static_cast<int>(text.size());
  Encoding out;
  const auto push = [&](int id, Span bytes, Span utf16, std::string token) {
    out.ids.push_back(id);
    out.byte_spans.push_back(bytes);
    out.utf16_spans.push_back(utf16);
    out.tokens.push_back(std::move(token));
  };
  for (const int id : template_.before) push(id, Span{0, 0}, Span{0, 0}, token_text(id));
  for (std::size_t i = 0; i < e.ids.size(); ++i) push(e.ids[i], e.byte_spans[i], e.utf16_spans[i], e.tokens[i]);
  for (const int id : template_.after) {
    push(id, Span{byte_end, byte_end}, Span{utf16_end, utf16_end}, token_text(id));
  }
  return out;
}

void Tokenizer::set_specials_template(SpecialsTemplate t) {
  for (const std::vector<int>* ids : {&t.before, &t.after}) {
    for (const int id : *ids) detail::check_id(id, vocab_size());
  }
  template_ = std::move(t);
}

std::string Tokenizer::decode(const std::vector<int>& ids) const { return utf8::well_formed(decode_bytes(ids)); }

std::string Tokenizer::continuation_bytes(const std::vector<int>& context, const std::vector<int>& ids,
                                          std::string& before) const {
  const bool byte_level = kind() == TokenizerKind::Byte || kind() == TokenizerKind::Bpe;
  before = byte_level ? decode_bytes(context) : std::string();
  return decode_bytes(ids);
}

std::string Tokenizer::decode_continuation(const std::vector<int>& context, const std::vector<int>& ids) const {
  std::string before;
  const std::string added = continuation_bytes(context, ids, before);
  utf8::StreamDecoder stream;
  stream.feed(before);  // what the context already showed (a character it began may end here)
  std::string out = stream.feed(added);
  return out + stream.finish();
}

std::vector<std::string> Tokenizer::decode_steps(const std::vector<int>& context, const std::vector<int>& ids) const {
  // Step i shows what the complete characters of context + ids[0..i] add past those of step
  // i - 1. (Token bytes only ever follow one another, but a convention may rewrite bytes already
  // seen — SentencePiece turns the bytes of ▁ into a space once all three have come — so the
  // difference is taken between texts, from where they first differ.)
  std::vector<std::string> out;
  out.reserve(ids.size());
  std::vector<int> prefix;
  std::string before, shown;
  const auto add = [&](const std::string& text) {
    std::size_t common = 0;
    while (common < shown.size() && common < text.size() && shown[common] == text[common]) ++common;
    while (common > 0 && (static_cast<unsigned char>(text[common]) & 0xC0) == 0x80) --common;  // a whole character
    out.back() += text.substr(common);
    shown = text;
  };
  for (std::size_t i = 0; i < ids.size(); ++i) {
    prefix.push_back(ids[i]);
    const std::string added = continuation_bytes(context, prefix, before);
    utf8::StreamDecoder stream;
    stream.feed(before);
    out.emplace_back();
    add(stream.feed(added));
  }
  if (!out.empty()) add(decode_continuation(context, ids));  // and what the end leaves incomplete
  return out;
}

const char* special_token_text(int id) {
  TP_CHECK(id >= 0 && id < kAllSpecials, "special token id ", id, " is out of range; specials are ", "0..",
           kAllSpecials - 1, " (<SOS> <EOS> <PAD> <UNK> <CLS> <MASK>)");
  return kSpecialTexts[id];
}

TokenizerKind parse_tokenizer_kind(std::string_view name) {
  for (const auto& k : kTokenizerKindNames) {
    if (name == k.name) return k.value;
  }
  std::string names;
  for (const auto& k : kTokenizerKindNames) names += str_cat(names.empty() ? "" : ", ", k.name);
  TP_FAIL("unknown tokenizer kind '", name, "'; expected one of: ", names);
}

std::unique_ptr<Tokenizer> train_tokenizer(const TokenizerOptions& options, std::string_view text) {
  detail::check_num_specials(options.num_specials);
  const int specials = options.num_specials;
  const int vocab = options.vocab_size;
  const char* vocab_name = schema::name_of(options, options.vocab_size);
  TP_CHECK(vocab >= 0, "tokenizer ", vocab_name, " must be >= 0 (0 means the default), got ", vocab);
  TP_CHECK(!options.lowercase || options.kind == TokenizerKind::Word, "lowercase applies to word tokenizers only; a ",
           tokenizer_kind_name(options.kind), " tokenizer keeps the text exactly (it must decode back to it)");
  TP_CHECK(!is_imported_kind(options.kind), "a ", tokenizer_kind_name(options.kind), " tokenizer comes with an ",
           "imported model's files and is not learned from text; import the model (its tokenizer comes with it) or ",
           "choose char, word, bpe or byte");
  switch (options.kind) {
    case TokenizerKind::Char:
    case TokenizerKind::Word:
      TP_CHECK(vocab == 0 || vocab > specials, tokenizer_kind_name(options.kind), " tokenizer ", vocab_name,
               " must be 0 (no limit) or more than the ", specials, " special tokens, got ", vocab);
      if (options.kind == TokenizerKind::Char) {
        return detail::train_char_tokenizer(text, specials, vocab);
      }
      return detail::train_word_tokenizer(text, specials, vocab, options.lowercase);
    case TokenizerKind::Bpe: {
      const int base = specials + 256;
      TP_CHECK(vocab >= base && vocab <= detail::kMaxBpeVocab, "bpe tokenizer ", vocab_name, " must be in ", base, "..",
               detail::kMaxBpeVocab, " (", specials, " specials + 256 bytes + merges), got ", vocab);
      return detail::make_bpe_tokenizer(detail::learn_bpe_merges(text, specials, vocab - base), specials);
    }
    case TokenizerKind::Byte:
      TP_CHECK(vocab == 0 || vocab == specials + 256, "byte tokenizer ", vocab_name, " is always ", specials + 256,
               " (", specials, " specials + 256 bytes); pass 0 or ", specials + 256, ", got ", vocab);
      return detail::make_byte_tokenizer(specials);
    case TokenizerKind::Gpt2:
    case TokenizerKind::SentencePiece:
      break;  // refused above
  }
  TP_FAIL("unknown tokenizer kind ", static_cast<int>(options.kind));
}

std::unique_ptr<Tokenizer> word_tokenizer_from_vocab(const std::vector<std::string>& words, int num_specials,
                                                     bool lowercase) {
  detail::check_num_specials(num_specials);
  return detail::make_word_tokenizer(words, num_specials, lowercase);
}

std::unique_ptr<Tokenizer> Tokenizer::from_json(const json::Value& value) {
  TP_CHECK(value.is_object(), "tokenizer JSON must be an object, got ", json::type_name(value.type()));
  const TokenizerKind kind = parse_tokenizer_kind(detail::json_field(value, "kind").as_string("tokenizer field kind"));
  switch (kind) {
    case TokenizerKind::Char:
      return detail::char_tokenizer_from_json(value);
    case TokenizerKind::Word:
      return detail::word_tokenizer_from_json(value);
    case TokenizerKind::Bpe:
      return detail::bpe_tokenizer_from_json(value);
    case TokenizerKind::Byte:
      return detail::byte_tokenizer_from_json(value);
    case TokenizerKind::Gpt2:
      return detail::gpt2_tokenizer_from_json(value);
    case TokenizerKind::SentencePiece:
      return detail::sentencepiece_tokenizer_from_json(value);
  }
  TP_FAIL("unknown tokenizer kind");
}

namespace detail {

void check_num_specials(int num_specials) {
  TP_CHECK(num_specials >= 3 && num_specials <= kAllSpecials, "num_specials must be 3 (<SOS> <EOS> <PAD>) to ",
           kAllSpecials, " (adding <UNK> <CLS> <MASK>), got ", num_specials);
}

void fail_id_out_of_range(int id, int vocab_size) {
  TP_FAIL("token id ", id, " is out of range; this tokenizer has ", vocab_size, " tokens (ids 0..", vocab_size - 1,
          ")");
}

void append_special(std::string& out, int id) {
  if (id == kUnk) out += utf8::kReplacementUtf8;
}

std::string vocabulary_preview(const Tokenizer& tokenizer) {
  const int n = tokenizer.vocab_size();
  std::string out = str_cat(n, " tokens: ");
  for (int id = 0; id < std::min(n, kMaxPreviewTokens); ++id) {
    if (id > 0) out += ' ';
    out += tokenizer.token_text(id);
  }
  if (n > kMaxPreviewTokens) out += " ...";
  return out;
}

json::Value json_header(TokenizerKind kind, int num_specials, int vocab_size) {
  json::Value v = json::Value::object();
  v.set("kind", tokenizer_kind_name(kind));
  v.set("num_specials", num_specials);
  v.set("vocab_size", vocab_size);
  return v;
}

std::string ImportedTokenizer::continuation_bytes(const std::vector<int>& context, const std::vector<int>& ids,
                                                  std::string& before) const {
  std::vector<int> all = context;
  all.insert(all.end(), ids.begin(), ids.end());
  const std::string whole = decode_bytes(all);
  before = decode_bytes(context);
  // The context's bytes start the whole, but for the last few a convention may rewrite once more
  // follow (SentencePiece's ▁ spelled by three byte pieces); the continuation starts where they part.
  std::size_t common = 0;
  while (common < before.size() && common < whole.size() && before[common] == whole[common]) ++common;
  before.resize(common);
  return whole.substr(common);
}

json::Value ImportedTokenizer::json_head() const {
  json::Value v = json::Value::object();
  v.set("kind", tokenizer_kind_name(kind()));
  v.set("vocab_size", vocab_size());
  return v;
}

json::Value strings_json(const std::vector<std::string>& items) {
  json::Value a = json::Value::array();
  for (const std::string& s : items) a.push(s);
  return a;
}

json::Value merges_json(const Merges& merges) {
  json::Value a = json::Value::array();
  for (const auto& [left, right] : merges) a.push(left + " " + right);
  return a;
}

std::vector<std::string> strings_from_json(const json::Value& value, const char* key, const char* kind) {
  std::vector<std::string> out;
  const std::string what = str_cat(kind, " tokenizer field ", key);
  for (const json::Value& item : json_field(value, key).as_array(what)) out.push_back(item.as_string(what));
  return out;
}

Merges merges_from_json(const json::Value& value, const char* key, const char* kind) {
  Merges out;
  const std::string what = str_cat(kind, " tokenizer field ", key);
  for (const std::string& m : strings_from_json(value, key, kind)) out.push_back(split_merge(m, what.c_str()));
  return out;
}

void check_json_keys(const json::Value& value, const char* kind, std::initializer_list<const char*> allowed) {
  for (const auto& member : value.as_object("tokenizer JSON")) {
    bool known = false;
    for (const char* a : allowed) known = known || member.first == a;
    if (!known) {
      std::string list;
      for (const char* a : allowed) list += str_cat(list.empty() ? "" : ", ", a);
      TP_FAIL("unknown field '", member.first, "' in ", kind, " tokenizer JSON; expected: ", list);
    }
  }
}

std::pair<std::string, std::string> split_merge(std::string_view merge, const char* what) {
  const std::size_t space = merge.find(' ');
  TP_CHECK(space != std::string_view::npos && space > 0 && space + 1 < merge.size() &&
               merge.find(' ', space + 1) == std::string_view::npos,
           what, ": merge '", merge, "' must be two tokens separated by one space");
  return {std::string(merge.substr(0, space)), std::string(merge.substr(space + 1))};
}

const json::Value& json_field(const json::Value& value, const char* key) {
  const json::Value* field = value.find(key);
  TP_CHECK(field != nullptr, "tokenizer JSON is missing the field '", key, "'");
  return *field;
}

int read_json_header(const json::Value& value, TokenizerKind kind, std::initializer_list<const char*> allowed) {
  const char* name = tokenizer_kind_name(kind);
  for (const auto& member : value.as_object("tokenizer JSON")) {
    const std::string& key = member.first;
    bool known = key == "kind" || key == "num_specials" || key == "vocab_size";
    for (const char* a : allowed) known = known || key == a;
    if (!known) {
      std::string list = "kind, num_specials, vocab_size";
      for (const char* a : allowed) list += str_cat(", ", a);
      TP_FAIL("unknown field '", key, "' in ", name, " tokenizer JSON; expected: ", list);
    }
  }
  TP_CHECK(json_field(value, "kind").as_string("tokenizer field kind") == name, "tokenizer JSON kind must be '", name,
           "'");
  const std::int64_t specials = json_field(value, "num_specials").as_int("tokenizer field num_specials");
  TP_CHECK(specials >= 3 && specials <= kAllSpecials, "tokenizer field num_specials must be 3..", kAllSpecials,
           ", got ", specials);
  return static_cast<int>(specials);
}

void template_to_json(const SpecialsTemplate& t, json::Value& v) {
  if (t.empty()) return;
  json::Value out = json::Value::object();
  for (const auto& [key, ids] : {std::pair{"before", &t.before}, std::pair{"after", &t.after}}) {
    json::Value list = json::Value::array();
    for (const int id : *ids) list.push(id);
    out.set(key, std::move(list));
  }
  v.set("template", std::move(out));
}

SpecialsTemplate template_from_json(const json::Value& v) {
  SpecialsTemplate out;
  const json::Value* t = v.find("template");
  if (t == nullptr) return out;
  for (const auto& [key, ids] : {std::pair{"before", &out.before}, std::pair{"after", &out.after}}) {
    for (const json::Value& id : json_field(*t, key).as_array(str_cat("tokenizer template field ", key))) {
      const std::int64_t n = id.as_int("tokenizer template id");
      TP_CHECK(n >= 0 && n < (std::int64_t{1} << 31), "tokenizer template id ", n, " is not a token id");
      ids->push_back(static_cast<int>(n));
    }
  }
  return out;
}

void check_json_vocab_size(const json::Value& value, int actual) {
  const std::int64_t stored = json_field(value, "vocab_size").as_int("tokenizer field vocab_size");
  TP_CHECK(stored == actual, "tokenizer field vocab_size says ", stored, " but the stored vocabulary has ", actual,
           " tokens");
}

}  // namespace detail
}  // namespace tp
