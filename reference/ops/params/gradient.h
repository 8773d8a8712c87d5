// Gradient's parameters (ai.onnx.preview.training) and the path of its enclosing graph it
// differentiates, read by its reference kernel (Gradient.cpp) and by its enclosure
// (enclose/enclose_gradient.cpp).
#pragma once
#include <set>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx {

// Names in the graph the node sits in: the value differentiated (y), the values it is
// differentiated with respect to (xs) and those held fixed (zs).
struct GradientParams {
  std::vector<std::string> xs, zs;
  std::string y;
  static GradientParams read(const AttrReader& reader, int64_t version);
  std::set<std::string> independent() const;  // xs and zs
};

// The nodes of `graph` (the Gradient node's) that y depends on, walking back from y and stopping at
// xs and zs (a name no node produces — a graph input, an initializer, an outer value — is a
// constant), as indices in an order where each runs after the path's nodes it reads. Fails (through
// `reader`) on a cycle, when y depends on the Gradient node, or when y is neither produced nor in xs
// or zs; throws Unsupported for an operator the reference does not differentiate (it takes Add,
// Sub, Mul, Div, Neg and Identity, with multidirectional broadcasting).
std::vector<size_t> gradient_path(const AttrReader& reader, const std::vector<Node>& graph, const GradientParams& p);

// The local derivative rules, the one table the kernel (in double) and the enclosure (as a body of
// operators) both follow: what dL/dy = g of a node y = op(a[, b]) contributes to dL/d(input k),
// before the sum over the axes that input was broadcast along.
enum class LocalDerivative {
  G,                  // g
  MinusG,             // -g
  GTimesB,            // g·b
  GTimesA,            // g·a
  GOverB,             // g/b
  MinusGTimesAOverBB  // -g·a/b²
};
// One entry per input of `op_type`; `op_type` is one gradient_path accepts.
const std::vector<LocalDerivative>& local_derivatives(const std::string& op_type);

}  // namespace sonnx
