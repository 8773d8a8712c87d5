// "Whatever check accepts, run executes" (issue 14), bounded: on random generated graphs, every
// validator mutation and every near miss, a model the validator accepts under the onnx profile
// runs on the reference interpreter (conformance/oracle/accepts_runs.h). The long run over 10,000
// graphs is `sonnx_accepts_runs --graphs 10000` (ctest label fuzz, scripts/accepts-runs.sh).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "oracle_recipe_gen.h"

#include "conformance/fuzz/graph_gen.h"
#include "conformance/fuzz/mutate.h"
#include "conformance/oracle/accepts_runs.h"
#include "conformance/oracle/near_miss.h"

namespace sonnx::oracle {
namespace {

// Seconds a run may take (in a child process) before it counts as unfinished.
constexpr double kTimeLimit = 10;

std::string describe(const std::string& change, const ModelVerdict& v) {
  return change + ": accepted by the check, then the run failed (" + v.kind + "): " + v.message;
}

RC_GTEST_PROP(AcceptsRuns, GeneratedGraphsAndTheirMutantsRunWhenAccepted, ()) {
  fuzz::Recipe r = *gen_oracle_recipe(0.1, 4);
  fuzz::GeneratedCase g = fuzz::generate(r);
  std::mt19937_64 rng(r.seed);
  ModelVerdict v = accepts_then_runs(g.proto, g.inputs, r.seed, kTimeLimit);
  // The generated graph itself is valid: it is accepted and runs.
  RC_ASSERT(v.outcome == Outcome::Ran || v.outcome == Outcome::AllowedTrap);
  for (fuzz::Mutation m : {fuzz::Mutation::DropEdge, fuzz::Mutation::DuplicateOutput, fuzz::Mutation::Cycle})
    if (auto p = fuzz::mutate(g.proto, m, rng)) {
      ModelVerdict mv = accepts_then_runs(*p, g.inputs, r.seed, kTimeLimit);
      if (mv.outcome == Outcome::Failed && !match_known(fuzz::mutation_name(m), mv.message) &&
          !(mv.kind == "trap" && match_allowed(fuzz::mutation_name(m), mv.message)))
        RC_FAIL(describe(fuzz::mutation_name(m), mv));
    }
  for (NearMiss m : all_near_misses())
    if (auto p = near_miss(g.proto, m, rng)) {
      ModelVerdict mv = accepts_then_runs(*p, g.inputs, r.seed, kTimeLimit);
      if (mv.outcome == Outcome::Failed && !match_known(near_miss_name(m), mv.message) &&
          !(mv.kind == "trap" && match_allowed(near_miss_name(m), mv.message)))
        RC_FAIL(describe(near_miss_name(m), mv));
    }
}

// The bounded loop the long run uses: some near misses are accepted (and so run), most are not.
TEST(AcceptsRuns, SomeNearMissesAreAcceptedAndRun) {
  AcceptsRunsOptions o;
  o.seed = 1;
  o.graphs = 25;
  AcceptsRunsReport r = run_accepts_runs(o);
  EXPECT_EQ(r.graphs, 25);
  EXPECT_GT(r.rejected, 0);
  EXPECT_GE(r.accepted["generated"], 25);
  int64_t accepted_near_misses = 0;
  for (NearMiss m : all_near_misses()) accepted_near_misses += r.accepted[near_miss_name(m)];
  EXPECT_GT(accepted_near_misses, 0);
  for (const auto& f : r.findings) ADD_FAILURE() << f.recipe << " " << describe(f.change, f.verdict);
}

// A model whose check passes but whose run must fail is reported, not hidden: a near miss that
// reads an undefined name is refused by the check (STRUCT-DEFINED), so it never runs.
TEST(AcceptsRuns, ARefusedModelIsNotRun) {
  fuzz::GeneratedCase g = fuzz::generate(fuzz::random_recipe(3));
  std::mt19937_64 rng(3);
  auto p = near_miss(g.proto, NearMiss::UndefinedInput, rng);
  ASSERT_TRUE(p);
  EXPECT_EQ(accepts_then_runs(*p, g.inputs, 3, kTimeLimit).outcome, Outcome::Rejected);
}

// Minimal models of the findings this property made (issue 14): each was accepted by the check and
// then failed to run. The check now refuses each; a new finding is pinned in known_findings() with
// its minimal model here until its fix lands.
onnx::ValueInfoProto tensor_info(const std::string& name, int32_t elem, std::vector<int64_t> dims) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  auto* t = v.mutable_type()->mutable_tensor_type();
  t->set_elem_type(elem);
  auto* shape = t->mutable_shape();
  for (int64_t d : dims) shape->add_dim()->set_dim_value(d);
  return v;
}

onnx::ModelProto model_with(int opset) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* op = m.add_opset_import();
  op->set_domain("");
  op->set_version(opset);
  m.mutable_graph()->set_name("known");
  return m;
}

// y = Sum(x, ""): an empty name in Sum's variadic input.
onnx::ModelProto sum_with_an_empty_input() {
  onnx::ModelProto m = model_with(13);
  auto* g = m.mutable_graph();
  *g->add_input() = tensor_info("x", onnx::TensorProto::FLOAT, {2});
  auto* n = g->add_node();
  n->set_op_type("Sum");
  n->set_name("sum");
  n->add_input("x");
  n->add_input("");
  n->add_output("y");
  *g->add_output() = tensor_info("y", onnx::TensorProto::FLOAT, {2});
  return m;
}

// y = Resize-13(x) with neither scales nor sizes (found by the generator's omit-input near miss
// once Resize was generated): no run can give it an output size.
onnx::ModelProto resize_without_scales_or_sizes() {
  onnx::ModelProto m = model_with(13);
  auto* g = m.mutable_graph();
  *g->add_input() = tensor_info("x", onnx::TensorProto::FLOAT, {2});
  auto* n = g->add_node();
  n->set_op_type("Resize");
  n->set_name("resize");
  n->add_input("x");
  n->add_output("y");
  *g->add_output() = tensor_info("y", onnx::TensorProto::FLOAT, {2});
  return m;
}

// y = Loop(1, true, x) whose body returns the outer float x as its condition output (declared
// bool): the declared type of a subgraph output that names an enclosing value is not compared
// with that value's type.
onnx::ModelProto loop_body_returns_an_outer_value_as_its_condition() {
  onnx::ModelProto m = model_with(13);
  auto* g = m.mutable_graph();
  *g->add_input() = tensor_info("x", onnx::TensorProto::FLOAT, {2});
  auto* trips = g->add_initializer();
  trips->set_name("m");
  trips->set_data_type(onnx::TensorProto::INT64);
  trips->add_int64_data(1);
  auto* cond = g->add_initializer();
  cond->set_name("c");
  cond->set_data_type(onnx::TensorProto::BOOL);
  cond->add_int32_data(1);
  auto* loop = g->add_node();
  loop->set_op_type("Loop");
  loop->set_name("loop");
  for (const char* in : {"m", "c", "x"}) loop->add_input(in);
  loop->add_output("y");
  auto* a = loop->add_attribute();
  a->set_name("body");
  a->set_type(onnx::AttributeProto::GRAPH);
  auto* body = a->mutable_g();
  body->set_name("body");
  *body->add_input() = tensor_info("iter", onnx::TensorProto::INT64, {});
  *body->add_input() = tensor_info("cond_in", onnx::TensorProto::BOOL, {});
  *body->add_input() = tensor_info("v_in", onnx::TensorProto::FLOAT, {2});
  auto* id = body->add_node();
  id->set_op_type("Identity");
  id->set_name("id");
  id->add_input("v_in");
  id->add_output("v_out");
  *body->add_output() = tensor_info("x", onnx::TensorProto::BOOL, {});  // the outer float x
  *body->add_output() = tensor_info("v_out", onnx::TensorProto::FLOAT, {2});
  *g->add_output() = tensor_info("y", onnx::TensorProto::FLOAT, {2});
  return m;
}

// y = Loop(1, true, "") whose body reads its loop-carried value: an empty name among Loop's
// variadic initial values.
onnx::ModelProto loop_with_an_empty_initial_value() {
  onnx::ModelProto m = loop_body_returns_an_outer_value_as_its_condition();
  auto* loop = m.mutable_graph()->mutable_node(0);
  loop->set_input(2, "");
  auto* body = loop->mutable_attribute(0)->mutable_g();
  *body->mutable_output(0) = tensor_info("cond_in", onnx::TensorProto::BOOL, {});  // a well-typed condition
  return m;
}

TEST(AcceptsRuns, FormerFindingsAreRejectedByTheCheck) {
  EXPECT_TRUE(known_findings().empty()) << "a pinned finding needs its minimal model in this file";
  for (const auto& [what, model] :
       {std::pair{"an empty element of Sum's variadic input", sum_with_an_empty_input()},
        std::pair{"an empty initial value of Loop", loop_with_an_empty_initial_value()},
        std::pair{"a Loop body returning an outer float as its condition", loop_body_returns_an_outer_value_as_its_condition()},
        std::pair{"Resize with neither scales nor sizes", resize_without_scales_or_sizes()}}) {
    NamedValues in;
    in["x"] = Value(Tensor::from_vector<float>({2}, {1, 2}));
    ModelVerdict v = accepts_then_runs(model, in, 1, 0);
    EXPECT_EQ(v.outcome, Outcome::Rejected) << what << ": " << v.kind << ": " << v.message;
  }
}

}  // namespace
}  // namespace sonnx::oracle
