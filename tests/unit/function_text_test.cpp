// The text-syntax parser (reference/model/text_syntax) on function bodies: what it accepts, what it
// refuses and where it says the error is.
#include <gtest/gtest.h>

#include "reference/model/text_syntax.h"
#include "text_error_util.h"

namespace sonnx::text {
namespace {

const Attribute& attr(const Node& n, const std::string& name) {
  const Attribute* a = n.attr(name);
  if (!a) throw std::runtime_error("no attribute " + name);
  return *a;
}

TEST(FunctionText, ParsesHeaderSignatureAndNodes) {
  Function f = parse_function(R"(
    # a comment
    <domain: "local", opset_import: ["" : 18, "ai.onnx.ml": 3]>
    F <alpha: float = 0.5, axis> (X, Y) => (Z, W) {
      t = Mul (X, Y)
      Z, W = local.Split <axis = @axis> (t)
    })");
  EXPECT_EQ(f.domain, "local");
  EXPECT_EQ(f.name, "F");
  EXPECT_EQ(f.opset_imports.at(""), 18);
  EXPECT_EQ(f.opset_imports.at("ai.onnx.ml"), 3);
  EXPECT_EQ(f.inputs, (std::vector<std::string>{"X", "Y"}));
  EXPECT_EQ(f.outputs, (std::vector<std::string>{"Z", "W"}));
  EXPECT_EQ(f.attributes, (std::vector<std::string>{"alpha", "axis"}));
  ASSERT_EQ(f.attribute_defaults.size(), 1u);
  EXPECT_EQ(f.attribute_defaults[0].name, "alpha");
  EXPECT_EQ(f.attribute_defaults[0].type, Attribute::Type::Float);
  EXPECT_FLOAT_EQ(f.attribute_defaults[0].f, 0.5f);
  ASSERT_EQ(f.nodes.size(), 2u);
  EXPECT_EQ(f.nodes[0].op_type, "Mul");
  EXPECT_EQ(f.nodes[0].domain, "");
  EXPECT_EQ(f.nodes[1].op_type, "Split");
  EXPECT_EQ(f.nodes[1].domain, "local");
  EXPECT_EQ(f.nodes[1].outputs, (std::vector<std::string>{"Z", "W"}));
  EXPECT_EQ(attr(f.nodes[1], "axis").ref_attr_name, "axis");
}

TEST(FunctionText, AttributeLiteralsOfEveryKind) {
  Function f = parse_function(R"(<domain: "", opset_import: ["" : 18]> F (X) => (Y) {
      Y = Op <i = -3, f = 2.5e-1, s = "a\"b", is = [1, -2], fs = [1, 2.5], ss = ["x", "y"],
              fi: float = 2, e: ints = [], t = float[2, 2] {1, 2, 3.5, -4}, sc = int64 {7}, b = bool[2] {1, 0}> (X, , X)
    })");
  const Node& n = f.nodes.at(0);
  EXPECT_EQ(n.inputs, (std::vector<std::string>{"X", "", "X"}));
  EXPECT_EQ(attr(n, "i").type, Attribute::Type::Int);
  EXPECT_EQ(attr(n, "i").i, -3);
  EXPECT_EQ(attr(n, "f").type, Attribute::Type::Float);
  EXPECT_FLOAT_EQ(attr(n, "f").f, 0.25f);
  EXPECT_EQ(attr(n, "s").s, "a\"b");
  EXPECT_EQ(attr(n, "is").ints, (std::vector<int64_t>{1, -2}));
  EXPECT_EQ(attr(n, "fs").type, Attribute::Type::Floats);  // one fractional element makes it floats
  EXPECT_EQ(attr(n, "fs").floats, (std::vector<float>{1.0f, 2.5f}));
  EXPECT_EQ(attr(n, "ss").strings, (std::vector<std::string>{"x", "y"}));
  EXPECT_EQ(attr(n, "fi").type, Attribute::Type::Float);  // the declared type wins over the spelling
  EXPECT_FLOAT_EQ(attr(n, "fi").f, 2.0f);
  EXPECT_EQ(attr(n, "e").type, Attribute::Type::Ints);
  EXPECT_TRUE(attr(n, "e").ints.empty());
  const Tensor& t = attr(n, "t").t;
  EXPECT_EQ(t.dtype(), DType::Float);
  EXPECT_EQ(t.shape(), (Shape{2, 2}));
  EXPECT_FLOAT_EQ(t.data<float>()[2], 3.5f);
  EXPECT_FLOAT_EQ(t.data<float>()[3], -4.0f);
  const Tensor& sc = attr(n, "sc").t;
  EXPECT_EQ(sc.rank(), 0);
  EXPECT_EQ(sc.data<int64_t>()[0], 7);
  EXPECT_EQ(attr(n, "b").t.dtype(), DType::Bool);
  EXPECT_TRUE(attr(n, "b").t.data<bool>()[0]);
  EXPECT_FALSE(attr(n, "b").t.data<bool>()[1]);
}

TEST(FunctionText, GraphAttributesAndElementTypeMarker) {
  Function f = parse_function(R"(<domain: "", opset_import: ["" : 18]> F (X, C) => (Y) {
      Y = If <then_branch = g1 () => (float[2] a) { a = Identity (X) },
              else_branch = g2 () => (b) { b = Cast <to = $elem_type(X)> (X) }> (C)
    })");
  const Attribute& then_b = attr(f.nodes.at(0), "then_branch");
  ASSERT_EQ(then_b.type, Attribute::Type::Graph);
  EXPECT_EQ(then_b.g->name, "g1");
  ASSERT_EQ(then_b.g->outputs.size(), 1u);
  EXPECT_EQ(then_b.g->outputs[0].name, "a");
  EXPECT_EQ(then_b.g->outputs[0].type.elem, DType::Float);
  const Node& cast = attr(f.nodes.at(0), "else_branch").g->nodes.at(0);
  EXPECT_EQ(attr(cast, "to").ref_attr_name, std::string(kElemTypeMarker) + "X");
}

// The error names the line and column of the offending token.
TEST(FunctionText, ErrorsSayWhereAndWhat) {
  expect_parse_error(parse_function, "<domain: \"\">\nF (X) => (Y) {\n  Y = Relu (X\n}", 4, 1, "expected ',' or ')', found '}'");
  expect_parse_error(parse_function, "<domain: \"\", colour: 1> F (X) => (Y) {}", 1, 14, "unknown function header key 'colour'");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  Y = Relu <a: lists = 1> (X)\n}", 2, 16,
                     "unknown attribute type 'lists'");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  Y = Relu <a: int = 1.5> (X)\n}", 2, 22,
                     "expected an integer");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  Y = C <value = float[3] {1, 2}> ()\n}", 2, 18,
                     "has 2 elements");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  Y = C <v = []> ()\n}", 2, 14,
                     "empty list needs a declared type");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  Y = C <v = \"abc> ()\n}", 2, 14, "unterminated string");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  Y = Relu (X) ;\n}", 2, 16, "unexpected character ';'");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  Y = C <v = $shape(X)> ()\n}", 2, 15,
                     "unknown substitution");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  Y = Relu (X)", 2, 15, "expected '}'");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  Y = Relu (X)\n}\nG", 4, 1, "text after");
  expect_parse_error(parse_function, "<domain: \"\"> F (X) => (Y) {\n  when present(X) { Y = Relu (X) }\n}", 2, 3,
                     "only allowed in a body file");
}

TEST(FunctionText, AlternativesWithGuardsAndGuardedBlocks) {
  std::vector<Alternative> alts = parse_alternatives(R"(
    when present(B) and mode == "fast" and k != 2
    <domain: "", opset_import: ["" : 18]> F <mode, k> (A, B) => (Y) {
      Y = Add (A, B)
    }
    <domain: "", opset_import: ["" : 18]> F (A, B) => (Y) {
      t = Identity (A)
      when absent(B) and $elem_type(A) != 9 {
        Y = Identity (t)
        when k == 1 { u = Neg (t) }
      }
      v = Abs (t)
    })");
  ASSERT_EQ(alts.size(), 2u);
  ASSERT_EQ(alts[0].guard.size(), 3u);
  EXPECT_EQ(alts[0].guard[0].kind, Condition::Kind::Present);
  EXPECT_EQ(alts[0].guard[0].name, "B");
  EXPECT_EQ(alts[0].guard[1].kind, Condition::Kind::Equal);
  EXPECT_EQ(alts[0].guard[1].value.s, "fast");
  EXPECT_EQ(alts[0].guard[2].kind, Condition::Kind::NotEqual);
  EXPECT_EQ(alts[0].guard[2].value.i, 2);
  EXPECT_TRUE(alts[1].guard.empty());
  ASSERT_EQ(alts[1].fn.nodes.size(), 4u);
  ASSERT_EQ(alts[1].node_guards.size(), 4u);
  EXPECT_TRUE(alts[1].node_guards[0].empty());
  ASSERT_EQ(alts[1].node_guards[1].size(), 2u);
  EXPECT_EQ(alts[1].node_guards[1][1].name, std::string(kElemTypeMarker) + "A");
  EXPECT_EQ(alts[1].node_guards[1][1].kind, Condition::Kind::NotEqual);
  EXPECT_EQ(alts[1].node_guards[1][1].value.i, 9);
  EXPECT_EQ(alts[1].node_guards[2].size(), 3u);  // nested: every enclosing guard
  EXPECT_TRUE(alts[1].node_guards[3].empty());
}

}  // namespace
}  // namespace sonnx::text
