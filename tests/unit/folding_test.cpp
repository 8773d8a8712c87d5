// Shape computations (Step::foldable) taken from the memory plan: a run with the planned shapes
// skips them, a run whose Shape step reads another shape (a data-dependent shape under the same
// input signature) computes them again, and every run matches the reference.
#include <gtest/gtest.h>

#include "optimized/exec/make_executor.h"
#include "reference/infer/infer_types.h"
#include "reference/interp/interpreter.h"
#include "tensor_test_util.h"

namespace sonnx {
namespace {

using testing::float_type;
using testing::i64;
using testing::int_attr;
using testing::ir_node;

// Static chain: r = Reshape(x, Concat(Unsqueeze(Gather(Shape(x), 0)), [-1])); out = Neg(r).
// Data-dependent: k = Shape(NonZero(x > 0)), whose value changes with x under one signature.
Model folding_model() {
  Model m = testing::empty_model(13);
  m.graph.inputs.push_back({"x", float_type({2, 3})});
  m.graph.initializers.emplace_back("zero_index", Tensor::scalar<int64_t>(0));
  m.graph.initializers.emplace_back("ax0", i64({0}));
  m.graph.initializers.emplace_back("minus1", i64({-1}));
  m.graph.initializers.emplace_back("zero", Tensor::scalar<float>(0));
  for (Node n :
       {ir_node("Shape", {"x"}, {"s"}), ir_node("Gather", {"s", "zero_index"}, {"g"}), ir_node("Unsqueeze", {"g", "ax0"}, {"u"}),
        ir_node("Concat", {"u", "minus1"}, {"c"}), ir_node("Reshape", {"x", "c"}, {"r"}), ir_node("Neg", {"r"}, {"out"}),
        ir_node("Greater", {"x", "zero"}, {"pos"}), ir_node("NonZero", {"pos"}, {"nz"}), ir_node("Shape", {"nz"}, {"k"})}) {
    if (n.op_type == "Concat") n.attributes.push_back(int_attr("axis", 0));
    testing::add_node(m.graph, n);
  }
  m.graph.outputs.push_back({"out", float_type({2, 3})});
  m.graph.outputs.push_back({"k", TypeInfo{}});
  add_inferred_types(m);
  return m;
}

NamedValues input(std::vector<float> v) {
  NamedValues in;
  in["x"] = Value(Tensor::from_vector<float>({2, 3}, v));
  return in;
}

TEST(FoldedShapes, AreTakenFromThePlanOnlyWhileTheirInputsAreThePlannedOnes) {
  Model m = folding_model();
  NamedValues three = input({1, -2, 3, -4, 5, -6}), five = input({1, 2, 3, -4, 5, 6});
  for (const auto& name : optimized_executor_names()) {
    auto exec = make_optimized_executor(m, name, {});
    auto folded = [&]() {
      auto it = exec->kernels_run().find("folded");
      return it == exec->kernels_run().end() ? 0 : it->second;
    };
    auto check = [&](const NamedValues& in, int want_folded, const char* what) {
      NamedValues want = Interpreter(m).run(in);
      NamedValues got = exec->run(in);
      for (const auto& [out, v] : want) EXPECT_EQ(got.at(out).tensor, v.tensor) << name << " " << what << " " << out;
      EXPECT_EQ(folded(), want_folded) << name << " " << what;
    };
    check(three, 0, "planning run");
    // Shape, Gather, Unsqueeze, Concat of the static chain and the Shape of NonZero's 3 positives.
    check(three, 5, "same input");
    // Same signature, 5 positives: NonZero's shape differs, so its Shape runs again.
    check(five, 4, "other data");
    EXPECT_EQ(exec->run(five).at("k").tensor, i64({2, 5})) << name;
  }
}

}  // namespace
}  // namespace sonnx
