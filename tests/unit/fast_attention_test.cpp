// Scaled dot-product attention run as one step (optimized/plan/fusion_attention.cpp,
// optimized/kernels/attention.cpp) against the reference interpreter running the nodes: both scale
// placements, Div and Mul, one and two batch dims, row counts that are not a multiple of the
// kernel's block of rows, several threads; what is not fused (an intermediate with another reader)
// or runs unfused at run time (batch dims that broadcast, a softmax over another axis); and NaN and
// infinities, which must come out where the reference puts them.
#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <random>

#include "optimized/exec/make_executor.h"
#include "optimized/plan/compiled_model.h"
#include "reference/interp/interpreter.h"
#include "tensor_test_util.h"

namespace sonnx::testing {
namespace {

constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
constexpr float kInf = std::numeric_limits<float>::infinity();

// Where the model scales, and how.
enum class Scale { None, DivQ, MulQ, DivS, MulS };
const Scale kScales[] = {Scale::None, Scale::DivQ, Scale::MulQ, Scale::DivS, Scale::MulS};
const char* scale_name(Scale s) {
  const char* names[] = {"no scale", "Div on Q", "Mul on Q", "Div on S", "Mul on S"};
  return names[static_cast<int>(s)];
}
bool on_q(Scale s) { return s == Scale::DivQ || s == Scale::MulQ; }
bool divides(Scale s) { return s == Scale::DivQ || s == Scale::DivS; }

struct Shapes {
  Shape q, kt, v;  // [B.., M, D], [B.., D, N], [B.., N, Dv]
};

// Q, Kt, V graph inputs → [scale] → MatMul → [scale] → Softmax → MatMul → O, as torchvision's
// vision transformer exports it (the scale a Constant node holding a 0-D float).
struct AttentionModel {
  Model m;
  Shapes shapes;
  Scale scale;
  float c;
  AttentionModel(const Shapes& s, Scale sc, float cv = 8.0f, int64_t opset = 13, std::vector<Attribute> softmax_attrs = {})
      : shapes(s), scale(sc), c(cv) {
    m = testing::empty_model(opset);
    m.graph.inputs.push_back({"Q", float_type(s.q)});
    m.graph.inputs.push_back({"Kt", float_type(s.kt)});
    m.graph.inputs.push_back({"V", float_type(s.v)});
    if (sc != Scale::None) {
      Attribute a;
      a.name = "value";
      a.type = Attribute::Type::Tensor;
      a.t = Tensor::scalar<float>(cv);
      node("Constant", {}, "c", {a});
    }
    std::string q = "Q";
    if (on_q(sc))
      q = node(divides(sc) ? "Div" : "Mul",
               sc == Scale::MulQ ? std::vector<std::string>{"c", "Q"} : std::vector<std::string>{"Q", "c"}, "Qs");
    std::string scores = node("MatMul", {q, "Kt"}, "S");
    if (sc == Scale::DivS || sc == Scale::MulS) scores = node(divides(sc) ? "Div" : "Mul", {scores, "c"}, "Ss");
    if (softmax_attrs.empty() && opset >= 13) softmax_attrs.push_back(axis_attr(-1));
    node("MatMul", {node("Softmax", {scores}, "P", softmax_attrs), "V"}, "O");
    Shape o = s.q;
    o.back() = s.v.back();
    m.graph.outputs.push_back({"O", float_type(o)});
  }
  static Attribute axis_attr(int64_t axis) {
    Attribute a;
    a.name = "axis";
    a.type = Attribute::Type::Int;
    a.i = axis;
    return a;
  }
  std::string node(const std::string& op, std::vector<std::string> in, const std::string& out,
                   std::vector<Attribute> attrs = {}) {
    testing::add_node(m.graph, testing::ir_node(op, std::move(in), {out}, std::move(attrs)));
    return out;
  }
  NamedValues inputs(unsigned seed) const {
    std::mt19937 rng(seed);
    NamedValues in;
    in["Q"] = Value(random_float_tensor(shapes.q, rng, -1, 1));
    in["Kt"] = Value(random_float_tensor(shapes.kt, rng, -1, 1));
    in["V"] = Value(random_float_tensor(shapes.v, rng, -1, 1));
    return in;
  }
};

// The steps run on the fused kernel in the executor's last run.
int attention_steps(const OptimizedExecutor& e) {
  auto it = e.kernels_run().find("fast:attention");
  return it == e.kernels_run().end() ? 0 : it->second;
}

// How far the fused result may be from the reference's. The fused step rounds differently from
// the reference in its two products only (its scale is the Div/Mul node's float operation; its
// softmax is the fast Softmax kernel's, within 1 ULP of the reference's). With u = 2^-24 and
// γ_n = n·u / (1 − n·u), a float dot product of n terms is within γ_n·Σ|terms| of the exact one in
// any order of summation (with or without FMA), and the reference, which sums in double, is within
// u of the exact value once rounded to float. So, for row i of a batch:
//  - a score differs by at most Δ_i = (γ_D·max_j Σ_d |Qs_id·Kt_dj| + 2u·max_j |S_ij|)·σ + 2u·max_j |S'_ij|,
//    σ the factor a scale on S applies (1/|c| or |c|) and S' the scaled scores (each side rounds
//    that scale once); Qs is the same on both sides (the same float operation);
//  - a softmax value, whose logarithm moves by at most 2Δ_i when each score moves by at most Δ_i,
//    differs by a relative e^{2Δ_i} − 1, plus 3 ULP for the two roundings and the polynomial exp:
//    ε_i = e^{2Δ_i} − 1 + 3u;
//  - an output Σ_j P_ij·V_jk, with Σ_j P_ij = 1, then differs by at most
//    (ε_i + γ_N·(1 + ε_i))·max_j |V_jk| + u·|O_ik|.
// A worst case: at vit's sizes it is 7e-5 to 2e-4, and the differences seen are 1-3% of it (below
// 2e-6). Dropping the scale, taking it twice, a softmax over the wrong axis or a block of rows put
// in the wrong place all move outputs by far more.
struct Bound {
  int64_t M, D, N, Dv;
  std::vector<double> eps;    // per (batch, row)
  std::vector<double> max_v;  // per (batch, column)
  Bound(const AttentionModel& a, const NamedValues& in) {
    const Shapes& s = a.shapes;
    M = s.q.end()[-2], D = s.q.back(), N = s.kt.back(), Dv = s.v.back();
    const Tensor& tq = in.at("Q").tensor;
    const Tensor& tk = in.at("Kt").tensor;
    const Tensor& tv = in.at("V").tensor;
    int64_t batches = M > 0 && D > 0 ? tq.size() / (M * D) : 0, k_batches = D > 0 && N > 0 ? tk.size() / (D * N) : 1;
    constexpr double u = 0x1p-24;
    double qscale = on_q(a.scale) ? (divides(a.scale) ? 1 / std::fabs(a.c) : std::fabs(a.c)) : 1.0;
    double sigma = a.scale == Scale::DivS ? 1 / std::fabs(a.c) : a.scale == Scale::MulS ? std::fabs(a.c) : 1.0;
    for (int64_t b = 0; b < batches; ++b) {
      const float* kt = tk.data<float>() + (b % k_batches) * D * N;  // K's batch dims may broadcast (leading 1s)
      for (int64_t i = 0; i < M; ++i) {
        const float* q = tq.data<float>() + (b * M + i) * D;
        double abs_sum = 0, max_s = 0;
        for (int64_t j = 0; j < N; ++j) {
          double sum = 0, dot = 0;
          for (int64_t d = 0; d < D; ++d) {
            double t = q[d] * qscale * kt[d * N + j];
            sum += std::fabs(t) * (1 + 2 * u);  // Qs is within u of q·qscale
            dot += t;
          }
          abs_sum = std::max(abs_sum, sum);
          max_s = std::max(max_s, std::fabs(dot) + sum * 2 * u);
        }
        double delta = (gamma(D) * abs_sum + 2 * u * max_s) * sigma + 2 * u * max_s * sigma * (1 + u);
        eps.push_back(std::expm1(2 * delta) + 3 * u);
      }
      const float* v = tv.data<float>() + b * N * Dv;
      for (int64_t k = 0; k < Dv; ++k) {
        double m = 0;
        for (int64_t j = 0; j < N; ++j) m = std::max(m, static_cast<double>(std::fabs(v[j * Dv + k])));
        max_v.push_back(m);
      }
    }
  }
  static double gamma(int64_t n) {
    constexpr double u = 0x1p-24;
    return static_cast<double>(n) * u / (1 - static_cast<double>(n) * u);
  }
  double at(int64_t b, int64_t i, int64_t k, double o) const {
    double e = eps[static_cast<size_t>(b * M + i)];
    return (e + gamma(N) * (1 + e)) * max_v[static_cast<size_t>(b * Dv + k)] + 0x1p-24 * std::fabs(o);
  }
};

// Runs the model on `executor` and compares with the reference element by element within Bound;
// returns the steps the fused kernel ran.
int run_and_compare(const AttentionModel& a, const std::string& executor, int threads, unsigned seed, const std::string& what) {
  NamedValues in = a.inputs(seed);
  NamedValues want = Interpreter(a.m).run(in);
  Bound bound(a, in);
  ExecutorOptions o;
  o.threads = threads;
  auto exec = make_optimized_executor(a.m, executor, o);
  for (int run = 0; run < 2; ++run) {  // the planning run, then in the arena
    NamedValues got = exec->run(in);
    const Tensor& g = got.at("O").tensor;
    const Tensor& w = want.at("O").tensor;
    EXPECT_EQ(g.shape(), w.shape()) << what;
    if (g.shape() != w.shape()) return 0;
    int64_t M = bound.M, Dv = bound.Dv, batches = M > 0 && Dv > 0 ? w.size() / (M * Dv) : 0;
    for (int64_t b = 0; b < batches; ++b)
      for (int64_t i = 0; i < M; ++i)
        for (int64_t k = 0; k < Dv; ++k) {
          int64_t at = (b * M + i) * Dv + k;
          double diff = std::fabs(static_cast<double>(g.data<float>()[at]) - w.data<float>()[at]);
          double tol = bound.at(b, i, k, w.data<float>()[at]);
          if (!(diff <= tol)) {
            ADD_FAILURE() << what << " run " << run << ": O[" << b << ", " << i << ", " << k << "] = " << g.data<float>()[at]
                          << ", the reference " << w.data<float>()[at] << ", bound " << tol;
            return attention_steps(*exec);
          }
        }
  }
  return attention_steps(*exec);
}

// The kernel takes at most 100 rows of Q at a time, in blocks of equal size but for one row.
const Shapes kVit{{12, 197, 64}, {12, 64, 197}, {12, 197, 64}};  // vit_b_16's heads: blocks of 98 and 99 rows
const Shapes kTwoBatchDims{{1, 4, 33, 16}, {1, 4, 16, 29}, {1, 4, 29, 24}};
const Shapes kOddRows{{2, 3, 251, 8}, {2, 3, 8, 70}, {2, 3, 70, 5}};  // blocks of 83, 84 and 84 rows

TEST(FastAttention, MatchesTheReferenceForEveryScalePlacement) {
  for (const Shapes& s : {kVit, kTwoBatchDims, kOddRows})
    for (Scale sc : kScales) {
      // A scale that is not a power of two, so its rounding shows; vit's is 8 (√64).
      AttentionModel a(s, sc, sc == Scale::MulQ || sc == Scale::MulS ? 0.3f : 2.7f);
      std::string what = shape_str(s.q) + " " + scale_name(sc);
      EXPECT_EQ(run_and_compare(a, "linear", 1, 1, what), 1) << what << ": not run as one fused step";
    }
}

TEST(FastAttention, ScalesWithTheExecutorsThreads) {
  for (int threads : {2, 3}) {
    AttentionModel a(kOddRows, Scale::DivQ);
    EXPECT_EQ(run_and_compare(a, "linear", threads, 2, std::to_string(threads) + " threads"), 1);
  }
  AttentionModel b(kTwoBatchDims, Scale::MulS, 0.25f);
  EXPECT_EQ(run_and_compare(b, "dataflow", 2, 3, "dataflow"), 1);
  // One batch index of 100 rows: cut into three blocks (33, 33, 34 rows) rather than two so that
  // three threads have one each.
  AttentionModel c({{1, 100, 8}, {1, 8, 50}, {1, 50, 3}}, Scale::None);
  EXPECT_EQ(run_and_compare(c, "linear", 3, 4, "one batch index, 3 threads"), 1);
}

// Two attention steps that may run at once on the parallel executor's workers: the kernel is
// shared by no two steps, but each runs its tasks on its own scratch; repeated runs agree bitwise.
TEST(FastAttention, TwoStepsAtOnceOnTheParallelExecutor) {
  AttentionModel a(kTwoBatchDims, Scale::DivQ);
  a.m.graph.inputs.push_back({"Q2", float_type(kTwoBatchDims.q)});
  a.node("Div", {"Q2", "c"}, "Q2s");
  a.node("MatMul", {"Q2s", "Kt"}, "S2");
  a.node("Softmax", {"S2"}, "P2", {AttentionModel::axis_attr(3)});
  a.node("MatMul", {"P2", "V"}, "O2");
  a.m.graph.outputs.push_back({"O2", a.m.graph.outputs[0].type});
  NamedValues in = a.inputs(4);
  in["Q2"] = Value(in.at("Q").tensor);
  ExecutorOptions o;
  o.threads = 2;
  auto exec = make_optimized_executor(a.m, "parallel", o);
  NamedValues first = exec->run(in);
  EXPECT_EQ(attention_steps(*exec), 2);
  EXPECT_TRUE(first.at("O") == first.at("O2"));  // the same inputs through the two steps
  for (int r = 0; r < 10; ++r) ASSERT_TRUE(exec->run(in) == first) << "run " << r;
}

// The Softmax versions before 13 coerce their input to 2-D at `axis` (default 1): that is the
// last axis alone only when axis is the last.
TEST(FastAttention, SoftmaxBefore13FusesOnlyOverTheLastAxis) {
  Shapes two_d{{37, 16}, {16, 21}, {21, 9}};
  struct Case {
    Shapes s;
    std::vector<Attribute> attrs;
    int fused;
  };
  for (const Case& c : {Case{kOddRows, {AttentionModel::axis_attr(3)}, 1}, Case{kOddRows, {AttentionModel::axis_attr(-1)}, 1},
                        Case{kOddRows, {}, 0}, Case{kOddRows, {AttentionModel::axis_attr(2)}, 0}, Case{two_d, {}, 1}}) {
    AttentionModel a(c.s, Scale::DivS, 2.7f, 11, c.attrs);
    std::string what = "opset 11 " + shape_str(c.s.q) + " axis " + (c.attrs.empty() ? "default" : std::to_string(c.attrs[0].i));
    EXPECT_EQ(run_and_compare(a, "linear", 1, 5, what), c.fused) << what;
  }
}

TEST(FastAttention, RunsTheNodesWhenTheKernelDoesNotApply) {
  // Softmax over another axis than the last.
  AttentionModel other_axis(kOddRows, Scale::DivQ, 2.7f, 13, {AttentionModel::axis_attr(2)});
  EXPECT_EQ(run_and_compare(other_axis, "linear", 1, 6, "softmax axis 2"), 0);
  // K's batch dims broadcast against Q's.
  AttentionModel broadcast({{2, 3, 20, 8}, {1, 3, 8, 11}, {2, 3, 11, 4}}, Scale::MulS, 0.3f);
  EXPECT_EQ(run_and_compare(broadcast, "linear", 1, 7, "broadcast K"), 0);
}

// An intermediate (S, the scaled S, P) that is also a graph output keeps the group from fusing.
TEST(FastAttention, NotFusedWhenAnIntermediateHasAnotherReader) {
  struct Case {
    Scale scale;
    const char* name;
  };
  for (const Case& c : {Case{Scale::DivQ, "S"}, Case{Scale::MulS, "S"}, Case{Scale::MulS, "Ss"}, Case{Scale::None, "P"}}) {
    AttentionModel a(kTwoBatchDims, c.scale, 0.3f);
    a.m.graph.outputs.push_back({c.name, TypeInfo{}});
    CompiledModel cm(a.m);
    for (const Step& step : cm.root().steps()) EXPECT_FALSE(step.fast && step.fast->name() == "fast:attention") << c.name;
    NamedValues in = a.inputs(8);
    NamedValues want = Interpreter(a.m).run(in);
    auto exec = make_optimized_executor(a.m, "linear");
    NamedValues got = exec->run(in);
    EXPECT_EQ(attention_steps(*exec), 0) << c.name;
    EXPECT_EQ(got.at(c.name).tensor.shape(), want.at(c.name).tensor.shape()) << c.name;
  }
  // Qs read elsewhere too: the Div stays out, MatMul → Softmax → MatMul still runs as one step.
  {
    AttentionModel a(kTwoBatchDims, Scale::DivQ);
    a.m.graph.outputs.push_back({"Qs", TypeInfo{}});
    CompiledModel cm(a.m);
    for (const Step& step : cm.root().steps()) {
      if (step.fast && step.fast->name() == "fast:attention") {
        EXPECT_EQ(step.node->op_type, "MatMul");
      }
    }
    EXPECT_EQ(run_and_compare(a, "linear", 1, 8, "Qs an output"), 1);
  }
  // A second node reading P (not a graph output).
  AttentionModel a(kTwoBatchDims, Scale::None);
  a.node("Relu", {"P"}, "R");
  a.m.graph.outputs.push_back({"R", TypeInfo{}});
  auto exec = make_optimized_executor(a.m, "linear");
  exec->run(a.inputs(9));
  EXPECT_EQ(attention_steps(*exec), 0);
}

// NaN and ±inf in Q (and one inf in V): the block holding them is computed as the reference
// computes the nodes, so every NaN and infinity is where the reference has it.
TEST(FastAttention, NonFiniteInputsGiveTheReferencesNaNAndInfinities) {
  for (Scale sc : {Scale::DivQ, Scale::MulS, Scale::None}) {
    AttentionModel a(kOddRows, sc, 2.7f);
    NamedValues in = a.inputs(10);
    float* q = in.at("Q").tensor.data<float>();
    int64_t D = kOddRows.q.back();
    q[5 * D + 3] = kNaN;     // row 5: NaN scores, a NaN output row
    q[70 * D + 1] = kInf;    // row 70: ±inf scores
    q[100 * D + 0] = -kInf;  // row 100
    float* v = in.at("V").tensor.data<float>();
    v[(1 * 70 + 12) * 5 + 2] = kInf;  // batch 1 (of 6), key 12, column 2: an infinite or NaN column
    NamedValues want = Interpreter(a.m).run(in);
    auto exec = make_optimized_executor(a.m, "linear");
    NamedValues got = exec->run(in);
    EXPECT_EQ(attention_steps(*exec), 1) << scale_name(sc);
    const Tensor& g = got.at("O").tensor;
    const Tensor& w = want.at("O").tensor;
    ASSERT_EQ(g.shape(), w.shape());
    int64_t specials = 0;
    for (int64_t i = 0; i < w.size(); ++i) {
      float x = g.data<float>()[i], e = w.data<float>()[i];
      if (std::isfinite(e)) {
        ASSERT_TRUE(std::isfinite(x)) << scale_name(sc) << " element " << i << ": " << x << ", the reference " << e;
        continue;
      }
      ++specials;
      ASSERT_TRUE(std::isnan(e) ? std::isnan(x) : x == e)
          << scale_name(sc) << " element " << i << ": " << x << ", the reference " << e;
    }
    EXPECT_GE(specials, 3 * 5 + kOddRows.q[2]) << "the planted values did not reach the output";
  }
}

}  // namespace
}  // namespace sonnx::testing
