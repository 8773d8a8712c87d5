// Loop nests and index expressions for the C templates (emit_op.h): every bound a literal constant.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emit_op.h"
#include "reference/ops/registry.h"
#include "sonnx/errors.h"

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

// The unsigned C type in which an integer type's wrapping arithmetic (two's complement) is
// computed: as the reference's wide_unsigned_t (numeric.h), at least as wide as `unsigned int`, so
// that 8- and 16-bit operands do not promote to a signed int that may overflow
// ("uint32_t" for the 8-, 16- and 32-bit integers, "uint64_t" for the 64-bit ones); null for
// every other type.
const char* emit_unsigned_of(DType t);

// The name of a file-level C helper `TYPE sonnx_saturating_cast_<dtype name>(double v)` (e.g.
// sonnx_saturating_cast_int32), written once through e.helper(): support::saturating_cast
// (numeric.h) into the integer type `to`: NaN gives 0, a value at or beyond a limit that limit,
// others truncate toward zero. EmitRefused for other types.
std::string emit_saturating_cast(NodeEmitter& e, DType to);

// A template that calls the support:: helpers the reference kernel calls (axis normalisation, index
// checks, Slice's window): it runs with an OpContext of the node, and where the reference would
// trap, the node is refused with the kernel's message.
using GuardedEmitFn = void (*)(NodeEmitter&, const OpContext&);
template <GuardedEmitFn F>
void emit_guarded(NodeEmitter& e) {
  OpContext ctx(e.node(), e.version(), {}, nullptr, nullptr);
  try {
    F(e, ctx);
  } catch (const Trap& t) {
    e.refuse(std::string("the reference kernel traps: ") + t.what());
  }
}

}  // namespace sonnx::emit
