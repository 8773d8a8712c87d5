// Builds a one-node model and runs it through the reference interpreter: the harness for operator
// unit tests. Attributes are given as onnx::AttributeProto via the helpers below.
#pragma once
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "reference/interp/interpreter.h"
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

// Runs `op_type` at `opset` (domain ai.onnx unless given) on the inputs; an input Value of kind
// None is passed as an omitted optional input. `wanted[k]` false leaves output k unnamed (an
// omitted optional output). Returns one Value per output position (kind None where omitted).
inline std::vector<Value> run_op_some(const std::string& op_type, int64_t opset, const std::vector<Value>& inputs,
                                      const std::vector<onnx::AttributeProto>& attrs, const std::vector<bool>& wanted,
                                      const std::string& domain = "") {
  onnx::ModelProto m;
  m.set_ir_version(8);
  auto* imp = m.add_opset_import();
  imp->set_domain(domain);
  imp->set_version(opset);
  auto* g = m.mutable_graph();
  g->set_name("t");
  auto* n = g->add_node();
  n->set_op_type(op_type);
  n->set_domain(domain);
  n->set_name("node");
  NamedValues feed;
  for (size_t i = 0; i < inputs.size(); ++i) {
    if (inputs[i].kind == Value::Kind::None) {
      n->add_input("");
      continue;
    }
    std::string name = "in" + std::to_string(i);
    n->add_input(name);
    g->add_input()->set_name(name);
    feed[name] = inputs[i];
  }
  for (size_t i = 0; i < wanted.size(); ++i) {
    if (!wanted[i]) {
      n->add_output("");
      continue;
    }
    std::string name = "out" + std::to_string(i);
    n->add_output(name);
    g->add_output()->set_name(name);
  }
  for (const auto& a : attrs) *n->add_attribute() = a;
  Model model = model_from_proto(m, {});
  Interpreter interp(model);
  NamedValues out = interp.run(feed);
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

template <class T>
Value tensor(const Shape& shape, const std::vector<T>& v) {
  return Value(Tensor::from_vector<T>(shape, v));
}

template <class T>
std::vector<T> values_of(const Value& v) {
  auto s = v.tensor.values<T>();
  return {s.begin(), s.end()};
}

}  // namespace sonnx::testing
