// The tokenizer files of a Hugging Face-style checkpoint -> one of the two imported kinds:
//   tokenizer.json with a ByteLevel pre-tokenizer (GPT-2)          -> gpt2
//   vocab.json + merges.txt (GPT-2's original files)               -> gpt2
//   tokenizer.json with ▁ normalisation and byte_fallback (Llama)  -> sentencepiece
// Other tokenizer.json pipelines (another split pattern, WordPiece, Unigram) are refused with
// the field that differs.
//
// These files are the largest text an import reads (a vocabulary of 128 k tokens, hundreds of
// thousands of merges), so they are never parsed whole: the document's members are found as raw
// text (file_field.h), the pipeline's small parts are parsed on their own with a bound on their
// bytes, and the vocabulary, the merges and the added tokens are streamed one entry at a time and
// counted against what config.json allows — at most vocab_size tokens; for GPT-2 at most one
// merge per token, for SentencePiece at most the splits its pieces have — so a file claiming
// millions is refused at the first entry too many. Special tokens are known by their ids
// (config.json's bos/eos_token_id), never by their text.
//
// The special tokens put around an encoded text come from tokenizer.json's post_processor
// (TemplateProcessing's `single`; ByteLevel or none add nothing), and tokenizer_config.json's
// add_bos_token / add_eos_token decide instead where it sets them (as Hugging Face's Llama
// tokenizers rebuild their post-processor from those flags).
#include <algorithm>

#include "core/error.h"
#include "core/text_escape.h"
#include "core/utf8.h"
#include "import/file_field.h"
#include "import/import_internal.h"

namespace tp::import {
namespace {

constexpr const char* kSpaceMark = "\xE2\x96\x81";  // ▁
constexpr std::size_t kMaxPartBytes = 64 * 1024;    // a normalizer, a pre-tokenizer, an added token, ...
constexpr std::size_t kMaxMembers = 256;            // of tokenizer.json and of its model
constexpr std::size_t kMaxIdBytes = 64;             // the text of one token id
constexpr std::size_t kMaxMergeBytes = 64 * 1024;   // one merge

using Merges = std::vector<std::pair<std::string, std::string>>;

// A member of `list` parsed on its own (bounded), or a missing Field.
struct Optional {
  std::unique_ptr<Part> part;
  Field field;
  Optional(const SourceFile& file, const std::string& path, const std::vector<Member>& list, const char* key)
      : field(file.name, child_path(path, key), nullptr) {
    if (const Member* m = find_member(list, key)) {
      part = std::make_unique<Part>(file, child_path(path, key), m->text, kMaxPartBytes);
      field = part->field();
    }
  }
};

std::string type_of(const Field& f) {
  return f.present() && f.type() == json::Value::Type::Object ? f["type"].string_or("") : "";
}

// {"token": id, ...} -> tokens by id: exactly vocab_size of them, ids 0 .. vocab_size - 1 once each.
std::vector<std::string> read_vocab(const SourceFile& file, const std::string& path, std::string_view text,
                                    int vocab_size) {
  const std::string why = str_cat("allowed: config.json's vocab_size (", vocab_size, ")");
  std::vector<std::pair<int, std::string>> read;  // grows with the file, never with the claim
  for_each_member(file, path, text, static_cast<std::size_t>(vocab_size), why.c_str(), kMaxIdBytes,
                  [&](const std::string& token, const Field& id) {
                    read.emplace_back(id.int32(0, vocab_size - 1, "a token id, below config.json's vocab_size"), token);
                  });
  const Field field(file.name, path, nullptr);
  if (static_cast<int>(read.size()) != vocab_size) {
    field.fail("has ", read.size(), " tokens but config.json field vocab_size = ", vocab_size);
  }
  std::sort(read.begin(), read.end());
  // As many ids as tokens, each in range: no id repeats exactly when every id is there.
  for (std::size_t i = 1; i < read.size(); ++i) {
    if (read[i].first == read[i - 1].first) {
      field.fail("gives the id ", read[i].first, " to both ", quote(read[i - 1].second), " and ", quote(read[i].second),
                 "; each id 0 .. ", vocab_size - 1, " must name one token");
    }
  }
  std::vector<std::string> out;
  out.reserve(read.size());
  for (auto& entry : read) out.push_back(std::move(entry.second));
  std::vector<const std::string*> sorted;
  for (const std::string& t : out) sorted.push_back(&t);
  std::sort(sorted.begin(), sorted.end(), [](const std::string* a, const std::string* b) { return *a < *b; });
  for (std::size_t i = 1; i < sorted.size(); ++i) {
    if (*sorted[i] == *sorted[i - 1]) field.fail("lists the token ", quote(*sorted[i]), " twice");
  }
  return out;
}

// Merges as "a b" strings or [a, b] pairs, at most max_merges of them.
Merges read_merges(const SourceFile& file, const std::string& path, std::string_view text, std::size_t max_merges,
                   const std::string& why) {
  Merges out;
  for_each_item(file, path, text, max_merges, why.c_str(), kMaxMergeBytes, [&](std::size_t, const Field& m) {
    if (m.type() == json::Value::Type::Array) {
      if (m.array(2).size() != 2) m.fail("must be a pair of tokens [\"a\", \"b\"]");
      std::string left = m.item(0).string();  // in order, so the first bad one is named
      out.emplace_back(std::move(left), m.item(1).string());
      return;
    }
    if (m.type() != json::Value::Type::String) m.fail("must be a merge \"a b\" or [\"a\", \"b\"], got ", m.shown());
    const std::string& s = m.string();
    const std::size_t space = s.find(' ');
    if (space == std::string::npos || space == 0 || space + 1 == s.size())
      m.fail("= ", quote(s), " must be two tokens separated by a space");
    out.emplace_back(s.substr(0, space), s.substr(space + 1));
  });
  return out;
}

// The splits of the pieces into two pieces' worth of text: how many distinct merges a vocabulary
// can have (each merge joins two pieces into a third, at a character boundary).
std::size_t max_splits(const std::vector<std::string>& pieces) {
  std::size_t total = 0;
  for (const std::string& p : pieces) {
    std::size_t chars = 0;
    for (std::size_t i = 0; i < p.size(); i += static_cast<std::size_t>(utf8::decode_at(p, i).length)) ++chars;
    if (chars > 1) total += chars - 1;
  }
  return total;
}

// added_tokens: each {id, content, ...} must be the vocabulary's token of that id.
void check_added_tokens(const SourceFile& file, const std::vector<Member>& root,
                        const std::vector<std::string>& tokens) {
  const Member* added = find_member(root, "added_tokens");
  if (added == nullptr || json::Reader(added->text).peek() == json::Value::Type::Null) return;
  const std::string why = str_cat("allowed: at most one per token (config.json vocab_size = ", tokens.size(), ")");
  for_each_item(file, "added_tokens", added->text, tokens.size(), why.c_str(), kMaxPartBytes,
                [&](std::size_t, const Field& t) {
                  const int id = t["id"].int32(0, static_cast<int>(tokens.size()) - 1, "a token id of model.vocab");
                  const std::string& content = t["content"].string();
                  if (content != tokens[id]) {
                    t["content"].fail("= ", quote(content), " but model.vocab gives the id ", id, " to ",
                                      quote(tokens[id]), "; an added token must be the vocabulary's token of its id");
                  }
                });
}

// Whether the normaliser / pre-tokenizer is SentencePiece's "prepend ▁, spaces to ▁".
bool is_metaspace(const Field& norm, const Field& pre) {
  bool prepend = false, replace = false;
  if (norm.present()) {
    std::vector<Field> steps;
    if (type_of(norm) == "Sequence") {
      const Field list = norm["normalizers"];
      for (std::size_t i = 0; i < list.array(64).size(); ++i) steps.push_back(list.item(i));
    } else {
      steps.push_back(norm);
    }
    for (const Field& s : steps) {
      const std::string t = type_of(s);
      if (t == "Prepend" && s["prepend"].string() == kSpaceMark) {
        prepend = true;
      } else if (t == "Replace" && s["content"].string() == kSpaceMark) {
        replace = true;
      } else {
        s.fail("(type ", quote(t), ") is not supported; supported: Prepend(\"▁\"), Replace(\" \", \"▁\")");
      }
    }
  }
  if (type_of(pre) == "Metaspace") {
    if (pre["split"].boolean_or(false)) {
      pre["split"].fail("= true is not supported; supported: false (SentencePiece's own behaviour)");
    }
    const std::string scheme = pre["prepend_scheme"].string_or("always");
    prepend = scheme != "never" && pre["add_prefix_space"].boolean_or(true);
    replace = true;
  } else if (pre.present()) {
    pre.fail("(type ", quote(type_of(pre)), ") is not supported for a Llama-family tokenizer; supported: none or ",
             "Metaspace");
  }
  TP_CHECK(replace, "tokenizer.json: a Llama-family tokenizer must turn spaces into ▁ (normalizer Replace or ",
           "pre_tokenizer Metaspace)");
  return prepend;
}

// model's options that would change what BPE does, each refused unless it is the plain value.
void check_plain_bpe(const Field& model) {
  const Field dropout = model["dropout"];
  if (dropout.present() && dropout.number(0.0, 1.0) != 0.0) {
    dropout.fail("= ", dropout.value()->dump(), " is not supported; supported: null (no BPE dropout)");
  }
  for (const char* key : {"continuing_subword_prefix", "end_of_word_suffix"}) {
    const Field f = model[key];
    if (f.present() && !f.string().empty()) f.fail("= ", quote(f.string()), " is not supported; supported: null");
  }
  if (model["ignore_merges"].boolean_or(false))
    model["ignore_merges"].fail("= true is not supported; supported: false");
}

// tokenizer.json post_processor -> the ids it puts before and after the text (appended to `out`).
void post_processor_template(const Field& pp, int vocab_size, SpecialsTemplate& out) {
  if (!pp.present()) return;
  const std::string type = type_of(pp);
  if (type == "ByteLevel") return;  // offsets only
  if (type == "Sequence") {
    const Field steps = pp["processors"];
    for (std::size_t i = 0; i < steps.array(64).size(); ++i) post_processor_template(steps.item(i), vocab_size, out);
    return;
  }
  if (type != "TemplateProcessing") {
    pp["type"].fail("= ", quote(type), " is not supported; supported: TemplateProcessing, ByteLevel, a Sequence of ",
                    "them, or null");
  }
  const Field single = pp["single"], specials = pp["special_tokens"];
  SpecialsTemplate t;
  bool seen_text = false;
  for (std::size_t i = 0; i < single.array(256).size(); ++i) {
    const Field item = single.item(i);
    if (item["Sequence"].present()) {
      if (seen_text) item.fail("is the text a second time; the template has it once");
      seen_text = true;
      continue;
    }
    const Field special = item["SpecialToken"];
    if (!special.present()) item.fail("must be {\"SpecialToken\": ...} or {\"Sequence\": ...}");
    const std::string& name = special["id"].string();
    const Field entry = specials[name];
    if (!entry.present()) special["id"].fail("= ", quote(name), " is not in post_processor.special_tokens");
    const Field ids = entry["ids"];
    for (std::size_t j = 0; j < ids.array(256).size(); ++j) {
      (seen_text ? t.after : t.before).push_back(ids.item(j).int32(0, vocab_size - 1, "a token id of model.vocab"));
    }
  }
  if (!seen_text) single.fail("has no {\"Sequence\": ...}: the template must place the text");
  out.before.insert(out.before.end(), t.before.begin(), t.before.end());
  out.after.insert(out.after.end(), t.after.begin(), t.after.end());
}

// tokenizer_config.json's add_bos_token / add_eos_token, where it sets them, in place of what
// the post-processor put before / after the text.
void apply_tokenizer_config(std::string_view bytes, const SpecialTokens& s, SpecialsTemplate& t) {
  const SourceFile file{"tokenizer_config.json", bytes};
  check_import_file_size(file.name, bytes.size());
  const std::vector<Member> root = members(file, "", bytes, kMaxMembers);
  const auto flag = [&](const char* key, int id, const char* token, std::vector<int>& ids) {
    const Optional f(file, "", root, key);
    if (!f.field.present()) return;
    const bool on = f.field.boolean();
    if (on && id < 0) f.field.fail("= true, but the tokenizer has no ", token, " token");
    ids = on ? std::vector<int>{id} : std::vector<int>{};
  };
  flag("add_bos_token", s.sos, "beginning-of-sequence", t.before);
  flag("add_eos_token", s.eos, "end-of-sequence", t.after);
}

int id_of(const std::vector<std::string>& tokens, const std::string& token) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] == token) return static_cast<int>(i);
  }
  return -1;
}

std::unique_ptr<Tokenizer> read_tokenizer_json(const HfModel& hf, std::string_view bytes) {
  const SourceFile file{"tokenizer.json", bytes};
  check_import_file_size(file.name, bytes.size());
  const std::vector<Member> root = members(file, "", bytes, kMaxMembers);
  const Member* model_member = find_member(root, "model");
  if (model_member == nullptr) Field(file.name, "model", nullptr).fail("is missing; a tokenizer.json has one");
  const std::vector<Member> model = members(file, "model", model_member->text, kMaxMembers);
  // The model's small members, parsed together once vocab and merges are set aside.
  json::Value small = json::Value::object();
  for (const Member& m : model) {
    if (m.key == "vocab" || m.key == "merges") continue;
    const Part part(file, child_path("model", m.key), m.text, kMaxPartBytes);
    small.set(m.key, *part.field().value());
  }
  const Field model_field(file.name, "model", &small);
  const std::string type = type_of(model_field);
  if (type != "BPE") {
    model_field["type"].fail("= ", quote(type), " is not supported; supported: BPE (GPT-2's byte-level BPE, or ",
                             "SentencePiece BPE with byte fallback)");
  }
  check_plain_bpe(model_field);
  const Member* vocab_member = find_member(model, "vocab");
  if (vocab_member == nullptr) Field(file.name, "model.vocab", nullptr).fail("is missing; a BPE model has one");
  std::vector<std::string> tokens = read_vocab(file, "model.vocab", vocab_member->text, hf.config.vocab_size);
  check_added_tokens(file, root, tokens);
  const Member* merges_member = find_member(model, "merges");
  if (merges_member == nullptr) Field(file.name, "model.merges", nullptr).fail("is missing; a BPE model has one");
  const Optional norm(file, "", root, "normalizer"), pre(file, "", root, "pre_tokenizer");
  SpecialsTemplate specials_template;
  const Optional post(file, "", root, "post_processor");
  post_processor_template(post.field, static_cast<int>(tokens.size()), specials_template);

  if (hf.family == HfFamily::Gpt2) {
    if (type_of(pre.field) != "ByteLevel") {
      pre.field.fail("(type ", quote(type_of(pre.field)), ") is not supported for a GPT-2-family tokenizer; ",
                     "supported: ByteLevel (GPT-2's pattern)");
    }
    if (!pre.field["use_regex"].boolean_or(true)) {
      pre.field["use_regex"].fail("= false is not supported; supported: true (GPT-2's pattern)");
    }
    if (pre.field["add_prefix_space"].boolean_or(false)) {
      pre.field["add_prefix_space"].fail("= true is not supported; supported: false (GPT-2)");
    }
    if (norm.field.present()) norm.field.fail("is not supported for a GPT-2-family tokenizer; supported: null");
    Gpt2Vocab vocab;
    vocab.merges =
        read_merges(file, "model.merges", merges_member->text, tokens.size(),
                    str_cat("allowed: at most one per token (config.json vocab_size = ", tokens.size(), ")"));
    vocab.eos = hf.eos_id >= 0 ? hf.eos_id : id_of(tokens, "<|endoftext|>");
    vocab.tokens = std::move(tokens);
    std::unique_ptr<Tokenizer> tok = make_gpt2_tokenizer(std::move(vocab));
    tok->set_specials_template(std::move(specials_template));
    return tok;
  }

  if (!model_field["byte_fallback"].boolean_or(false)) {
    model_field["byte_fallback"].fail("must be true for a Llama-family tokenizer (SentencePiece with byte fallback)");
  }
  SentencePieceVocab vocab;
  const std::size_t splits = max_splits(tokens);
  vocab.merges = read_merges(file, "model.merges", merges_member->text, splits,
                             str_cat("allowed: at most ", splits, ", the ways model.vocab's pieces split into two"));
  vocab.add_dummy_prefix = is_metaspace(norm.field, pre.field);
  const Field unk = model_field["unk_token"];
  vocab.unk = -1;
  if (unk.present()) {
    vocab.unk = id_of(tokens, unk.string());
    if (vocab.unk < 0) unk.fail("= ", quote(unk.string()), " is not a token of model.vocab");
  }
  vocab.bos = hf.bos_id >= 0 ? hf.bos_id : id_of(tokens, "<s>");
  vocab.eos = hf.eos_id >= 0 ? hf.eos_id : id_of(tokens, "</s>");
  vocab.pieces = std::move(tokens);
  std::unique_ptr<Tokenizer> tok = make_sentencepiece_tokenizer(std::move(vocab));
  tok->set_specials_template(std::move(specials_template));
  return tok;
}

// merges.txt: a "#version" line, then "a b" per line, at most one per token.
Merges read_merges_txt(std::string_view text, std::size_t max_merges) {
  check_import_file_size("merges.txt", text.size());
  Merges out;
  std::size_t pos = 0;
  int line_no = 0;
  while (pos < text.size()) {
    std::size_t end = text.find('\n', pos);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(pos, end - pos);
    pos = end + 1;
    ++line_no;
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    if (line.empty() || (line_no == 1 && line.rfind("#version", 0) == 0)) continue;
    TP_CHECK(out.size() < max_merges, "merges.txt has more than ", max_merges, " merges (at line ", line_no,
             "); allowed: at most one per token (config.json vocab_size = ", max_merges, ")");
    const std::size_t space = line.find(' ');
    TP_CHECK(space != std::string_view::npos && space > 0 && space + 1 < line.size(), "merges.txt line ", line_no, " ",
             quote(line), " must be two tokens separated by a space");
    TP_CHECK(utf8::is_valid(line), "merges.txt line ", line_no, " ", quote(line), " is not valid UTF-8");
    out.emplace_back(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
  }
  return out;
}

}  // namespace

std::unique_ptr<Tokenizer> read_hf_tokenizer(const HfModel& hf, const std::vector<ModelFile>& files) {
  std::unique_ptr<Tokenizer> tok;
  if (const ModelFile* file = find_file(files, "tokenizer.json")) {
    tok = read_tokenizer_json(hf, file->bytes);
  } else if (find_file(files, "vocab.json") && find_file(files, "merges.txt")) {
    TP_CHECK(hf.family == HfFamily::Gpt2, "vocab.json + merges.txt is GPT-2's tokenizer; a Llama-family model needs ",
             "its tokenizer.json");
    const std::string_view vocab_json = find_file(files, "vocab.json")->bytes;
    check_import_file_size("vocab.json", vocab_json.size());
    Gpt2Vocab vocab;
    vocab.tokens = read_vocab(SourceFile{"vocab.json", vocab_json}, "", vocab_json, hf.config.vocab_size);
    vocab.merges = read_merges_txt(find_file(files, "merges.txt")->bytes, vocab.tokens.size());
    vocab.eos = hf.eos_id >= 0 ? hf.eos_id : id_of(vocab.tokens, "<|endoftext|>");
    tok = make_gpt2_tokenizer(std::move(vocab));
  } else {
    TP_FAIL("no tokenizer: a Hugging Face-style model needs tokenizer.json, or vocab.json and merges.txt (GPT-2)",
            find_file(files, "tokenizer.model") ? "; tokenizer.model (SentencePiece's protobuf) is not read" : "");
  }
  TP_CHECK(tok->vocab_size() == hf.config.vocab_size, "the tokenizer has ", tok->vocab_size(), " tokens but ",
           "config.json field vocab_size = ", hf.config.vocab_size);
  if (const ModelFile* file = find_file(files, "tokenizer_config.json")) {
    SpecialsTemplate t = tok->specials_template();
    apply_tokenizer_config(file->bytes, tok->specials(), t);
    tok->set_specials_template(std::move(t));
  }
  return tok;
}

}  // namespace tp::import
