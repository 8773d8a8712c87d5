// Reshape, Flatten, Squeeze, Unsqueeze and Identity as views (spec/memory_plan.md §8): the planner
// gives a view's output its input's bytes for the lifetime of the whole view group, the executors
// compute what the reference computes with them, and check_memory_plan refuses a plan that reuses
// a group's bytes while a member is still read.
#include <gtest/gtest.h>

#include <random>

#include "optimized/exec/make_executor.h"
#include "reference/infer/infer_types.h"
#include "optimized/plan/memory_plan.h"
#include "reference/interp/interpreter.h"
#include "tensor_test_util.h"

namespace sonnx {
namespace {

using testing::float_type;
using testing::i64;
using testing::int_attr;
using testing::ir_node;

// a = Relu(x); b = Reshape(a); b2 = Unsqueeze(b); d = Neg(b2); e = Reshape(d); f = Reshape(b2);
// y = Add(e, f): a's own slot is last read by the first Reshape, but the group {a, b, b2, f} lives
// until y, which reads f after d and e are made. z = Identity(x) views a
// graph input; w = Flatten(d) is a graph output (it must be a copy: d's bytes are reused).
Model view_model() {
  Model m = testing::empty_model(13);
  m.graph.inputs.push_back({"x", float_type({2, 3, 4})});
  m.graph.initializers.emplace_back("s64", i64({6, 4}));
  m.graph.initializers.emplace_back("s234", i64({2, 3, 4}));
  m.graph.initializers.emplace_back("ax0", i64({0}));
  Attribute axis = int_attr("axis", 0);
  for (Node n :
       {ir_node("Relu", {"x"}, {"a"}), ir_node("Reshape", {"a", "s64"}, {"b"}), ir_node("Unsqueeze", {"b", "ax0"}, {"b2"}),
        ir_node("Neg", {"b2"}, {"d"}), ir_node("Reshape", {"d", "s234"}, {"e"}), ir_node("Reshape", {"b2", "s234"}, {"f"}),
        ir_node("Add", {"e", "f"}, {"y"}), ir_node("Identity", {"x"}, {"z"}), ir_node("Neg", {"z"}, {"v"}),
        ir_node("Flatten", {"d"}, {"w"}, {axis}), ir_node("Sigmoid", {"x"}, {"t"}), ir_node("Mul", {"t", "x"}, {"u"})}) {
    testing::add_node(m.graph, n);
  }
  m.graph.outputs.push_back({"y", float_type({2, 3, 4})});
  m.graph.outputs.push_back({"v", float_type({2, 3, 4})});
  m.graph.outputs.push_back({"w", float_type({1, 24})});
  m.graph.outputs.push_back({"u", float_type({2, 3, 4})});
  add_inferred_types(m);  // fast kernels are chosen for known element types
  return m;
}

NamedValues random_input(unsigned seed) {
  std::mt19937 rng(seed);
  NamedValues in;
  in["x"] = Value(testing::random_float_tensor({2, 3, 4}, rng));
  return in;
}

TEST(Views, ShareTheirInputsBytesAndComputeWhatTheReferenceComputes) {
  Model m = view_model();
  for (const auto& name : optimized_executor_names())
    for (int threads : {1, 2}) {
      ExecutorOptions o;
      o.threads = threads;
      auto exec = make_optimized_executor(m, name, o);
      // The first run plans; the next ones run in the arena, on other inputs each time, so a view
      // that read stale or reused bytes would show.
      for (unsigned seed : {1u, 2u, 3u}) {
        NamedValues in = random_input(seed);
        NamedValues want = Interpreter(m).run(in);
        NamedValues got = exec->run(in);
        for (const auto& [out, v] : want) EXPECT_EQ(got.at(out).tensor, v.tensor) << name << " " << threads << " " << out;
      }
      const CompiledGraph& g = exec->compiled()->root();
      const MemoryPlan& p = *exec->plan();
      auto off = [&](const char* v) { return p.offset[static_cast<size_t>(g.slot_of(v))]; };
      EXPECT_EQ(check_memory_plan(g, p), "") << name;
      ASSERT_GE(off("a"), 0) << name;
      EXPECT_EQ(off("b"), off("a")) << name;
      EXPECT_EQ(off("b2"), off("a")) << name;
      EXPECT_EQ(off("f"), off("a")) << name;
      EXPECT_EQ(off("e"), off("d")) << name;
      // The group {a, b, b2, f} is read by y after d is made: d has bytes of its own.
      EXPECT_TRUE(off("d") + p.bytes[static_cast<size_t>(g.slot_of("d"))] <= off("a") ||
                  off("a") + p.bytes[static_cast<size_t>(g.slot_of("a"))] <= off("d"))
          << name;
      EXPECT_FALSE(exec->kernels_run().contains("reference")) << name;
    }
}

TEST(Views, APlanThatReusesAGroupsBytesWhileAMemberIsReadIsRefused) {
  Model m = view_model();
  auto exec = make_optimized_executor(m, "linear", {});
  exec->run(random_input(1));
  const CompiledGraph& g = exec->compiled()->root();
  MemoryPlan p = *exec->plan();
  ASSERT_EQ(check_memory_plan(g, p), "");
  auto at = [&](const char* v) { return static_cast<size_t>(g.slot_of(v)); };
  // d is made after the first Reshape, the last reader of a's own slot, but the group's member f
  // is still read by y: a's bytes are not free for d.
  p.offset[at("d")] = p.offset[at("e")] = p.offset[at("a")];
  std::string why = check_memory_plan(g, p);
  EXPECT_NE(why.find("may be live together and overlap"), std::string::npos) << why;
  // A view output put at its input's offset joins the group even where the planner did not put it
  // (e kept at d's offset above): the check judges the offsets, not the planner's intent.
  MemoryPlan q = *exec->plan();
  q.offset[at("e")] = q.offset[at("a")];
  EXPECT_NE(check_memory_plan(g, q), "");
}

}  // namespace
}  // namespace sonnx
