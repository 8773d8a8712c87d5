// Operators that ONNX defines by text alone, enclosed as if defined by the small body that text
// describes, in the element type, walked by enclose_graph like a function body (spec/accuracy.md,
// "Admissible results"): InstanceNormalization and LpNormalization (enclose_norms.cpp),
// BatchNormalization in training mode (enclose_batchnorm_training.cpp). Under `real` the body's
// value in exact arithmetic, under `admissible` each body node within its own allowance.
#pragma once
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "enclose_ops.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::norms_detail {

// The opset the bodies are written at: ReduceMean and ReduceSum take their axes as an input.
constexpr int64_t kNormBodyOpset = 18;

// A body under construction: its nodes, and the bounds of the values it is given.
struct NormBody {
  Graph g;
  std::map<std::string, Bounds> given;

  void node(const std::string& op, std::vector<std::string> in, const std::string& out) {
    Node n;
    n.op_type = op;
    n.name = out;
    n.inputs = std::move(in);
    n.outputs = {out};
    n.index = g.nodes.size();
    n.opset_version = kNormBodyOpset;
    g.nodes.push_back(std::move(n));
  }
  // The bounds of outputs `outs` of the body walked on `given`, under c's semantics or `s`.
  std::vector<Bounds> walk(const OpCall& c, const std::vector<std::string>& outs) { return walk(c, outs, c.semantics); }
  std::vector<Bounds> walk(const OpCall& c, const std::vector<std::string>& outs, Semantics s) {
    g.path = c.node.label() + "'s body";
    g.outputs.clear();
    for (const std::string& out : outs) g.outputs.push_back(ValueInfo{out, TypeInfo{}});
    Model m;
    m.ir_version = 8;
    m.opset_imports[""] = kNormBodyOpset;
    try {
      std::map<std::string, Bounds> values = enclose_graph(m, g, std::move(given), s);
      std::vector<Bounds> result;
      for (const std::string& out : outs) result.push_back(values.at(out));
      return result;
    } catch (const Unsupported& e) {
      throw Unsupported(std::string(e.what()) + ", in the body of " + op_name(c));
    } catch (const Undetermined& e) {
      throw Undetermined(std::string(e.what()) + ", in the body of " + c.node.label());
    }
  }
  Bounds walk(const OpCall& c, const std::string& out) { return walk(c, std::vector<std::string>{out}).front(); }
  // The same, where an implementation may also compute the operator as a whole: under `admissible`
  // each output joined with the body's exact value widened by kElementaryUlps.
  std::vector<Bounds> walk_as_operator(const OpCall& c, const std::vector<std::string>& outs) {
    NormBody exact = *this;
    std::vector<Bounds> out = walk(c, outs);
    if (c.semantics != Semantics::Admissible) return out;
    std::vector<Bounds> real = exact.walk(c, outs, Semantics::Real);
    for (size_t k = 0; k < out.size(); ++k) admit_whole_operator(out[k], real[k]);
    return out;
  }
  // "normed" = scale·(x − mean)/√(var + ε) with mean and var (population) of "x" over "axes", in
  // the order the texts write it; "mean" and "var" are kept for the callers that output them.
  void normalize(const std::string& scale) {
    node("ReduceMean", {"x", "axes"}, "mean");
    node("Sub", {"x", "mean"}, "d");
    node("Mul", {"d", "d"}, "d2");
    node("ReduceMean", {"d2", "axes"}, "var");
    node("Add", {"var", "epsilon"}, "var_eps");
    node("Sqrt", {"var_eps"}, "den");
    node("Mul", {scale, "d"}, "scaled");
    node("Div", {"scaled", "den"}, "normed");
  }
};

inline Bounds exact_axes(const std::vector<int64_t>& axes) {
  return Bounds::of(Tensor::from_vector<int64_t>({static_cast<int64_t>(axes.size())}, axes));
}

// A per-channel input (C elements) shaped (C, 1, ..., 1) to broadcast against (N, C, D1, ..., Dn);
// against a 1-D input (N) of one channel, (1).
inline Bounds per_channel(const Bounds& b, int64_t rank) {
  Shape s(static_cast<size_t>(std::max<int64_t>(rank - 1, 1)), 1);
  s[0] = b.lo.size();
  return Bounds{b.type, b.lo.reshaped(s), b.hi.reshaped(s)};
}

// BatchNormalization (14, 15) with training_mode=1 (enclose_batchnorm_training.cpp).
std::vector<Bounds> enclose_batch_norm_training(const OpCall& c);

}  // namespace sonnx::enclose::norms_detail
