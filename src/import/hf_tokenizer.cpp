// The tokenizer files of a Hugging Face-style checkpoint -> one of the two imported kinds:
//   tokenizer.json with a ByteLevel pre-tokenizer (GPT-2)          -> gpt2
//   vocab.json + merges.txt (GPT-2's original files)               -> gpt2
//   tokenizer.json with ▁ normalisation and byte_fallback (Llama)  -> sentencepiece
// Other tokenizer.json pipelines (another split pattern, WordPiece, Unigram) are refused with
// the field that differs. The special tokens put around an encoded text come from tokenizer.json's
// post_processor (TemplateProcessing's `single`; ByteLevel or none add nothing), and
// tokenizer_config.json's add_bos_token / add_eos_token decide instead where it sets them (as
// Hugging Face's Llama tokenizers rebuild their post-processor from those flags).
#include "core/error.h"
#include "import/import_internal.h"

namespace tp::import {
namespace {

constexpr const char* kSpaceMark = "\xE2\x96\x81";  // ▁

json::Value parse_json(std::string_view bytes, const char* file) {
  try {
    return json::parse(bytes);
  } catch (const Error& e) {
    TP_FAIL(file, " is not valid JSON: ", e.what());
  }
}

const json::Value* get(const json::Value& v, const char* key) {
  if (!v.is_object()) return nullptr;
  const json::Value* f = v.find(key);
  return f == nullptr || f->is_null() ? nullptr : f;
}

std::string type_of(const json::Value* v) {
  const json::Value* t = v ? get(*v, "type") : nullptr;
  return t && t->is_string() ? t->as_string() : "";
}

// {"token": id, ...} -> tokens by id (every id 0..n-1 exactly once).
std::vector<std::string> tokens_by_id(const json::Value& vocab, const char* file) {
  const auto& members = vocab.as_object(str_cat(file, " vocabulary"));
  std::vector<std::string> out(members.size());
  std::vector<bool> seen(members.size(), false);
  for (const auto& [token, id_value] : members) {
    const std::int64_t id = id_value.as_int(str_cat(file, " token id"));
    TP_CHECK(id >= 0 && id < static_cast<std::int64_t>(out.size()) && !seen[id], file, ": token '", token, "' has id ",
             id, "; the ids must be 0..", out.size() - 1, ", each once");
    seen[id] = true;
    out[id] = token;
  }
  return out;
}

// Merges as "a b" strings or [a, b] pairs.
std::vector<std::pair<std::string, std::string>> merges_of(const json::Value& merges, const char* file) {
  std::vector<std::pair<std::string, std::string>> out;
  for (const json::Value& m : merges.as_array(str_cat(file, " merges"))) {
    if (m.is_array()) {
      TP_CHECK(m.as_array().size() == 2, file, ": a merge must be a pair of tokens");
      out.emplace_back(m.as_array()[0].as_string("merge"), m.as_array()[1].as_string("merge"));
    } else {
      const std::string s = m.as_string(str_cat(file, " merge"));
      const std::size_t space = s.find(' ');
      TP_CHECK(space != std::string::npos, file, ": merge '", s, "' must be two tokens separated by a space");
      out.emplace_back(s.substr(0, space), s.substr(space + 1));
    }
  }
  return out;
}

// The content of the added special token with this id, or "".
std::string added_token(const json::Value& root, int id) {
  if (const json::Value* added = get(root, "added_tokens")) {
    for (const json::Value& t : added->as_array("tokenizer.json added_tokens")) {
      const json::Value* tid = get(t, "id");
      if (tid && tid->as_int("added token id") == id) return get(t, "content")->as_string("added token content");
    }
  }
  return "";
}

int id_of(const std::vector<std::string>& tokens, const std::string& token) {
  for (std::size_t i = 0; i < tokens.size(); ++i) {
    if (tokens[i] == token) return static_cast<int>(i);
  }
  return -1;
}

// Whether the normaliser / pre-tokenizer is SentencePiece's "prepend ▁, spaces to ▁".
bool is_metaspace(const json::Value& root) {
  const json::Value* norm = get(root, "normalizer");
  bool prepend = false, replace = false;
  if (norm) {
    std::vector<const json::Value*> steps;
    if (type_of(norm) == "Sequence") {
      for (const json::Value& s : get(*norm, "normalizers")->as_array("normalizers")) steps.push_back(&s);
    } else {
      steps.push_back(norm);
    }
    for (const json::Value* s : steps) {
      const std::string t = type_of(s);
      if (t == "Prepend" && get(*s, "prepend") && get(*s, "prepend")->as_string() == kSpaceMark)
        prepend = true;
      else if (t == "Replace" && get(*s, "content") && get(*s, "content")->as_string() == kSpaceMark)
        replace = true;
      else
        TP_FAIL("tokenizer.json normalizer step '", t,
                "' is not supported; supported: Prepend(\"▁\"), Replace(\" \", \"▁\")");
    }
  }
  const json::Value* pre = get(root, "pre_tokenizer");
  if (type_of(pre) == "Metaspace") {
    const json::Value* split = get(*pre, "split");
    TP_CHECK(split == nullptr || !split->as_bool("split"), "tokenizer.json pre_tokenizer Metaspace with split = true ",
             "is not supported; supported: split = false (SentencePiece's own behaviour)");
    const json::Value* scheme = get(*pre, "prepend_scheme");
    const json::Value* add = get(*pre, "add_prefix_space");
    prepend = (scheme ? scheme->as_string() != "never" : true) && (add ? add->as_bool() : true);
    replace = true;
  } else {
    TP_CHECK(pre == nullptr, "tokenizer.json pre_tokenizer '", type_of(pre), "' is not supported for a Llama-family ",
             "tokenizer; supported: none or Metaspace");
  }
  TP_CHECK(replace, "tokenizer.json: a Llama-family tokenizer must turn spaces into ▁ (normalizer Replace or ",
           "pre_tokenizer Metaspace)");
  return prepend;
}

std::unique_ptr<Tokenizer> gpt2_from_tokenizer_json(const json::Value& root, const json::Value& model, int eos_id) {
  const json::Value* pre = get(root, "pre_tokenizer");
  TP_CHECK(type_of(pre) == "ByteLevel", "tokenizer.json pre_tokenizer '", type_of(pre), "' is not supported for a ",
           "GPT-2-family tokenizer; supported: ByteLevel (GPT-2's pattern)");
  const json::Value* regex = get(*pre, "use_regex");
  TP_CHECK(regex == nullptr || regex->as_bool(), "tokenizer.json pre_tokenizer ByteLevel with use_regex = false is ",
           "not supported; supported: GPT-2's pattern (use_regex = true)");
  const json::Value* prefix = get(*pre, "add_prefix_space");
  TP_CHECK(prefix == nullptr || !prefix->as_bool(), "tokenizer.json pre_tokenizer ByteLevel with add_prefix_space = ",
           "true is not supported; supported: false (GPT-2)");
  Gpt2Vocab vocab;
  vocab.tokens = tokens_by_id(*get(model, "vocab"), "tokenizer.json");
  vocab.merges = merges_of(*get(model, "merges"), "tokenizer.json");
  const std::string eos = eos_id >= 0 ? added_token(root, eos_id) : "";
  if (!eos.empty()) vocab.eos_token = eos;
  return make_gpt2_tokenizer(std::move(vocab));
}

std::unique_ptr<Tokenizer> sentencepiece_from_tokenizer_json(const json::Value& root, const json::Value& model,
                                                             const HfModel& hf) {
  const json::Value* fallback = get(model, "byte_fallback");
  TP_CHECK(fallback && fallback->as_bool(), "tokenizer.json model.byte_fallback must be true for a Llama-family ",
           "tokenizer (SentencePiece with byte fallback)");
  SentencePieceVocab vocab;
  vocab.pieces = tokens_by_id(*get(model, "vocab"), "tokenizer.json");
  vocab.merges = merges_of(*get(model, "merges"), "tokenizer.json");
  vocab.add_dummy_prefix = is_metaspace(root);
  const json::Value* unk = get(model, "unk_token");
  vocab.unk = unk ? id_of(vocab.pieces, unk->as_string("unk_token")) : -1;
  vocab.bos = hf.bos_id >= 0 ? hf.bos_id : id_of(vocab.pieces, "<s>");
  vocab.eos = hf.eos_id >= 0 ? hf.eos_id : id_of(vocab.pieces, "</s>");
  return make_sentencepiece_tokenizer(std::move(vocab));
}

// tokenizer.json post_processor -> the ids before and after the text ("A").
void post_processor_template(const json::Value& pp, SpecialsTemplate& out, const Tokenizer& tok) {
  const std::string type = type_of(&pp);
  if (type == "ByteLevel") return;  // offsets only
  if (type == "Sequence") {
    const json::Value* steps = get(pp, "processors");
    TP_CHECK(steps != nullptr, "tokenizer.json post_processor Sequence has no processors");
    for (const json::Value& step : steps->as_array("tokenizer.json post_processor processors"))
      post_processor_template(step, out, tok);
    return;
  }
  TP_CHECK(type == "TemplateProcessing", "tokenizer.json post_processor '", type,
           "' is not supported; supported: ", "TemplateProcessing, ByteLevel, Sequence of them, or none");
  const json::Value* single = get(pp, "single");
  TP_CHECK(single != nullptr, "tokenizer.json post_processor TemplateProcessing has no 'single' template");
  const json::Value* specials = get(pp, "special_tokens");
  SpecialsTemplate t;
  bool seen_text = false;
  for (const json::Value& item : single->as_array("tokenizer.json post_processor single")) {
    if (get(item, "Sequence")) {
      TP_CHECK(!seen_text, "tokenizer.json post_processor single template has the text twice");
      seen_text = true;
      continue;
    }
    const json::Value* special = get(item, "SpecialToken");
    TP_CHECK(special != nullptr, "tokenizer.json post_processor single template items must be SpecialToken or ",
             "Sequence");
    const std::string name = get(*special, "id") ? get(*special, "id")->as_string("SpecialToken id") : "";
    const json::Value* entry = specials ? get(*specials, name.c_str()) : nullptr;
    TP_CHECK(entry && get(*entry, "ids"), "tokenizer.json post_processor special token '", name,
             "' is not in its special_tokens");
    for (const json::Value& id : get(*entry, "ids")->as_array("special_tokens ids")) {
      const std::int64_t n = id.as_int("special_tokens id");
      TP_CHECK(n >= 0 && n < tok.vocab_size(), "tokenizer.json post_processor special token '", name, "' has id ", n,
               ", outside the vocabulary (0..", tok.vocab_size() - 1, ")");
      (seen_text ? t.after : t.before).push_back(static_cast<int>(n));
    }
  }
  TP_CHECK(seen_text, "tokenizer.json post_processor single template has no Sequence (the text)");
  out.before.insert(out.before.end(), t.before.begin(), t.before.end());
  out.after.insert(out.after.end(), t.after.begin(), t.after.end());
}

// The template the files give (see the header comment).
SpecialsTemplate specials_template_of(const json::Value* tokenizer_json, const std::vector<ModelFile>& files,
                                      const Tokenizer& tok) {
  SpecialsTemplate t;
  if (tokenizer_json != nullptr) {
    if (const json::Value* pp = get(*tokenizer_json, "post_processor")) post_processor_template(*pp, t, tok);
  }
  if (const ModelFile* file = find_file(files, "tokenizer_config.json")) {
    const json::Value config = parse_json(file->bytes, "tokenizer_config.json");
    const SpecialTokens s = tok.specials();
    const auto flag = [&](const char* key, int id, std::vector<int>& ids) {
      const json::Value* v = get(config, key);
      if (v == nullptr) return;
      const bool on = v->as_bool(str_cat("tokenizer_config.json field ", key));
      TP_CHECK(!on || id >= 0, "tokenizer_config.json field ", key, " = true, but the tokenizer has no such token");
      ids = on ? std::vector<int>{id} : std::vector<int>{};
    };
    flag("add_bos_token", s.sos, t.before);
    flag("add_eos_token", s.eos, t.after);
  }
  return t;
}

// merges.txt: a "#version" line, then "a b" per line.
std::vector<std::pair<std::string, std::string>> read_merges_txt(std::string_view text) {
  std::vector<std::pair<std::string, std::string>> out;
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
    const std::size_t space = line.find(' ');
    TP_CHECK(space != std::string_view::npos && space > 0 && space + 1 < line.size(), "merges.txt line ", line_no,
             " must be two tokens separated by a space");
    out.emplace_back(std::string(line.substr(0, space)), std::string(line.substr(space + 1)));
  }
  return out;
}

}  // namespace

std::unique_ptr<Tokenizer> read_hf_tokenizer(const HfModel& hf, const std::vector<ModelFile>& files) {
  std::unique_ptr<Tokenizer> tok;
  json::Value root;
  const ModelFile* tokenizer_json = find_file(files, "tokenizer.json");
  if (tokenizer_json != nullptr) {
    root = parse_json(tokenizer_json->bytes, "tokenizer.json");
    const json::Value* model = get(root, "model");
    TP_CHECK(model && type_of(model) == "BPE", "tokenizer.json model.type '", type_of(model), "' is not supported; ",
             "supported: BPE (GPT-2's byte-level BPE, or SentencePiece BPE with byte fallback)");
    tok = hf.family == HfFamily::Gpt2 ? gpt2_from_tokenizer_json(root, *model, hf.eos_id)
                                      : sentencepiece_from_tokenizer_json(root, *model, hf);
  } else if (find_file(files, "vocab.json") && find_file(files, "merges.txt")) {
    TP_CHECK(hf.family == HfFamily::Gpt2, "vocab.json + merges.txt is GPT-2's tokenizer; a Llama-family model needs ",
             "its tokenizer.json");
    Gpt2Vocab vocab;
    vocab.tokens = tokens_by_id(parse_json(find_file(files, "vocab.json")->bytes, "vocab.json"), "vocab.json");
    vocab.merges = read_merges_txt(find_file(files, "merges.txt")->bytes);
    tok = make_gpt2_tokenizer(std::move(vocab));
  } else {
    TP_FAIL("no tokenizer: a Hugging Face-style model needs tokenizer.json, or vocab.json and merges.txt (GPT-2)",
            find_file(files, "tokenizer.model") ? "; tokenizer.model (SentencePiece's protobuf) is not read" : "");
  }
  TP_CHECK(tok->vocab_size() == hf.config.vocab_size, "the tokenizer has ", tok->vocab_size(), " tokens but ",
           "config.json field vocab_size = ", hf.config.vocab_size);
  tok->set_specials_template(specials_template_of(tokenizer_json ? &root : nullptr, files, *tok));
  return tok;
}

}  // namespace tp::import
