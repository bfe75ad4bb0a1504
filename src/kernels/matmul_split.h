// Splitting one product across the thread pool (core/thread_pool.h) without changing a bit of it.
//
// A product is cut into parts of whole rows of C (or whole columns), each a complete product of
// the kernel-table matmul on a sub-matrix, run in parallel. Every cut falls on the micro-tile
// grid the undivided product uses (multiples of the tile's rows or columns from 0), so every
// part computes the same tiles with the same K blocks in the same order: the K dimension is
// never split. Band offsets move with the cut (a part's row 0 is row r0 of the whole), and parts
// carry equal work, not equal sizes, so a causal triangle splits evenly. Several products can
// share one region (split_matmuls): each keeps its own cut, so the bits are those of each alone.
#pragma once

#include "kernels/dispatch.h"

namespace tp::kernels {

// One matmul call's arguments (kernels.h).
using Product = MatmulArgs;

struct MicroTile {
  int rows, cols;
};

// Runs `fn` on p, split across the pool when that pays (threads::parts_for), else in one call.
void split_matmul(MatmulFn fn, MicroTile tile, const Product& p);

// Runs `fn` on products[0 .. count), each cut as split_matmul would cut it, in one region
// (kernels::matmul_group; count <= kMaxGroup).
void split_matmuls(MatmulFn fn, MicroTile tile, const Product* products, int count);

}  // namespace tp::kernels
