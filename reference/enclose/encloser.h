// `sonnx enclose`: for every output element of a model on given inputs, an interval guaranteed to
// contain the result of evaluating the model in exact real arithmetic (`real`), or every result an
// implementation may produce when each operator meets its accuracy allowance on its element type
// (`admissible`; spec/accuracy.md, "Enclosures" and "Admissible results"). Float values are carried as a lower and an upper float64 tensor; integer and
// boolean values are exact (both bounds the same tensor). An operator version without an enclosure
// is refused by name: "no enclosure for Op-N".
#pragma once
#include <map>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/model/ir.h"
#include "sonnx/value.h"

namespace sonnx::enclose {

struct Centered;  // centered.h

// Bounds of one tensor value: for a float element type, float64 tensors lo ≤ hi elementwise (−∞ and +∞
// where nothing bounds the element); otherwise lo and hi are the value itself. `type` is the
// element type of the value the model computes. `centered`, when set, is a tighter form of the same
// float bounds (centered.h), which the operators of enclose_centered.cpp read and make.
struct Bounds {
  DType type = DType::Undefined;
  Tensor lo, hi;
  std::shared_ptr<const Centered> centered = nullptr;
  bool exact() const { return !sonnx::is_float(type) && !sonnx::is_small_float(type); }  // float8, float4: bounds too
  static Bounds of(const Tensor& t);  // a value given exactly (an input, a weight)
};

enum class Semantics { Real, Admissible };

// A value the model computes from bounds that leave it open: a comparison, an index or a shape of
// floats whose enclosures overlap. The enclosures do not decide it at this input (not an operator
// without an enclosure, so it is no Unsupported).
struct Undetermined : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// The bounds of every output of the model's main graph, by name. Throws Unsupported naming the first
// operator version without an enclosure, Undetermined, and Trap where the reference traps.
std::map<std::string, Bounds> enclose_model(const Model& model, const NamedValues& inputs, Semantics semantics = Semantics::Real);

}  // namespace sonnx::enclose
