// Small builders shared by the executor and kernel tests: declared types, nodes and random tensors.
#pragma once
#include <cstdint>
#include <cstdlib>
#include <limits>
#include <random>

#include "reference/model/ir.h"
#include "sonnx/tensor.h"

namespace sonnx::testing {

inline TypeInfo float_type(const Shape& shape) {
  TypeInfo t;
  t.kind = TypeInfo::Kind::Tensor;
  t.elem = DType::Float;
  std::vector<Dim> dims;
  for (int64_t d : shape) dims.push_back(Dim{d, ""});
  t.shape = dims;
  return t;
}

// The static type of t (its element type and shape).
inline TypeInfo type_of(const Tensor& t) {
  TypeInfo ti = float_type(t.shape());
  ti.elem = t.dtype();
  return ti;
}

// A 1-D int64 tensor of v.
inline Tensor i64(std::vector<int64_t> v) { return Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size())}, v); }

inline Tensor random_float_tensor(const Shape& shape, std::mt19937& rng, float lo = -1, float hi = 1) {
  std::uniform_real_distribution<float> u(lo, hi);
  Tensor t(DType::Float, shape);
  for (float& v : t.values<float>()) v = u(rng);
  return t;
}

// An IR node named after its first output.
inline Node ir_node(const std::string& op, std::vector<std::string> in, std::vector<std::string> out,
                    std::vector<Attribute> attrs = {}) {
  Node n;
  n.name = out[0] + "_node";
  n.op_type = op;
  n.inputs = std::move(in);
  n.outputs = std::move(out);
  n.attributes = std::move(attrs);
  return n;
}

// Appends n to g as its next node.
inline void add_node(Graph& g, Node n) {
  n.index = g.nodes.size();
  g.nodes.push_back(std::move(n));
}

// A model whose one graph ("main") imports the default domain at `opset`, with nothing in it yet.
inline Model empty_model(int64_t opset = 13) {
  Model m;
  m.ir_version = 8;
  m.opset_imports[""] = opset;
  m.graph.path = "main";
  return m;
}

inline Attribute int_attr(const std::string& name, int64_t v) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Int;
  a.i = v;
  return a;
}

inline Attribute float_attr(const std::string& name, float v) {
  Attribute a;
  a.name = name;
  a.type = Attribute::Type::Float;
  a.f = v;
  return a;
}

inline TypeInfo half_type(const Shape& shape) {
  TypeInfo t = float_type(shape);
  t.elem = DType::Float16;
  return t;
}

inline bool half_is_nan(uint16_t h) { return (h & 0x7fff) > 0x7c00; }

// Distance in representable float16 values (−0 and +0 are one point); 0 when both are NaN.
inline int64_t half_ulp_distance(uint16_t a, uint16_t b) {
  if (half_is_nan(a) || half_is_nan(b)) return half_is_nan(a) && half_is_nan(b) ? 0 : std::numeric_limits<int64_t>::max();
  auto ordered = [](uint16_t h) -> int64_t { return (h & 0x8000) ? -int64_t{h & 0x7fff} : int64_t{h}; };
  return std::abs(ordered(a) - ordered(b));
}

}  // namespace sonnx::testing
