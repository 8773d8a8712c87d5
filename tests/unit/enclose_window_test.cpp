// A convolution's window (strides, dilations, pads, auto_pad) is read once, by
// support::window_attrs, and a transposed convolution's (also output_padding and output_shape) by
// support::transposed_attrs: the reference kernel, its shape rule, the fast kernel and the
// enclosure agree on every attribute form, the unusual ones included (an empty list meaning
// "absent", pads beside an auto_pad or output_shape that ignores them), and all refuse the same
// malformed ones.
#include <gtest/gtest.h>

#include <random>

#include "enclose_test_util.h"
#include "optimized/kernels/fast_kernel.h"
#include "reference/infer/infer.h"

namespace sonnx::enclose {
namespace {

using sonnx::testing::attr_ints;
using sonnx::testing::attr_string;

struct WindowShapeCase {
  std::string what;
  std::vector<onnx::AttributeProto> attrs;
  Shape expected;  // Y's shape, worked out by hand from the ONNX formulas; empty: every reader refuses
};

// X [1, 2, 7, 6], W [3, 2, 3, 2].
std::vector<WindowShapeCase> cases() {
  return {
      {"no attributes", {}, {1, 3, 5, 5}},
      {"empty strides and dilations mean absent", {attr_ints("strides", {}), attr_ints("dilations", {})}, {1, 3, 5, 5}},
      {"empty pads mean zero", {attr_ints("pads", {}), attr_ints("strides", {2, 1})}, {1, 3, 3, 5}},
      {"explicit pads and strides", {attr_ints("pads", {1, 0, 2, 1}), attr_ints("strides", {2, 2})}, {1, 3, 4, 3}},
      {"dilations", {attr_ints("dilations", {2, 3})}, {1, 3, 3, 3}},
      {"SAME_UPPER ignores pads",
       {attr_string("auto_pad", "SAME_UPPER"), attr_ints("pads", {9, 9, 9, 9}), attr_ints("strides", {2, 2})},
       {1, 3, 4, 3}},
      {"SAME_LOWER with empty strides", {attr_string("auto_pad", "SAME_LOWER"), attr_ints("strides", {})}, {1, 3, 7, 6}},
      {"VALID", {attr_string("auto_pad", "VALID"), attr_ints("strides", {3, 2})}, {1, 3, 2, 3}},
      {"NOTSET spelled empty", {attr_string("auto_pad", ""), attr_ints("pads", {1, 1, 1, 1})}, {1, 3, 7, 7}},
      {"strides of the wrong length", {attr_ints("strides", {1, 1, 1})}, {}},
      {"a zero stride", {attr_ints("strides", {0, 1})}, {}},
      {"a negative pad", {attr_ints("pads", {-1, 0, 0, 0})}, {}},
      {"an unknown auto_pad", {attr_string("auto_pad", "SAME")}, {}},
      {"a window larger than the padded input", {attr_ints("dilations", {4, 1})}, {}},
  };
}

// X [1, 2, 3, 4], W [2, 3, 3, 2] (C = 2, M = 3): per axis the full length is
// s·(in − 1) + output_padding + (k − 1)·d + 1, cropped by pads, or fixed by output_shape / SAME_*.
std::vector<WindowShapeCase> transposed_cases() {
  return {
      {"no attributes", {}, {1, 3, 5, 5}},
      {"empty strides and dilations mean absent", {attr_ints("strides", {}), attr_ints("dilations", {})}, {1, 3, 5, 5}},
      {"strides and pads", {attr_ints("strides", {2, 2}), attr_ints("pads", {1, 0, 1, 1})}, {1, 3, 5, 7}},
      {"output_padding", {attr_ints("strides", {2, 1}), attr_ints("output_padding", {1, 0})}, {1, 3, 8, 5}},
      {"output_shape", {attr_ints("strides", {2, 2}), attr_ints("output_shape", {6, 9})}, {1, 3, 6, 9}},
      {"output_shape as a full shape", {attr_ints("strides", {2, 2}), attr_ints("output_shape", {1, 3, 6, 9})}, {1, 3, 6, 9}},
      {"output_shape ignores malformed pads",
       {attr_ints("strides", {2, 2}), attr_ints("output_shape", {6, 9}), attr_ints("pads", {1, 1})},
       {1, 3, 6, 9}},
      {"SAME_UPPER ignores malformed pads",
       {attr_string("auto_pad", "SAME_UPPER"), attr_ints("strides", {2, 2}), attr_ints("pads", {1})},
       {1, 3, 6, 8}},
      {"VALID", {attr_string("auto_pad", "VALID"), attr_ints("strides", {2, 1})}, {1, 3, 7, 5}},
      {"VALID ignores malformed pads", {attr_string("auto_pad", "VALID"), attr_ints("pads", {1})}, {1, 3, 5, 5}},
      {"a negative output_padding", {attr_ints("output_padding", {-1, 0})}, {}},
      {"a negative output_shape", {attr_ints("output_shape", {-1, 4})}, {}},
      {"output_shape of the wrong length", {attr_ints("output_shape", {6})}, {}},
      {"pads larger than the output", {attr_ints("pads", {4, 0, 2, 0})}, {}},
      {"a zero stride", {attr_ints("strides", {0, 1})}, {}},
  };
}

// One operator's X and W shapes.
struct Operands {
  std::string op;
  Shape x, w;
};

// What the shape rule infers for Y from declared input types, or nullopt with `error` set.
std::optional<Shape> inferred_shape(const Operands& o, const WindowShapeCase& c, std::string& error) {
  using sonnx::testing::vi;
  onnx::GraphProto g = sonnx::testing::graph("g", {sonnx::testing::node(o.op, {"x", "w"}, {"y"}, c.attrs)},
                                             {vi("x", DType::Float, o.x, true), vi("w", DType::Float, o.w, true)}, {vi("y")});
  InferenceResult r = infer_model(model_of(g, 22));
  if (!r.errors.empty()) {
    error = r.errors.front().message;
    return std::nullopt;
  }
  const TypeInfo& t = r.types.at("y");
  if (!t.shape) return Shape{};
  Shape s;
  for (const Dim& d : *t.shape) s.push_back(d.value.value_or(-1));
  return s;
}

// The fast kernel's output shape (W constant), or nullopt when it declines the node or traps on X.
std::optional<Shape> fast_shape(const Operands& o, const OneNodeModel& m) {
  const Node& node = m.model.graph.nodes.at(0);
  Tensor x = m.feed.at(node.inputs[0]).tensor, w = m.feed.at(node.inputs[1]).tensor;
  FastKernelRequest r;
  r.node = &node;
  r.version = 22;
  r.constants[node.inputs[1]] = &w;
  r.input_types = {TypeInfo{}, TypeInfo{}};
  for (size_t i = 0; i < 2; ++i) {
    r.input_types[i].kind = TypeInfo::Kind::Tensor;
    r.input_types[i].elem = DType::Float;
    r.input_types[i].shape = known_dims(i == 0 ? o.x : o.w);
  }
  std::unique_ptr<FastKernel> k = make_fast_kernel(r);
  if (!k) return std::nullopt;
  try {
    return k->output_shapes({&x, &w}).at(0);
  } catch (const Trap&) {
    return std::nullopt;
  }
}

void expect_agreement(const Operands& o, const std::vector<WindowShapeCase>& cases, unsigned seed) {
  std::mt19937 rng(seed);
  for (const WindowShapeCase& c : cases) {
    SCOPED_TRACE(o.op + ": " + c.what);
    OneNodeModel m = one_node_model(o.op, 22,
                                    {floats(o.x, uniform_floats(static_cast<size_t>(shape_size(o.x)), rng, -1, 1)),
                                     floats(o.w, uniform_floats(static_cast<size_t>(shape_size(o.w)), rng, -1, 1))},
                                    c.attrs);
    std::string infer_error;
    std::optional<Shape> inferred = inferred_shape(o, c, infer_error);
    if (c.expected.empty()) {
      EXPECT_THROW(reference_output(m), Trap);
      EXPECT_THROW(enclose_output(m), Trap);
      EXPECT_FALSE(fast_shape(o, m).has_value());
      EXPECT_FALSE(inferred.has_value()) << "the shape rule accepted it";
      continue;
    }
    Tensor y = reference_output(m);
    EXPECT_EQ(y.shape(), c.expected);
    ASSERT_TRUE(inferred.has_value()) << infer_error;
    EXPECT_EQ(*inferred, c.expected);
    std::optional<Shape> fast = fast_shape(o, m);
    ASSERT_TRUE(fast.has_value()) << "the fast kernel declined";
    EXPECT_EQ(*fast, c.expected);
    Bounds b = enclose_output(m, Semantics::Admissible);
    ASSERT_EQ(b.lo.shape(), c.expected);
    for (int64_t i = 0; i < y.size(); ++i)
      EXPECT_TRUE(bound_at(b, i).contains(y.as_double(i))) << "element " << i << " = " << y.as_double(i);
  }
}

TEST(OneWindowReading, ReferenceShapeRuleFastKernelAndEnclosureAgree) {
  expect_agreement({"Conv", {1, 2, 7, 6}, {3, 2, 3, 2}}, cases(), 7);
}

TEST(OneWindowReading, TransposedReferenceShapeRuleFastKernelAndEnclosureAgree) {
  expect_agreement({"ConvTranspose", {1, 2, 3, 4}, {2, 3, 3, 2}}, transposed_cases(), 11);
}

}  // namespace
}  // namespace sonnx::enclose
