// What the enclosure tests (enclose*_test.cpp) share: exact reals through MPFR, the spacing of
// floats, random float inputs, widths in double ulps, and one-node models run through both the
// encloser and the reference interpreter.
#pragma once
#include <gtest/gtest.h>
#include <mpfr.h>

#include <algorithm>
#include <cmath>
#include <map>
#include <random>
#include <string>
#include <vector>

#include "op_test_util.h"
#include "enclose/encloser.h"
#include "enclose/interval.h"
#include "reference/interp/interpreter.h"
#include "reference/model/loader.h"

namespace sonnx::enclose {

// A real number held exactly (2200 bits hold any sum of a few thousand products of doubles), or at
// `bits` for the value of an elementary function.
class Exact {
 public:
  explicit Exact(double x = 0, mpfr_prec_t bits = 2200) {
    mpfr_init2(v_, bits);
    mpfr_set_d(v_, x, MPFR_RNDN);
  }
  Exact(const Exact&) = delete;
  ~Exact() { mpfr_clear(v_); }
  mpfr_ptr get() { return v_; }
  void add_product(double a, double b) {
    Exact p(a);
    mpfr_mul_d(p.get(), p.get(), b, MPFR_RNDN);  // exact at 2200 bits
    mpfr_add(v_, v_, p.get(), MPFR_RNDN);
  }
  bool inside(Interval i) const { return mpfr_cmp_d(v_, i.lo) >= 0 && mpfr_cmp_d(v_, i.hi) <= 0; }

 private:
  mpfr_t v_;
};

// A real number with value semantics, every value of the type (a default 0, one converted from a
// double, each result) at `Bits` bits: 2200 (Real) hold any sum of a few thousand products of
// doubles exactly; a test that needs another precision (its comments say why) names it: Real256,
// RealAt<200>, … Implicit from a double, exactly (Bits ≥ 53), so that formulas read as written;
// each operation rounds to nearest. Different precisions do not mix.
template <mpfr_prec_t Bits>
class RealAt {
  static_assert(Bits >= 53, "a double converts exactly");

 public:
  RealAt(double x = 0) {  // NOLINT(google-explicit-constructor): implicit on purpose
    mpfr_init2(v_, Bits);
    mpfr_set_d(v_, x, MPFR_RNDN);
  }
  RealAt(const RealAt& o) {
    mpfr_init2(v_, Bits);
    mpfr_set(v_, o.v_, MPFR_RNDN);
  }
  RealAt& operator=(const RealAt& o) {
    mpfr_set(v_, o.v_, MPFR_RNDN);
    return *this;
  }
  ~RealAt() { mpfr_clear(v_); }

  // For a direct MPFR call.
  mpfr_ptr get() { return v_; }
  mpfr_srcptr get() const { return v_; }

  friend RealAt operator+(const RealAt& a, const RealAt& b) { return a.binary(mpfr_add, b); }
  friend RealAt operator-(const RealAt& a, const RealAt& b) { return a.binary(mpfr_sub, b); }
  friend RealAt operator*(const RealAt& a, const RealAt& b) { return a.binary(mpfr_mul, b); }
  friend RealAt operator/(const RealAt& a, const RealAt& b) { return a.binary(mpfr_div, b); }
  RealAt operator-() const { return apply(mpfr_neg); }
  friend bool operator<(const RealAt& a, const RealAt& b) { return mpfr_less_p(a.v_, b.v_) != 0; }
  friend bool operator<=(const RealAt& a, const RealAt& b) { return mpfr_lessequal_p(a.v_, b.v_) != 0; }
  friend bool operator>(const RealAt& a, const RealAt& b) { return mpfr_greater_p(a.v_, b.v_) != 0; }
  friend bool operator>=(const RealAt& a, const RealAt& b) { return mpfr_greaterequal_p(a.v_, b.v_) != 0; }

  // f of this value, for an MPFR function of one argument (mpfr_expm1, mpfr_log1p, …).
  RealAt apply(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_rnd_t)) const {
    RealAt r;
    f(r.v_, v_, MPFR_RNDN);
    return r;
  }
  RealAt sqrt() const { return apply(mpfr_sqrt); }
  RealAt exp() const { return apply(mpfr_exp); }
  RealAt log() const { return apply(mpfr_log); }
  RealAt erf() const { return apply(mpfr_erf); }
  RealAt tanh() const { return apply(mpfr_tanh); }
  RealAt abs() const { return apply(mpfr_abs); }
  RealAt pow(long n) const {
    RealAt r;
    mpfr_pow_si(r.v_, v_, n, MPFR_RNDN);
    return r;
  }
  RealAt floor() const {
    RealAt r;
    mpfr_floor(r.v_, v_);
    return r;
  }
  // The nearest integer, a tie to the even one.
  RealAt rint_even() const {
    RealAt r;
    mpfr_rint(r.v_, v_, MPFR_RNDN);
    return r;
  }

  // Whether the value lies in [i.lo, i.hi]. As in Exact::inside, MPFR compares a NaN bound as equal:
  // a test that must tell a NaN bound apart checks Interval::has_nan first.
  bool inside(Interval i) const { return mpfr_cmp_d(v_, i.lo) >= 0 && mpfr_cmp_d(v_, i.hi) <= 0; }
  double to_double() const { return mpfr_get_d(v_, MPFR_RNDN); }
  // The nearest float, as a Cast to float rounds.
  float to_float() const { return mpfr_get_flt(v_, MPFR_RNDN); }

 private:
  RealAt binary(int (*f)(mpfr_ptr, mpfr_srcptr, mpfr_srcptr, mpfr_rnd_t), const RealAt& b) const {
    RealAt r;
    f(r.v_, v_, b.v_, MPFR_RNDN);
    return r;
  }
  mpfr_t v_;
};
using Real = RealAt<2200>;
// Far more than the few roundings of a short formula through elementary functions can tell apart.
using Real256 = RealAt<256>;

// The spacing of floats at |x|: 2^(e − 23) for |x| in [2^e, 2^(e+1)), 2^-149 below the normal
// floats (and at 0).
inline double float_ulp(double x) { return std::ldexp(1.0, std::max(std::ilogb(x), -126) - 23); }

// Doubles that are floats (as a model's values are), over a wide range of magnitudes.
inline double random_float(std::mt19937& rng) {
  std::uniform_real_distribution<float> mant(-1.0f, 1.0f);
  std::uniform_int_distribution<int> exp(-20, 20);
  return std::ldexp(static_cast<double>(mant(rng)), exp(rng));
}

// A float tensor value.
inline Value floats(const Shape& shape, const std::vector<float>& v) { return Value(Tensor::from_vector<float>(shape, v)); }

// n floats uniform in [lo, hi).
inline std::vector<float> uniform_floats(size_t n, std::mt19937& rng, float lo, float hi) {
  std::uniform_real_distribution<float> u(lo, hi);
  std::vector<float> v(n);
  for (float& x : v) x = u(rng);
  return v;
}

// n floats over a wide range of magnitudes (random_float).
inline std::vector<float> wide_floats(size_t n, std::mt19937& rng) {
  std::vector<float> v(n);
  for (float& x : v) x = static_cast<float>(random_float(rng));
  return v;
}

// The width of an interval in ulps of a double at its larger end.
inline double ulps_of_double(Interval i) {
  return (i.hi - i.lo) / std::ldexp(1.0, std::ilogb(std::max(std::fabs(i.lo), std::fabs(i.hi))) - 52);
}

// One node of `op` at `opset` over `inputs` (named in0.., kind None: omitted), its outputs out0..;
// and the feed that binds the inputs.
struct OneNodeModel {
  Model model;
  NamedValues feed;
};

// A model of graph `g` importing the default domain at `opset`, and the domains of `more`.
inline Model model_of(const onnx::GraphProto& g, int64_t opset, const std::map<std::string, int64_t>& more = {}) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* imp = m.add_opset_import();
  imp->set_domain("");
  imp->set_version(opset);
  for (const auto& [domain, version] : more) {
    imp = m.add_opset_import();
    imp->set_domain(domain);
    imp->set_version(version);
  }
  *m.mutable_graph() = g;
  return model_from_proto(m, {});
}

inline OneNodeModel one_node_model(const std::string& op, int64_t opset, const std::vector<Value>& inputs,
                                   const std::vector<onnx::AttributeProto>& attrs = {}, size_t outputs = 1) {
  sonnx::testing::OneNodeGraph g = sonnx::testing::one_node_graph(op, inputs, attrs, std::vector<bool>(outputs, true));
  return {model_of(g.graph, opset), g.feed};
}

// Output k of the model's enclosure under `semantics`.
inline Bounds enclose_output(const OneNodeModel& m, Semantics semantics = Semantics::Real, size_t k = 0) {
  return enclose_model(m.model, m.feed, semantics).at("out" + std::to_string(k));
}

// Output k of the reference interpreter's run.
inline Tensor reference_output(const OneNodeModel& m, size_t k = 0) {
  return Interpreter(m.model).run(m.feed).at("out" + std::to_string(k)).tensor;
}

// Element i of float bounds.
inline Interval bound_at(const Bounds& b, int64_t i) { return {b.lo.data<double>()[i], b.hi.data<double>()[i]}; }

// A model of `nodes` over the inputs in `feed` (untyped graph inputs), with the given outputs.
inline OneNodeModel graph_model(int64_t opset, const std::vector<onnx::NodeProto>& nodes, NamedValues feed,
                                const std::vector<std::string>& outputs) {
  std::vector<onnx::ValueInfoProto> ins, outs;
  for (const auto& [name, v] : feed) ins.push_back(sonnx::testing::vi(name));
  for (const auto& name : outputs) outs.push_back(sonnx::testing::vi(name));
  return {model_of(sonnx::testing::graph("g", nodes, ins, outs), opset), std::move(feed)};
}

// A node named after its one output (`OUT_node`).
inline onnx::NodeProto named_node(const std::string& op, const std::vector<std::string>& in, const std::string& out,
                                  const std::vector<onnx::AttributeProto>& attrs = {}) {
  onnx::NodeProto n = sonnx::testing::node(op, in, {out}, attrs);
  n.set_name(out + "_node");
  return n;
}

// The message of the E (Undetermined, Unsupported, ...) that `f` throws; "" when it throws none.
template <class E, class F>
std::string thrown_message(F f) {
  try {
    f();
  } catch (const E& e) {
    return e.what();
  }
  return "";
}

}  // namespace sonnx::enclose
