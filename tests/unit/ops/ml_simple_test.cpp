// The ai.onnx.ml operators Normalizer, Imputer, OneHotEncoder, CategoryMapper and
// FeatureVectorizer (version 1 each): their kernels, the decisions of spec/ops/<Op>.md, their
// malformed attributes and their shape rules. Every expected value is worked out by hand in a
// comment from Operators-ml.md's formulas (or the decision it tests).
#include <cmath>
#include <limits>
#include <string>
#include <vector>

#include "reference/infer/infer.h"
#include "reference/model/text_syntax.h"
#include "reference/ops/op_record.h"
#include "tests/unit/infer_text_util.h"
#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

Value mlsimple_strings(const Shape& shape, const std::vector<std::string>& s) {
  return Value(Tensor::from_vector<std::string>(shape, s));
}

TEST(MlSimpleRecords, EachVersionHasAKernelAShapeRuleAndParameters) {
  for (const char* op : {"Normalizer", "Imputer", "OneHotEncoder", "CategoryMapper", "FeatureVectorizer"}) {
    const OpRecord* r = OpRecords::instance().find("ai.onnx.ml", op, 1);
    ASSERT_NE(r, nullptr) << op;
    EXPECT_TRUE(r->kernel.has_value()) << op;
    EXPECT_NE(r->shape_rule, nullptr) << op;
    EXPECT_NE(r->params, nullptr) << op;
  }
}

// ---------------------------------------------------------------------------------------------
// Normalizer

TEST(MlSimpleOp, NormalizerMaxDividesEachRowByItsSignedLargestValue) {
  // Row 0: max 4 -> {1/4, 2/4, 4/4}. Row 1: the largest value is 1 (not |-4|) -> unchanged.
  // Row 2: all negative, max -1 -> the signs flip: {2, 4, 1}.
  Value y = run_ml("Normalizer", 1, {tensor<float>({3, 3}, {1, 2, 4, -4, -2, 1, -2, -4, -1})}, {})[0];
  EXPECT_EQ(y.tensor.dtype(), DType::Float);
  EXPECT_EQ(y.tensor.shape(), (Shape{3, 3}));
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{0.25f, 0.5f, 1, -4, -2, 1, 2, 4, 1}));
}

TEST(MlSimpleOp, NormalizerZeroDivisorLeavesTheRow) {
  // MAX of {0, -3, 0} is 0; L1 and L2 of {0, 0} are 0: Y == X.
  Value m = run_ml("Normalizer", 1, {tensor<float>({1, 3}, {0, -3, 0})}, {attr_string("norm", "MAX")})[0];
  EXPECT_EQ(values_of<float>(m), (std::vector<float>{0, -3, 0}));
  Value l1 = run_ml("Normalizer", 1, {tensor<int32_t>({2, 2}, {0, 0, 1, 3})}, {attr_string("norm", "L1")})[0];
  EXPECT_EQ(values_of<float>(l1), (std::vector<float>{0, 0, 0.25f, 0.75f}));  // row 1: 1/4, 3/4
  Value l2 = run_ml("Normalizer", 1, {tensor<double>({2}, {0, 0})}, {attr_string("norm", "L2")})[0];
  EXPECT_EQ(values_of<float>(l2), (std::vector<float>{0, 0}));
}

TEST(MlSimpleOp, NormalizerL1SumsAbsoluteValues) {
  // |1| + |-3| + |4| = 8 -> {1/8, -3/8, 4/8}, exact in float.
  Value y = run_ml("Normalizer", 1, {tensor<float>({1, 3}, {1, -3, 4})}, {attr_string("norm", "L1")})[0];
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{0.125f, -0.375f, 0.5f}));
  // A [C] vector of int64 is one row: 1 + 1 + 2 = 4.
  Value v = run_ml("Normalizer", 1, {tensor<int64_t>({3}, {1, 1, 2})}, {attr_string("norm", "L1")})[0];
  EXPECT_EQ(v.tensor.shape(), (Shape{3}));
  EXPECT_EQ(values_of<float>(v), (std::vector<float>{0.25f, 0.25f, 0.5f}));
}

TEST(MlSimpleOp, NormalizerL2KeepsSignsAndDoesNotOverflow) {
  // sqrt(3^2 + 4^2) = 5 -> {3/5, -4/5}: each rounded once to float.
  Value y = run_ml("Normalizer", 1, {tensor<float>({1, 2}, {3, -4})}, {attr_string("norm", "L2")})[0];
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{static_cast<float>(3.0 / 5.0), static_cast<float>(-4.0 / 5.0)}));
  // Squares of 3e200 overflow double; the norm 5e200 does not, so the result is the same.
  Value big = run_ml("Normalizer", 1, {tensor<double>({2}, {3e200, -4e200})}, {attr_string("norm", "L2")})[0];
  expect_floats_near(big, {0.6f, -0.8f}, 1e-7f);
}

TEST(MlSimpleOp, NormalizerNaNMakesItsRowNaN) {
  // Row 0 holds a NaN: its divisor is NaN, so every element is. Row 1, {0, 0}, has a zero
  // divisor under every norm and stays.
  for (const char* norm : {"MAX", "L1", "L2"}) {
    Value y = run_ml("Normalizer", 1, {tensor<float>({2, 2}, {1, kNaN, 0, 0})}, {attr_string("norm", norm)})[0];
    std::vector<float> v = values_of<float>(y);
    EXPECT_TRUE(std::isnan(v[0]) && std::isnan(v[1])) << norm;
    EXPECT_EQ(v[2], 0.0f) << norm;
    EXPECT_EQ(v[3], 0.0f) << norm;
  }
  // norm defaults to MAX: {1/2, 2/2}.
  Value m = run_ml("Normalizer", 1, {tensor<float>({1, 2}, {1, 2})}, {})[0];
  EXPECT_EQ(values_of<float>(m), (std::vector<float>{0.5f, 1}));
}

TEST(MlSimpleOp, NormalizerMalformedTraps) {
  expect_trap(
      [] {
        run_ml("Normalizer", 1, {tensor<float>({2}, {1, 2})}, {attr_string("norm", "L3")});
      },
      "norm must be MAX, L1 or L2");
  expect_trap([] { run_ml("Normalizer", 1, {tensor<float>({1, 1, 2}, {1, 2})}, {}); }, "[N, C] or [C]");
  expect_trap([] { run_ml("Normalizer", 1, {tensor<uint8_t>({2}, {1, 2})}, {}); }, "float, double, int64 or int32");
}

// ---------------------------------------------------------------------------------------------
// Imputer

TEST(MlSimpleOp, ImputerReplacesNaNPerFeature) {
  // replaced NaN, one imputed value per column: column j's NaN becomes {10, 20, 30}[j].
  Value y = run_ml("Imputer", 1, {tensor<float>({2, 3}, {kNaN, 1, kNaN, 2, kNaN, 3})},
                   {attr_floats("imputed_value_floats", {10, 20, 30}), attr_float("replaced_value_float", kNaN)})[0];
  EXPECT_EQ(y.tensor.dtype(), DType::Float);
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{10, 1, 30, 2, 20, 3}));
  // A NaN of another sign and payload is a NaN too; double X.
  const double other_nan = -std::numeric_limits<double>::quiet_NaN();
  Value d = run_ml("Imputer", 1, {tensor<double>({3}, {other_nan, 2, std::nan("7")})},
                   {attr_floats("imputed_value_floats", {-1}), attr_float("replaced_value_float", kNaN)})[0];
  EXPECT_EQ(d.tensor.dtype(), DType::Double);
  EXPECT_EQ(values_of<double>(d), (std::vector<double>{-1, 2, -1}));
}

TEST(MlSimpleOp, ImputerOneValueForEveryFeatureComparedByValue) {
  // replaced -1, imputed 7 everywhere; a NaN is not -1 and stays.
  Value y = run_ml("Imputer", 1, {tensor<float>({2, 2}, {-1, 5, kNaN, -1})},
                   {attr_floats("imputed_value_floats", {7}), attr_float("replaced_value_float", -1)})[0];
  std::vector<float> v = values_of<float>(y);
  EXPECT_EQ(v[0], 7);
  EXPECT_EQ(v[1], 5);
  EXPECT_TRUE(std::isnan(v[2]));
  EXPECT_EQ(v[3], 7);
  // replaced_value_float defaults to 0, and -0.0 equals 0.
  Value z = run_ml("Imputer", 1, {tensor<float>({2}, {-0.0f, 1})}, {attr_floats("imputed_value_floats", {9})})[0];
  EXPECT_EQ(values_of<float>(z), (std::vector<float>{9, 1}));
  // Rank 3: the features are the last axis ({1, 2} per column).
  Value r3 = run_ml("Imputer", 1, {tensor<float>({2, 1, 2}, {0, 0, 3, 0})}, {attr_floats("imputed_value_floats", {1, 2})})[0];
  EXPECT_EQ(values_of<float>(r3), (std::vector<float>{1, 2, 3, 2}));
}

TEST(MlSimpleOp, ImputerIntegers) {
  // replaced_value_int64 defaults to 0: column 0 gets 1, column 1 gets 2.
  Value y = run_ml("Imputer", 1, {tensor<int64_t>({2, 2}, {0, 5, 7, 0})}, {attr_ints("imputed_value_int64s", {1, 2})})[0];
  EXPECT_EQ(y.tensor.dtype(), DType::Int64);
  EXPECT_EQ(values_of<int64_t>(y), (std::vector<int64_t>{1, 5, 7, 2}));
  Value i = run_ml("Imputer", 1, {tensor<int32_t>({3}, {-1, 4, -1})},
                   {attr_ints("imputed_value_int64s", {-7}), attr_int("replaced_value_int64", -1)})[0];
  EXPECT_EQ(i.tensor.dtype(), DType::Int32);
  EXPECT_EQ(values_of<int32_t>(i), (std::vector<int32_t>{-7, 4, -7}));
}

TEST(MlSimpleOp, ImputerMalformedTraps) {
  const Value x = tensor<float>({2, 3}, {1, 2, 3, 4, 5, 6});
  expect_trap([&] { run_ml("Imputer", 1, {x}, {}); }, "exactly one of imputed_value_floats and imputed_value_int64s");
  expect_trap(
      [&] {
        run_ml("Imputer", 1, {x}, {attr_floats("imputed_value_floats", {1}), attr_ints("imputed_value_int64s", {1})});
      },
      "exactly one");
  expect_trap([&] { run_ml("Imputer", 1, {x}, {attr_ints("imputed_value_int64s", {1})}); }, "needs an int64 or int32 X");
  expect_trap([] { run_ml("Imputer", 1, {tensor<int64_t>({1}, {0})}, {attr_floats("imputed_value_floats", {1})}); },
              "needs a float or double X");
  expect_trap([&] { run_ml("Imputer", 1, {x}, {attr_floats("imputed_value_floats", {1, 2})}); }, "2 entries; X has 3 features");
  expect_trap([] { run_ml("Imputer", 1, {tensor<int32_t>({1}, {0})}, {attr_ints("imputed_value_int64s", {int64_t{1} << 40})}); },
              "does not fit int32");
  expect_trap([] { run_ml("Imputer", 1, {Value(Tensor::scalar<float>(0))}, {attr_floats("imputed_value_floats", {1})}); },
              "at least one dimension");
}

// ---------------------------------------------------------------------------------------------
// OneHotEncoder

TEST(MlSimpleOp, OneHotEncoderIntegersAndStrings) {
  // cats {5, 2, 9}: 2 is position 1, 5 position 0 -> rows {0,1,0} and {1,0,0}.
  Value y = run_ml("OneHotEncoder", 1, {tensor<int64_t>({2}, {2, 5})}, {attr_ints("cats_int64s", {5, 2, 9})})[0];
  EXPECT_EQ(y.tensor.dtype(), DType::Float);
  EXPECT_EQ(y.tensor.shape(), (Shape{2, 3}));
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{0, 1, 0, 1, 0, 0}));
  // [2, 2] strings, cats {"a", "b"}: "c" is no category and gives zeros (zeros = 1 by default).
  Value s = run_ml("OneHotEncoder", 1, {mlsimple_strings({2, 2}, {"b", "a", "c", "b"})},
                   {attr_strings("cats_strings", {"a", "b"})})[0];
  EXPECT_EQ(s.tensor.shape(), (Shape{2, 2, 2}));
  EXPECT_EQ(values_of<float>(s), (std::vector<float>{0, 1, 1, 0, 0, 0, 0, 1}));
  // int32, and a scalar X: shape [|cats|].
  Value i = run_ml("OneHotEncoder", 1, {Value(Tensor::scalar<int32_t>(9))}, {attr_ints("cats_int64s", {5, 2, 9})})[0];
  EXPECT_EQ(i.tensor.shape(), (Shape{3}));
  EXPECT_EQ(values_of<float>(i), (std::vector<float>{0, 0, 1}));
}

TEST(MlSimpleOp, OneHotEncoderTruncatesFloatsAndTakesTheLastOfRepeatedCategories) {
  // cats {2, 0}: 2.7 -> 2 (position 0); -0.5 -> 0 (position 1); NaN and 1e300 are no category.
  Value y = run_ml("OneHotEncoder", 1, {tensor<double>({4}, {2.7, -0.5, std::nan(""), 1e300})},
                   {attr_ints("cats_int64s", {2, 0})})[0];
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{1, 0, 0, 1, 0, 0, 0, 0}));
  Value f = run_ml("OneHotEncoder", 1, {tensor<float>({1}, {-2.9f})}, {attr_ints("cats_int64s", {-3, -2})})[0];
  EXPECT_EQ(values_of<float>(f), (std::vector<float>{0, 1}));  // -2.9 -> -2, not -3
  // cats {4, 4}: 4 is the last position, 1.
  Value r = run_ml("OneHotEncoder", 1, {tensor<int64_t>({1}, {4})}, {attr_ints("cats_int64s", {4, 4})})[0];
  EXPECT_EQ(values_of<float>(r), (std::vector<float>{0, 1}));
}

TEST(MlSimpleOp, OneHotEncoderUnknownWithoutZerosAndMalformedTrap) {
  expect_trap(
      [] {
        run_ml("OneHotEncoder", 1, {tensor<int64_t>({2}, {1, 3})}, {attr_ints("cats_int64s", {1}), attr_int("zeros", 0)});
      },
      "element 1 of X is no category");
  // zeros = 0 with every element known is fine.
  Value y = run_ml("OneHotEncoder", 1, {tensor<int64_t>({1}, {1})}, {attr_ints("cats_int64s", {1}), attr_int("zeros", 0)})[0];
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{1}));
  expect_trap([] { run_ml("OneHotEncoder", 1, {tensor<int64_t>({1}, {1})}, {}); },
              "exactly one of cats_int64s and cats_strings");
  expect_trap(
      [] {
        run_ml("OneHotEncoder", 1, {tensor<int64_t>({1}, {1})},
               {attr_ints("cats_int64s", {1}), attr_strings("cats_strings", {"a"})});
      },
      "exactly one");
  expect_trap([] { run_ml("OneHotEncoder", 1, {mlsimple_strings({1}, {"a"})}, {attr_ints("cats_int64s", {1})}); },
              "a string X needs cats_strings");
  expect_trap([] { run_ml("OneHotEncoder", 1, {tensor<float>({1}, {1})}, {attr_strings("cats_strings", {"a"})}); },
              "a numeric X needs cats_int64s");
  expect_trap(
      [] {
        run_ml("OneHotEncoder", 1, {tensor<int64_t>({1}, {1})}, {attr_ints("cats_int64s", {1}), attr_int("zeros", 2)});
      },
      "zeros must be 0 or 1");
}

// ---------------------------------------------------------------------------------------------
// CategoryMapper

TEST(MlSimpleOp, CategoryMapperBothDirections) {
  const auto ints = attr_ints("cats_int64s", {1, 2, 3});
  const auto strs = attr_strings("cats_strings", {"a", "b", "c"});
  // Strings to int64: "z" is absent -> default_int64 (-1, or the one given).
  Value s = run_ml("CategoryMapper", 1, {mlsimple_strings({3}, {"c", "z", "a"})}, {ints, strs})[0];
  EXPECT_EQ(s.tensor.dtype(), DType::Int64);
  EXPECT_EQ(values_of<int64_t>(s), (std::vector<int64_t>{3, -1, 1}));
  Value s7 = run_ml("CategoryMapper", 1, {mlsimple_strings({3}, {"c", "z", "a"})},
                    {ints, strs, attr_int("default_int64", 7)})[0];
  EXPECT_EQ(values_of<int64_t>(s7), (std::vector<int64_t>{3, 7, 1}));
  // int64 to strings, shape kept; 4 is absent -> "_Unused". Both defaults given: the string one is used.
  Value i = run_ml("CategoryMapper", 1, {tensor<int64_t>({2, 2}, {1, 4, 3, 2})}, {ints, strs})[0];
  EXPECT_EQ(i.tensor.shape(), (Shape{2, 2}));
  EXPECT_EQ(values_of<std::string>(i), (std::vector<std::string>{"a", "_Unused", "c", "b"}));
  Value q = run_ml("CategoryMapper", 1, {tensor<int64_t>({1}, {4})},
                   {ints, strs, attr_string("default_string", "?"), attr_int("default_int64", 7)})[0];
  EXPECT_EQ(values_of<std::string>(q), (std::vector<std::string>{"?"}));
}

TEST(MlSimpleOp, CategoryMapperRepeatedKeysTakeTheLastPair) {
  // Pairs (1, "x"), (1, "y"), (2, "x"): 1 -> "y"; "x" -> 2.
  const auto ints = attr_ints("cats_int64s", {1, 1, 2});
  const auto strs = attr_strings("cats_strings", {"x", "y", "x"});
  EXPECT_EQ(values_of<std::string>(run_ml("CategoryMapper", 1, {tensor<int64_t>({1}, {1})}, {ints, strs})[0]),
            (std::vector<std::string>{"y"}));
  EXPECT_EQ(values_of<int64_t>(run_ml("CategoryMapper", 1, {mlsimple_strings({1}, {"x"})}, {ints, strs})[0]),
            (std::vector<int64_t>{2}));
}

TEST(MlSimpleOp, CategoryMapperMalformedTraps) {
  expect_trap(
      [] {
        run_ml("CategoryMapper", 1, {tensor<int64_t>({1}, {1})},
               {attr_ints("cats_int64s", {1, 2}), attr_strings("cats_strings", {"a"})});
      },
      "of one length");
  expect_trap(
      [] {
        run_ml("CategoryMapper", 1, {tensor<float>({1}, {1})},
               {attr_ints("cats_int64s", {1}), attr_strings("cats_strings", {"a"})});
      },
      "X must be string or int64");
}

// ---------------------------------------------------------------------------------------------
// FeatureVectorizer

TEST(MlSimpleOp, FeatureVectorizerPadsAndTruncates) {
  // X1 [2, 2] into 3 columns (one 0 added), X2 [2, 3] into 2 columns (its last dropped):
  // row 0 = {1, 2, 0, 5, 6}, row 1 = {3, 4, 0, 8, 9}.
  Value y = run_ml("FeatureVectorizer", 1, {tensor<float>({2, 2}, {1, 2, 3, 4}), tensor<float>({2, 3}, {5, 6, 7, 8, 9, 10})},
                   {attr_ints("inputdimensions", {3, 2})})[0];
  EXPECT_EQ(y.tensor.dtype(), DType::Float);
  EXPECT_EQ(y.tensor.shape(), (Shape{2, 5}));
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{1, 2, 0, 5, 6, 3, 4, 0, 8, 9}));
}

TEST(MlSimpleOp, FeatureVectorizerVectorsAreOneRowAndValuesRoundOnce) {
  // [2] and [1, 1] int64: one row {1, 2, 3}. 2^24 + 1 is not a float: it rounds to even, 2^24.
  Value y = run_ml("FeatureVectorizer", 1, {tensor<int64_t>({2}, {1, 16777217}), tensor<int64_t>({1, 1}, {3})},
                   {attr_ints("inputdimensions", {2, 1})})[0];
  EXPECT_EQ(y.tensor.shape(), (Shape{1, 3}));
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{1, 16777216, 3}));
}

TEST(MlSimpleOp, FeatureVectorizerMalformedTraps) {
  const Value a = tensor<float>({2, 1}, {1, 2});
  expect_trap([&] { run_ml("FeatureVectorizer", 1, {a}, {}); }, "inputdimensions must be given");
  expect_trap(
      [&] {
        run_ml("FeatureVectorizer", 1, {a}, {attr_ints("inputdimensions", {1, 1})});
      },
      "1 inputs but 2 inputdimensions entries");
  expect_trap([&] { run_ml("FeatureVectorizer", 1, {a}, {attr_ints("inputdimensions", {-1})}); }, "must not be negative");
  expect_trap(
      [&] {
        run_ml("FeatureVectorizer", 1, {a, tensor<float>({3, 1}, {1, 2, 3})}, {attr_ints("inputdimensions", {1, 1})});
      },
      "input 1 has 3 rows, input 0 has 2");
  // A vector is one row: no broadcasting against two.
  expect_trap(
      [&] {
        run_ml("FeatureVectorizer", 1, {a, tensor<float>({1}, {1})}, {attr_ints("inputdimensions", {1, 1})});
      },
      "input 1 has 1 rows");
  expect_trap(
      [&] {
        run_ml("FeatureVectorizer", 1, {a, tensor<double>({2, 1}, {1, 2})}, {attr_ints("inputdimensions", {1, 1})});
      },
      "different element types");
  expect_trap(
      [] {
        run_ml("FeatureVectorizer", 1, {tensor<float>({1, 1, 1}, {1})}, {attr_ints("inputdimensions", {1})});
      },
      "[N, C] or [C]");
}

// ---------------------------------------------------------------------------------------------
// Shape rules

// The first inference error's message ("" when none).
std::string mlsimple_infer_error(const char* text) {
  InferenceResult r = infer_text(text);
  return r.errors.empty() ? "" : r.errors[0].message;
}

TEST(MlSimpleShape, OutputTypesAndShapes) {
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (int32[N,3] X) => (float Y) { Y = ai.onnx.ml.Normalizer<norm = "L2">(X) })",
                     "Y"),
            "tensor(float)[N,3]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (double[N,3] X) => (double Y) { Y = ai.onnx.ml.Imputer<imputed_value_floats = [1.0, 2.0, 3.0]>(X) })",
                     "Y"),
            "tensor(double)[N,3]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (string[N,2] X) => (float Y) { Y = ai.onnx.ml.OneHotEncoder<cats_strings = ["a", "b", "c"]>(X) })",
                     "Y"),
            "tensor(float)[N,2,3]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (string[4] X) => (int64 Y) { Y = ai.onnx.ml.CategoryMapper<cats_int64s = [1], cats_strings = ["a"]>(X) })",
                     "Y"),
            "tensor(int64)[4]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (int64[2,N] X) => (string Y) { Y = ai.onnx.ml.CategoryMapper<cats_int64s = [1], cats_strings = ["a"]>(X) })",
                     "Y"),
            "tensor(string)[2,N]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[N,2] A, float[N,5] B) => (float Y) { Y = ai.onnx.ml.FeatureVectorizer<inputdimensions = [3, 4]>(A, B) })",
                     "Y"),
            "tensor(float)[N,7]");
  EXPECT_EQ(inferred(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (int64[3] A) => (float Y) { Y = ai.onnx.ml.FeatureVectorizer<inputdimensions = [2]>(A) })",
                     "Y"),
            "tensor(float)[1,2]");
}

TEST(MlSimpleShape, MalformedNodesAreInferenceErrors) {
  EXPECT_NE(mlsimple_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[N,3] X) => (float Y) { Y = ai.onnx.ml.Imputer<imputed_value_floats = [1.0, 2.0]>(X) })")
                .find("2 entries; X has 3 features"),
            std::string::npos);
  EXPECT_NE(mlsimple_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[2,3,4] X) => (float Y) { Y = ai.onnx.ml.Normalizer(X) })")
                .find("[N, C] or [C]"),
            std::string::npos);
  EXPECT_NE(mlsimple_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (int64[2] X) => (float Y) { Y = ai.onnx.ml.OneHotEncoder<cats_strings = ["a"]>(X) })")
                .find("a numeric X needs cats_int64s"),
            std::string::npos);
  EXPECT_NE(mlsimple_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[2,1] A, float[3,1] B) => (float Y) { Y = ai.onnx.ml.FeatureVectorizer<inputdimensions = [1, 1]>(A, B) })")
                .find("rows of input 1"),
            std::string::npos);
  EXPECT_NE(mlsimple_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[2] X) => (string Y) { Y = ai.onnx.ml.CategoryMapper<cats_int64s = [1], cats_strings = ["a"]>(X) })")
                .find("X must be string or int64"),
            std::string::npos);
}

}  // namespace
}  // namespace sonnx::testing
