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

}  // namespace

void split_matmul(MatmulFn fn, MicroTile tile, const Product& p) {
  if (p.M <= 0 || p.N <= 0 || p.K <= 0) return call(fn, p);
  const bool small = p.M < kSmallRows;
  // Rows when there are as many rows as columns (each part then packs all of op(B), the
  // smaller operand), columns otherwise; a small product always by columns.
  const int row_units = (p.M + tile.rows - 1) / tile.rows;
  const int col_align = small ? kSmallColumnGroup : tile.cols;
  const int col_units = (p.N + col_align - 1) / col_align;
  const bool by_rows = !small && (p.M >= p.N || col_units < 2) && row_units >= 2;
  const int align = by_rows ? tile.rows : col_align;
  const int extent = by_rows ? p.M : p.N, units = by_rows ? row_units : col_units;
  const double total = work(p, by_rows, 0, extent);
  const int parts = std::min(threads::parts_for(2.0 * total), units);
  if (parts <= 1) return call(fn, p);

  // Unit boundaries with about total / parts of work before each (prefix sums over units).
  int cut[threads::kMax + 1];
  cut[0] = 0;
  int next = 1;
  double done = 0.0;
  for (int u = 0; u < units && next < parts; ++u) {
    done += work(p, by_rows, u * align, std::min(extent, (u + 1) * align));
    while (next < parts && done >= total * next / parts) cut[next++] = u + 1;
  }
  while (next < parts) cut[next++] = units;
  cut[parts] = units;
  threads::parallel_for(parts, [&](int i, int) {
    const int r0 = std::min(extent, cut[i] * align), r1 = std::min(extent, cut[i + 1] * align);
    if (r0 < r1) call(fn, part(p, by_rows, r0, r1));
  });
}

}  // namespace tp::kernels
