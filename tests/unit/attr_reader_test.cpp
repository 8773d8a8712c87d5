// The one attribute parser (reference/model/attr_reader.h): a data-type attribute is checked to
// name an element type, a required tensor or graph attribute fails when absent, and an attribute
// of another type fails whatever is asked of it.
#include <gtest/gtest.h>

#include <memory>
#include <optional>

#include "reference/ops/op_params.h"
#include "tests/unit/tensor_test_util.h"

namespace sonnx {
namespace {

using testing::float_attr;
using testing::int_attr;

Node node_with(std::vector<Attribute> attrs) {
  Node n;
  n.op_type = "Test";
  n.attributes = std::move(attrs);
  return n;
}

TEST(AttrReader, DataTypeAttributeNamesAnElementType) {
  Node n = node_with({int_attr("dtype", 10), int_attr("zero", 0), int_attr("huge", (int64_t{1} << 32) + 1),
                      int_attr("unknown", 999), float_attr("as_float", 1.0f)});
  auto dtype = [&](const char* name) { return try_read(n, [&](const AttrReader& r) { return r.attr_dtype(name); }); };
  ASSERT_TRUE(dtype("dtype").has_value());
  EXPECT_EQ(*dtype("dtype"), std::optional<DType>(DType::Float16));
  ASSERT_TRUE(dtype("absent").has_value());
  EXPECT_EQ(*dtype("absent"), std::nullopt);
  EXPECT_FALSE(dtype("zero").has_value());
  EXPECT_FALSE(dtype("huge").has_value()) << "2^32 + 1 must not wrap to float";
  EXPECT_FALSE(dtype("unknown").has_value());
  EXPECT_FALSE(dtype("as_float").has_value());
}

TEST(AttrReader, RequiredGraphAndTensorFailWhenAbsentOrOfAnotherType) {
  Attribute body;
  body.name = "body";
  body.type = Attribute::Type::Graph;
  body.g = std::make_shared<Graph>();
  body.g->path = "main/body";
  Attribute value;
  value.name = "value";
  value.type = Attribute::Type::Tensor;
  value.t = Tensor::scalar<float>(2.5f);
  Node n = node_with({body, value, int_attr("number", 1)});
  auto graph = try_read(n, [](const AttrReader& r) { return &r.required_graph("body"); });
  ASSERT_TRUE(graph.has_value());
  EXPECT_EQ((*graph)->path, "main/body");
  auto tensor = try_read(n, [](const AttrReader& r) { return r.required_tensor("value").data<float>()[0]; });
  EXPECT_EQ(tensor, std::optional<float>(2.5f));
  EXPECT_FALSE(try_read(n, [](const AttrReader& r) { return &r.required_graph("then_branch"); }));
  EXPECT_FALSE(try_read(n, [](const AttrReader& r) { return &r.required_tensor("absent"); }));
  EXPECT_FALSE(try_read(n, [](const AttrReader& r) { return r.attr_graph("number"); })) << "an int is not a graph";
  EXPECT_FALSE(try_read(n, [](const AttrReader& r) { return r.attr_tensor("body"); })) << "a graph is not a tensor";
  auto absent = try_read(n, [](const AttrReader& r) { return r.attr_graph("else_branch"); });
  ASSERT_TRUE(absent.has_value());
  EXPECT_EQ(*absent, nullptr);
}

}  // namespace
}  // namespace sonnx
