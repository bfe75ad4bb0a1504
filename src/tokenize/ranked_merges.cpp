// apply_merges: the heap-driven merge loop of ranked_merges.h.
#include "tokenize/ranked_merges.h"

#include <algorithm>
#include <functional>

namespace tp::detail {

namespace {
struct Candidate {
  int rank, pos, left_id, right_id;
  bool operator>(const Candidate& o) const { return rank != o.rank ? rank > o.rank : pos > o.pos; }
};
}  // namespace

void apply_merges(std::vector<Symbol>& symbols, const MergeTable& table) {
  const int n = static_cast<int>(symbols.size());
  if (n < 2) return;
  std::vector<int> next(n), prev(n);
  std::vector<bool> alive(n, true);
  for (int i = 0; i < n; ++i) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  std::vector<Candidate> heap;
  const auto push = [&](int pos) {
    const int right = next[pos];
    const RankedMerge* m = table.find(symbols[pos].id, symbols[right].id);
    if (m == nullptr) return;
    heap.push_back(Candidate{m->rank, pos, symbols[pos].id, symbols[right].id});
    std::push_heap(heap.begin(), heap.end(), std::greater<Candidate>());
  };
  for (int i = 0; i + 1 < n; ++i) push(i);
  while (!heap.empty()) {
    std::pop_heap(heap.begin(), heap.end(), std::greater<Candidate>());
    const Candidate c = heap.back();
    heap.pop_back();
    const int left = c.pos;
    if (!alive[left]) continue;
    const int right = next[left];
    if (right >= n || symbols[left].id != c.left_id || symbols[right].id != c.right_id) continue;  // stale
    symbols[left].id = table.find(c.left_id, c.right_id)->merged;
    symbols[left].span.end = symbols[right].span.end;
    alive[right] = false;
    next[left] = next[right];
    if (next[left] < n) prev[next[left]] = left;
    if (prev[left] >= 0) push(prev[left]);
    if (next[left] < n) push(left);
  }
  int out = 0;
  for (int i = 0; i < n; i = next[i]) symbols[out++] = symbols[i];
  symbols.resize(out);
}

}  // namespace tp::detail
