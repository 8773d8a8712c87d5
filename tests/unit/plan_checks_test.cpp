// The plan checks that run in every build (issue 14): check_memory_plan judges a plan by the
// lifetimes the compiled steps give (producer, last reader), not by the plan's own first/last, and
// CompiledModel::add_plan refuses a bad plan before any executor can use it; check_well_formed
// refuses a compiled graph that breaks STRUCT-SSA; check_step_tables holds on what the compiler
// builds.
#include <gtest/gtest.h>

#include "conformance/oracle/structure_oracle.h"
#include "optimized/plan/compiled_model.h"
#include "optimized/plan/memory_plan.h"
#include "optimized/plan/memory_planner.h"
#include "sonnx/errors.h"
#include "tensor_test_util.h"

namespace sonnx {
namespace {

using testing::float_type;

// x -> a = Relu(x) -> b = Neg(a) -> c = Neg(b) -> y = Add(a, c): a lives from step 0 to step 3,
// b from 1 to 2, c from 2 to 3 (the schedule is the node order: a chain).
Model chain_model() {
  Model m = testing::empty_model(13);
  m.graph.inputs.push_back({"x", float_type({4, 4})});
  m.graph.outputs.push_back({"y", float_type({4, 4})});
  for (Node n : {testing::ir_node("Relu", {"x"}, {"a"}), testing::ir_node("Neg", {"a"}, {"b"}),
                 testing::ir_node("Neg", {"b"}, {"c"}), testing::ir_node("Add", {"a", "c"}, {"y"})}) {
    testing::add_node(m.graph, n);
  }
  return m;
}

struct Fixture {
  Model model = chain_model();
  CompiledModel cm{model};
  const CompiledGraph& g = cm.root();
  int slot(const std::string& name) const { return g.slot_of(name); }
  size_t at(const std::string& name) const { return static_cast<size_t>(g.slot_of(name)); }
  MemoryPlan plan(bool concurrent) const {
    std::vector<int64_t> bytes(g.num_slots(), 64);  // every slot a 4x4 float tensor
    return make_memory_plan(g, bytes, Planner::GreedyBySize, concurrent);
  }
};

TEST(PlanChecks, TheLifetimesAreTheSteps) {
  Fixture f;
  MemoryPlan p = f.plan(false);
  ASSERT_EQ(check_memory_plan(f.g, p), "");
  EXPECT_EQ(p.first[f.at("a")], 0);
  EXPECT_EQ(p.last[f.at("a")], 3);
  EXPECT_EQ(p.offset[f.at("x")], -1);  // graph inputs and outputs keep their own buffers
  EXPECT_EQ(p.offset[f.at("y")], -1);
}

TEST(PlanChecks, TwoLiveValuesOverlappingAreCaught) {
  Fixture f;
  for (bool concurrent : {false, true}) {
    MemoryPlan p = f.plan(concurrent);
    ASSERT_EQ(check_memory_plan(f.g, p), "");
    // a (steps 0..3) and b (steps 1..2) are live together: give them the same bytes.
    p.offset[f.at("b")] = p.offset[f.at("a")];
    std::string why = check_memory_plan(f.g, p);
    EXPECT_NE(why.find("may be live together and overlap"), std::string::npos) << why;
    EXPECT_NE(why.find("'a'"), std::string::npos) << why;
    EXPECT_NE(why.find("'b'"), std::string::npos) << why;
    // ... and the plan never reaches an executor.
    CompiledModel::PlanKey key{"sig", Planner::GreedyBySize, concurrent};
    EXPECT_THROW(f.cm.add_plan(key, std::make_shared<MemoryPlan>(p)), InternalError);
    EXPECT_EQ(f.cm.find_plan(key), nullptr);
  }
}

TEST(PlanChecks, ALifetimeThePlanShortenedIsCaught) {
  Fixture f;
  MemoryPlan p = f.plan(false);
  // The plan says a dies at its producer's step (it is read until step 3) and packs the values for
  // those lifetimes: a and b share bytes. The plan agrees with itself ...
  p.last[f.at("a")] = p.first[f.at("a")];
  std::vector<int> placed;
  std::vector<int64_t> sizes, first, last;
  for (size_t s = 0; s < p.offset.size(); ++s)
    if (p.offset[s] >= 0) {
      placed.push_back(static_cast<int>(s));
      sizes.push_back(p.bytes[s]);
      first.push_back(p.first[s]);
      last.push_back(p.last[s]);
    }
  std::vector<int64_t> off = plan_offsets_for_intervals(Planner::FirstFit, sizes, first, last);
  for (size_t k = 0; k < placed.size(); ++k) p.offset[static_cast<size_t>(placed[k])] = off[k];
  p.arena_bytes = arena_size(sizes, off);
  p.lower_bound_bytes = live_lower_bound(sizes, first, last, static_cast<int64_t>(f.g.steps().size()));
  ASSERT_EQ(p.offset[f.at("a")], p.offset[f.at("b")]) << "the shortened lifetime should let b take a's bytes";
  EXPECT_TRUE(oracle::valid_plan(first, last, sizes, off)) << "valid for the plan's own lifetimes";
  // ... but not with the graph: a is still read by step 3 while b and c are live.
  std::string why = check_memory_plan(f.g, p);
  EXPECT_NE(why.find("may be live together and overlap"), std::string::npos) << why;
  EXPECT_NE(why.find("'a'"), std::string::npos) << why;
  EXPECT_THROW(f.cm.add_plan({"sig", Planner::FirstFit, false}, std::make_shared<MemoryPlan>(p)), InternalError);
}

TEST(PlanChecks, OtherBrokenPlansAreCaught) {
  Fixture f;
  MemoryPlan good = f.plan(false);
  {
    MemoryPlan p = good;  // a graph output placed in the arena
    p.offset[f.at("y")] = 0;
    p.bytes[f.at("y")] = 64;
    EXPECT_NE(check_memory_plan(f.g, p), "");
  }
  {
    MemoryPlan p = good;  // a value past the arena's end
    p.arena_bytes = 64;
    EXPECT_NE(check_memory_plan(f.g, p).find("does not fit"), std::string::npos);
  }
  {
    MemoryPlan p = good;  // an offset off the alignment
    p.offset[f.at("b")] += 8;
    EXPECT_NE(check_memory_plan(f.g, p), "");
  }
  // A sequential plan stored for a concurrent executor.
  EXPECT_THROW(f.cm.add_plan({"sig", Planner::GreedyBySize, true}, std::make_shared<MemoryPlan>(good)), InternalError);
  // The good one is stored.
  auto stored = f.cm.add_plan({"sig", Planner::GreedyBySize, false}, std::make_shared<MemoryPlan>(good));
  EXPECT_NE(stored, nullptr);
}

TEST(PlanChecks, ACompiledGraphThatReassignsAnInputIsRefused) {
  Model m = chain_model();
  m.graph.inputs.push_back({"z", float_type({4, 4})});
  m.graph.nodes[1].outputs = {"z"};  // Neg writes the graph input z (STRUCT-SSA), run without the check
  m.graph.nodes[2].inputs = {"z"};
  try {
    CompiledModel cm(m);
    FAIL() << "compiled";
  } catch (const Trap& e) {
    EXPECT_NE(std::string(e.what()).find("STRUCT-SSA"), std::string::npos) << e.what();
  }
}

TEST(PlanChecks, TheStepTablesAgreeWithTheSteps) {
  Fixture f;
  EXPECT_EQ(check_well_formed(f.g), "");
  EXPECT_EQ(check_step_tables(f.g), "");
}

}  // namespace
}  // namespace sonnx
