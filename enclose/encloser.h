// `sonnx enclose`: for every output element of a model on given inputs, an interval guaranteed to
// contain the result of evaluating the model in exact real arithmetic (`real`), or every result an
// implementation may produce when each operator meets its accuracy allowance on its element type
// (`admissible`; spec/accuracy.md, "Enclosures" and "Admissible results"). Float values are carried as a lower and an upper float64 tensor; integer and
// boolean values are exact (both bounds the same tensor). An operator version defined by a function
// body and without an enclosure of its own is enclosed through its body, node by node. One without
// either is refused by name: "no enclosure for Op-N", followed, when it lies in such a body, by
// ", in the body of Outer-M" for each body it is in (innermost first), and when it lies in a
// control-flow subgraph, by ", in the then_branch of If-N" (else_branch, the body of Loop-N, ...).
#pragma once
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "reference/model/ir.h"
#include "sonnx/errors.h"
#include "sonnx/value.h"

namespace sonnx::enclose {

struct Centered;  // centered.h

// Bounds of one value. Of a tensor: for a float element type, float64 tensors lo ≤ hi elementwise
// (−∞ and +∞ where nothing bounds the element); otherwise lo and hi are the value itself. `type` is
// the element type of the value the model computes. `centered`, when set, is a tighter form of the
// same float bounds (centered.h), which the operators of enclose_centered.cpp read and make.
// Of a sequence: the bounds of each element, in order, in `elements`. Of an optional: `elements`
// holds the bounds of its content, or nothing when it is empty. For both, `type` is the element
// type of the tensors inside (Undefined when not known; an empty optional's is) and lo, hi are
// unused: only the operators that take sequences and optionals (enclose_sequence.cpp, the lifted
// ones of enclose_lift.cpp, control flow) read such bounds.
struct Bounds {
  enum class Kind { Tensor, Sequence, Optional };
  DType type = DType::Undefined;
  Tensor lo, hi;
  std::shared_ptr<const Centered> centered = nullptr;
  Kind kind = Kind::Tensor;        // last, with elements: Bounds{type, lo, hi} is a tensor's
  std::vector<Bounds> elements{};  // Sequence: one per element; Optional: none (empty) or its content
  bool exact() const { return !sonnx::is_float(type) && !sonnx::is_small_float(type); }  // float8, float4: bounds too
  bool is_tensor() const { return kind == Kind::Tensor; }
  static Bounds of(const Tensor& t);  // a value given exactly (an input, a weight)
  static Bounds of(const Value& v);   // the same, of a sequence or an optional too
  static Bounds sequence(DType elem, std::vector<Bounds> elements);
  static Bounds optional(DType elem, std::vector<Bounds> content);  // content: none or one
};

enum class Semantics { Real, Admissible };

// The bounds of every output of the model's main graph, by name. Throws Unsupported naming the first
// operator version without an enclosure, Undetermined (sonnx/errors.h: a comparison, an index or a
// shape of floats whose enclosures overlap) and Trap where the reference traps.
std::map<std::string, Bounds> enclose_model(const Model& model, const NamedValues& inputs,
                                            Semantics semantics = Semantics::Real);

// The bounds visible where a subgraph (an If branch, a Loop or Scan body) is walked: the values of
// the graph enclosing it, then, through `parent`, those of the graphs around that one. A subgraph
// reads outer values by name (static scoping, reference/model/names.h).
struct BoundsScope {
  const std::map<std::string, Bounds>* values = nullptr;
  const BoundsScope* parent = nullptr;
  const Bounds* find(const std::string& name) const;  // null: no graph of the chain defines it
};

// The walk enclose_model makes once it has the bounds of the main graph's inputs and initializers:
// the bounds of g's outputs, g a graph whose nodes resolve against `model` (its operator versions
// and local functions), from `given`, the bounds of values g reads without defining them, and
// `outer`, where the rest resolve when g is a subgraph. Each function body enclosed on the way is
// walked by the same core, its inputs given as bounds, and so is the branch an If takes and each
// iteration of a Loop or Scan body (spec/accuracy.md, "Enclosures").
std::map<std::string, Bounds> enclose_graph(const Model& model, const Graph& g, std::map<std::string, Bounds> given,
                                            Semantics semantics = Semantics::Real, const BoundsScope* outer = nullptr);

// Measures of float bounds for the code outside this layer, which inlines none of its arithmetic
// (the arithmetic headers need -ffp-contract=off): the width of [lo, hi] in ulps of `type` (0 for
// a point, +inf unbounded, NaN undefined), of element i, the widest element (undefined ones
// skipped; of a sequence or an optional, over every tensor inside), and how far x lies outside
// element i in ulps of the type at the nearer bound (0 inside and where the element is undefined;
// +inf for a NaN x where it is defined).
double width_in_ulps(double lo, double hi, DType type);
double width_in_ulps(const Bounds& b, int64_t i);
double widest_in_ulps(const Bounds& b);
double ulps_outside(double x, const Bounds& b, int64_t i);

}  // namespace sonnx::enclose
