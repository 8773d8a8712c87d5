// Helpers shared by the operator generators: operands (an existing tensor, or a new graph input or
// constant whose dims are fresh Z3 symbols), broadcasting constraints, and interval arithmetic.
#pragma once
#include <algorithm>
#include <cmath>
#include <string>
#include <vector>

#include "gen_context.h"

namespace sonnx::fuzz {

std::vector<z3::expr> dims_of(GenContext& c, const TVar& t);

// An operand of a node being planned.
struct Operand {
  int tensor = -1;  // existing tensor; -1: made at emit time
  std::vector<z3::expr> dims;
  Interval range;
  bool as_const = false;  // new operand: initializer (true) or graph input (false)
};

Operand existing(GenContext& c, int tensor);
// A new operand broadcast-compatible with `like`: rank ≤ like's, each dim preferring like's or 1.
Operand new_broadcast_operand(GenContext& c, OpPlan& p, const std::vector<z3::expr>& like, Interval range);
// Materialises the operand at emit time; returns its name (and counts the new input/constant).
std::string materialize(GenContext& c, const Operand& o, const Solution& s);

// Multidirectional broadcasting (numpy rules): constraints on `a` and `b`, the output dims.
std::vector<z3::expr> broadcast(GenContext& c, OpPlan& p, const std::vector<z3::expr>& a, const std::vector<z3::expr>& b);

// Tensor predicates.
inline const TVar& tv(GenContext& c, int t) { return c.tensors[static_cast<size_t>(t)]; }  // tensor variable t
inline bool is_float(const TVar& t) { return t.is_float(); }
inline bool is_bool(const TVar& t) { return t.elem == onnx::TensorProto::BOOL; }

Interval hull(Interval a, Interval b);
Interval add(Interval a, Interval b);
Interval mul(Interval a, Interval b);
Interval monotone(Interval a, double (*f)(double));
// A random graph-input range: signed [-r, r] or positive [lo, hi] (r, lo, hi modest).
Interval random_range(GenContext& c, bool positive);

// Adds the node's output tensor and returns its index; `from` are the tensors it reads.
int out_tensor(GenContext& c, int32_t elem, const std::vector<int64_t>& shape, Interval range, const std::vector<int>& from,
               const std::string& op);
inline int32_t kFloat() { return onnx::TensorProto::FLOAT; }
inline int32_t kBool() { return onnx::TensorProto::BOOL; }
inline int32_t kInt64() { return onnx::TensorProto::INT64; }

// A normalised axis in [0, rank) chosen at random.
int64_t random_axis(GenContext& c, int64_t rank);

}  // namespace sonnx::fuzz
