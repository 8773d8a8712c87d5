// Enclosures of the ai.onnx.preview.training optimizers Adagrad-1, Momentum-1 (standard and
// nesterov) and Adam-1 (enclose/enclose_training.cpp; spec/accuracy.md, "Admissible results").
// Expected values are the formulas of Operators.md evaluated through MPFR (2200 bits: the sums and
// products exact, the roots and powers far below a double's ulp). Checked for every output element:
// (a) the exact value lies in the real enclosure, (b) the reference's output in the admissible one,
// (c) admissible ⊇ real, (d) a value 2^-10 relative (about 8000 float ulps) off the reference lies
// outside.
#include <gtest/gtest.h>

#include <cmath>
#include <random>
#include <string>
#include <vector>

#include "enclose_test_util.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_float;
using sonnx::testing::attr_string;
using sonnx::testing::vi;

// One optimizer node over R, T and the tensor inputs `tensors` (X, G, then V and/or H), its outputs
// out0.. (X_new, then the new states), in a model importing ai.onnx at 18 and the training domain at 1.
struct TrainingCase {
  OneNodeModel m;
  std::vector<std::string> outs;
};
TrainingCase training_case(const std::string& op, float r, int64_t t, const std::vector<std::vector<float>>& tensors,
                           const std::vector<onnx::AttributeProto>& attrs) {
  NamedValues feed;
  feed["R"] = Value(Tensor::from_vector<float>({}, {r}));
  feed["T"] = Value(Tensor::from_vector<int64_t>({}, {t}));
  std::vector<std::string> ins{"R", "T"}, outs;
  for (size_t k = 0; k < tensors.size(); ++k) {
    std::string name = "in" + std::to_string(k);
    feed[name] = Value(Tensor::from_vector<float>({static_cast<int64_t>(tensors[k].size())}, tensors[k]));
    ins.push_back(name);
    outs.push_back("out" + std::to_string(k));
  }
  outs.pop_back();  // X and G give X_new; each state its new value
  std::vector<onnx::ValueInfoProto> in_vi, out_vi;
  for (const auto& [name, v] : feed) in_vi.push_back(vi(name));
  for (const auto& name : outs) out_vi.push_back(vi(name));
  onnx::NodeProto n = sonnx::testing::node(op, ins, outs, attrs, "ai.onnx.preview.training");
  n.set_name("optimizer");
  return {{model_of(sonnx::testing::graph("g", {n}, in_vi, out_vi), 18, {{"ai.onnx.preview.training", 1}}), std::move(feed)},
          outs};
}

double training_far_from(double v) { return v + std::ldexp(1.0, std::ilogb(v == 0 ? 1.0 : v) - 10); }

// (a)–(d) for output k, whose exact values are `exact`.
void expect_training_output(const TrainingCase& tc, size_t k, const std::vector<Real>& exact) {
  const std::string& name = tc.outs[k];
  Bounds real = enclose_model(tc.m.model, tc.m.feed, Semantics::Real).at(name);
  Bounds admissible = enclose_model(tc.m.model, tc.m.feed, Semantics::Admissible).at(name);
  Tensor ref = Interpreter(tc.m.model).run(tc.m.feed).at(name).tensor;
  ASSERT_EQ(ref.size(), static_cast<int64_t>(exact.size()));
  ASSERT_EQ(admissible.lo.shape(), ref.shape());
  for (int64_t i = 0; i < ref.size(); ++i) {
    Interval r = bound_at(real, i), a = bound_at(admissible, i);
    double v = ref.as_double(i);
    EXPECT_TRUE(exact[static_cast<size_t>(i)].inside(r)) << name << "[" << i << "]: [" << r.lo << ", " << r.hi << "]";
    EXPECT_TRUE(a.contains(v)) << name << "[" << i << "]: " << v << " outside [" << a.lo << ", " << a.hi << "]";
    EXPECT_TRUE(a.lo <= r.lo && r.hi <= a.hi)
        << name << "[" << i << "]: [" << a.lo << ", " << a.hi << "] ⊉ [" << r.lo << ", " << r.hi << "]";
    EXPECT_FALSE(a.contains(training_far_from(v))) << name << "[" << i << "]";
  }
}

double f(float x) { return static_cast<double>(x); }

void check_adagrad(float r, int64_t t, float decay, float eps, float norm, const std::vector<float>& x,
                   const std::vector<float>& g, const std::vector<float>& h) {
  TrainingCase tc = training_case("Adagrad", r, t, {x, g, h},
                                  {attr_float("decay_factor", decay), attr_float("epsilon", eps),
                                   attr_float("norm_coefficient", norm)});
  std::vector<Real> x_new, h_new;
  Real rate = Real(f(r)) / (Real(1) + Real(static_cast<double>(t)) * Real(f(decay)));
  for (size_t i = 0; i < x.size(); ++i) {
    Real g_reg = Real(f(norm)) * Real(f(x[i])) + Real(f(g[i]));
    Real hn = Real(f(h[i])) + g_reg * g_reg;
    h_new.push_back(hn);
    x_new.push_back(Real(f(x[i])) - rate * g_reg / (hn.sqrt() + Real(f(eps))));
  }
  expect_training_output(tc, 0, x_new);
  expect_training_output(tc, 1, h_new);
}

void check_momentum(float r, int64_t t, float alpha, float beta, float norm, bool nesterov, const std::vector<float>& x,
                    const std::vector<float>& g, const std::vector<float>& v) {
  TrainingCase tc = training_case("Momentum", r, t, {x, g, v},
                                  {attr_float("alpha", alpha), attr_float("beta", beta), attr_float("norm_coefficient", norm),
                                   attr_string("mode", nesterov ? "nesterov" : "standard")});
  std::vector<Real> x_new, v_new;
  Real b = t > 0 ? Real(f(beta)) : Real(1);
  for (size_t i = 0; i < x.size(); ++i) {
    Real g_reg = Real(f(norm)) * Real(f(x[i])) + Real(f(g[i]));
    Real vn = Real(f(alpha)) * Real(f(v[i])) + b * g_reg;
    v_new.push_back(vn);
    x_new.push_back(Real(f(x[i])) - Real(f(r)) * (nesterov ? g_reg + Real(f(alpha)) * vn : vn));
  }
  expect_training_output(tc, 0, x_new);
  expect_training_output(tc, 1, v_new);
}

void check_adam(float r, int64_t t, float alpha, float beta, float eps, float norm, float norm_post, const std::vector<float>& x,
                const std::vector<float>& g, const std::vector<float>& v, const std::vector<float>& h) {
  TrainingCase tc = training_case("Adam", r, t, {x, g, v, h},
                                  {attr_float("alpha", alpha), attr_float("beta", beta), attr_float("epsilon", eps),
                                   attr_float("norm_coefficient", norm), attr_float("norm_coefficient_post", norm_post)});
  std::vector<Real> x_new, v_new, h_new;
  Real a(f(alpha)), b(f(beta));
  Real r_adj = t > 0 ? Real(f(r)) * (Real(1) - b.pow(t)).sqrt() / (Real(1) - a.pow(t)) : Real(f(r));
  for (size_t i = 0; i < x.size(); ++i) {
    Real g_reg = Real(f(norm)) * Real(f(x[i])) + Real(f(g[i]));
    Real vn = a * Real(f(v[i])) + (Real(1) - a) * g_reg;
    Real hn = b * Real(f(h[i])) + (Real(1) - b) * g_reg * g_reg;
    v_new.push_back(vn);
    h_new.push_back(hn);
    x_new.push_back((Real(1) - Real(f(norm_post))) * (Real(f(x[i])) - r_adj * vn / (hn.sqrt() + Real(f(eps)))));
  }
  expect_training_output(tc, 0, x_new);
  expect_training_output(tc, 1, v_new);
  expect_training_output(tc, 2, h_new);
}

TEST(EncloseTraining, AdagradRandomAndEdges) {
  std::mt19937 rng(71);
  for (int trial = 0; trial < 4; ++trial) {
    std::vector<float> x = uniform_floats(6, rng, -1, 1), g = uniform_floats(6, rng, -1, 1), h = uniform_floats(6, rng, 0.1f, 2);
    check_adagrad(0.1f, trial * 3, 0.01f * static_cast<float>(trial), 1e-6f, trial % 2 ? 0.001f : 0.f, x, g, h);
  }
  // A zero gradient: the step is 0, X stays; with a zero history too, √(0 + 0·0) = 0 exactly.
  check_adagrad(0.5f, 0, 0.f, 1e-6f, 0.f, {1.5f, -2.f}, {0.f, 0.f}, {0.25f, 1.f});
  check_adagrad(0.5f, 0, 0.f, 1e-6f, 0.f, {1.5f, -2.f}, {0.f, 0.f}, {0.f, 0.f});
}

TEST(EncloseTraining, MomentumStandardAndNesterov) {
  std::mt19937 rng(72);
  for (bool nesterov : {false, true})
    for (int64_t t : {0, 1, 7}) {
      std::vector<float> x = uniform_floats(5, rng, -2, 2), g = uniform_floats(5, rng, -1, 1),
                         v = uniform_floats(5, rng, -0.5f, 0.5f);
      check_momentum(0.01f, t, 0.9f, 0.95f, t == 7 ? 0.01f : 0.f, nesterov, x, g, v);
    }
}

TEST(EncloseTraining, AdamRandomAndFirstStep) {
  std::mt19937 rng(73);
  for (int64_t t : {0, 1, 5, 100}) {
    std::vector<float> x = uniform_floats(6, rng, 0.5f, 2), g = uniform_floats(6, rng, -1, 1),
                       v = uniform_floats(6, rng, -0.1f, 0.1f), h = uniform_floats(6, rng, 0.5f, 1);
    check_adam(0.01f, t, 0.9f, 0.999f, 1e-6f, t == 5 ? 0.01f : 0.f, t == 100 ? 0.001f : 0.f, x, g, v, h);
  }
}

TEST(EncloseTraining, TwoOptimizedTensors) {
  // Momentum over X_1 (2 elements) and X_2 (3): each block enclosed on its own.
  NamedValues feed;
  feed["R"] = Value(Tensor::from_vector<float>({}, {0.1f}));
  feed["T"] = Value(Tensor::from_vector<int64_t>({}, {2}));
  feed["x1"] = floats({2}, {1.f, -1.f});
  feed["x2"] = floats({3}, {0.5f, 0.25f, 2.f});
  feed["g1"] = floats({2}, {0.5f, 0.125f});
  feed["g2"] = floats({3}, {-1.f, 0.f, 4.f});
  feed["v1"] = floats({2}, {0.f, 1.f});
  feed["v2"] = floats({3}, {2.f, -2.f, 0.5f});
  std::vector<onnx::ValueInfoProto> in_vi, out_vi;
  for (const auto& [name, v] : feed) in_vi.push_back(vi(name));
  for (const char* name : {"y1", "y2", "w1", "w2"}) out_vi.push_back(vi(name));
  onnx::NodeProto n = sonnx::testing::node("Momentum", {"R", "T", "x1", "x2", "g1", "g2", "v1", "v2"}, {"y1", "y2", "w1", "w2"},
                                           {attr_float("alpha", 0.5f), attr_float("beta", 0.25f),
                                            attr_float("norm_coefficient", 0.f), attr_string("mode", "standard")},
                                           "ai.onnx.preview.training");
  Model m = model_of(sonnx::testing::graph("g", {n}, in_vi, out_vi), 18, {{"ai.onnx.preview.training", 1}});
  auto real = enclose_model(m, feed, Semantics::Real);
  // Every value here is a short dyadic: V_new = 0.5·V + 0.25·G and X − 0.1·V_new, by hand.
  // v1 = (0.125, 0.53125); v2 = (0.75, -1, 1.25).
  const std::vector<double> w1{0.125, 0.53125}, w2{0.75, -1, 1.25};
  for (size_t i = 0; i < 2; ++i) EXPECT_TRUE(bound_at(real.at("w1"), static_cast<int64_t>(i)).contains(w1[i]));
  for (size_t i = 0; i < 3; ++i) EXPECT_TRUE(bound_at(real.at("w2"), static_cast<int64_t>(i)).contains(w2[i]));
  Real y1 = Real(1) - Real(f(0.1f)) * Real(0.125);
  EXPECT_TRUE(y1.inside(bound_at(real.at("y1"), 0)));
  Real y2 = Real(2) - Real(f(0.1f)) * Real(1.25);
  EXPECT_TRUE(y2.inside(bound_at(real.at("y2"), 2)));
  EXPECT_EQ(real.at("y2").lo.shape(), (Shape{3}));
}

}  // namespace
}  // namespace sonnx::enclose
