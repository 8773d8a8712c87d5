// Loop unrolling and the refusal reasons of control flow that stays (admit/rewrites.h:
// unroll_loops, control_flow_refusal; spec/admission.md §4.2). The expected values are the
// original model's, run by the reference interpreter's Loop kernel, or worked out by hand.
#include <gtest/gtest.h>

#include <algorithm>
#include <random>

#include "admit/admit.h"
#include "admit/rewrites.h"
#include "reference/check/validator.h"
#include "reference/interp/interpreter.h"
#include "reference/model/text_syntax.h"
#include "loaded_model_util.h"
#include "tensor_test_util.h"

namespace sonnx {
namespace {

using testing::loaded_model;

// `text` with every "@OPSET@" replaced by the opset.
std::string at_opset(std::string text, int64_t opset) {
  const std::string marker = "@OPSET@";
  for (size_t at; (at = text.find(marker)) != std::string::npos;) text.replace(at, marker.size(), std::to_string(opset));
  return text;
}

size_t count_nodes(const Model& m, const std::string& op) {
  return static_cast<size_t>(
      std::count_if(m.graph.nodes.begin(), m.graph.nodes.end(), [&](const Node& n) { return n.op_type == op; }));
}

Tensor random_floats(const Shape& shape, uint32_t seed) {
  std::mt19937 rng(seed);
  return testing::random_float_tensor(shape, rng, -3, 3);
}

// The sonnx profile's errors on an admitted model, as `sonnx check` reports them.
std::vector<std::string> profile_errors(const admit::AdmitResult& r, const LoadedModel& original) {
  LoadedModel admitted;
  admitted.ir = r.model;
  admitted.proto = original.proto;
  admitted.proto.mutable_opset_import(0)->set_version(r.opset_to);
  std::vector<std::string> errors;
  for (const Diagnostic& d : validate(admitted, load_profile("sonnx")))
    if (d.severity == Severity::Error) errors.push_back(format_diagnostic(d));
  return errors;
}

// The refusal of admission that starts with "node: ", or "" when there is none.
std::string refusal_of(const admit::AdmitResult& r, const std::string& node) {
  for (const std::string& why : r.log.refused)
    if (why.rfind(node + ": ", 0) == 0) return why;
  return "";
}

bool contains(const std::string& s, const std::string& part) { return s.find(part) != std::string::npos; }

// ---- unroll_loops on its own ----

// M = 4 from an initializer, an initial condition constant true, the body's condition its input
// passed through, one loop-carried value and one scan output.
const char* kTwoNodeBody = R"(<ir_version: 7, opset_import: ["" : @OPSET@]>
g (float[2] X) => (float[2] V, float[4,2] S) <int64 M = {4}, bool t = {1}> {
  [loop] V, S = Loop (M, t, X) <body = body (int64 i, bool c, float[2] v) => (bool c, float[2] w, float[2] s) {
    w = Neg (v)
    s = Relu (v)
  }>
})";

TEST(AdmitUnrollLoop, EachIterationIsACopyOfTheBodyAndTheScanIsStacked) {
  for (int64_t opset : {11, 13}) {
    SCOPED_TRACE(opset);
    Model m = text::parse_model(at_opset(kTwoNodeBody, opset));
    NamedValues in{{"X", Value(random_floats({2}, 1))}};
    NamedValues before = Interpreter(m).run(in);
    admit::ChangeLog log;
    ASSERT_TRUE(admit::unroll_loops(m, log));
    EXPECT_EQ(count_nodes(m, "Loop"), 0u);
    EXPECT_EQ(m.graph.nodes.size(), 4u * 2u + 4u + 1u) << "4 copies of 2 nodes, an Unsqueeze per iteration, one Concat";
    EXPECT_EQ(count_nodes(m, "Neg"), 4u);
    EXPECT_EQ(count_nodes(m, "Unsqueeze"), 4u);
    ASSERT_EQ(count_nodes(m, "Concat"), 1u);
    EXPECT_EQ(count_nodes(m, "Identity"), 0u) << "the last Neg writes V itself";
    for (const Node& n : m.graph.nodes) {
      if (n.op_type == "Unsqueeze") {
        // axes [0]: an attribute before opset 13, an input from 13 on.
        EXPECT_EQ(n.inputs.size(), opset < 13 ? 1u : 2u);
        const Attribute* axes = n.attr("axes");
        EXPECT_EQ(axes != nullptr, opset < 13);
        if (axes) {
          EXPECT_EQ(axes->ints, std::vector<int64_t>{0});
        }
      }
      if (n.op_type == "Concat") {
        ASSERT_NE(n.attr("axis"), nullptr);
        EXPECT_EQ(n.attr("axis")->i, 0);
        EXPECT_EQ(n.outputs, std::vector<std::string>{"S"});
      }
    }
    ASSERT_EQ(log.changes.size(), 1u);
    EXPECT_EQ(log.changes[0].rewrite, "specialise");
    EXPECT_EQ(log.changes[0].rule, "SONNX-NO-CONTROL-FLOW");
    EXPECT_TRUE(log.changes[0].exact);
    EXPECT_TRUE(contains(log.changes[0].detail, "4 copies of the body's 2 nodes")) << log.changes[0].detail;
    EXPECT_FALSE(admit::unroll_loops(m, log)) << "no Loop left";
    NamedValues after = Interpreter(m).run(in);
    for (const char* y : {"V", "S"}) EXPECT_EQ(before.at(y).tensor, after.at(y).tensor) << y;
  }
}

// The body's condition output is provably true in each of these forms: unrolled into M × B nodes.
TEST(AdmitUnrollLoop, AConditionPassedThroughOrConstantTrueStaysTrue) {
  struct Case {
    const char* what;
    const char* inits;  // the main graph's initializers after M and t
    const char* signature;
    const char* nodes;
    size_t body_nodes;
  };
  const Case cases[] = {
      {"an Identity of the condition input", "", "=> (bool k, float[2] w)", "k = Identity (c) w = Neg (v)", 2},
      {"a Constant true", "", "=> (bool k, float[2] w)", "k = Constant <value = bool {1}> () w = Neg (v)", 2},
      {"an initializer of the main graph", ", bool yes = {1}", "=> (bool yes, float[2] w)", "w = Neg (v)", 1},
      {"an initializer of the body", "", "=> (bool k, float[2] w) <bool k = {1}>", "w = Neg (v)", 1},
  };
  for (const Case& c : cases) {
    SCOPED_TRACE(c.what);
    std::string text = std::string(R"(<ir_version: 7, opset_import: ["" : 13]>
g (float[2] X) => (float[2] V) <int64 M = {3}, bool t = {1})") +
                       c.inits + "> {\n  [loop] V = Loop (M, t, X) <body = body (int64 i, bool c, float[2] v) " + c.signature +
                       " { " + c.nodes + " }>\n}";
    Model m = text::parse_model(text);
    NamedValues in{{"X", Value(random_floats({2}, 2))}};
    Tensor before = Interpreter(m).run(in).at("V").tensor;
    admit::ChangeLog log;
    ASSERT_TRUE(admit::unroll_loops(m, log));
    EXPECT_EQ(m.graph.nodes.size(), 3 * c.body_nodes);
    EXPECT_EQ(Interpreter(m).run(in).at("V").tensor, before);
  }
}

// A body computing its condition keeps the loop when an initial condition is given (the loop may
// stop early); without one the body's condition output is not read (a for loop): the loop runs M
// times whatever the body computes, and unrolls.
TEST(AdmitUnrollLoop, ABodyThatComputesItsConditionStaysUnlessNoConditionIsGiven) {
  const std::string text = R"(<ir_version: 7, opset_import: ["" : 13]>
g (float[2] X) => (float[2] V) <int64 M = {3}, bool t = {1}, int64 limit = {1}> {
  [loop] V = Loop (M, @COND@, X) <body = body (int64 i, bool c, float[2] v) => (bool k, float[2] w) {
    k = Less (i, limit)
    w = Neg (v)
  }>
})";
  auto with_condition = [&](const std::string& cond) {
    return text.substr(0, text.find("@COND@")) + cond + text.substr(text.find("@COND@") + 6);
  };
  Model conditioned = text::parse_model(with_condition("t"));
  admit::ChangeLog log;
  EXPECT_FALSE(admit::unroll_loops(conditioned, log));
  EXPECT_EQ(count_nodes(conditioned, "Loop"), 1u);
  std::string why = admit::control_flow_refusal(conditioned.graph, conditioned.graph.nodes[0]);
  EXPECT_TRUE(contains(why, "computes its condition `k`")) << why;
  EXPECT_TRUE(contains(why, "SONNX excludes control flow")) << why;

  Model uncond = text::parse_model(with_condition(""));
  NamedValues in{{"X", Value(random_floats({2}, 5))}};
  Tensor before = Interpreter(uncond).run(in).at("V").tensor;
  ASSERT_TRUE(admit::unroll_loops(uncond, log));
  EXPECT_EQ(count_nodes(uncond, "Neg"), 3u) << "three iterations, though k is false from the second on";
  EXPECT_TRUE(Interpreter(uncond).run(in).at("V").tensor == before);
  // The two loops differ: the conditioned one stops after iteration 1 (two negations), this one
  // negates three times.
  EXPECT_TRUE(Interpreter(conditioned).run(in).at("V").tensor == in.at("X").tensor);
  for (int k = 0; k < 2; ++k) EXPECT_EQ(before.data<float>()[k], -in.at("X").tensor.data<float>()[k]);
}

// With no iteration (M = 0, or an initial condition constant false) the loop-carried outputs are
// the initial values, copied; an empty scan output is refused.
TEST(AdmitUnrollLoop, NoIterationGivesTheInitialValuesAndAnEmptyScanIsRefused) {
  for (const char* start : {"int64 M = {0}, bool t = {1}", "int64 M = {5}, bool t = {0}"}) {
    SCOPED_TRACE(start);
    Model m = text::parse_model(std::string(R"(<ir_version: 7, opset_import: ["" : 13]>
g (float[2] X, float[3] Z) => (float[2] V, float[3] W) <)") +
                                start + R"(> {
  [loop] V, W = Loop (M, t, X, Z) <body = body (int64 i, bool c, float[2] v, float[3] z) => (bool c, float[2] a, float[3] b) {
    a = Neg (v)
    b = Sigmoid (z)
  }>
})");
    NamedValues in{{"X", Value(random_floats({2}, 3))}, {"Z", Value(random_floats({3}, 4))}};
    admit::ChangeLog log;
    ASSERT_TRUE(admit::unroll_loops(m, log));
    EXPECT_EQ(count_nodes(m, "Identity"), 2u);
    EXPECT_EQ(m.graph.nodes.size(), 2u);
    NamedValues after = Interpreter(m).run(in);
    EXPECT_EQ(after.at("V").tensor, in.at("X").tensor);
    EXPECT_EQ(after.at("W").tensor, in.at("Z").tensor);
  }

  Model scan = text::parse_model(R"(<ir_version: 7, opset_import: ["" : 13]>
g (float[2] X) => (float[2] V, float[0,2] S) <int64 M = {0}> {
  [loop] V, S = Loop (M, , X) <body = body (int64 i, bool c, float[2] v) => (bool c, float[2] w, float[2] s) {
    w = Neg (v)
    s = Relu (v)
  }>
})");
  admit::ChangeLog log;
  EXPECT_FALSE(admit::unroll_loops(scan, log));
  EXPECT_EQ(count_nodes(scan, "Loop"), 1u);
  std::string why = admit::control_flow_refusal(scan.graph, scan.graph.nodes[0]);
  EXPECT_TRUE(contains(why, "1 scan output and no iteration")) << why;
}

// M × (body nodes + scan outputs) up to 10,000 is unrolled; beyond, refused with M and the body size.
TEST(AdmitUnrollLoop, AtMostTenThousandNodesAreUnrolled) {
  const char* text = R"(<ir_version: 7, opset_import: ["" : 13]>
g (float[2] X) => (float[2] V) <int64 M = {@M@}> {
  [loop] V = Loop (M, , X) <body = body (int64 i, bool c, float[2] v) => (bool c, float[2] w) {
    a = Neg (v)
    b = Abs (a)
    d = Neg (b)
    w = Relu (d)
  }>
})";
  auto with_trips = [&](int64_t trips) {
    std::string t = text;
    t.replace(t.find("@M@"), 3, std::to_string(trips));
    return text::parse_model(t);
  };
  Model large = with_trips(2501);
  admit::ChangeLog log;
  EXPECT_FALSE(admit::unroll_loops(large, log));
  std::string why = admit::control_flow_refusal(large.graph, large.graph.nodes[0]);
  EXPECT_TRUE(contains(why, "M = 2501 iterations over a body of 4 nodes")) << why;
  EXPECT_TRUE(contains(why, "more than 10000 nodes")) << why;

  Model limit = with_trips(2500);
  ASSERT_TRUE(admit::unroll_loops(limit, log));
  EXPECT_EQ(limit.graph.nodes.size(), 10000u);
}

// ---- refusal reasons ----

TEST(AdmitControlFlowRefusal, ATripCountComputedFromInputsNamesEachWithFix) {
  Model m = text::parse_model(R"(<ir_version: 7, opset_import: ["" : 13]>
g (float[2] X, int64 a, int64 b) => (float[2] V) {
  n = Add (a, b)
  [loop] V = Loop (n, , X) <body = body (int64 i, bool c, float[2] v) => (bool c, float[2] w) { w = Neg (v) }>
})");
  std::string why = admit::control_flow_refusal(m.graph, m.graph.nodes[1]);
  EXPECT_TRUE(contains(why, "trip count is `n`, computed from inputs `a` and `b` that are not fixed")) << why;
  EXPECT_TRUE(contains(why, "--fix a=… --fix b=…")) << why;

  Node scan;
  scan.op_type = "Scan";
  EXPECT_EQ(admit::control_flow_refusal(m.graph, scan), "Scan is not unrolled by admit: SONNX excludes control flow");
  EXPECT_EQ(admit::control_flow_refusal(m.graph, m.graph.nodes[0]), "") << "Add is no control flow";
}

TEST(AdmitControlFlowRefusal, AnIfOnAnInputNotFixedNamesIt) {
  LoadedModel original = loaded_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[3] X, int64 sr) => (float[3] Y) <int64 k = {16000}> {
  c = Equal (sr, k)
  [choose] Y = If (c) <then_branch = t () => (float[3] y) { y = Relu (X) }, else_branch = e () => (float[3] y2) { y2 = Sigmoid (X) }>
})");
  admit::AdmitResult r = admit::admit_model(original, {});
  EXPECT_FALSE(r.admitted);
  std::string why = refusal_of(r, "choose");
  EXPECT_TRUE(contains(why, "If on `c`, computed from input `sr` that is not fixed")) << why;
  EXPECT_TRUE(contains(why, "--fix sr=")) << why;
  EXPECT_FALSE(contains(why, "no decomposition")) << why;
}

// ---- the whole admission ----

// v = v * 2 + (float(iteration) + b) carried from X, and the per-iteration difference scanned.
const char* kCarriedAndScanned = R"(<ir_version: 7, opset_import: ["" : @OPSET@]>
g (float[2,3] X, int64 M) => (float[2,3] V, float[3,2,3] S) <float[3] b = {0.5, -1, 0.25}> {
  [loop] V, S = Loop (M, , X) <body = body (int64 i, bool c, float[2,3] v) => (bool c_out, float[2,3] v_next, float[2,3] s) {
    c_out = Identity (c)
    two = Constant <value = float {2}> ()
    twice = Mul (v, two)
    fi = Cast <to = 1> (i)
    step = Add (fi, b)
    v_next = Add (twice, step)
    s = Sub (v_next, v)
  }>
})";

TEST(AdmitLoop, AFixedTripCountIsUnrolledAtOpsets11And13AndComputesTheSame) {
  for (int64_t opset : {11, 13}) {
    SCOPED_TRACE(opset);
    LoadedModel original = loaded_model(at_opset(kCarriedAndScanned, opset));
    admit::AdmitOptions o;
    o.fixes.values = {{"M", Tensor::scalar<int64_t>(3)}};
    admit::AdmitResult r = admit::admit_model(original, o);
    for (const std::string& why : r.reasons()) ADD_FAILURE() << why;
    ASSERT_TRUE(r.admitted);
    EXPECT_EQ(count_nodes(r.model, "Loop"), 0u);
    for (const std::string& e : profile_errors(r, original)) ADD_FAILURE() << e;
    for (const admit::ProofRun& run : r.runs) EXPECT_TRUE(run.equal) << run.inputs << ": " << run.detail;

    const Tensor M = Tensor::scalar<int64_t>(3);
    for (uint32_t seed : {5u, 6u, 7u}) {
      Tensor x = random_floats({2, 3}, seed);
      NamedValues before = Interpreter(original.ir).run({{"X", Value(x)}, {"M", Value(M)}});
      NamedValues after = Interpreter(r.model).run({{"X", Value(x)}});
      for (const char* y : {"V", "S"}) EXPECT_EQ(before.at(y).tensor, after.at(y).tensor) << y << " seed " << seed;
    }
    // By hand, from X = 0: v1 = b, v2 = 3b + 1, v3 = 7b + 4; the scan is b, 2b + 1, 4b + 3.
    NamedValues zero = Interpreter(r.model).run({{"X", Value(Tensor(DType::Float, {2, 3}))}});
    EXPECT_EQ(zero.at("V").tensor, Tensor::from_vector<float>({2, 3}, {7.5f, -3, 5.75f, 7.5f, -3, 5.75f}));
    EXPECT_EQ(zero.at("S").tensor, Tensor::from_vector<float>({3, 2, 3}, {0.5f, -1, 0.25f, 0.5f, -1, 0.25f, 2, -1, 1.5f, 2, -1,
                                                                          1.5f, 5, -1, 4, 5, -1, 4}));
  }
}

TEST(AdmitLoop, ATripCountInputNotFixedIsRefusedNamingIt) {
  admit::AdmitResult r = admit::admit_model(loaded_model(at_opset(kCarriedAndScanned, 13)), {});
  EXPECT_FALSE(r.admitted);
  std::string why = refusal_of(r, "loop");
  EXPECT_TRUE(contains(why, "Loop whose trip count is input `M` that is not fixed")) << why;
  EXPECT_TRUE(contains(why, "--fix M=")) << why;
  EXPECT_FALSE(contains(why, "no decomposition")) << why;
}

TEST(AdmitLoop, ABodyThatComputesItsConditionIsRefusedWithTheReason) {
  admit::AdmitOptions o;
  o.fixes.values = {{"n", Tensor::scalar<int64_t>(3)}};
  admit::AdmitResult r = admit::admit_model(loaded_model(R"(<ir_version: 7, opset_import: ["" : 13]>
g (float[2] X, int64 n) => (float[2] V) <bool t = {1}, int64 limit = {5}> {
  [loop] V = Loop (n, t, X) <body = body (int64 i, bool c, float[2] v) => (bool k, float[2] w) {
    k = Less (i, limit)
    w = Neg (v)
  }>
})"),
                                            o);
  EXPECT_FALSE(r.admitted);
  std::string why = refusal_of(r, "loop");
  EXPECT_TRUE(contains(why, "computes its condition `k` at each iteration")) << why;
}

TEST(AdmitLoop, ATripCountOfZeroGivesTheInitialValues) {
  LoadedModel original = loaded_model(R"(<ir_version: 7, opset_import: ["" : 13]>
g (float[2] X, int64 M) => (float[2] V) {
  [loop] V = Loop (M, , X) <body = body (int64 i, bool c, float[2] v) => (bool c, float[2] w) { w = Neg (v) }>
})");
  admit::AdmitOptions o;
  o.fixes.values = {{"M", Tensor::scalar<int64_t>(0)}};
  admit::AdmitResult r = admit::admit_model(original, o);
  for (const std::string& why : r.reasons()) ADD_FAILURE() << why;
  ASSERT_TRUE(r.admitted);
  EXPECT_EQ(count_nodes(r.model, "Loop"), 0u);
  Tensor x = random_floats({2}, 8);
  EXPECT_EQ(Interpreter(r.model).run({{"X", Value(x)}}).at("V").tensor, x);
}

// An If in the body on the iteration number: each copy's If reads its own iteration number,
// which folds, and is specialised in its turn.
TEST(AdmitLoop, AnIfOnTheIterationNumberIsSpecialisedInEachCopy) {
  LoadedModel original = loaded_model(R"(<ir_version: 8, opset_import: ["" : 13]>
g (float[2] X) => (float[2] V) <int64 M = {3}, int64 one = {1}> {
  [loop] V = Loop (M, , X) <body = body (int64 i, bool c, float[2] v) => (bool c, float[2] w) {
    second = Equal (i, one)
    w = If (second) <then_branch = t () => (float[2] a) { a = Neg (v) }, else_branch = e () => (float[2] r) { r = Sigmoid (v) }>
  }>
})");
  admit::AdmitResult r = admit::admit_model(original, {});
  for (const std::string& why : r.reasons()) ADD_FAILURE() << why;
  ASSERT_TRUE(r.admitted);
  EXPECT_EQ(count_nodes(r.model, "Loop"), 0u);
  EXPECT_EQ(count_nodes(r.model, "If"), 0u);
  EXPECT_EQ(count_nodes(r.model, "Neg"), 1u) << "iteration 1 only";
  EXPECT_EQ(count_nodes(r.model, "Sigmoid"), 2u);
  Tensor x = random_floats({2}, 9);
  EXPECT_EQ(Interpreter(r.model).run({{"X", Value(x)}}).at("V").tensor,
            Interpreter(original.ir).run({{"X", Value(x)}}).at("V").tensor);
}

}  // namespace
}  // namespace sonnx
