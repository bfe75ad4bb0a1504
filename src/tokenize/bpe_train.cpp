// BPE training: learns merges from text, with counts kept up to date incrementally.
//
// The text is cut into chunks (pretokenize.h) and identical chunks are counted once, so a 400 KB
// book becomes a few thousand distinct words. Each step merges the most frequent adjacent pair;
// only the words that contain it are rewritten, and the pair counts change by the difference of
// those words' pairs before and after. A max-heap with lazy deletion finds the next pair.
//
// Determinism: the heap orders pairs by (count desc, left id asc, right id asc), a total order on
// distinct pairs, so the merges never depend on hash-map iteration or on the order of the text
// beyond the counts themselves. Only integers are compared.
#include <algorithm>
#include <queue>
#include <unordered_map>

#include "core/error.h"
#include "tokenize/pretokenize.h"
#include "tokenize/tokenizer_internal.h"

namespace tp::detail {
namespace {

// A pair that occurs once teaches nothing about the text; training stops before merging it.
constexpr std::int64_t kMinPairCount = 2;

using PairKey = std::uint64_t;
PairKey pair_key(int left, int right) {
  return (static_cast<std::uint64_t>(left) << 32) | static_cast<std::uint32_t>(right);
}
int key_left(PairKey k) { return static_cast<int>(k >> 32); }
int key_right(PairKey k) { return static_cast<int>(k & 0xFFFFFFFFu); }

struct HeapEntry {
  std::int64_t count;
  PairKey key;
};
// "a before b" for std::priority_queue means a has lower priority.
struct LowerPriority {
  bool operator()(const HeapEntry& a, const HeapEntry& b) const {
    if (a.count != b.count) return a.count < b.count;
    return a.key > b.key;  // smaller (left, right) wins ties
  }
};

struct Word {
  std::vector<int> symbols;
  std::int64_t count;
};

class Trainer {
 public:
  Trainer(std::vector<Word> words, int first_new_id)
      : words_(std::move(words)), next_id_(first_new_id), last_touched_(words_.size(), -1) {
    for (std::size_t w = 0; w < words_.size(); ++w) {
      const std::vector<int>& s = words_[w].symbols;
      for (std::size_t i = 0; i + 1 < s.size(); ++i) {
        const PairKey k = pair_key(s[i], s[i + 1]);
        counts_[k] += words_[w].count;
        where_[k].push_back(static_cast<int>(w));
      }
    }
    for (const auto& [key, count] : counts_) {  // push order is irrelevant: the heap order is total
      if (count >= kMinPairCount) heap_.push(HeapEntry{count, key});
    }
  }

  // The next merge, or false when no pair occurs kMinPairCount times.
  bool step(BpeMerge& merge) {
    while (!heap_.empty()) {
      const HeapEntry top = heap_.top();
      heap_.pop();
      const auto it = counts_.find(top.key);
      if (it == counts_.end() || it->second != top.count) continue;  // stale entry
      merge = BpeMerge{key_left(top.key), key_right(top.key)};
      apply(top.key, next_id_++);
      return true;
    }
    return false;
  }

 private:
  void apply(PairKey key, int new_id) {
    const int left = key_left(key), right = key_right(key);
    const std::vector<int> affected = std::move(where_[key]);
    where_.erase(key);
    for (int w : affected) {
      if (last_touched_[w] == new_id) continue;  // listed once per occurrence
      last_touched_[w] = new_id;
      std::vector<int>& s = words_[w].symbols;
      const std::int64_t count = words_[w].count;
      // Only pairs touching a merge site change, so a long chunk costs per occurrence, not per
      // byte. Old pairs start at site-1, site, site+1; new ones at new_site-1 and new_site;
      // next_unrecorded keeps adjacent sites from counting a shared pair twice.
      sites_.clear();
      for (std::size_t i = 0; i + 1 < s.size();) {
        if (s[i] == left && s[i + 1] == right) {
          sites_.push_back(i);
          i += 2;
        } else {
          ++i;
        }
      }
      deltas_.clear();
      std::size_t next_unrecorded = 0;
      for (std::size_t site : sites_) {
        for (std::size_t p = std::max(site, next_unrecorded + 1) - 1; p <= site + 1 && p + 1 < s.size(); ++p) {
          deltas_.emplace_back(pair_key(s[p], s[p + 1]), -count);
          next_unrecorded = p + 1;
        }
      }
      std::size_t out = 0, read = 0;
      for (std::size_t& site : sites_) {  // rewrite in place; sites become new positions
        while (read < site) s[out++] = s[read++];
        site = out;
        s[out++] = new_id;
        read += 2;
      }
      while (read < s.size()) s[out++] = s[read++];
      s.resize(out);
      next_unrecorded = 0;
      for (std::size_t site : sites_) {
        for (std::size_t p = std::max(site, next_unrecorded + 1) - 1; p <= site && p + 1 < s.size(); ++p) {
          deltas_.emplace_back(pair_key(s[p], s[p + 1]), count);
          next_unrecorded = p + 1;
        }
      }
      std::sort(deltas_.begin(), deltas_.end());
      for (std::size_t i = 0; i < deltas_.size();) {
        const PairKey k = deltas_[i].first;
        std::int64_t delta = 0;
        for (; i < deltas_.size() && deltas_[i].first == k; ++i) delta += deltas_[i].second;
        if (delta == 0) continue;
        std::int64_t& c = counts_[k];
        c += delta;
        TP_ASSERT(c >= 0);
        if (delta > 0) where_[k].push_back(w);
        if (c == 0) {
          counts_.erase(k);
        } else if (c >= kMinPairCount) {
          heap_.push(HeapEntry{c, k});
        }
      }
    }
    TP_ASSERT(counts_.find(key) == counts_.end());
  }

  std::vector<Word> words_;
  int next_id_;
  std::vector<int> last_touched_;                        // per word: the id of the last merge that rewrote it
  std::unordered_map<PairKey, std::int64_t> counts_;     // lookup only, never iterated for order
  std::unordered_map<PairKey, std::vector<int>> where_;  // pair -> words that (may) contain it
  std::priority_queue<HeapEntry, std::vector<HeapEntry>, LowerPriority> heap_;
  std::vector<std::pair<PairKey, std::int64_t>> deltas_;  // per word: pair count changes
  std::vector<std::size_t> sites_;                        // per word: where the pair is merged
};

}  // namespace

std::vector<BpeMerge> learn_bpe_merges(std::string_view text, int num_specials, int num_merges) {
  std::vector<BpeMerge> merges;
  if (num_merges <= 0) return merges;

  std::unordered_map<std::string_view, std::int64_t> chunk_counts;
  for (const Span& c : split_chunks(text)) {
    ++chunk_counts[text.substr(c.begin, c.end - c.begin)];
  }
  // Sorted by bytes so the word list (and thus the trainer's internal order) never depends on
  // the hash map; a single byte has no pair and is left out.
  std::vector<std::pair<std::string_view, std::int64_t>> distinct;
  for (const auto& entry : chunk_counts) {
    if (entry.first.size() > 1) distinct.push_back(entry);
  }
  std::sort(distinct.begin(), distinct.end());
  std::vector<Word> words;
  words.reserve(distinct.size());
  for (const auto& [chunk, count] : distinct) {
    Word w{{}, count};
    w.symbols.reserve(chunk.size());
    for (char c : chunk) w.symbols.push_back(num_specials + static_cast<unsigned char>(c));
    words.push_back(std::move(w));
  }

  Trainer trainer(std::move(words), num_specials + 256);
  BpeMerge merge;
  while (static_cast<int>(merges.size()) < num_merges && trainer.step(merge)) merges.push_back(merge);
  return merges;
}

}  // namespace tp::detail
