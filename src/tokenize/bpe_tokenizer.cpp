// The BPE tokenizer at use time: encode by applying learned merges, decode by concatenating
// bytes, and its JSON form. Training is in bpe_train.cpp.
//
// Ids: specials, then the 256 bytes (id = num_specials + byte, the byte fallback that makes every
// input encodable), then one id per merge in the order learned. Encoding applies merges to each
// chunk lowest rank first, leftmost first, which reproduces exactly what training did to the same
// chunk; a heap keeps that O(n log n) even for a chunk that is one long run of letters.
#include <algorithm>
#include <functional>
#include <unordered_map>

#include "core/error.h"
#include "tokenize/pretokenize.h"
#include "tokenize/tokenizer_internal.h"
#include "tokenize/utf8.h"

namespace tp::detail {
namespace {

std::uint64_t pair_key(int left, int right) {
  return (static_cast<std::uint64_t>(left) << 32) | static_cast<std::uint32_t>(right);
}

class BpeTokenizer final : public Tokenizer {
 public:
  BpeTokenizer(std::vector<BpeMerge> merges, int num_specials) : Tokenizer(num_specials), merges_(std::move(merges)) {
    const int base = num_specials_ + 256;
    TP_CHECK(base + static_cast<long long>(merges_.size()) <= kMaxBpeVocab, "bpe tokenizer has ", merges_.size(),
             " merges; at most ", kMaxBpeVocab - base, " fit in ", kMaxBpeVocab, " tokens");
    pieces_.resize(vocab_size());
    for (int b = 0; b < 256; ++b) pieces_[num_specials_ + b] = std::string(1, static_cast<char>(b));
    for (std::size_t r = 0; r < merges_.size(); ++r) {
      const auto [left, right] = merges_[r];
      const int id = base + static_cast<int>(r);
      TP_CHECK(left >= num_specials_ && left < id && right >= num_specials_ && right < id, "bpe merge ", r, " (", left,
               ", ", right, ") must join two earlier tokens, ids ", num_specials_, "..", id - 1);
      const auto [it, inserted] = rank_.emplace(pair_key(left, right), static_cast<int>(r));
      TP_CHECK(inserted, "bpe merge ", r, " (", left, ", ", right, ") repeats merge ", it->second);
      pieces_[id] = pieces_[left] + pieces_[right];
    }
    display_.resize(vocab_size());
    for (int id = 0; id < vocab_size(); ++id) {
      display_[id] = id < num_specials_ ? special_token_text(id) : utf8::visible(pieces_[id]);
    }
  }

  TokenizerKind kind() const override { return TokenizerKind::Bpe; }
  int vocab_size() const override { return num_specials_ + 256 + static_cast<int>(merges_.size()); }

  Encoding encode(std::string_view text) const override {
    TP_CHECK(text.size() < (1u << 31) - 1, "text of ", text.size(), " bytes is too long to encode");
    Encoding enc;
    enc.ids.reserve(text.size() / 3);
    // Texts repeat their words; each distinct chunk is merged once per call.
    std::unordered_map<std::string_view, std::vector<int>> cache;
    Scratch scratch;
    for (const Span& c : split_chunks(text)) {
      const std::string_view chunk = text.substr(c.begin, c.end - c.begin);
      auto it = cache.find(chunk);
      if (it == cache.end()) it = cache.emplace(chunk, encode_chunk(chunk, scratch)).first;
      int pos = c.begin;
      bool first = true;
      for (int id : it->second) {
        const int end = pos + static_cast<int>(pieces_[id].size());
        enc.ids.push_back(id);
        enc.tokens.push_back(first ? display_[id] : "##" + display_[id]);
        enc.byte_spans.push_back(Span{pos, end});
        pos = end;
        first = false;
      }
      TP_ASSERT(pos == c.end);
    }
    enc.utf16_spans = utf8::utf16_spans(text, enc.byte_spans);
    return enc;
  }

  std::string decode_bytes(const std::vector<int>& ids) const override {
    return decode_ids(ids, vocab_size(), num_specials_, [&](std::string& out, int id) { out += pieces_[id]; });
  }

  std::string token_text(int id) const override {
    check_id(id, vocab_size());
    return display_[id];
  }

  json::Value to_json() const override {
    json::Value v = json_header(TokenizerKind::Bpe, num_specials_, vocab_size());
    json::Value merges = json::Value::array();
    for (const auto& [left, right] : merges_) merges.push(json::Value::array({left, right}));
    v.set("merges", std::move(merges));
    return v;
  }

 private:
  struct Candidate {
    int rank;
    int pos;  // left symbol's byte index in the chunk
    bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
  };
  // Buffers reused across the chunks of one encode call.
  struct Scratch {
    std::vector<int> symbol, next, prev;
    std::vector<Candidate> heap;
  };

  int rank_of(int left, int right) const {
    const auto it = rank_.find(pair_key(left, right));
    return it == rank_.end() ? -1 : it->second;
  }

  // Symbols form a linked list over byte positions; a merge keeps the left node and unlinks the
  // right one. Heap entries are checked when popped, so stale ones cost nothing but a pop.
  std::vector<int> encode_chunk(std::string_view chunk, Scratch& s) const {
    const int n = static_cast<int>(chunk.size());
    const int base = num_specials_ + 256;
    s.symbol.resize(n);
    s.next.resize(n);
    s.prev.resize(n);
    s.heap.clear();
    const auto push = [&](int pos) {
      const int r = rank_of(s.symbol[pos], s.symbol[s.next[pos]]);
      if (r < 0) return;
      s.heap.push_back(Candidate{r, pos});
      std::push_heap(s.heap.begin(), s.heap.end(), std::greater<Candidate>());
    };
    for (int i = 0; i < n; ++i) {
      s.symbol[i] = num_specials_ + static_cast<unsigned char>(chunk[i]);
      s.next[i] = i + 1;
      s.prev[i] = i - 1;
    }
    for (int i = 0; i + 1 < n; ++i) push(i);
    while (!s.heap.empty()) {
      std::pop_heap(s.heap.begin(), s.heap.end(), std::greater<Candidate>());
      const Candidate c = s.heap.back();
      s.heap.pop_back();
      const int left = c.pos;
      if (s.symbol[left] < 0) continue;  // unlinked by an earlier merge
      const int right = s.next[left];
      if (right >= n || s.symbol[left] != merges_[c.rank].first || s.symbol[right] != merges_[c.rank].second) {
        continue;  // the pair at this position has changed since the entry was pushed
      }
      s.symbol[left] = base + c.rank;
      s.symbol[right] = -1;
      s.next[left] = s.next[right];
      if (s.next[left] < n) s.prev[s.next[left]] = left;
      if (s.prev[left] >= 0) push(s.prev[left]);
      if (s.next[left] < n) push(left);
    }
    std::vector<int> ids;
    for (int i = 0; i < n; i = s.next[i]) ids.push_back(s.symbol[i]);
    return ids;
  }

  std::vector<BpeMerge> merges_;                 // rank r makes id num_specials + 256 + r
  std::unordered_map<std::uint64_t, int> rank_;  // pair -> rank; lookup only
  std::vector<std::string> pieces_;              // bytes by id (empty for specials)
  std::vector<std::string> display_;             // visible form by id, without "##"
};

}  // namespace

std::unique_ptr<Tokenizer> make_bpe_tokenizer(std::vector<BpeMerge> merges, int num_specials) {
  check_num_specials(num_specials);
  return std::make_unique<BpeTokenizer>(std::move(merges), num_specials);
}

std::unique_ptr<Tokenizer> bpe_tokenizer_from_json(const json::Value& value) {
  const int num_specials = read_json_header(value, TokenizerKind::Bpe, {"merges"});
  const auto& items = json_field(value, "merges").as_array("bpe tokenizer field merges");
  std::vector<BpeMerge> merges;
  merges.reserve(items.size());
  for (std::size_t r = 0; r < items.size(); ++r) {
    const bool is_pair = items[r].is_array() && items[r].as_array().size() == 2;
    TP_CHECK(is_pair, "bpe merge ", r, " must be a pair of token ids [left, right]");
    const std::int64_t left = items[r].as_array()[0].as_int("bpe merge id");
    const std::int64_t right = items[r].as_array()[1].as_int("bpe merge id");
    TP_CHECK(left >= 0 && left < kMaxBpeVocab && right >= 0 && right < kMaxBpeVocab, "bpe merge ", r, " (", left, ", ",
             right, ") has an id outside 0..", kMaxBpeVocab - 1);
    merges.emplace_back(static_cast<int>(left), static_cast<int>(right));
  }
  auto tokenizer = make_bpe_tokenizer(std::move(merges), num_specials);
  check_json_vocab_size(value, tokenizer->vocab_size());
  return tokenizer;
}

}  // namespace tp::detail
