// Cutting a product into parts on its micro-tile grid; see matmul_split.h.
#include "kernels/matmul_split.h"

#include <algorithm>

#include "core/thread_pool.h"

namespace tp::kernels {

namespace {

// Products of fewer rows than this take every variant's unpacked path (gemm::small_m), whose
// outputs go in groups of 16 columns: cut those products between groups.
constexpr int kSmallRows = 4, kSmallColumnGroup = 16;

inline double clamped(long v, long hi) { return static_cast<double>(std::max(0L, std::min(v, hi))); }

// Multiply-adds of C's rows [begin, end) (or columns, when !by_rows) under the band: the tiles a
// causal product skips cost nothing, so a triangle's parts are cut by area.
double work(const Product& p, bool by_rows, int begin, int end) {
  const Band& b = p.band;
  const double count = end - begin;
  if (by_rows) {
    const long first = begin + static_cast<long>(b.offset), last = end - 1 + static_cast<long>(b.offset);
    switch (b.kind) {
      case Band::Kind::Full:
        break;
      case Band::Kind::Lower:
        return count * clamped(last + 1, p.N) * p.K;
      case Band::Kind::KUpTo:
        return count * p.N * clamped(last + 1, p.K);
      case Band::Kind::KFrom:
        return count * p.N * (p.K - clamped(first, p.K));
    }
    return count * p.N * p.K;
  }
  if (b.kind == Band::Kind::Lower) return count * (p.M - clamped(begin - static_cast<long>(b.offset), p.M)) * p.K;
  return count * p.M * p.K;  // KUpTo / KFrom cost every column alike
}

// The part of p that computes rows [r0, r1) or columns [r0, r1) of C.
Product part(const Product& p, bool by_rows, int r0, int r1) {
  Product q = p;
  if (by_rows) {
    q.M = r1 - r0;
    q.A = p.trans_a == Trans::N ? p.A + static_cast<long>(r0) * p.lda : p.A + r0;
    q.C = p.C + static_cast<long>(r0) * p.ldc;
    q.band.offset = p.band.offset + r0;  // every band is stated for row i of the whole: i = local + r0
  } else {
    q.N = r1 - r0;
    q.B = p.trans_b == Trans::N ? p.B + r0 : p.B + static_cast<long>(r0) * p.ldb;
    q.C = p.C + r0;
    if (p.bias) q.bias = p.bias + r0;
    if (p.band.kind == Band::Kind::Lower) q.band.offset = p.band.offset - r0;  // j = local + r0
  }
  return q;
}

void call(MatmulFn fn, const Product& p) {
  fn(p.trans_a, p.trans_b, p.M, p.N, p.K, p.A, p.lda, p.B, p.ldb, p.C, p.ldc, p.accumulate, p.bias, p.band);
}

// How one product is cut: `parts` ranges of C's rows (or columns), range i being units
// [cut[i], cut[i + 1]) of `align` rows (columns) each.
struct Cut {
  bool by_rows = false;
  int align = 1, extent = 0, parts = 1;
  int cut[threads::kMax + 1] = {};

  bool same_as(const Cut& o) const {
    if (by_rows != o.by_rows || align != o.align || extent != o.extent || parts != o.parts) return false;
    return std::equal(cut, cut + parts + 1, o.cut);
  }
  // Runs part i of p.
  void run(MatmulFn fn, const Product& p, int i) const {
    if (parts == 1) return call(fn, p);
    const int r0 = std::min(extent, cut[i] * align), r1 = std::min(extent, cut[i + 1] * align);
    if (r0 < r1) call(fn, part(p, by_rows, r0, r1));
  }
};

Cut plan(MicroTile tile, const Product& p) {
  Cut c;
  if (p.M <= 0 || p.N <= 0 || p.K <= 0) return c;
  const bool small = p.M < kSmallRows;
  // Rows when there are as many rows as columns (each part then packs all of op(B), the
  // smaller operand), columns otherwise; a small product always by columns.
  const int row_units = (p.M + tile.rows - 1) / tile.rows;
  const int col_align = small ? kSmallColumnGroup : tile.cols;
  const int col_units = (p.N + col_align - 1) / col_align;
  c.by_rows = !small && (p.M >= p.N || col_units < 2) && row_units >= 2;
  c.align = c.by_rows ? tile.rows : col_align;
  c.extent = c.by_rows ? p.M : p.N;
  const int units = c.by_rows ? row_units : col_units;
  const double total = work(p, c.by_rows, 0, c.extent);
  const int parts = std::min(threads::parts_for(2.0 * total), units);
  if (parts <= 1) return c;

  // Unit boundaries with about total / parts of work before each (prefix sums over units).
  c.parts = parts;
  c.cut[0] = 0;
  int next = 1;
  double done = 0.0;
  for (int u = 0; u < units && next < parts; ++u) {
    done += work(p, c.by_rows, u * c.align, std::min(c.extent, (u + 1) * c.align));
    while (next < parts && done >= total * next / parts) c.cut[next++] = u + 1;
  }
  while (next < parts) c.cut[next++] = units;
  c.cut[parts] = units;
  return c;
}

// Whether two products write into overlapping spans of memory (C's first to last float).
bool overlaps(const Product& a, const Product& b) {
  const float* a_end = a.C + static_cast<long>(a.M - 1) * a.ldc + a.N;
  const float* b_end = b.C + static_cast<long>(b.M - 1) * b.ldc + b.N;
  return a.C < b_end && b.C < a_end;
}

}  // namespace

void split_matmul(MatmulFn fn, MicroTile tile, const Product& p) {
  const Cut c = plan(tile, p);
  if (c.parts <= 1) return call(fn, p);
  threads::parallel_for(c.parts, [&](int i, int) { c.run(fn, p, i); });
}

void split_matmuls(MatmulFn fn, MicroTile tile, const Product* products, int count) {
  // Chains: runs of consecutive products that write the same C and cut alike, each part of a
  // chain one task running that part of every product of the chain in order. A product whose C
  // overlaps an earlier one's any other way starts a new group, run after this one.
  struct Chain {
    int first = 0, length = 0, tasks = 0;
  };
  Cut cuts[kMaxGroup];
  Chain chains[kMaxGroup];
  int n_chains = 0, tasks = 0, start = 0;
  const auto flush = [&](int end) {
    if (tasks == 1) {
      for (int i = start; i < end; ++i) cuts[i].run(fn, products[i], 0);
    } else if (tasks > 1) {
      threads::parallel_for(tasks, [&](int task, int) {
        int c = 0;
        while (task >= chains[c].tasks) task -= chains[c++].tasks;
        for (int i = chains[c].first; i < chains[c].first + chains[c].length; ++i) cuts[i].run(fn, products[i], task);
      });
    }
    n_chains = 0;
    tasks = 0;
    start = end;
  };
  for (int i = 0; i < count; ++i) {
    const Product& p = products[i];
    if (p.M <= 0 || p.N <= 0 || p.K <= 0) {  // nothing to split: K == 0 writes C = bias, in order
      flush(i);
      call(fn, p);
      start = i + 1;
      continue;
    }
    cuts[i] = plan(tile, p);
    Chain* last = n_chains ? &chains[n_chains - 1] : nullptr;
    const Product* prev = last ? &products[last->first + last->length - 1] : nullptr;
    if (prev && prev->C == p.C && prev->ldc == p.ldc && prev->M == p.M && prev->N == p.N &&
        cuts[i].same_as(cuts[i - 1])) {
      ++last->length;
      continue;
    }
    bool clash = false;
    for (int j = start; j < i && !clash; ++j) clash = overlaps(products[j], p);
    if (clash) flush(i);
    chains[n_chains++] = {i, 1, cuts[i].parts};
    tasks += cuts[i].parts;
  }
  flush(count);
}

}  // namespace tp::kernels
