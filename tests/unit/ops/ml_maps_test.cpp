// The ai.onnx.ml operators on maps: ZipMap, DictVectorizer and CastMap (version 1 each), their
// shape rules, and the decisions of spec/ops/ZipMap.md, DictVectorizer.md and CastMap.md. Expected
// values are worked out by hand from the operator texts (Operators-ml.md) in the comments; a map's
// entries are compared in increasing key order, the order every map is kept in.
#include <cmath>
#include <string>
#include <vector>

#include "tests/unit/infer_text_util.h"
#include "tests/unit/op_test_util.h"

namespace sonnx::testing {
namespace {

template <class K, class V>
Value maps_map(const std::vector<K>& keys, const std::vector<V>& values) {
  return Value::make_map(Tensor::from_vector<K>({static_cast<int64_t>(keys.size())}, keys),
                         Tensor::from_vector<V>({static_cast<int64_t>(values.size())}, values));
}

template <class T>
std::vector<T> maps_keys(const Value& m) {
  auto s = m.map_keys().values<T>();
  return {s.begin(), s.end()};
}
template <class T>
std::vector<T> maps_values(const Value& m) {
  auto s = m.map_values().values<T>();
  return {s.begin(), s.end()};
}

// The first inference error's message ("" when none).
std::string maps_infer_error(const char* text) {
  InferenceResult r = infer_text(text);
  return r.errors.empty() ? "" : r.errors[0].message;
}

// ---------------------------------------------------------------------------------------------
// ZipMap

TEST(MlMapsOp, ZipMapMakesOneMapPerRowKeyedByTheInt64Labels) {
  // Labels 10, 2, 7 name the columns. Row 0 {10: 0.25, 2: 0.5, 7: 0.25} in key order 2, 7, 10 is
  // [0.5, 0.25, 0.25]; row 1 {10: 1, 2: 0, 7: -2} is [0, -2, 1].
  Value z = run_ml("ZipMap", 1, {tensor<float>({2, 3}, {0.25f, 0.5f, 0.25f, 1, 0, -2})},
                   {attr_ints("classlabels_int64s", {10, 2, 7})})[0];
  ASSERT_TRUE(z.is_sequence());
  ASSERT_EQ(z.sequence.size(), 2u);
  for (const Value& m : z.sequence) {
    ASSERT_TRUE(m.is_map());
    EXPECT_EQ(m.map_keys().dtype(), DType::Int64);
    EXPECT_EQ(m.map_values().dtype(), DType::Float);
    EXPECT_EQ(maps_keys<int64_t>(m), (std::vector<int64_t>{2, 7, 10}));
  }
  EXPECT_EQ(maps_values<float>(z.sequence[0]), (std::vector<float>{0.5f, 0.25f, 0.25f}));
  EXPECT_EQ(maps_values<float>(z.sequence[1]), (std::vector<float>{0, -2, 1}));
}

TEST(MlMapsOp, ZipMapOfAVectorIsOneMapKeyedByTheStringLabels) {
  // X [3] is one row: {"b": 1, "a": 2, "c": 3}, in key order a, b, c: [2, 1, 3].
  Value z = run_ml("ZipMap", 1, {tensor<float>({3}, {1, 2, 3})}, {attr_strings("classlabels_strings", {"b", "a", "c"})})[0];
  ASSERT_EQ(z.sequence.size(), 1u);
  const Value& m = z.sequence[0];
  EXPECT_EQ(maps_keys<std::string>(m), (std::vector<std::string>{"a", "b", "c"}));
  EXPECT_EQ(maps_values<float>(m), (std::vector<float>{2, 1, 3}));
}

TEST(MlMapsOp, ZipMapKeepsNaNAndNegativeZeroAndOfNoRowsMakesAnEmptySequence) {
  // {5: NaN, 4: -0.0}: key order 4, 5 gives [-0.0, NaN], both as they are.
  Value z = run_ml("ZipMap", 1, {tensor<float>({1, 2}, {kNaN, -0.0f})}, {attr_ints("classlabels_int64s", {5, 4})})[0];
  std::vector<float> v = maps_values<float>(z.sequence.at(0));
  EXPECT_EQ(v[0], 0.0f);
  EXPECT_TRUE(std::signbit(v[0]));
  EXPECT_TRUE(std::isnan(v[1]));
  Value empty = run_ml("ZipMap", 1, {tensor<float>({0, 2}, {})}, {attr_ints("classlabels_int64s", {1, 2})})[0];
  ASSERT_TRUE(empty.is_sequence());
  EXPECT_TRUE(empty.sequence.empty());
}

TEST(MlMapsOp, ZipMapRefusesBadLabelsAndShapes) {
  Value x = tensor<float>({1, 2}, {1, 2});
  expect_trap([&] { run_ml("ZipMap", 1, {x}, {}); }, "exactly one of");
  expect_trap(
      [&] {
        run_ml("ZipMap", 1, {x}, {attr_ints("classlabels_int64s", {1, 2}), attr_strings("classlabels_strings", {"a", "b"})});
      },
      "exactly one of");
  expect_trap([&] { run_ml("ZipMap", 1, {x}, {attr_ints("classlabels_int64s", {3, 3})}); }, "listed twice");
  expect_trap([&] { run_ml("ZipMap", 1, {x}, {attr_strings("classlabels_strings", {"a", "a"})}); }, "listed twice");
  expect_trap([&] { run_ml("ZipMap", 1, {x}, {attr_ints("classlabels_int64s", {1, 2, 3})}); }, "2 columns but there are 3");
  expect_trap(
      [&] {
        run_ml("ZipMap", 1, {tensor<float>({1, 1, 2}, {1, 2})}, {attr_ints("classlabels_int64s", {1, 2})});
      },
      "[N, C] or [C]");
  expect_trap(
      [&] {
        run_ml("ZipMap", 1, {tensor<double>({1, 2}, {1, 2})}, {attr_ints("classlabels_int64s", {1, 2})});
      },
      "X must be float");
}

TEST(MlMapsShape, ZipMapMakesASequenceOfMapsKeyedAsItsLabels) {
  InferenceResult r = infer_text(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[N, 2] X) => (seq(map(int64, float[])) Z) { Z = ai.onnx.ml.ZipMap <classlabels_int64s = [1, 2]> (X) })");
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(inferred(r, "Z"), "seq(map(int64,tensor(float)[*]))");
  // Declared with string keys, inferred with int64 keys: the merge of the two finds the conflict.
  EXPECT_NE(maps_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[N, 2] X) => (seq(map(string, float)) Z) { Z = ai.onnx.ml.ZipMap <classlabels_int64s = [1, 2]> (X) })")
                .find("key type"),
            std::string::npos);
  EXPECT_NE(maps_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[N, 3] X) => (seq(map(int64, float)) Z) { Z = ai.onnx.ml.ZipMap <classlabels_int64s = [1, 2]> (X) })")
                .find("3 columns"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// DictVectorizer

TEST(MlMapsOp, DictVectorizerFollowsTheTextsExample) {
  // string_vocabulary ["a", "c", "b", "z"] and {"a": 4, "c": 8} give [4, 8, 0, 0] (Operators-ml.md),
  // as a row [1, 4] of the value type.
  Value y = run_ml("DictVectorizer", 1, {maps_map<std::string, double>({"a", "c"}, {4, 8})},
                   {attr_strings("string_vocabulary", {"a", "c", "b", "z"})})[0];
  EXPECT_EQ(y.tensor.dtype(), DType::Double);
  EXPECT_EQ(y.tensor.shape(), (Shape{1, 4}));
  EXPECT_EQ(values_of<double>(y), (std::vector<double>{4, 8, 0, 0}));
}

TEST(MlMapsOp, DictVectorizerIgnoresKeysOutsideTheVocabularyAndFillsRepeatedWords) {
  // int64_vocabulary [5, 1, 5, 3]; X {1: "one", 5: "five", 9: "nine"}: position 0 and 2 (5) get
  // "five", 1 (1) "one", 3 (3, absent) the empty string; key 9 is in no position.
  Value y = run_ml("DictVectorizer", 1, {maps_map<int64_t, std::string>({1, 5, 9}, {"one", "five", "nine"})},
                   {attr_ints("int64_vocabulary", {5, 1, 5, 3})})[0];
  EXPECT_EQ(y.tensor.shape(), (Shape{1, 4}));
  EXPECT_EQ(values_of<std::string>(y), (std::vector<std::string>{"five", "one", "five", ""}));
  // map(int64, float) {0: 1.5, 2: -0.0} on [2, 0]: [-0.0, 1.5], the sign of zero kept.
  Value f = run_ml("DictVectorizer", 1, {maps_map<int64_t, float>({0, 2}, {1.5f, -0.0f})},
                   {attr_ints("int64_vocabulary", {2, 0})})[0];
  std::vector<float> v = values_of<float>(f);
  EXPECT_TRUE(v[0] == 0.0f && std::signbit(v[0]));
  EXPECT_EQ(v[1], 1.5f);
  // map(string, int64) on a vocabulary none of whose words is a key: all zero.
  Value z = run_ml("DictVectorizer", 1, {maps_map<std::string, int64_t>({"q"}, {7})},
                   {attr_strings("string_vocabulary", {"a", "b"})})[0];
  EXPECT_EQ(values_of<int64_t>(z), (std::vector<int64_t>{0, 0}));
}

TEST(MlMapsOp, DictVectorizerRefusesBadVocabulariesAndTypes) {
  Value m = maps_map<std::string, float>({"a"}, {1});
  expect_trap([&] { run_ml("DictVectorizer", 1, {m}, {}); }, "exactly one of");
  expect_trap(
      [&] {
        run_ml("DictVectorizer", 1, {m}, {attr_strings("string_vocabulary", {"a"}), attr_ints("int64_vocabulary", {1})});
      },
      "exactly one of");
  expect_trap([&] { run_ml("DictVectorizer", 1, {m}, {attr_ints("int64_vocabulary", {1})}); },
              "X's keys are string but the vocabulary given is int64_vocabulary");
  expect_trap([&] { run_ml("DictVectorizer", 1, {maps_map<int64_t, int64_t>({1}, {2})}, {attr_ints("int64_vocabulary", {1})}); },
              "got map(int64, int64)");
  expect_trap([&] { run_ml("DictVectorizer", 1, {maps_map<int32_t, float>({1}, {2})}, {attr_ints("int64_vocabulary", {1})}); },
              "got map(int32, float)");
  expect_trap([&] { run_ml("DictVectorizer", 1, {tensor<float>({1}, {1})}, {attr_ints("int64_vocabulary", {1})}); },
              "X must be a map");
}

TEST(MlMapsShape, DictVectorizerMakesARowOfTheValueType) {
  InferenceResult r = infer_text(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (map(string, float) X) => (float Y) { Y = ai.onnx.ml.DictVectorizer <string_vocabulary = ["a", "b", "c"]> (X) })");
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(inferred(r, "Y"), "tensor(float)[1,3]");
  EXPECT_NE(maps_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (map(int64, int64) X) => (int64 Y) { Y = ai.onnx.ml.DictVectorizer <int64_vocabulary = [1]> (X) })")
                .find("map(int64, int64)"),
            std::string::npos);
  EXPECT_NE(maps_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[3] X) => (float Y) { Y = ai.onnx.ml.DictVectorizer <int64_vocabulary = [1]> (X) })")
                .find("must be a map"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// CastMap

TEST(MlMapsOp, CastMapDenseListsTheValuesInKeyOrder) {
  // {3: 1.5, -1: 2.5, 0: -0.5} in key order -1, 0, 3: [2.5, -0.5, 1.5], 1-D.
  Value m = maps_map<int64_t, float>({3, -1, 0}, {1.5f, 2.5f, -0.5f});
  Value y = run_ml("CastMap", 1, {m}, {})[0];
  EXPECT_EQ(y.tensor.dtype(), DType::Float);
  EXPECT_EQ(y.tensor.shape(), (Shape{3}));
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{2.5f, -0.5f, 1.5f}));
}

TEST(MlMapsOp, CastMapConvertsAsCastDoes) {
  // Float to int64 truncates toward zero, NaN gives 0 (Cast's rules, support/cast.h).
  Value floats = maps_map<int64_t, float>({1, 2, 3}, {2.75f, -2.75f, kNaN});
  EXPECT_EQ(values_of<int64_t>(run_ml("CastMap", 1, {floats}, {attr_string("cast_to", "TO_INT64")})[0]),
            (std::vector<int64_t>{2, -2, 0}));
  // Float to string: the shortest decimal that reads back, plain from 1e-4 on, else scientific.
  Value printable = maps_map<int64_t, float>({0, 1, 2}, {0.5f, 100.0f, 1e-05f});
  EXPECT_EQ(values_of<std::string>(run_ml("CastMap", 1, {printable}, {attr_string("cast_to", "TO_STRING")})[0]),
            (std::vector<std::string>{"0.5", "100.0", "1e-05"}));
  // Strings to numbers: blanks around are ignored; a string to string is kept.
  Value strings = maps_map<int64_t, std::string>({2, 0}, {"7", " 1.25 "});
  EXPECT_EQ(values_of<float>(run_ml("CastMap", 1, {strings}, {attr_string("cast_to", "TO_FLOAT")})[0]),
            (std::vector<float>{1.25f, 7}));
  Value ints = maps_map<int64_t, std::string>({0, 1}, {"42", "-3"});
  EXPECT_EQ(values_of<int64_t>(run_ml("CastMap", 1, {ints}, {attr_string("cast_to", "TO_INT64")})[0]),
            (std::vector<int64_t>{42, -3}));
  EXPECT_EQ(values_of<std::string>(run_ml("CastMap", 1, {strings}, {attr_string("cast_to", "TO_STRING")})[0]),
            (std::vector<std::string>{" 1.25 ", "7"}));
  expect_trap([&] { run_ml("CastMap", 1, {maps_map<int64_t, std::string>({0}, {"seven"})}, {}); });
}

TEST(MlMapsOp, CastMapSparsePlacesEachValueAtItsKey) {
  // max_map 5, {1: 1.5, 3: 2.5}: [0, 1.5, 0, 2.5, 0].
  Value y = run_ml("CastMap", 1, {maps_map<int64_t, float>({3, 1}, {2.5f, 1.5f})},
                   {attr_string("map_form", "SPARSE"), attr_int("max_map", 5)})[0];
  EXPECT_EQ(y.tensor.shape(), (Shape{5}));
  EXPECT_EQ(values_of<float>(y), (std::vector<float>{0, 1.5f, 0, 2.5f, 0}));
  // Strings: the empty string where no key is.
  Value s = run_ml("CastMap", 1, {maps_map<int64_t, std::string>({4}, {"x"})},
                   {attr_string("map_form", "SPARSE"), attr_int("max_map", 5), attr_string("cast_to", "TO_STRING")})[0];
  EXPECT_EQ(values_of<std::string>(s), (std::vector<std::string>{"", "", "", "", "x"}));
  // The default max_map is 1; an empty map gives zeros.
  Value empty = run_ml("CastMap", 1, {maps_map<int64_t, float>({}, {})}, {attr_string("map_form", "SPARSE")})[0];
  EXPECT_EQ(values_of<float>(empty), (std::vector<float>{0}));
}

TEST(MlMapsOp, CastMapRefusesKeysOutsideTheSparseRangeAndBadAttributes) {
  Value m = maps_map<int64_t, float>({5}, {1});
  const auto sparse5 = std::vector<onnx::AttributeProto>{attr_string("map_form", "SPARSE"), attr_int("max_map", 5)};
  expect_trap([&] { run_ml("CastMap", 1, {m}, sparse5); }, "key 5 lies outside [0, max_map)");
  expect_trap([&] { run_ml("CastMap", 1, {maps_map<int64_t, float>({-1}, {1})}, sparse5); }, "key -1 lies outside");
  expect_trap([&] { run_ml("CastMap", 1, {m}, {attr_string("cast_to", "TO_DOUBLE")}); }, "cast_to must be");
  expect_trap([&] { run_ml("CastMap", 1, {m}, {attr_string("map_form", "DIAGONAL")}); }, "map_form must be");
  expect_trap(
      [&] {
        run_ml("CastMap", 1, {m}, {attr_string("map_form", "SPARSE"), attr_int("max_map", -1)});
      },
      "max_map must not be negative");
  expect_trap([&] { run_ml("CastMap", 1, {maps_map<std::string, float>({"a"}, {1})}, {}); },
              "map(int64, float) or map(int64, string)");
  expect_trap([&] { run_ml("CastMap", 1, {maps_map<int64_t, double>({1}, {1})}, {}); }, "got map(int64, double)");
  expect_trap([&] { run_ml("CastMap", 1, {tensor<float>({1}, {1})}, {}); }, "X must be a map");
}

TEST(MlMapsShape, CastMapIsOneDimensional) {
  InferenceResult r = infer_text(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (map(int64, string) X) => (int64 D, string S) {
  D = ai.onnx.ml.CastMap <cast_to = "TO_INT64"> (X)
  S = ai.onnx.ml.CastMap <cast_to = "TO_STRING", map_form = "SPARSE", max_map = 4> (X)
})");
  EXPECT_TRUE(r.errors.empty()) << dump_inference(r);
  EXPECT_EQ(inferred(r, "D"), "tensor(int64)[?]");
  EXPECT_EQ(inferred(r, "S"), "tensor(string)[4]");
  EXPECT_NE(maps_infer_error(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (map(string, float) X) => (float Y) { Y = ai.onnx.ml.CastMap (X) })")
                .find("map(int64, float) or map(int64, string)"),
            std::string::npos);
}

// ---------------------------------------------------------------------------------------------
// A map given as a graph input, declared in the model, read by two operators.

TEST(MlMapsOp, ADeclaredMapInputFlowsToCastMapAndDictVectorizer) {
  Model m = parse_text_model(R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (map(int64, float) X) => (float[3] D, float[1, 2] V) {
  D = ai.onnx.ml.CastMap (X)
  V = ai.onnx.ml.DictVectorizer <int64_vocabulary = [7, 3]> (X)
})");
  // {3: 0.5, 7: 0.25, 9: 1}: CastMap lists [0.5, 0.25, 1]; DictVectorizer picks 7 then 3: [0.25, 0.5].
  NamedValues out = Interpreter(m).run({{"X", maps_map<int64_t, float>({7, 3, 9}, {0.25f, 0.5f, 1})}});
  EXPECT_EQ(values_of<float>(out.at("D")), (std::vector<float>{0.5f, 0.25f, 1}));
  EXPECT_EQ(values_of<float>(out.at("V")), (std::vector<float>{0.25f, 0.5f}));
}

}  // namespace
}  // namespace sonnx::testing
