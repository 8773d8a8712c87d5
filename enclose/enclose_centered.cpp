// Centered enclosures (centered.h) of the operators of deep feed-forward networks, under the `real`
// semantics: data movement (here), Relu, the arithmetic and the elementary functions
// (enclose_centered_arith.cpp), Conv, Gemm, MatMul, BatchNormalization in inference, MaxPool and
// GlobalAveragePool (enclose_centered_linear.cpp). Each returns nullopt where it does not apply (an
// unbounded input, a divisor that may be 0, a logarithm of a number that may be ≤ 0, Gemm's alpha
// or beta other than 1, BatchNormalization's parameters not known exactly, MaxPool's Indices); the
// operator's ordinary enclosure then runs.
#include "centered_ops.h"

namespace sonnx::enclose {

namespace centered_ops {

// An MPFR value within `err` of a real as a centered double-double: the rounding to hi + lo adds
// u·|lo| + η, or nothing where hi + lo is the value.
std::pair<DD, double> to_centered(const mpfr_t v, double err) {
  mpfr_t rest;
  mpfr_init2(rest, mpfr_get_prec(v));
  double hi = mpfr_get_d(v, MPFR_RNDN);
  mpfr_sub_d(rest, v, hi, MPFR_RNDN);  // exact: v and hi agree in their leading bits
  double lo = mpfr_get_d(rest, MPFR_RNDN);
  bool exact = mpfr_cmp_d(rest, lo) == 0;
  mpfr_clear(rest);
  DD m;
  two_sum(hi, lo, m.hi, m.lo);
  return {m, add_up(err, exact ? 0 : up(up(kU * std::fabs(lo)) + kEta))};
}

// ---- data movement: the reference kernel moves each part (hi, lo, rad) as it moves the values ----

Result movement(const OpCall& c) {
  std::vector<CenteredPtr> parts(c.in.size());
  DType type = DType::Undefined;
  for (size_t k = 0; k < c.in.size(); ++k) {
    if (!c.in[k] || c.in[k]->exact()) continue;
    if (!(parts[k] = centered_of(*c.in[k]))) return std::nullopt;
    if (type == DType::Undefined) type = c.in[k]->type;
  }
  if (type == DType::Undefined) return std::nullopt;
  std::vector<std::vector<Value>> runs;
  for (std::vector<double> Centered::*part : {&Centered::hi, &Centered::lo, &Centered::rad}) {
    std::vector<Value> values(c.in.size());
    std::vector<const Value*> ptrs(c.in.size(), nullptr);
    for (size_t k = 0; k < c.in.size(); ++k) {
      if (!c.in[k]) continue;
      values[k] = parts[k] ? Value(Tensor::from_vector(c.in[k]->lo.shape(), (*parts[k]).*part)) : Value(c.in[k]->lo);
      ptrs[k] = &values[k];
    }
    ValueScope scope;
    runs.push_back(c.reference.run_node(c.node, ptrs, scope, c.opset));
  }
  std::vector<Bounds> out;
  for (size_t k = 0; k < runs[0].size(); ++k) {
    if (!runs[0][k].is_tensor() || runs[0][k].tensor.dtype() != DType::Double) return std::nullopt;
    const Tensor& hi = runs[0][k].tensor;
    Centered y(static_cast<size_t>(hi.size()));
    for (size_t i = 0; i < y.size(); ++i)
      y.set(i, {hi.data<double>()[i], runs[1][k].tensor.data<double>()[i]}, runs[2][k].tensor.data<double>()[i]);
    out.push_back(centered_bounds(type, hi.shape(), std::make_shared<const Centered>(std::move(y))));
  }
  return out;
}

namespace {

const std::map<std::string, Result (*)(const OpCall&)>& table() {
  static const std::map<std::string, Result (*)(const OpCall&)> t = {{"Identity", movement},
                                                                     {"Reshape", movement},
                                                                     {"Flatten", movement},
                                                                     {"Transpose", movement},
                                                                     {"Squeeze", movement},
                                                                     {"Unsqueeze", movement},
                                                                     {"Slice", movement},
                                                                     {"Gather", movement},
                                                                     {"Expand", movement},
                                                                     {"Split", movement},
                                                                     {"Tile", movement},
                                                                     {"Concat", movement},
                                                                     {"Relu", relu},
                                                                     {"Add", add},
                                                                     {"Sub", sub},
                                                                     {"Mul", mul},
                                                                     {"Div", div},
                                                                     {"Sin", sin},
                                                                     {"Cos", cos},
                                                                     {"Exp", exp},
                                                                     {"Log", log},
                                                                     {"Sqrt", sqrt},
                                                                     {"Tanh", tanh},
                                                                     {"Erf", erf},
                                                                     {"Sigmoid", sigmoid},
                                                                     {"Conv", conv},
                                                                     {"Gemm", gemm},
                                                                     {"MatMul", matmul},
                                                                     {"BatchNormalization", batch_normalization},
                                                                     {"MaxPool", max_pool},
                                                                     {"GlobalAveragePool", global_average_pool}};
  return t;
}

}  // namespace

}  // namespace centered_ops

std::optional<std::vector<Bounds>> centered_enclosure(const OpCall& c) {
  if (c.semantics != Semantics::Real) return std::nullopt;
  for (const Bounds* b : c.in)  // a sequence or an optional (Identity's): moved by the ordinary enclosure
    if (b && !b->is_tensor()) return std::nullopt;
  auto it = centered_ops::table().find(c.node.op_type);
  return it == centered_ops::table().end() ? std::nullopt : it->second(c);
}

}  // namespace sonnx::enclose
