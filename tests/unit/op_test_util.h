// Builds a one-node model (or a graph) and runs it through the reference interpreter: the harness
// for the operator unit tests (tests/unit/ops/). Attributes are given as onnx::AttributeProto via
// the helpers below.
#pragma once
#include <cmath>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "reference/model/tensor_proto.h"
#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"
#include "reference/model/loader.h"

namespace sonnx::testing {

inline onnx::AttributeProto attr_int(const std::string& name, int64_t v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INT);
  a.set_i(v);
  return a;
}
inline onnx::AttributeProto attr_float(const std::string& name, float v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOAT);
  a.set_f(v);
  return a;
}
inline onnx::AttributeProto attr_string(const std::string& name, const std::string& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::STRING);
  a.set_s(v);
  return a;
}
inline onnx::AttributeProto attr_ints(const std::string& name, const std::vector<int64_t>& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::INTS);
  for (auto x : v) a.add_ints(x);
  return a;
}
inline onnx::AttributeProto attr_floats(const std::string& name, const std::vector<float>& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::FLOATS);
  for (auto x : v) a.add_floats(x);
  return a;
}

inline onnx::AttributeProto attr_strings(const std::string& name, const std::vector<std::string>& v) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::STRINGS);
  for (const auto& x : v) a.add_strings(x);
  return a;
}

// --- Building graphs: the one-node models below, and subgraph attributes and multi-node models
// in the tests.

inline onnx::NodeProto node(const std::string& op, const std::vector<std::string>& in, const std::vector<std::string>& out,
                            const std::vector<onnx::AttributeProto>& attrs = {}, const std::string& domain = "") {
  onnx::NodeProto n;
  n.set_op_type(op);
  n.set_domain(domain);
  for (const auto& s : in) n.add_input(s);
  for (const auto& s : out) n.add_output(s);
  for (const auto& a : attrs) *n.add_attribute() = a;
  return n;
}

// A value_info; elem Undefined leaves the type out, dims of -1 are left unknown.
inline onnx::ValueInfoProto vi(const std::string& name, DType elem = DType::Undefined, const std::vector<int64_t>& dims = {},
                               bool has_shape = false) {
  onnx::ValueInfoProto v;
  v.set_name(name);
  if (elem != DType::Undefined) {
    auto* tt = v.mutable_type()->mutable_tensor_type();
    tt->set_elem_type(static_cast<int>(elem));
    if (has_shape) {
      auto* shape = tt->mutable_shape();
      for (int64_t d : dims) {
        auto* dim = shape->add_dim();
        if (d >= 0) dim->set_dim_value(d);
      }
    }
  }
  return v;
}

inline onnx::GraphProto graph(const std::string& name, const std::vector<onnx::NodeProto>& nodes,
                              const std::vector<onnx::ValueInfoProto>& inputs,
                              const std::vector<onnx::ValueInfoProto>& outputs) {
  onnx::GraphProto g;
  g.set_name(name);
  for (const auto& n : nodes) *g.add_node() = n;
  for (const auto& i : inputs) *g.add_input() = i;
  for (const auto& o : outputs) *g.add_output() = o;
  return g;
}

inline onnx::AttributeProto attr_graph(const std::string& name, const onnx::GraphProto& g) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::GRAPH);
  *a.mutable_g() = g;
  return a;
}

inline onnx::AttributeProto attr_type(const std::string& name, DType elem) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::TYPE_PROTO);
  a.mutable_tp()->mutable_tensor_type()->set_elem_type(static_cast<int>(elem));
  return a;
}

// A tensor attribute (the tensor as sonnx writes it to a TensorProto).
inline onnx::AttributeProto attr_tensor(const std::string& name, const Tensor& t) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::TENSOR);
  *a.mutable_t() = tensor_to_proto(t, name);
  return a;
}

// Runs graph `g` as a model importing `opsets` (domain, version) through the reference
// interpreter; returns the graph outputs by name.
inline NamedValues run_graph(const onnx::GraphProto& g, const std::vector<std::pair<std::string, int64_t>>& opsets,
                             const NamedValues& feed) {
  onnx::ModelProto m;
  m.set_ir_version(8);
  for (const auto& [domain, version] : opsets) {
    auto* imp = m.add_opset_import();
    imp->set_domain(domain);
    imp->set_version(version);
  }
  *m.mutable_graph() = g;
  Model model = model_from_proto(m, {});
  Interpreter interp(model);
  return interp.run(feed);
}

// Attributes of our IR (for kernels and bodies called without a graph).
inline Attribute ir_attr(const onnx::AttributeProto& p) {  // the scalar and list fields tests use
  Attribute a;
  a.name = p.name();
  a.type = static_cast<Attribute::Type>(p.type());
  a.i = p.i();
  a.f = p.f();
  a.s = p.s();
  a.ints.assign(p.ints().begin(), p.ints().end());
  a.floats.assign(p.floats().begin(), p.floats().end());
  return a;
}
inline Attribute ir_int_attr(const std::string& name, int64_t v) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Int;
  a.i = v;
  return a;
}
inline Attribute ir_string_attr(const std::string& name, const std::string& v) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::String;
  a.s = v;
  return a;
}

// A one-node graph over `inputs` (kind None: an omitted input), named in0.., with the outputs
// `wanted` (false: omitted), named out0.., and the feed for its inputs.
struct OneNodeGraph {
  onnx::GraphProto graph;
  NamedValues feed;
};
inline OneNodeGraph one_node_graph(const std::string& op_type, const std::vector<Value>& inputs,
                                   const std::vector<onnx::AttributeProto>& attrs, const std::vector<bool>& wanted,
                                   const std::string& domain = "", const std::string& graph_name = "t") {
  OneNodeGraph g;
  std::vector<std::string> in_names, out_names;
  std::vector<onnx::ValueInfoProto> graph_inputs, graph_outputs;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].kind == Value::Kind::None) {
      in_names.emplace_back();
      continue;
    }
    std::string name = "in" + std::to_string(i);
    in_names.push_back(name);
    graph_inputs.push_back(vi(name));
    g.feed[name] = inputs[i];
  }
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (!wanted[i]) {
      out_names.emplace_back();
      continue;
    }
    std::string name = "out" + std::to_string(i);
    out_names.push_back(name);
    graph_outputs.push_back(vi(name));
  }
  onnx::NodeProto n = node(op_type, in_names, out_names, attrs, domain);
  n.set_name("node");
  g.graph = graph(graph_name, {n}, graph_inputs, graph_outputs);
  return g;
}

// Runs `op_type` at `opset` (domain ai.onnx unless given) on the inputs; an input Value of kind
// None is passed as an omitted optional input. `wanted[k]` false leaves output k unnamed (an
// omitted optional output). Returns one Value per output position (kind None where omitted).
inline std::vector<Value> run_op_some(const std::string& op_type, int64_t opset, const std::vector<Value>& inputs,
                                      const std::vector<onnx::AttributeProto>& attrs, const std::vector<bool>& wanted,
                                      const std::string& domain = "") {
  OneNodeGraph g = one_node_graph(op_type, inputs, attrs, wanted, domain);
  NamedValues out = run_graph(g.graph, {{domain, opset}}, g.feed);
  std::vector<Value> result(wanted.size());
  for (size_t i = 0; i < wanted.size(); ++i)
    if (wanted[i]) result[i] = out["out" + std::to_string(i)];
  return result;
}

// run_op_some with the first `num_outputs` outputs all wanted.
inline std::vector<Value> run_op(const std::string& op_type, int64_t opset, const std::vector<Value>& inputs,
                                 const std::vector<onnx::AttributeProto>& attrs = {}, size_t num_outputs = 1,
                                 const std::string& domain = "") {
  return run_op_some(op_type, opset, inputs, attrs, std::vector<bool>(num_outputs, true), domain);
}

// An ai.onnx.ml node of that domain's `version`.
inline std::vector<Value> run_ml(const std::string& op_type, int64_t version, const std::vector<Value>& inputs,
                                 const std::vector<onnx::AttributeProto>& attrs, size_t outputs = 1) {
  return run_op(op_type, version, inputs, attrs, outputs, "ai.onnx.ml");
}

// The first output of run_op.
inline Value run1(const std::string& op_type, int64_t opset, const std::vector<Value>& inputs,
                  const std::vector<onnx::AttributeProto>& attrs = {}) {
  return run_op(op_type, opset, inputs, attrs)[0];
}

template <class T>
Value tensor(const Shape& shape, const std::vector<T>& v) {
  return Value(Tensor::from_vector<T>(shape, v));
}

template <class T>
std::vector<T> values_of(const Value& v) {
  auto s = v.tensor.values<T>();
  return {s.begin(), s.end()};
}

// --- Values and checks shared by the operator tests.

// A float tensor value converted to floating type T (rounded once for float16/bfloat16).
template <class T>
Value retyped(const Value& v) {
  std::vector<T> r;
  for (float f : values_of<float>(v)) r.push_back(static_cast<T>(f));
  return tensor<T>(v.tensor.shape(), r);
}

// The elements of a floating tensor value of type T as floats.
template <class T>
std::vector<float> floats_of(const Value& v) {
  std::vector<float> r;
  for (T x : values_of<T>(v)) r.push_back(static_cast<float>(x));
  return r;
}

inline constexpr float kNaN = std::numeric_limits<float>::quiet_NaN();
inline constexpr float kInf = std::numeric_limits<float>::infinity();

// An omitted optional input.
inline Value none() { return Value(); }

inline Value bool_scalar(bool b) { return Value(Tensor::scalar<bool>(b)); }
inline Value i64_scalar(int64_t v) { return Value(Tensor::scalar<int64_t>(v)); }
inline Value seq_of(const std::vector<Value>& elems, DType elem = DType::Undefined) { return Value::make_sequence(elems, elem); }

// start, start + 1, ..., n values.
inline std::vector<float> iota_f(int n, float start = 0) {
  std::vector<float> v(static_cast<size_t>(n));
  for (int i = 0; i < n; ++i) v[static_cast<size_t>(i)] = start + static_cast<float>(i);
  return v;
}

// Element by element: a NaN wants a NaN, an infinity the same infinity, anything else within tol.
inline void expect_near(const std::vector<float>& got, const std::vector<float>& want, float tol = 1e-5f) {
  ASSERT_EQ(got.size(), want.size());
  for (size_t i = 0; i < want.size(); ++i) {
    if (std::isnan(want[i])) EXPECT_TRUE(std::isnan(got[i])) << "element " << i;
    else if (std::isinf(want[i])) EXPECT_EQ(got[i], want[i]) << "element " << i;
    else EXPECT_NEAR(got[i], want[i], tol) << "element " << i;
  }
}

// expect_near on a float tensor value, with a tighter default tolerance.
inline void expect_floats_near(const Value& v, const std::vector<float>& want, float tol = 1e-6f) {
  expect_near(values_of<float>(v), want, tol);
}

template <class F>
void expect_trap(F f) {
  EXPECT_THROW(f(), Trap);
}

// f traps, with `fragment` in the message.
template <class F>
void expect_trap(F f, const std::string& fragment) {
  try {
    f();
    FAIL() << "expected a trap mentioning '" << fragment << "'";
  } catch (const Trap& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

}  // namespace sonnx::testing
