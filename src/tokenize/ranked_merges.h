// Merging by rank, the encode step both imported BPE kinds share (GPT-2's byte-level BPE and
// SentencePiece-style BPE): a chunk starts as a row of symbol ids, each covering a byte span of
// the input; the adjacent pair with the lowest rank merges into its merged id, leftmost first
// among equal ranks, until no pair has a rank. That tie rule is Hugging Face's and llama2.c's
// (which scans left to right for the best score), and equals GPT-2's "merge every occurrence of
// the best pair" for any merge table whose products rank after their parts.
// A heap keeps it O(n log n); entries are checked when popped, so stale ones cost only a pop.
// Internal to src/tokenize.
#pragma once

#include <cstdint>
#include <unordered_map>
#include <vector>

#include "tokenize/tokenizer.h"

namespace tp::detail {

struct RankedMerge {
  int rank = 0;    // lower merges first; equal ranks merge leftmost first
  int merged = 0;  // the id the pair becomes
};

class MergeTable {
 public:
  // False (and the table unchanged) when the pair is already there: a merges list that repeats a
  // pair is refused by its tokenizer, since only the first could ever apply.
  bool add(int left, int right, int rank, int merged) {
    return map_.emplace(key(left, right), RankedMerge{rank, merged}).second;
  }
  const RankedMerge* find(int left, int right) const {
    const auto it = map_.find(key(left, right));
    return it == map_.end() ? nullptr : &it->second;
  }
  std::size_t size() const { return map_.size(); }

 private:
  static std::uint64_t key(int left, int right) {
    return (static_cast<std::uint64_t>(static_cast<std::uint32_t>(left)) << 32) | static_cast<std::uint32_t>(right);
  }
  std::unordered_map<std::uint64_t, RankedMerge> map_;
};

// One symbol of a chunk: its id and the input bytes it covers.
struct Symbol {
  int id = 0;
  Span span;
};

// Merges `symbols` in place (see the header comment).
void apply_merges(std::vector<Symbol>& symbols, const MergeTable& table);

}  // namespace tp::detail
