// sonnx's type and shape inference (reference/infer): the engine, partial values of shape
// computations, subgraphs, function bodies, declared types and inference errors. Every expected
// type is worked out by hand from the operator definitions in the ONNX specification.
#include <gtest/gtest.h>

#include "reference/infer/infer.h"
#include "infer_text_util.h"

namespace sonnx {
namespace {

Model parse(const char* text) { return testing::parse_text_model(text); }

std::string type_of(const InferenceResult& r, const std::string& name) {
  auto it = r.types.find(name);
  return it == r.types.end() ? "absent" : it->second.str();
}

std::string partial_of(const InferenceResult& r, const std::string& name) {
  auto it = r.partials.find(name);
  if (it == r.partials.end()) return "none";
  std::string s = "[";
  for (size_t i = 0; i < it->second.elems.size(); ++i) {
    const Dim& d = it->second.elems[i];
    s += (i ? "," : "") + (d.value ? std::to_string(*d.value) : d.param.empty() ? "?" : d.param);
  }
  return s + "]";
}

// Reshape(X, Concat(Unsqueeze(Gather(Shape(X), 0)), [-1])) with X [N,3,4,5]: the shape vector is
// [N, -1], and -1 is 3*4*5 = 60 once the symbol N cancels.
TEST(Infer, ShapeGatherConcatReshapeWithSymbolicBatch) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
agraph (float[N,3,4,5] X) => (float Y) {
  s = Shape(X)
  zero = Constant<value_int = 0>()
  b = Gather(s, zero)
  axes = Constant<value_ints = [0]>()
  b1 = Unsqueeze(b, axes)
  minus1 = Constant<value_ints = [-1]>()
  target = Concat<axis = 0>(b1, minus1)
  Y = Reshape(X, target)
})");
  InferenceResult r = infer_model(m);
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(type_of(r, "s"), "tensor(int64)[4]");
  EXPECT_EQ(partial_of(r, "s"), "[N,3,4,5]");
  EXPECT_EQ(type_of(r, "b"), "tensor(int64)[]");
  EXPECT_EQ(partial_of(r, "b"), "[N]");
  EXPECT_EQ(partial_of(r, "target"), "[N,-1]");
  EXPECT_EQ(type_of(r, "target"), "tensor(int64)[2]");
  EXPECT_EQ(type_of(r, "Y"), "tensor(float)[N,60]");
}

// Range(0, 10, 3) = [0, 3, 6, 9]: ceil((10 - 0) / 3) = 4 elements.
TEST(Infer, RangeLengthFromKnownScalars) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
agraph (float[2] X) => (int64 R) {
  start = Constant<value_int = 0>()
  limit = Constant<value_int = 10>()
  delta = Constant<value_int = 3>()
  R = Range(start, limit, delta)
})");
  InferenceResult r = infer_model(m);
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(type_of(r, "R"), "tensor(int64)[4]");
  EXPECT_EQ(partial_of(r, "R"), "[0,3,6,9]");
}

// ConstantOfShape(Concat(Slice(Shape(X), 1, 3), [2])) with X [N,3,4]: dims [3,4,2], float.
TEST(Infer, ConstantOfShapeFromSlicedShape) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
agraph (float[N,3,4] X) => (float C) {
  s = Shape(X)
  starts = Constant<value_ints = [1]>()
  ends = Constant<value_ints = [3]>()
  tail = Slice(s, starts, ends)
  two = Constant<value_ints = [2]>()
  dims = Concat<axis = 0>(tail, two)
  C = ConstantOfShape(dims)
})");
  InferenceResult r = infer_model(m);
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(partial_of(r, "tail"), "[3,4]");
  EXPECT_EQ(type_of(r, "C"), "tensor(float)[3,4,2]");
}

// Integer arithmetic on a shape vector: Mul(Shape(X), 2) with X [N,5] is [?,10] (N*2 is unknown,
// 5*2 = 10); Sub of 0 keeps the symbol.
TEST(Infer, ArithmeticOnPartialValues) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 14]>
agraph (float[N,5] X) => (int64 P, int64 Q) {
  s = Shape(X)
  two = Constant<value_int = 2>()
  P = Mul(s, two)
  zero = Constant<value_int = 0>()
  Q = Sub(s, zero)
})");
  InferenceResult r = infer_model(m);
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(partial_of(r, "P"), "[?,10]");
  EXPECT_EQ(partial_of(r, "Q"), "[N,5]");
  EXPECT_EQ(type_of(r, "P"), "tensor(int64)[2]");
}

// If: then gives float [2,3], else float [2,4]: the output is float [2,?].
TEST(Infer, IfOutputIsTheUnionOfTheBranches) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
agraph (bool c) => (float Y) {
  Y = If(c) <
    then_branch = g1 () => (float[2,3] a) { a = Constant<value = float[2,3] {1,2,3,4,5,6}>() },
    else_branch = g2 () => (float[2,4] b) { b = Constant<value = float[2,4] {1,2,3,4,5,6,7,8}>() }
  >
})");
  InferenceResult r = infer_model(m);
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(type_of(r, "Y"), "tensor(float)[2,?]");
}

// Loop: the loop-carried int64 scalar stays a scalar; the scan output float [3] stacks to [?,3]
// (the number of iterations is not part of the type).
TEST(Infer, LoopCarriedAndScanOutputs) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
agraph (int64 trip) => (int64 acc, float scan) {
  one = Constant<value_int = 1>()
  cond = Cast<to = 9>(one)
  acc, scan = Loop(trip, cond, one) <
    body = body (int64 i, bool c_in, int64 a_in) => (bool c_out, int64 a_out, float s_out) {
      c_out = Identity(c_in)
      k = Constant<value_int = 1>()
      a_out = Add(a_in, k)
      s_out = Constant<value = float[3] {1,2,3}>()
    }
  >
})");
  InferenceResult r = infer_model(m);
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(type_of(r, "acc"), "tensor(int64)[]");
  EXPECT_EQ(type_of(r, "scan"), "tensor(float)[?,3]");
}

// A model-local function with no rule of its own is inferred through its body.
TEST(Infer, ThroughAFunctionBody) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13, "local" : 1]>
agraph (float[2,3] X) => (float Y) {
  Y = local.Twice(X)
}
<domain: "local", opset_import: ["" : 13]>
Twice (x) => (y) {
  t = Transpose(x)
  y = Add(t, t)
})");
  InferenceResult r = infer_model(m);
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(type_of(r, "Y"), "tensor(float)[3,2]");
}

// Broadcasting [2,3] with [4,3] is an error naming the node; so is reshaping 6 elements to 4.
TEST(Infer, InconsistenciesAreErrors) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
agraph (float[2,3] A, float[4,3] B) => (float Y, float Z) {
  Y = Add(A, B)
  four = Constant<value_ints = [4]>()
  Z = Reshape(A, four)
})");
  InferenceResult r = infer_model(m);
  ASSERT_EQ(r.errors.size(), 2u) << dump_inference(r);
  EXPECT_EQ(r.errors[0].op_type, "Add");
  EXPECT_NE(r.errors[0].message.find("broadcast"), std::string::npos) << r.errors[0].message;
  EXPECT_EQ(r.errors[1].op_type, "Reshape");
}

// Declared value_info refines unknown dims; a declaration that contradicts inference is an error.
TEST(Infer, DeclaredTypesRefineAndConflict) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
agraph (float[N,3] X) => (float[7,3] Y, int64 Z) {
  Y = Relu(X)
  Z = Relu(X)
})");
  InferenceResult r = infer_model(m);
  EXPECT_EQ(type_of(r, "Y"), "tensor(float)[7,3]");
  ASSERT_EQ(r.errors.size(), 1u) << dump_inference(r);
  EXPECT_NE(r.errors[0].message.find("element type"), std::string::npos) << r.errors[0].message;
}

// A hostile shape gives an error, not an allocation: ConstantOfShape of [2^50, 2^50].
TEST(Infer, AbsurdShapeIsAnErrorNotAnAllocation) {
  Model m = parse(R"(<ir_version: 8, opset_import: ["" : 13]>
agraph (float[1] X) => (float C) {
  dims = Constant<value_ints = [1125899906842624, 1125899906842624]>()
  C = ConstantOfShape(dims)
})");
  InferenceResult r = infer_model(m);
  ASSERT_EQ(r.errors.size(), 1u) << dump_inference(r);
  EXPECT_EQ(r.errors[0].op_type, "ConstantOfShape");
}

// Rules apply to exactly the versions they were registered for.
// ImageDecoder-20: [height, width, channels], the sizes known only from the data, channels 1 for
// Grayscale and 3 otherwise (RGB by default). RegexFullMatch-20: bool of X's shape.
TEST(Infer, ImageDecoderChannelsAndRegexFullMatchShape) {
  Model m = parse(R"(<ir_version: 9, opset_import: ["" : 20]>
agraph (uint8[N] E, string[2,K] S) => (uint8 G, uint8 C, bool B) {
  G = ImageDecoder<pixel_format = "Grayscale">(E)
  C = ImageDecoder(E)
  B = RegexFullMatch<pattern = "a+">(S)
})");
  InferenceResult r = infer_model(m);
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(type_of(r, "G"), "tensor(uint8)[?,?,1]");
  EXPECT_EQ(type_of(r, "C"), "tensor(uint8)[?,?,3]");
  EXPECT_EQ(type_of(r, "B"), "tensor(bool)[2,K]");
}

TEST(Infer, RulesAreKeyedByExactVersions) {
  auto& reg = OpRecords::instance();
  EXPECT_NE(reg.shape_rule("", "Relu", 14), nullptr);
  EXPECT_NE(reg.shape_rule("", "Relu", 6), nullptr);
  EXPECT_EQ(reg.shape_rule("", "Relu", 7), nullptr);  // no Relu-7 exists
  EXPECT_EQ(reg.shape_rule("", "Relu", 15), nullptr);
  EXPECT_NE(reg.shape_rule("ai.onnx", "Reshape", 25), nullptr);
}

}  // namespace
}  // namespace sonnx
