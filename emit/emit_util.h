// Loop nests and index expressions for the C templates (emit_op.h): every bound a literal constant.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emit_op.h"

namespace sonnx::emit {

// Row-major strides of a shape (elements).
std::vector<int64_t> row_major_strides(const Shape& shape);

// The strides of `in` read at the indices of `out` under multidirectional broadcasting (numpy's):
// in's dimensions aligned to out's last ones, a dimension of 1 (or a missing one) stride 0.
std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out);

// Opens one for loop per dimension of `shape` with index variables "<prefix>0", "<prefix>1", ...
// (a dimension of 1 gets no loop: its index is the constant 0); returns the index expressions.
// close_loops closes what open_loops opened.
struct LoopNest {
  std::vector<std::string> index;  // per dimension: a variable, or "0"
  int opened = 0;
};
LoopNest open_loops(NodeEmitter& e, const Shape& shape, const std::string& prefix = "i");
void close_loops(NodeEmitter& e, const LoopNest& loops);

// Σ index[d]·strides[d] as a C expression ("0" when every term is 0; terms of stride 0 left out).
std::string offset_expr(const LoopNest& loops, const std::vector<int64_t>& strides);

// "for (int64_t VAR = 0; VAR < N; ++VAR) {"
std::string for_loop(const std::string& var, int64_t n);

}  // namespace sonnx::emit
