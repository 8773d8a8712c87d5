// Property-based differential tests (RapidCheck + GoogleTest) on random valid graphs
// (conformance/fuzz): executors and memory planners against the reference, memory-plan validity,
// parallel determinism, the validator on generated and mutated graphs, and the planted-fault
// round trip (found, shrunk to ≤ 5 nodes, replayed from its ONNX test directory).
#include <set>

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "conformance/fuzz/fuzz_loop.h"
#include "conformance/fuzz/mutate.h"
#include "conformance/runner.h"
#include "optimized/plan/compiled_model.h"
#include "reference/infer/infer_types.h"
#include "reference/catalogue/catalogue.h"
#include "reference/check/profile.h"
#include "reference/check/validator.h"
#include "reference/model/loader.h"

namespace sonnx::fuzz {

// How RapidCheck prints a counterexample: the recipe replays it (`parse_recipe`).
void showValue(const Recipe& r, std::ostream& os) { os << recipe_str(r); }

namespace {

rc::Gen<Recipe> gen_recipe() {
  auto choice = rc::gen::build<OpChoice>(
      rc::gen::set(&OpChoice::op, rc::gen::inRange<uint32_t>(0, static_cast<uint32_t>(op_generators().size()))),
      rc::gen::set(&OpChoice::seed, rc::gen::arbitrary<uint32_t>()));
  // Sizes grow to 100 over a run; scaled, a recipe holds up to 12 operator choices. Half the
  // recipes are at opset 17, half at the newest.
  return rc::gen::build<Recipe>(rc::gen::set(&Recipe::seed, rc::gen::cast<uint64_t>(rc::gen::arbitrary<uint32_t>())),
                                rc::gen::set(&Recipe::max_dim, rc::gen::inRange(1, 9)),
                                rc::gen::set(&Recipe::opset, rc::gen::element(kLegacyFuzzOpset, kNewestFuzzOpset)),
                                rc::gen::set(&Recipe::ops,
                                             rc::gen::scale(0.12, rc::gen::container<std::vector<OpChoice>>(choice))));
}

RC_GTEST_PROP(FuzzProperty, EveryExecutorAndPlannerMatchesTheReference, ()) {
  Recipe r = *gen_recipe();
  GeneratedCase g = generate(r);
  RC_TAG(g.nodes() <= 4 ? "small" : "large");
  DiffResult res = run_differential(g, DiffOptions{});
  if (!res.ok) RC_FAIL(res.kind + " (" + res.executor + "): " + res.message + "\n" + g.describe());
}

RC_GTEST_PROP(FuzzProperty, MutantsAreRejectedWithTheirRule, ()) {
  Recipe r = *gen_recipe();
  GeneratedCase g = generate(r);
  std::mt19937_64 rng(r.seed);
  static const Profile profile = load_profile("onnx");
  for (Mutation m : {Mutation::DropEdge, Mutation::DuplicateOutput, Mutation::Cycle}) {
    auto mutant = mutate(g.proto, m, rng);
    if (!mutant) continue;
    LoadedModel lm{*mutant, model_from_proto(*mutant, {})};
    std::set<std::string> rules;
    for (const auto& d : validate(lm, profile)) rules.insert(d.rule);
    if (!rules.count(expected_rule(m))) {
      std::string got;
      for (const auto& x : rules) got += x + " ";
      RC_FAIL(std::string(mutation_name(m)) + ": expected " + expected_rule(m) + ", got [" + got + "]\n" + g.describe());
    }
  }
}

TEST(FuzzGenerator, IsDeterministicInItsRecipe) {
  // 100 seeds at both opsets: the graphs generated in between must not matter (with one Z3
  // context reused for every graph, seeds 70 and 123 came out differently the second time).
  for (uint64_t seed = 1; seed <= 100; ++seed) {
    Recipe r = random_recipe(seed);
    GeneratedCase a = generate(r), b = generate(parse_recipe(recipe_str(r)));
    EXPECT_EQ(a.proto.SerializeAsString(), b.proto.SerializeAsString()) << recipe_str(r);
    EXPECT_EQ(a.inputs, b.inputs) << recipe_str(r);
  }
}

bool has_attr(const onnx::NodeProto& n, const std::string& name) {
  for (const auto& a : n.attribute())
    if (a.name() == name) return true;
  return false;
}

TEST(FuzzGenerator, CoversTheOperatorFamilies) {
  std::set<std::string> ops, ops17;
  std::set<std::string> forms27, forms17;  // operator-version forms seen at opset 27 / at 17
  std::map<int64_t, int> graphs_at;
  bool multi_output = false, several_consumers = false;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    GeneratedCase g = generate(random_recipe(seed));
    ASSERT_EQ(g.proto.opset_import_size(), 1);
    int64_t opset = g.proto.opset_import(0).version();
    ++graphs_at[opset];
    std::map<std::string, int> uses;
    for (const auto& n : g.proto.graph().node()) {
      ops.insert(n.op_type());
      if (opset == kLegacyFuzzOpset) ops17.insert(n.op_type());
      multi_output = multi_output || n.output_size() > 1;
      for (const auto& in : n.input()) ++uses[in];
      // The forms that exist only from opset 18 on.
      std::set<std::string>& forms = opset == kNewestFuzzOpset ? forms27 : forms17;
      const std::string& op = n.op_type();
      if (op.rfind("Reduce", 0) == 0 && op != "ReduceSum" && n.input_size() == 2) forms.insert("Reduce axes input");
      if (op.rfind("Reduce", 0) == 0 && op != "ReduceSum" && has_attr(n, "noop_with_empty_axes"))
        forms.insert("Reduce noop_with_empty_axes");
      if (op == "Pad" && n.input_size() == 4) forms.insert("Pad axes input");
      for (const auto& a : n.attribute())
        if (op == "Pad" && a.name() == "mode" && a.s() == "wrap") forms.insert("Pad wrap");
      if (op == "Split" && has_attr(n, "num_outputs")) forms.insert("Split num_outputs");
      if (op == "AveragePool" && has_attr(n, "dilations")) forms.insert("AveragePool dilations");
      for (const auto& a : n.attribute())
        if (op.rfind("Scatter", 0) == 0 && a.name() == "reduction" && (a.s() == "max" || a.s() == "min"))
          forms.insert(op + " max/min");
    }
    for (const auto& [name, k] : uses) several_consumers = several_consumers || (k > 1 && name.rfind("t", 0) == 0);
  }
  EXPECT_GE(graphs_at[kLegacyFuzzOpset], 150);
  EXPECT_GE(graphs_at[kNewestFuzzOpset], 150);
  EXPECT_GE(ops.size(), 50u);
  for (const char* op : {"Add",
                         "Mul",
                         "Div",
                         "ReduceSum",
                         "ReduceMax",
                         "Reshape",
                         "Transpose",
                         "Slice",
                         "Gather",
                         "Concat",
                         "Split",
                         "Pad",
                         "Conv",
                         "MaxPool",
                         "AveragePool",
                         "Gemm",
                         "MatMul",
                         "Softmax",
                         "LayerNormalization",
                         "BatchNormalization",
                         "Cast",
                         "Where",
                         "If",
                         "Loop"})
    EXPECT_TRUE(ops17.count(op)) << op << " never generated at opset 17";
  // The operators added after opset 17 (and Scatter*, generated for their opset-18 reductions),
  // only at the newest opset.
  for (const char* op : {"Gelu", "Mish", "Swish", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot", "CumProd",
                         "RMSNormalization", "GroupNormalization", "ScatterElements", "ScatterND"}) {
    EXPECT_TRUE(ops.count(op)) << op << " never generated";
    EXPECT_FALSE(ops17.count(op)) << op << " generated at opset 17, where it does not exist";
  }
  for (const char* form : {"Reduce axes input", "Reduce noop_with_empty_axes", "Pad axes input", "Pad wrap", "Split num_outputs",
                           "AveragePool dilations", "ScatterElements max/min", "ScatterND max/min"}) {
    EXPECT_TRUE(forms27.count(form)) << form << " never generated at opset 27";
    EXPECT_FALSE(forms17.count(form)) << form << " generated at opset 17";
  }
  EXPECT_TRUE(multi_output);
  EXPECT_TRUE(several_consumers);
}

// Every fast kernel is reached by the generated graphs the differential tests run, so each is
// compared with the reference on random graphs (not only in its contract test).
TEST(FuzzGenerator, ReachesEveryFastKernel) {
  std::map<std::string, int> reached;
  for (uint64_t seed = 1; seed <= 400; ++seed) {
    GeneratedCase g = generate(random_recipe(seed));
    add_inferred_types(g.model);
    CompiledModel compiled(g.model);
    for (const Step& step : compiled.root().steps())
      if (step.fast) ++reached[step.fast->name()];
  }
  for (const char* kernel : {"onednn:conv",
                             "onednn:deconv",
                             "onednn:gemm",
                             "onednn:matmul",
                             "fast:maxpool",
                             "fast:averagepool",
                             "fast:globalaveragepool",
                             "fast:batchnorm",
                             "fast:binary",
                             "fast:movement",
                             "fast:resize",
                             "fast:softmax",
                             "fast:logsoftmax",
                             "fast:reduce",
                             "fast:layernorm",
                             "fast:instancenorm",
                             "fast:groupnorm",
                             "fast:layernorm-nodes",
                             "fast:unary",
                             "fast:split",
                             "fast:pad",
                             "fast:where",
                             "fast:attention"})
    EXPECT_GE(reached[kernel], 1) << kernel << " is never reached by the fuzzer's graphs";
}

// A recipe fixed at one opset keeps its other choices: the opset is drawn after them.
TEST(FuzzGenerator, OpsetIsDrawnLastAndCanBeFixed) {
  for (uint64_t seed = 1; seed <= 20; ++seed) {
    Recipe mixed = random_recipe(seed), at17 = random_recipe(seed, kLegacyFuzzOpset);
    Recipe at27 = random_recipe(seed, kNewestFuzzOpset);
    EXPECT_EQ(at17.opset, kLegacyFuzzOpset);
    EXPECT_EQ(at27.opset, kNewestFuzzOpset);
    at17.opset = at27.opset = mixed.opset;
    EXPECT_EQ(recipe_str(at17), recipe_str(mixed));
    EXPECT_EQ(recipe_str(at27), recipe_str(mixed));
    EXPECT_EQ(generate(random_recipe(seed, kNewestFuzzOpset)).proto.opset_import(0).version(), kNewestFuzzOpset);
  }
}

// The newest opset generated is the newest the operator catalogue describes.
TEST(FuzzGenerator, NewestOpsetIsTheCatalogues) { EXPECT_EQ(kNewestFuzzOpset, catalogue::max_opset("")); }

TEST(FuzzRecipe, PrintsAndParsesBack) {
  Recipe r = random_recipe(42);
  Recipe back = parse_recipe(recipe_str(r));
  EXPECT_EQ(recipe_str(back), recipe_str(r));
  EXPECT_THROW(parse_recipe("seed=1 ops=[1]"), std::invalid_argument);
  EXPECT_THROW(parse_recipe("seed=1 opset=18 ops=[1:2]"), std::invalid_argument);
  EXPECT_EQ(parse_recipe("seed=1 ops=[1:2]").opset, kLegacyFuzzOpset);  // recipes printed before opsets were drawn
  EXPECT_EQ(parse_recipe("seed=1 opset=27 ops=[1:2]").opset, kNewestFuzzOpset);
}

// profile=sonnx: every node a graph has is an operator of the SONNX profile (its op type; admission
// brings the versions in), the choices are the same recipe's, and the text replays it.
TEST(FuzzRecipe, SonnxProfileGraphsUseOnlyTheProfilesOperators) {
  const std::set<std::string> profile = [] {
    std::set<std::string> ops;
    for (const auto& [op, versions] : load_profile("sonnx").operators) ops.insert(op);
    return ops;
  }();
  std::set<std::string> seen;
  for (uint64_t seed = 1; seed <= 40; ++seed) {
    Recipe r = random_recipe(seed, 0, true);
    EXPECT_TRUE(r.sonnx_ops);
    EXPECT_EQ(r.opset, kLegacyFuzzOpset) << "admission upgrades from 17";
    EXPECT_EQ(recipe_str(parse_recipe(recipe_str(r))), recipe_str(r));
    EXPECT_NE(recipe_str(r).find("profile=sonnx"), std::string::npos);
    for (const std::string& op : generate(r).op_types) {
      EXPECT_TRUE(profile.count(op)) << op << " in " << recipe_str(r);
      seen.insert(op);
    }
  }
  EXPECT_GE(seen.size(), 15u) << "the profile's operators are drawn, not a few of them";
  EXPECT_THROW(parse_recipe("seed=1 profile=onnx ops=[1:2]"), std::invalid_argument);
}

// The oracle must be able to fail: a planted bug in Add (first element + 1) is found, shrunk to
// at most 5 nodes and written as a test directory whose expected outputs are the reference's.
TEST(FuzzInjectedFault, IsFoundShrunkAndReplays) {
  FuzzOptions o;
  o.seconds = 120;
  o.max_graphs = 500;
  o.seed = 7;
  o.max_failures = 1;
  o.diff.executors = {"linear"};
  o.diff.inject_fault = "Add";
  o.diff.fault_executor = "linear";
  o.out = std::filesystem::path(testing::TempDir()) / "sonnx-fuzz-inject";
  std::filesystem::remove_all(o.out);
  FuzzReport r = run_fuzz(o);
  ASSERT_EQ(r.failures, 1) << "the planted fault was not found in " << r.graphs << " graphs";
  const Repro& repro = r.repros[0];
  EXPECT_EQ(repro.kind, "mismatch");
  EXPECT_LE(repro.nodes, 5) << repro.description;
  EXPECT_NE(repro.description.find("Add"), std::string::npos) << repro.description;

  auto tests = discover_tests({repro.path});
  ASSERT_EQ(tests.size(), 1u);
  RunOptions ro;
  ro.isolate = false;
  ro.executor_options.verify_arena_run = true;
  TestResult ref = run_one(tests[0], ro);
  EXPECT_EQ(ref.status, "passed") << ref.message;
  ro.executor = "linear";
  TestResult clean = run_one(tests[0], ro);
  EXPECT_EQ(clean.status, "passed") << clean.message;
  ro.executor_options.inject_fault = "Add";
  TestResult bad = run_one(tests[0], ro);
  EXPECT_EQ(bad.status, "failed") << bad.message;
}

}  // namespace
}  // namespace sonnx::fuzz
