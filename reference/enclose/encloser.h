// `sonnx enclose`: for every output element of a model on given inputs, an interval guaranteed to
// contain the result of evaluating the model in exact real arithmetic (spec/accuracy.md,
// "Enclosures"). Float values are carried as a lower and an upper float64 tensor; integer and
// boolean values are exact (both bounds the same tensor). An operator version without an enclosure
// is refused by name: "no enclosure for Op-N".
#pragma once
#include <map>
#include <string>
#include <vector>

#include "reference/model/ir.h"
#include "reference/model/value.h"

namespace sonnx::enclose {

// Bounds of one tensor value: for a float element type, float64 tensors lo ≤ hi elementwise (−∞ and +∞
// where nothing bounds the element); otherwise lo and hi are the value itself. `type` is the
// element type of the value the model computes.
struct Bounds {
  DType type = DType::Undefined;
  Tensor lo, hi;
  bool exact() const { return !sonnx::is_float(type); }
  static Bounds of(const Tensor& t);  // a value given exactly (an input, a weight)
};

// The bounds of every output of the model's main graph, by name. Throws Unsupported naming the first
// operator version without an enclosure, Trap where the reference traps.
std::map<std::string, Bounds> enclose_model(const Model& model, const NamedValues& inputs);

}  // namespace sonnx::enclose
