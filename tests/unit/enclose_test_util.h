// What the enclosure tests (enclose_test.cpp, enclose_ops_test.cpp) share: exact reals through
// MPFR, random float inputs, widths in double ulps, and one-node models run through both the
// encloser and the reference interpreter.
#pragma once
#include <gtest/gtest.h>
#include <mpfr.h>

#include <cmath>
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

// A model of graph `g` importing the default domain at `opset`.
inline Model model_of(const onnx::GraphProto& g, int64_t opset) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* imp = m.add_opset_import();
  imp->set_domain("");
  imp->set_version(opset);
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

}  // namespace sonnx::enclose
