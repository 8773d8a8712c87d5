// Survey: every ai.onnx schema of the catalogue whose type constraints list one of the small
// element types (float8 e4m3fn/e4m3fnuz/e5m2/e5m2fnuz/e8m0, float4e2m1, int4, uint4, int2, uint2)
// and whose version has a reference kernel must run a tiny node of each such type, for every type
// parameter that lists it (tensor, and for If/Loop also sequence and optional types). The test
// prints the count and fails on any pair that does not run, or that gives the output another
// element type than the schema's type parameter says. What each operator computes is tested
// elsewhere (data_movement_small_types_test.cpp, element_types_test.cpp, quantize_test.cpp).
#include <functional>
#include <iostream>
#include <map>
#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "reference/catalogue/catalogue.h"
#include "reference/model/tensor_proto.h"
#include "reference/ops/registry.h"
#include "tests/unit/op_test_util.h"
#include "tests/unit/ops/small_type_util.h"

namespace sonnx::testing {
namespace {

// One entry of a type constraint: "tensor(int4)", "seq(tensor(int4))", "optional(tensor(int4))",
// "optional(seq(tensor(int4)))".
struct TypeRef {
  std::string param;
  std::string text;
  DType elem = DType::Undefined;
  bool sequence = false;
  bool optional = false;
};

std::optional<TypeRef> parse_type(const std::string& param, const std::string& text) {
  static const std::regex re(R"((optional\()?(seq\()?tensor\((\w+)\)\)?\)?)");
  std::smatch m;
  if (!std::regex_match(text, m, re)) return std::nullopt;
  DType d = dtype_from_name(m[3].str());
  if (!is_small_type(d)) return std::nullopt;
  return TypeRef{param, text, d, m[2].matched, m[1].matched};
}

// A value of the type: a [2,3] tensor of counting codes, in a two-element sequence and/or an
// optional as the type says.
Value sample(const TypeRef& t) {
  Value v(counting_tensor(t.elem, {2, 3}));
  if (t.sequence) v = Value::make_sequence({v, Value(counting_tensor(t.elem, {1, 2}))}, t.elem);
  if (t.optional) v = Value::make_optional(v);
  return v;
}

using Case = OneNodeGraph;

// A one-node graph: inputs given by value (kind None: omitted), outputs out0.., attributes.
Case single(const std::string& op, const std::vector<Value>& inputs, size_t outputs,
            const std::vector<onnx::AttributeProto>& attrs = {}) {
  return one_node_graph(op, inputs, attrs, std::vector<bool>(outputs, true), "", "survey");
}

Value ints(const std::vector<int64_t>& v) { return tensor<int64_t>({static_cast<int64_t>(v.size())}, v); }
Value f32(float v) { return Value(Tensor::scalar<float>(v)); }
Value f32s() { return tensor<float>({2, 3}, {0.5f, 1, 1.5f, 2, -1, 0}); }
Value zero_of(DType d) { return Value(Tensor(d, {})); }

// A TensorProto attribute holding a tensor of any type (raw data, packed as ONNX packs it).
onnx::AttributeProto tensor_attr(const std::string& name, const Tensor& t) {
  onnx::AttributeProto a;
  a.set_name(name);
  a.set_type(onnx::AttributeProto::TENSOR);
  *a.mutable_t() = tensor_to_proto(t);
  return a;
}

// The unsigned type of the same bit width (BitCast's partner).
DType same_width_uint(DType d) {
  int b = code_bits(d);
  return b == 8 ? DType::UInt8 : (b == 4 ? DType::UInt4 : DType::UInt2);
}

onnx::GraphProto identity_graph(const std::vector<std::string>& ins, const std::vector<std::string>& from,
                                const std::vector<std::string>& to) {
  std::vector<onnx::NodeProto> nodes;
  std::vector<onnx::ValueInfoProto> gin, gout;
  for (const auto& i : ins) gin.push_back(vi(i));
  for (size_t k = 0; k < from.size(); ++k) {
    nodes.push_back(node("Identity", {from[k]}, {to[k]}));
    gout.push_back(vi(to[k]));
  }
  return graph("body", nodes, gin, gout);
}

using Builder = std::function<Case(const catalogue::Schema&, const TypeRef&)>;

// How to make a tiny node of each surveyed operator with type parameter t.param bound to t.
const std::map<std::string, Builder>& builders() {
  static const std::map<std::string, Builder> table = {
      {"Identity", [](auto&, const TypeRef& t) { return single("Identity", {sample(t)}, 1); }},
      {"Flatten", [](auto&, const TypeRef& t) { return single("Flatten", {sample(t)}, 1, {attr_int("axis", 1)}); }},
      {"Reshape",
       [](auto&, const TypeRef& t) {
         return single("Reshape", {sample(t), ints({3, 2})}, 1);
       }},
      {"Squeeze",
       [](auto&, const TypeRef& t) {
         return single("Squeeze", {Value(counting_tensor(t.elem, {1, 3})), ints({0})}, 1);
       }},
      {"Unsqueeze",
       [](auto&, const TypeRef& t) {
         return single("Unsqueeze", {sample(t), ints({0})}, 1);
       }},
      {"Transpose", [](auto&, const TypeRef& t) { return single("Transpose", {sample(t)}, 1); }},
      {"Pad",
       [](auto&, const TypeRef& t) {
         return single("Pad", {sample(t), ints({0, 1, 0, 1}), Value(counting_tensor(t.elem, {}))}, 1);
       }},
      {"Shape", [](auto&, const TypeRef& t) { return single("Shape", {sample(t)}, 1); }},
      {"Size", [](auto&, const TypeRef& t) { return single("Size", {sample(t)}, 1); }},
      {"Constant",
       [](auto&, const TypeRef& t) { return single("Constant", {}, 1, {tensor_attr("value", counting_tensor(t.elem, {3}))}); }},
      {"ConstantOfShape",
       [](auto&, const TypeRef& t) {
         return single("ConstantOfShape", {ints({2, 3})}, 1, {tensor_attr("value", counting_tensor(t.elem, {1}))});
       }},
      {"Cast",
       [](auto&, const TypeRef& t) {
         if (t.param == "T1") return single("Cast", {sample(t)}, 1, {attr_int("to", static_cast<int>(DType::Float))});
         return single("Cast", {f32s()}, 1, {attr_int("to", static_cast<int>(t.elem))});
       }},
      {"CastLike",
       [](auto&, const TypeRef& t) {
         if (t.param == "T1") return single("CastLike", {sample(t), f32(0)}, 1);
         return single("CastLike", {f32s(), zero_of(t.elem)}, 1);
       }},
      {"BitCast",
       [](auto&, const TypeRef& t) {
         DType u = same_width_uint(t.elem);
         if (t.param == "T1") return single("BitCast", {sample(t)}, 1, {attr_int("to", static_cast<int>(u))});
         return single("BitCast", {Value(Tensor(u, {2, 3}))}, 1, {attr_int("to", static_cast<int>(t.elem))});
       }},
      {"DequantizeLinear",
       [](auto&, const TypeRef& t) {
         return single("DequantizeLinear", {sample(t), f32(2), zero_of(t.elem)}, 1);
       }},
      {"QuantizeLinear",
       [](auto&, const TypeRef& t) {
         return single("QuantizeLinear", {f32s(), f32(2), zero_of(t.elem)}, 1);
       }},
      {"Dropout",
       [](auto&, const TypeRef& t) {
         if (t.param == "T") return single("Dropout", {sample(t)}, 2);
         return single("Dropout", {f32s(), Value(Tensor(t.elem, {}))}, 2);  // ratio 0 of type T1
       }},
      {"IsInf", [](auto&, const TypeRef& t) { return single("IsInf", {sample(t)}, 1); }},
      {"IsNaN", [](auto&, const TypeRef& t) { return single("IsNaN", {sample(t)}, 1); }},
      {"TensorScatter",
       [](auto&, const TypeRef& t) {
         return single("TensorScatter",
                       {Value(counting_tensor(t.elem, {1, 4, 2})), Value(counting_tensor(t.elem, {1, 1, 2})), ints({2})}, 1);
       }},
      {"QLinearMatMul",
       [](auto&, const TypeRef& t) {
         // All three quantized types set to t's type; scales float.
         Value a(counting_tensor(t.elem, {2, 2}));
         return single("QLinearMatMul", {a, f32(1), zero_of(t.elem), a, f32(1), zero_of(t.elem), f32(1), zero_of(t.elem)}, 1);
       }},
      {"If",
       [](auto&, const TypeRef& t) {
         Case c;
         onnx::GraphProto branch = identity_graph({}, {"X"}, {"o"});
         c.graph = graph("survey",
                         {node("If", {"C"}, {"out0"}, {attr_graph("then_branch", branch), attr_graph("else_branch", branch)})},
                         {vi("C"), vi("X")}, {vi("out0")});
         c.feed = {{"C", bool_scalar(true)}, {"X", sample(t)}};
         return c;
       }},
      {"Loop",
       [](auto&, const TypeRef& t) {
         onnx::GraphProto body = identity_graph({"i", "c", "v"}, {"c", "v"}, {"c_out", "v_out"});
         return single("Loop", {i64_scalar(2), Value(), sample(t)}, 1, {attr_graph("body", body)});
       }},
      {"Scan",
       [](auto&, const TypeRef& t) {
         onnx::GraphProto body = identity_graph({"s", "x"}, {"s", "x"}, {"s_out", "y"});
         return single("Scan", {Value(counting_tensor(t.elem, {3})), sample(t)}, 2,
                       {attr_graph("body", body), attr_int("num_scan_inputs", 1)});
       }},
  };
  return table;
}

// Runs the case; "" when it ran and its first output has the element type the schema promises,
// else what went wrong.
std::string try_case(const catalogue::Schema& s, const TypeRef& t, const Case& c) {
  try {
    NamedValues out = run_graph(c.graph, {{"", s.version}}, c.feed);
    const Value& y = out.at("out0");
    if (!s.outputs.empty() && s.outputs[0].type == t.param) {
      const Value* inner = &y;
      if (inner->is_optional()) {
        if (!inner->optional) return "output 0 is an empty optional";
        inner = inner->optional.get();
      }
      if (inner->is_sequence()) {
        if (inner->sequence.empty()) return "output 0 is an empty sequence";
        inner = &inner->sequence[0];
      }
      if (!inner->is_tensor()) return "output 0 is not a tensor";
      if (inner->tensor.dtype() != t.elem) return "output 0 has element type " + std::string(dtype_name(inner->tensor.dtype()));
    }
    return "";
  } catch (const std::exception& e) {
    return e.what();
  }
}

TEST(SmallTypesSurvey, EveryKernelRunsTheSmallTypesItsSchemaLists) {
  int pairs = 0, ran = 0;
  std::vector<std::string> failures, unbuilt;
  for (const auto& s : catalogue::all()) {
    if (!s.domain.empty()) continue;
    std::vector<TypeRef> refs;
    for (const auto& tc : s.type_constraints)
      for (const auto& text : tc.types)
        if (auto r = parse_type(tc.name, text)) refs.push_back(*r);
    if (refs.empty()) continue;
    const KernelEntry* k = OpRecords::instance().kernel("", s.name, s.version);
    if (!k) continue;  // a function body or not implemented: not this survey's business
    auto b = builders().find(s.name);
    for (const auto& r : refs) {
      ++pairs;
      if (b == builders().end()) {
        unbuilt.push_back(s.id());
        continue;
      }
      std::string why = try_case(s, r, b->second(s, r));
      if (why.empty()) ++ran;
      else failures.push_back(s.id() + " " + r.param + "=" + r.text + ": " + why);
    }
  }
  std::cout << "small-type survey: " << ran << " of " << pairs << " (schema, type) pairs run\n";
  for (const auto& f : failures) std::cout << "  " << f << "\n";
  EXPECT_GT(pairs, 300);
  EXPECT_TRUE(unbuilt.empty()) << unbuilt.size() << " pairs of operators the survey cannot build, e.g. " << unbuilt.front();
  EXPECT_TRUE(failures.empty()) << failures.size() << " of " << pairs << " pairs fail";
}

}  // namespace
}  // namespace sonnx::testing
