// Decompositions for `sonnx admit` (spec/admission.md): operators outside the SONNX profile are
// replaced by compositions of profile operators that compute what sonnx's reference kernel of the
// original node computes. The kernels of HardSigmoid, Gelu, Mish, Selu and Elu evaluate their
// formula in double and round once to the element type; each composition therefore casts the input
// to double (a double input is used as it is), applies the kernel's double operations in the
// kernel's order with profile operators whose double kernels are those same operations (Mul, Add,
// Sub, Div, Clip, Erf, Tanh, Exp, Softplus, ...), selects a branch as the kernel does (Where on a
// comparison, or before opset 9 a sum of the branches whose zeros are arranged to add nothing), and
// casts the result back, which rounds once as the kernel does. The result is bitwise the kernel's,
// NaN payloads included, except for Elu, whose kernel calls expm1, which no profile operator
// computes: its composition is recorded as exact on float16 and bfloat16 only when a run of the
// reference on all 65536 codes finds it bitwise equal, and as inexact on float and double.
#pragma once
#include <cstdint>
#include <map>
#include <string>

#include "admit/change.h"
#include "reference/model/ir.h"

namespace sonnx::admit {

// Replaces every ai.onnx node of g (not nested graphs) whose operator is HardSigmoid, Gelu, Mish,
// Selu or Elu by profile operators, at the graph's ai.onnx opset `opset` (the new nodes are
// ai.onnx nodes whose versions at `opset` are the forms built: Cast's `to` a string before opset
// 6, Mul/Add with broadcast=1 before 7, Clip's bounds attributes before 11). `types` are the
// graph's value types (inferred): the element type of the input decides whether it is cast to
// double and back. Each replacement is recorded in log.add("decompose", "<node label>",
// "SONNX-OPERATOR-SET", "HardSigmoid → Cast, Mul, Add, Clip, Cast", exact). A node that cannot be
// decomposed (unknown element type, an opset where a needed form does not exist, an attribute the
// kernel would refuse, ...) is left as it is and recorded in log.refused as "<node label>: <why>".
// The replaced node's output keeps its name; new values, initializers and nodes get names no value
// or node of the model's graph (nested graphs included) has, derived from the node's name or
// output; the new nodes take the old node's place in the node list.
void decompose_operators(Graph& g, int64_t opset, const std::map<std::string, TypeInfo>& types, ChangeLog& log);

}  // namespace sonnx::admit
