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

namespace sonnx::enclose {

struct OpCall {
  const Node& node;
  int64_t version;                 // the operator version selected
  std::vector<const Bounds*> in;   // null for an omitted optional input
  Interpreter& reference;          // runs the reference kernel (enclose_lift.cpp)
  int64_t opset;                   // the node's domain opset
  const Bounds& input(size_t k) const;  // Trap when it is omitted
};

using EncloseFn = std::function<std::vector<Bounds>(const OpCall&)>;

// Registers `fn` for op_type at each version in `versions`.
void register_enclosure(const std::string& op_type, std::vector<int64_t> versions, EncloseFn fn);
const EncloseFn* find_enclosure(const std::string& op_type, int64_t version);
std::vector<std::string> registered_enclosures();

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
// Attribute values, or the default when the node does not set the attribute.
int64_t int_attr(const Node& n, const std::string& name, int64_t fallback);
float float_attr(const Node& n, const std::string& name, float fallback);
std::vector<int64_t> ints_attr(const Node& n, const std::string& name, std::vector<int64_t> fallback);
std::string string_attr(const Node& n, const std::string& name, std::string fallback);

// Each family's registration (called once, from encloser.cpp).
void register_elementwise();
void register_linear();
void register_lift();

}  // namespace sonnx::enclose
