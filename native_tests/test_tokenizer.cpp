// [tokenizer] The four tokenizers: round trips on hard text, span tiling (bytes and UTF-16),
// invalid UTF-8 (decoded as TextDecoder does, whole and streamed token by token), the seed's Q&A ids, BPE training and
// encoding against naive reference versions, the documented tie-break, JSON round trips and the errors for bad ids and
// bad JSON.
#include <catch2/catch.hpp>

#include <cctype>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/error.h"
#include "core/json.h"
#include "core/rng.h"
#include "core/utf8.h"
#include "tasks/embedded.h"
#include "tokenize/pretokenize.h"
#include "tokenize/tokenizer.h"

using namespace tp;

namespace {

const std::vector<std::string>& hard_texts() {
  static const std::vector<std::string> texts = {
      "",
      "Hello, world! It's 2024: 3.14 > 2.71 (roughly).",
      "안녕하세요, 세계! 트랜스포머를 배워 봅시다.",
      "Family: \xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9\xE2\x80\x8D\xF0\x9F\x91\xA7"
      "\xE2\x80\x8D\xF0\x9F\x91\xA6 flag \xF0\x9F\x87\xB0\xF0\x9F\x87\xB7 thumbs "
      "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD!",
      "cafe\xCC\x81 man\xCC\x83"
      "ana a\xCC\x8A\xCC\x8A \xCC\x81lone",  // combining marks
      "  two  spaces\t\ttabs\n\n\nnewlines \r\n crlf   trailing   ",
      "mixed 日本語テキスト and русский текст with ₩1,000 + €5 — done…",
  };
  return texts;
}

std::unique_ptr<Tokenizer> train(TokenizerKind kind, const std::string& text, int vocab = 0,
                                 int specials = kAllSpecials) {
  TokenizerOptions options;
  options.kind = kind;
  options.vocab_size = vocab;
  options.num_specials = specials;
  return train_tokenizer(options, text);
}

std::string all_hard_text() {
  std::string all;
  for (const auto& t : hard_texts()) all += t + "\n";
  return all;
}

const std::string& book() {
  static const std::string text = embedded::file_text("devils_dictionary.txt");
  return text;
}

// Trained once: the tests below share it.
const Tokenizer& book_bpe() {
  static const std::unique_ptr<Tokenizer> bpe = train(TokenizerKind::Bpe, book(), 512);
  return *bpe;
}

// UTF-16 offset of every UTF-8 character boundary of valid text, computed independently of the
// library: lead bytes give the length, 4-byte characters take two code units.
std::map<int, int> utf16_offsets(const std::string& text) {
  std::map<int, int> at;
  int u16 = 0;
  for (std::size_t i = 0; i < text.size();) {
    at[static_cast<int>(i)] = u16;
    const auto b = static_cast<unsigned char>(text[i]);
    const int len = b < 0x80 ? 1 : b < 0xE0 ? 2 : b < 0xF0 ? 3 : 4;
    u16 += len == 4 ? 2 : 1;
    i += len;
  }
  at[static_cast<int>(text.size())] = u16;
  return at;
}

// The character containing byte i: [start, end) in bytes.
std::pair<int, int> char_around(const std::map<int, int>& offsets, int i) {
  auto it = offsets.upper_bound(i);
  const int end = it->first;
  --it;
  return {it->first, end};
}

// Tiling of byte spans, each token's bytes equal to its decoded piece, and UTF-16 spans that are
// exactly the characters the token touches.
void check_tiling(const Tokenizer& tok, const std::string& text) {
  const Encoding enc = tok.encode(text);
  REQUIRE(enc.ids.size() == enc.tokens.size());
  REQUIRE(enc.ids.size() == enc.byte_spans.size());
  REQUIRE(enc.ids.size() == enc.utf16_spans.size());
  const auto offsets = utf16_offsets(text);
  int pos = 0;
  for (std::size_t i = 0; i < enc.ids.size(); ++i) {
    const Span b = enc.byte_spans[i];
    REQUIRE(b.begin == pos);
    REQUIRE(b.end > b.begin);
    REQUIRE(text.substr(b.begin, b.end - b.begin) == tok.decode_bytes({enc.ids[i]}));
    const int u16_begin = offsets.at(char_around(offsets, b.begin).first);
    const int u16_end = offsets.at(char_around(offsets, b.end - 1).second);
    REQUIRE(enc.utf16_spans[i].begin == u16_begin);
    REQUIRE(enc.utf16_spans[i].end == u16_end);
    pos = b.end;
  }
  REQUIRE(pos == static_cast<int>(text.size()));
}

std::string thrown_message(const std::function<void()>& f) {
  try {
    f();
  } catch (const Error& e) {
    return e.what();
  }
  return "(no tp::Error thrown)";
}

std::vector<std::pair<int, int>> merges_of(const Tokenizer& tok) {
  std::vector<std::pair<int, int>> merges;
  const json::Value json = tok.to_json();
  for (const json::Value& m : json.at("merges").as_array()) {
    merges.emplace_back(static_cast<int>(m.as_array()[0].as_int()), static_cast<int>(m.as_array()[1].as_int()));
  }
  return merges;
}

}  // namespace

TEST_CASE("special tokens and kind names are fixed", "[tokenizer]") {
  const std::vector<std::string> names = {"<SOS>", "<EOS>", "<PAD>", "<UNK>", "<CLS>", "<MASK>"};
  for (int id = 0; id < kAllSpecials; ++id) REQUIRE(special_token_text(id) == names[id]);
  REQUIRE(parse_tokenizer_kind("bpe") == TokenizerKind::Bpe);
  REQUIRE(std::string(tokenizer_kind_name(TokenizerKind::Word)) == "word");
  REQUIRE(thrown_message([] { parse_tokenizer_kind("wordpiece"); }).find("char, word, bpe, byte") != std::string::npos);
  for (TokenizerKind kind : {TokenizerKind::Char, TokenizerKind::Word, TokenizerKind::Bpe, TokenizerKind::Byte}) {
    const auto tok = train(kind, "some text", kind == TokenizerKind::Bpe ? 300 : 0);
    for (int id = 0; id < kAllSpecials; ++id) REQUIRE(tok->token_text(id) == names[id]);
    // Specials are skipped by decode, except <UNK> which stands for U+FFFD.
    REQUIRE(tok->decode({kSos, kUnk, kPad, kEos}) == "\xEF\xBF\xBD");
  }
}

TEST_CASE("the seed's Q&A vocabulary has its published ids", "[tokenizer]") {
  const auto tok = word_tokenizer_from_vocab({"am", "fine", "how", "i", "about", "are", "you", "yourself"}, 3, false);
  REQUIRE(tok->vocab_size() == 11);
  const std::vector<std::string> expected = {"<SOS>", "<EOS>", "<PAD>", "am",  "fine",    "how",
                                             "i",     "about", "are",   "you", "yourself"};
  for (int id = 0; id < 11; ++id) REQUIRE(tok->token_text(id) == expected[id]);
  REQUIRE(tok->encode("how are you").ids == std::vector<int>{5, 8, 9});
  REQUIRE(tok->encode("i am fine").ids == std::vector<int>{6, 3, 4});
  REQUIRE(tok->encode("how about yourself").ids == std::vector<int>{5, 7, 10});
  REQUIRE(tok->decode({0, 6, 3, 4, 1, 2, 2}) == "i am fine");

  // No <UNK>: an unknown word is an error naming it and showing the vocabulary.
  const std::string msg = thrown_message([&] { tok->encode("how are you today"); });
  REQUIRE(msg.find("\"today\"") != std::string::npos);
  REQUIRE(msg.find("<SOS> <EOS> <PAD> am fine how i about are you yourself") != std::string::npos);
  REQUIRE(thrown_message([&] { tok->encode("how are you?"); }).find("\"?\"") != std::string::npos);
  REQUIRE(thrown_message([&] { tok->encode("fine \xFF"); }).find("0xFF") != std::string::npos);
  REQUIRE_THROWS_AS(tok->decode({11}), Error);

  // A vocabulary encode could never produce is refused.
  REQUIRE_THROWS_AS(word_tokenizer_from_vocab({"am", "am"}, 3, false), Error);
  REQUIRE_THROWS_AS(word_tokenizer_from_vocab({"two words"}, 3, false), Error);
  REQUIRE_THROWS_AS(word_tokenizer_from_vocab({"hi!"}, 3, false), Error);
  REQUIRE_THROWS_AS(word_tokenizer_from_vocab({""}, 3, false), Error);
  REQUIRE_THROWS_AS(word_tokenizer_from_vocab({"How"}, 3, true), Error);
  REQUIRE_THROWS_AS(word_tokenizer_from_vocab({"how"}, 7, false), Error);
}

TEST_CASE("char, bpe and byte tokenizers round-trip hard text exactly", "[tokenizer]") {
  const std::string all = all_hard_text();
  const auto chars = train(TokenizerKind::Char, all);
  const auto bpe_small = train(TokenizerKind::Bpe, all, 400);
  const auto bytes = train(TokenizerKind::Byte, "");
  for (const Tokenizer* tok :
       std::initializer_list<const Tokenizer*>{chars.get(), bpe_small.get(), bytes.get(), &book_bpe()}) {
    for (const std::string& text : hard_texts()) {
      INFO(tokenizer_kind_name(tok->kind()) << " on \"" << text << "\"");
      const Encoding enc = tok->encode(text);
      REQUIRE(tok->decode(enc.ids) == text);
      check_tiling(*tok, text);
      for (int id : enc.ids) REQUIRE(id >= tok->num_specials());  // never a special from text
    }
  }
  REQUIRE(chars->encode("").ids.empty());
  REQUIRE(bytes->encode("A").ids == std::vector<int>{kAllSpecials + 'A'});
  REQUIRE(bytes->vocab_size() == 262);
  REQUIRE(train(TokenizerKind::Byte, "", 0, 3)->encode("\xFF").ids == std::vector<int>{3 + 255});
}

TEST_CASE("one megabyte of mixed text round-trips quickly", "[tokenizer]") {
  std::string text;
  const std::string mix = all_hard_text();
  for (std::size_t pos = 0; text.size() < (1u << 20); pos += 4096) {
    text += book().substr(pos % (book().size() - 4096), 4096);
    text += mix;
  }
  const auto chars = train(TokenizerKind::Char, text);
  const auto bytes = train(TokenizerKind::Byte, "");
  for (const Tokenizer* tok : std::initializer_list<const Tokenizer*>{chars.get(), bytes.get(), &book_bpe()}) {
    INFO(tokenizer_kind_name(tok->kind()));
    const Encoding enc = tok->encode(text);
    REQUIRE(enc.byte_spans.back().end == static_cast<int>(text.size()));
    REQUIRE(tok->decode(enc.ids) == text);
  }
  const auto words = train(TokenizerKind::Word, text);
  const Encoding enc = words->encode(text);
  REQUIRE(enc.ids.size() > 100000);
  for (int id : enc.ids) REQUIRE(id != kUnk);  // every word of the training text is known
}

TEST_CASE("byte spans of multi-byte characters share the character's UTF-16 span", "[tokenizer]") {
  const auto bytes = train(TokenizerKind::Byte, "");
  // 'a' (1 unit), '한' (3 bytes, 1 unit), '😀' (4 bytes, 2 units), 'b'
  const Encoding enc = bytes->encode(
      "a\xED\x95\x9C\xF0\x9F\x98\x80"
      "b");
  REQUIRE(enc.ids.size() == 9);
  const std::vector<std::pair<int, int>> expected = {{0, 1}, {1, 2}, {1, 2}, {1, 2}, {2, 4},
                                                     {2, 4}, {2, 4}, {2, 4}, {4, 5}};
  for (std::size_t i = 0; i < expected.size(); ++i) {
    REQUIRE(enc.byte_spans[i].begin == static_cast<int>(i));
    REQUIRE(enc.utf16_spans[i].begin == expected[i].first);
    REQUIRE(enc.utf16_spans[i].end == expected[i].second);
  }
  REQUIRE(enc.tokens[0] == "a");
  REQUIRE(enc.tokens[1] == "<0xED>");
  REQUIRE(bytes->token_text(kAllSpecials + ' ') == "\xE2\x96\x81");  // "▁"
  REQUIRE(bytes->token_text(kAllSpecials + '\n') == "\\n");
}

TEST_CASE("invalid UTF-8: byte and bpe keep the bytes, char and word use <UNK>", "[tokenizer]") {
  // A lone continuation, a truncated 3-byte sequence, an overlong, a surrogate, a bad lead byte.
  const std::string bad =
      "ok\x80 \xE2\x82 x\xC0\xAF \xED\xA0\x80 \xFF"
      "end";
  const auto byte_tok = train(TokenizerKind::Byte, "");
  const auto small_bpe = train(TokenizerKind::Bpe, bad + bad, 300);
  REQUIRE(small_bpe->vocab_size() > 262);  // it learned merges over the invalid bytes too
  for (const Tokenizer* tok : std::initializer_list<const Tokenizer*>{byte_tok.get(), small_bpe.get(), &book_bpe()}) {
    const Encoding enc = tok->encode(bad);
    REQUIRE(tok->decode_bytes(enc.ids) == bad);
    // The text is what TextDecoder makes of those bytes: one U+FFFD per maximal subpart.
    REQUIRE(tok->decode(enc.ids) ==
            "ok\xEF\xBF\xBD \xEF\xBF\xBD x\xEF\xBF\xBD\xEF\xBF\xBD \xEF\xBF\xBD\xEF\xBF\xBD\xEF\xBF\xBD "
            "\xEF\xBF\xBD"
            "end");
    int pos = 0;
    for (const Span& s : enc.byte_spans) {
      REQUIRE(s.begin == pos);
      pos = s.end;
    }
    REQUIRE(pos == static_cast<int>(bad.size()));
  }
  // UTF-16 spans follow the WHATWG decoder: "\xE2\x82" is one U+FFFD, i.e. one code unit.
  const Encoding b = train(TokenizerKind::Byte, "")
                         ->encode(
                             "a\xE2\x82"
                             "b");
  REQUIRE(b.utf16_spans[1].begin == 1);
  REQUIRE(b.utf16_spans[1].end == 2);
  REQUIRE(b.utf16_spans[2].begin == 1);
  REQUIRE(b.utf16_spans[3].begin == 2);

  // char: one <UNK> per invalid byte, each covering its byte.
  const auto chars = train(TokenizerKind::Char, "abc");
  const Encoding c = chars->encode(
      "a\xE2\x82"
      "b");
  REQUIRE(c.ids == std::vector<int>{chars->encode("a").ids[0], kUnk, kUnk, chars->encode("b").ids[0]});
  REQUIRE(c.byte_spans[2].begin == 2);
  REQUIRE(c.byte_spans[2].end == 3);
  REQUIRE(c.tokens[1] == "<UNK>");
  REQUIRE(chars->decode(c.ids) ==
          "a\xEF\xBF\xBD\xEF\xBF\xBD"
          "b");
  REQUIRE(thrown_message([] { train(TokenizerKind::Char, "abc", 0, 3)->encode("a\xFF"); }).find("0xFF") !=
          std::string::npos);
  // An unknown but valid character is one <UNK> over all its bytes.
  const Encoding k = chars->encode("a\xED\x95\x9C");
  REQUIRE(k.ids.back() == kUnk);
  REQUIRE(k.byte_spans.back().end - k.byte_spans.back().begin == 3);

  // word: each invalid byte is a token of its own.
  const auto words = train(TokenizerKind::Word, "caf ok");
  const Encoding w = words->encode("caf\xE9 ok");
  REQUIRE(w.ids.size() == 3);
  REQUIRE(w.ids[1] == kUnk);
  REQUIRE(w.byte_spans[1].begin == 3);
  REQUIRE(w.byte_spans[1].end == 4);
}

TEST_CASE(
    "char vocabulary is sorted by code point, and an unknown character is <UNK> (or, without one, an error naming it)",
    "[tokenizer]") {
  const auto tok = train(TokenizerKind::Char, "hello 안녕");
  REQUIRE(tok->vocab_size() == kAllSpecials + 7);
  std::vector<std::string> order;
  for (int id = kAllSpecials; id < tok->vocab_size(); ++id) order.push_back(tok->token_text(id));
  REQUIRE(order == std::vector<std::string>{"\xE2\x96\x81", "e", "h", "l", "o", "녕", "안"});
  const Encoding enc = tok->encode("hez");
  REQUIRE(enc.ids.back() == kUnk);
  const std::string msg = thrown_message([] { train(TokenizerKind::Char, "abc", 0, 3)->encode("abz"); });
  REQUIRE(msg.find("'z' (U+007A)") != std::string::npos);
  REQUIRE(msg.find("<SOS> <EOS> <PAD> a b c") != std::string::npos);
  // A cap keeps the most frequent characters.
  const auto capped = train(TokenizerKind::Char, "aaabbc", kAllSpecials + 2);
  REQUIRE(capped->vocab_size() == kAllSpecials + 2);
  REQUIRE(capped->encode("c").ids == std::vector<int>{kUnk});
}

TEST_CASE("word tokenizer: frequency order, punctuation, spans and decoding", "[tokenizer]") {
  const auto tok = train(TokenizerKind::Word, "b a, b c a b!");
  // b (3), a (2), then first appearance: ',' before c before '!'.
  std::vector<std::string> vocab;
  for (int id = kAllSpecials; id < tok->vocab_size(); ++id) vocab.push_back(tok->token_text(id));
  REQUIRE(vocab == std::vector<std::string>{"b", "a", ",", "c", "!"});

  const auto words = train(TokenizerKind::Word, "Hello, world! (It's fine.) \"Quote\" 안녕 세계.", 0);
  const std::string text = "  Hello,   world!\n(It's fine.)  \"Quote\" 안녕 세계.";
  const Encoding enc = words->encode(text);
  std::vector<std::string> pieces;
  int last_end = 0;
  for (std::size_t i = 0; i < enc.ids.size(); ++i) {
    const Span s = enc.byte_spans[i];
    REQUIRE(s.begin >= last_end);  // ordered, white space between tokens uncovered
    for (int b = last_end; b < s.begin; ++b) REQUIRE(std::isspace(static_cast<unsigned char>(text[b])));
    const std::string piece = text.substr(s.begin, s.end - s.begin);
    REQUIRE(piece == enc.tokens[i]);
    pieces.push_back(piece);
    last_end = s.end;
  }
  REQUIRE(pieces == std::vector<std::string>{"Hello", ",", "world", "!", "(", "It", "'", "s", "fine", ".", ")", "\"",
                                             "Quote", "\"", "안녕", "세계", "."});
  REQUIRE(words->decode(enc.ids) == "Hello, world! (It's fine.) \"Quote\" 안녕 세계.");
  const int hangul_at = static_cast<int>(text.find("안녕"));  // only ASCII before it
  REQUIRE(enc.utf16_spans[14].begin == hangul_at);
  REQUIRE(enc.utf16_spans[14].end == hangul_at + 2);

  const auto lower = train(TokenizerKind::Word, "The the THE cat", 0);
  {
    TokenizerOptions o;
    o.kind = TokenizerKind::Word;
    o.lowercase = true;
    const auto folded = train_tokenizer(o, "The the THE cat");
    REQUIRE(folded->vocab_size() == kAllSpecials + 2);
    REQUIRE(folded->encode("tHe CAT").ids == std::vector<int>{kAllSpecials, kAllSpecials + 1});
    REQUIRE(folded->encode("tHe").tokens[0] == "the");
  }
  REQUIRE(lower->vocab_size() == kAllSpecials + 4);
  REQUIRE(lower->encode("dog").ids == std::vector<int>{kUnk});
  // A combining mark or a ZWJ sequence stays inside its word / symbol.
  const std::string family = "\xF0\x9F\x91\xA8\xE2\x80\x8D\xF0\x9F\x91\xA9";
  const auto marks = train(TokenizerKind::Word, "cafe\xCC\x81 " + family);
  REQUIRE(marks->vocab_size() == kAllSpecials + 2);
}

// Naive BPE training: recount every pair of every chunk each step; highest count, ties to the
// smaller (left, right); stop below 2.
static std::vector<std::pair<int, int>> naive_bpe_merges(const std::string& text, int num_merges) {
  std::map<std::string, long long> chunks;
  for (const Span& c : split_chunks(text)) ++chunks[text.substr(c.begin, c.end - c.begin)];
  std::vector<std::pair<std::vector<int>, long long>> words;
  for (const auto& [chunk, count] : chunks) {
    std::vector<int> s;
    for (char ch : chunk) s.push_back(kAllSpecials + static_cast<unsigned char>(ch));
    words.emplace_back(s, count);
  }
  std::vector<std::pair<int, int>> merges;
  for (int step = 0; step < num_merges; ++step) {
    std::map<std::pair<int, int>, long long> counts;
    for (const auto& [s, count] : words) {
      for (std::size_t i = 0; i + 1 < s.size(); ++i) counts[{s[i], s[i + 1]}] += count;
    }
    std::pair<int, int> best{-1, -1};
    long long best_count = 1;
    for (const auto& [pair, count] : counts) {  // ascending pairs, so '>' keeps the smallest
      if (count > best_count) best = pair, best_count = count;
    }
    if (best.first < 0) break;
    merges.push_back(best);
    const int id = kAllSpecials + 256 + step;
    for (auto& [s, count] : words) {
      std::vector<int> out;
      for (std::size_t i = 0; i < s.size(); ++i) {
        if (i + 1 < s.size() && s[i] == best.first && s[i + 1] == best.second) {
          out.push_back(id);
          ++i;
        } else {
          out.push_back(s[i]);
        }
      }
      s = out;
    }
  }
  return merges;
}

TEST_CASE("bpe training matches a naive reference and is deterministic", "[tokenizer]") {
  std::string repetitive;
  for (int i = 0; i < 30; ++i) {
    repetitive += "aaaaaaaaa aaaa ab ababab abababab baba aaab bbbbbbb\n\n\n    x";
    repetitive += std::string(static_cast<std::size_t>(i % 7), 'a') + " ";
  }
  const std::string text = book().substr(20000, 6000) + all_hard_text();
  for (const std::string& t : {text, repetitive}) {
    const auto bpe = train(TokenizerKind::Bpe, t, kAllSpecials + 256 + 120);
    const auto expected = naive_bpe_merges(t, 120);
    REQUIRE(expected.size() > 20);
    REQUIRE(merges_of(*bpe) == expected);
    REQUIRE(bpe->vocab_size() == kAllSpecials + 256 + static_cast<int>(expected.size()));
    REQUIRE(train(TokenizerKind::Bpe, t, kAllSpecials + 256 + 120)->to_json().dump() == bpe->to_json().dump());
  }
}

TEST_CASE("bpe chunks keep words apart and give a single leading space to the word", "[tokenizer]") {
  const std::string text = "a   bc\n d,e!!  12x\t\t\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD ok";
  std::vector<std::string> chunks;
  for (const Span& c : split_chunks(text)) chunks.push_back(text.substr(c.begin, c.end - c.begin));
  REQUIRE(chunks == std::vector<std::string>{"a", "  ", " bc", "\n", " d", ",", "e", "!!", " ", " 12", "x", "\t\t",
                                             "\xF0\x9F\x91\x8D\xF0\x9F\x8F\xBD", " ok"});
}

TEST_CASE("bpe ties go to the smaller (left id, right id) whatever the text order", "[tokenizer]") {
  const int a = kAllSpecials + 'a', b = kAllSpecials + 'b', c = kAllSpecials + 'c', d = kAllSpecials + 'd',
            x = kAllSpecials + 'x', z = kAllSpecials + 'z';
  using Merges = std::vector<std::pair<int, int>>;
  REQUIRE(merges_of(*train(TokenizerKind::Bpe, "cd\ncd\nab\nab", 264)) == Merges{{a, b}, {c, d}});
  REQUIRE(merges_of(*train(TokenizerKind::Bpe, "ab\nab\ncd\ncd", 264)) == Merges{{a, b}, {c, d}});
  REQUIRE(merges_of(*train(TokenizerKind::Bpe, "xa\nxa\naz\naz", 264)) == Merges{{a, z}, {x, a}});
  // A higher count beats the tie-break; a pair seen once is never merged.
  REQUIRE(merges_of(*train(TokenizerKind::Bpe, "ab\nab\ncd\ncd\ncd\nxz", 300)) == Merges{{c, d}, {a, b}});
}

TEST_CASE("bpe encoding equals naive lowest-rank-first merging", "[tokenizer]") {
  const Tokenizer& bpe = book_bpe();
  const auto merges = merges_of(bpe);
  REQUIRE(bpe.vocab_size() == 512);
  Rng rng(7);
  std::string text = book().substr(100000, 20000) + all_hard_text();
  for (int i = 0; i < 2000; ++i) text += "etaoin shrdlu\n\t"[static_cast<int>(rng.uniform(0.0f, 15.0f)) % 15];
  std::vector<int> expected;
  for (const Span& c : split_chunks(text)) {
    std::vector<int> s;
    for (int i = c.begin; i < c.end; ++i) s.push_back(kAllSpecials + static_cast<unsigned char>(text[i]));
    for (std::size_t r = 0; r < merges.size(); ++r) {  // rank order, each rank everywhere, leftmost first
      std::vector<int> out;
      for (std::size_t i = 0; i < s.size(); ++i) {
        if (i + 1 < s.size() && s[i] == merges[r].first && s[i + 1] == merges[r].second) {
          out.push_back(kAllSpecials + 256 + static_cast<int>(r));
          ++i;
        } else {
          out.push_back(s[i]);
        }
      }
      s = out;
    }
    expected.insert(expected.end(), s.begin(), s.end());
  }
  REQUIRE(bpe.encode(text).ids == expected);
}

TEST_CASE("bpe compresses English and shows ## continuations and ▁ spaces", "[tokenizer]") {
  const Tokenizer& bpe = book_bpe();
  const std::string sample = book().substr(200000, 50000);
  const Encoding enc = bpe.encode(sample);
  INFO("tokens " << enc.ids.size() << " for " << sample.size() << " bytes");
  REQUIRE(enc.ids.size() * 10 < sample.size() * 6);  // under 0.6 tokens per byte (bytes: 1.0)

  // Chunks: "the", " devil", " unquestionably", ",", "\n\t", " 안녕". The first piece of each
  // is shown as is (its leading space as ▁); the pieces after it get "##".
  const std::string text = "the devil unquestionably,\n\t 안녕";
  const Encoding words = bpe.encode(text);
  std::vector<std::string> firsts;
  std::size_t continued = 0;
  for (std::size_t i = 0; i < words.tokens.size(); ++i) {
    const std::string piece =
        text.substr(words.byte_spans[i].begin, words.byte_spans[i].end - words.byte_spans[i].begin);
    const bool chunk_start = words.tokens[i].rfind("##", 0) != 0;
    if (chunk_start) {
      firsts.push_back(words.tokens[i]);
    } else {
      ++continued;
      REQUIRE(bpe.token_text(words.ids[i]) == words.tokens[i].substr(2));  // positional, not in the id
    }
  }
  REQUIRE(firsts.size() == 6);
  REQUIRE(firsts[0] == "the");
  REQUIRE(firsts[1].rfind("\xE2\x96\x81"
                          "d",
                          0) == 0);  // "▁d..."
  REQUIRE(firsts[2].rfind("\xE2\x96\x81"
                          "u",
                          0) == 0);
  REQUIRE(firsts[3] == ",");
  REQUIRE(firsts[4].rfind("\\n", 0) == 0);  // newline shown as \n
  REQUIRE(firsts[5].rfind("\xE2\x96\x81", 0) == 0);
  REQUIRE(continued >= 3);  // "unquestionably" and the Hangul bytes need several pieces
}

TEST_CASE("to_json / from_json round-trip every kind", "[tokenizer]") {
  const std::string all = all_hard_text();
  std::vector<std::unique_ptr<Tokenizer>> toks;
  toks.push_back(train(TokenizerKind::Char, all));
  toks.push_back(train(TokenizerKind::Char, "abc", 0, 3));
  toks.push_back(train(TokenizerKind::Word, all));
  toks.push_back(word_tokenizer_from_vocab({"am", "fine", "how"}, 3, true));
  toks.push_back(train(TokenizerKind::Bpe, book().substr(0, 50000), 700));
  toks.push_back(train(TokenizerKind::Byte, "", 0, 4));
  for (const auto& tok : toks) {
    const std::string dumped = tok->to_json().dump();
    const auto back = Tokenizer::from_json(json::parse(dumped));
    REQUIRE(back->kind() == tok->kind());
    REQUIRE(back->vocab_size() == tok->vocab_size());
    REQUIRE(back->num_specials() == tok->num_specials());
    REQUIRE(back->to_json().dump() == dumped);
    for (int id = 0; id < tok->vocab_size(); ++id) REQUIRE(back->token_text(id) == tok->token_text(id));
    const std::string text = tok->num_specials() > kUnk           ? all
                             : tok->kind() == TokenizerKind::Char ? "abcba"
                                                                  : "am fine how";
    REQUIRE(back->encode(text).ids == tok->encode(text).ids);
  }
}

TEST_CASE("from_json rejects malformed tokenizers with clear messages", "[tokenizer]") {
  const auto fails_with = [](const std::string& json_text, const std::string& needle) {
    const std::string msg = thrown_message([&] { Tokenizer::from_json(json::parse(json_text)); });
    INFO(json_text << " -> " << msg);
    REQUIRE(msg.find(needle) != std::string::npos);
  };
  fails_with(R"([1,2])", "must be an object");
  fails_with(R"({"kind":"wordpiece","num_specials":6,"vocab_size":6})", "unknown tokenizer kind");
  fails_with(R"({"num_specials":6,"vocab_size":6,"tokens":[]})", "missing the field 'kind'");
  fails_with(R"({"kind":"char","vocab_size":7,"tokens":["a"]})", "'num_specials'");
  fails_with(R"({"kind":"char","num_specials":6,"tokens":["a"]})", "'vocab_size'");
  fails_with(R"({"kind":"char","num_specials":6,"vocab_size":7})", "'tokens'");
  fails_with(R"({"kind":"char","num_specials":9,"vocab_size":10,"tokens":["a"]})", "num_specials");
  fails_with(R"({"kind":"char","num_specials":6,"vocab_size":8,"tokens":["a","a"]})", "repeats");
  fails_with(R"({"kind":"char","num_specials":6,"vocab_size":7,"tokens":["ab"]})", "exactly one character");
  fails_with(R"({"kind":"char","num_specials":6,"vocab_size":9,"tokens":["a"]})", "says 9");
  fails_with(R"({"kind":"char","num_specials":6,"vocab_size":7,"tokens":["a"],"extra":1})", "unknown field 'extra'");
  fails_with(R"({"kind":"word","num_specials":3,"vocab_size":5,"lowercase":false,"tokens":["x","x"]})", "repeats");
  fails_with(R"({"kind":"word","num_specials":3,"vocab_size":4,"lowercase":false,"tokens":["a b"]})", "one word");
  fails_with(R"({"kind":"word","num_specials":3,"vocab_size":4,"tokens":["a"]})", "'lowercase'");
  fails_with(R"({"kind":"word","num_specials":3,"vocab_size":4,"lowercase":1,"tokens":["a"]})", "boolean");
  fails_with(R"({"kind":"bpe","num_specials":6,"vocab_size":263,"merges":[[6,300]]})", "earlier tokens");
  fails_with(R"({"kind":"bpe","num_specials":6,"vocab_size":263,"merges":[[2,7]]})", "earlier tokens");
  fails_with(R"({"kind":"bpe","num_specials":6,"vocab_size":264,"merges":[[6,7],[6,7]]})", "repeats merge 0");
  fails_with(R"({"kind":"bpe","num_specials":6,"vocab_size":263,"merges":[[6]]})", "pair of token ids");
  fails_with(R"({"kind":"bpe","num_specials":6,"vocab_size":263,"merges":[[6,7.5]]})", "integer");
  fails_with(R"({"kind":"bpe","num_specials":6,"vocab_size":263})", "'merges'");
  fails_with(R"({"kind":"byte","num_specials":6,"vocab_size":200})", "says 200");
  fails_with(R"({"kind":"byte","num_specials":6,"vocab_size":262,"tokens":[]})", "unknown field");
}

TEST_CASE("ids outside the vocabulary and bad options are errors", "[tokenizer]") {
  const auto bytes = train(TokenizerKind::Byte, "");
  REQUIRE(thrown_message([&] {
            bytes->decode({70, 300});
          }) == "token id 300 is out of range; this tokenizer has 262 tokens (ids 0..261)");
  REQUIRE(thrown_message([&] { bytes->token_text(-1); }).find("token id -1 is out of range") == 0);
  for (TokenizerKind kind : {TokenizerKind::Char, TokenizerKind::Word, TokenizerKind::Bpe}) {
    const auto tok = train(kind, "abc abc", kind == TokenizerKind::Bpe ? 300 : 0);
    REQUIRE_THROWS_AS(tok->decode({tok->vocab_size()}), Error);
    REQUIRE_THROWS_AS(tok->decode({-5}), Error);
    REQUIRE_THROWS_AS(tok->token_text(tok->vocab_size()), Error);
  }
  REQUIRE(thrown_message([] { train(TokenizerKind::Bpe, "abc", 100); }).find("262..") != std::string::npos);
  REQUIRE_THROWS_AS(train(TokenizerKind::Bpe, "abc", 0), Error);
  REQUIRE_THROWS_AS(train(TokenizerKind::Byte, "abc", 300), Error);
  REQUIRE_THROWS_AS(train(TokenizerKind::Char, "abc", 0, 2), Error);
  REQUIRE_THROWS_AS(train(TokenizerKind::Word, "abc", 6), Error);
}

TEST_CASE("decoded text is well-formed, and streamed by steps as TextDecoder streams it", "[tokenizer]") {
  const auto bytes = train(TokenizerKind::Byte, "");
  const auto ids_of = [&](const std::string& b) { return bytes->encode(b).ids; };
  // "é" (C3 A9) and "한" (ED 95 9C) split over byte tokens, a stray continuation byte, and a
  // character cut short at the end.
  const std::string text = "a\xC3\xA9\xED\x95\x9C\x80z\xF0\x9F";
  const std::vector<int> ids = ids_of(text);
  REQUIRE(bytes->decode(ids) == "a\xC3\xA9\xED\x95\x9C\xEF\xBF\xBDz\xEF\xBF\xBD");
  const std::vector<std::string> steps = bytes->decode_steps({}, ids);
  const std::vector<std::string> expected = {"a", "", "\xC3\xA9",    "", "", "\xED\x95\x9C", "\xEF\xBF\xBD",
                                             "z", "", "\xEF\xBF\xBD"};
  REQUIRE(steps == expected);
  // A character begun by the context and finished by the continuation comes whole with it.
  const std::vector<int> context = ids_of("x\xE2\x82"), rest = ids_of("\xAC!");
  REQUIRE(bytes->decode_steps(context, rest) == std::vector<std::string>{"\xE2\x82\xAC", "!"});
  REQUIRE(bytes->decode_continuation(context, rest) == "\xE2\x82\xAC!");
  REQUIRE(bytes->decode(rest) == "\xEF\xBF\xBD!");  // alone, the byte is a stray continuation
  for (const std::string& s : steps) REQUIRE(utf8::is_valid(s));
  // The stream decoder against the whole-string one, on every split of random bytes.
  Rng rng(9);
  for (int round = 0; round < 300; ++round) {
    std::string b;
    const int n = 1 + static_cast<int>(rng.below(12));
    for (int i = 0; i < n; ++i) {
      static const unsigned char kBytes[] = {0x41, 0x80, 0xBF, 0xC2, 0xC3, 0xE0, 0xE2,
                                             0xED, 0xF0, 0xF4, 0xF5, 0x9F, 0xA0};
      b += static_cast<char>(kBytes[rng.below(sizeof kBytes)]);
    }
    utf8::StreamDecoder stream;
    std::string streamed;
    for (std::size_t i = 0; i < b.size();) {
      const std::size_t take = 1 + rng.below(3);
      streamed += stream.feed(std::string_view(b).substr(i, take));
      i += take;
    }
    streamed += stream.finish();
    INFO("round " << round);
    REQUIRE(streamed == utf8::well_formed(b));
    REQUIRE(utf8::is_valid(streamed));
  }
}
