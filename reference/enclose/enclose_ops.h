// The enclosure of one operator: from the bounds of its inputs, the bounds of its outputs. Each
// family lives in its own file (enclose_elementwise.cpp, enclose_linear.cpp, enclose_lift.cpp).
#pragma once
#include <functional>
#include <map>
#include <string>
#include <vector>

#include "encloser.h"
#include "interval.h"
#include "reference/interp/interpreter.h"
#include "reference/ops/registry.h"

namespace sonnx::enclose {

struct OpCall {
  OpCall(const Node& n, int64_t v, std::vector<const Bounds*> inputs, Interpreter& ref, int64_t domain_opset)
      : node(n), version(v), in(std::move(inputs)), reference(ref), opset(domain_opset), ctx(n, v, {}, nullptr, nullptr) {}
  const Node& node;
  int64_t version;                 // the operator version selected
  std::vector<const Bounds*> in;   // null for an omitted optional input
  Interpreter& reference;          // runs the reference kernel (enclose_lift.cpp)
  int64_t opset;                   // the node's domain opset
  OpContext ctx;                   // the node's attributes and traps, as a reference kernel reads them
  const Bounds& input(size_t k) const;  // Trap when it is omitted
};

using EncloseFn = std::function<std::vector<Bounds>(const OpCall&)>;

// Registers `fn` for op_type at each version in `versions`.
void register_enclosure(const std::string& op_type, std::vector<int64_t> versions, EncloseFn fn);
const EncloseFn* find_enclosure(const std::string& op_type, int64_t version);

// Element i of float bounds as an interval.
inline Interval at(const Bounds& b, int64_t i) { return {b.lo.data<double>()[i], b.hi.data<double>()[i]}; }
// Float bounds of `type` and `shape` (zero-filled).
Bounds float_bounds(DType type, const Shape& shape);
inline void set(Bounds& b, int64_t i, Interval v) {
  b.lo.data<double>()[i] = v.lo;
  b.hi.data<double>()[i] = v.hi;
}

// The reference kernel's result on exact inputs (enclose_lift.cpp), each output as exact Bounds.
std::vector<Bounds> lift_exact(const OpCall& c);

// Input k, which must be a float tensor (Trap otherwise).
const Bounds& float_input(const OpCall& c, size_t k);
// Each family's registration (called once, from encloser.cpp).
void register_elementwise();
void register_linear();
void register_lift();

}  // namespace sonnx::enclose
