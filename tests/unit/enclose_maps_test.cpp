// Maps in the encloser: no operator that makes or reads a map (ai.onnx.ml ZipMap, DictVectorizer,
// CastMap) has an enclosure, and a map carries no bounds (spec/accuracy.md, "Enclosures"). Each
// such model is refused by a clear Unsupported naming the operator or the map input, under both
// semantics, never by a crash or an internal error.
#include <string>

#include <gtest/gtest.h>

#include "enclose/encloser.h"
#include "tests/unit/infer_text_util.h"

namespace sonnx::enclose {
namespace {

// enclose_model's refusal (its message) of `text` on `inputs`, under `semantics`.
std::string maps_enclose_refusal(const char* text, const NamedValues& inputs, Semantics semantics) {
  Model m = testing::parse_text_model(text);
  try {
    enclose_model(m, inputs, semantics);
  } catch (const Unsupported& e) {
    return e.what();
  }
  return "(enclosed)";
}

Value maps_enclose_map() {
  return Value::make_map(Tensor::from_vector<int64_t>({2}, {1, 2}), Tensor::from_vector<float>({2}, {0.5f, 0.25f}));
}

TEST(EncloseMaps, AnOperatorMakingMapsHasNoEnclosure) {
  const char* zip = R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (float[1, 2] X) => (seq(map(int64, float[])) Z) { Z = ai.onnx.ml.ZipMap <classlabels_int64s = [1, 2]> (X) })";
  NamedValues in{{"X", Value(Tensor::from_vector<float>({1, 2}, {0.5f, 0.25f}))}};
  for (Semantics s : {Semantics::Real, Semantics::Admissible})
    EXPECT_EQ(maps_enclose_refusal(zip, in, s), "no enclosure for ai.onnx.ml.ZipMap-1");
}

TEST(EncloseMaps, AMapInputIsRefusedByName) {
  const char* vectorize = R"(<ir_version: 8, opset_import: ["ai.onnx.ml" : 1]>
g (map(int64, float) X) => (float[1, 2] Y) { Y = ai.onnx.ml.DictVectorizer <int64_vocabulary = [2, 1]> (X) })";
  for (Semantics s : {Semantics::Real, Semantics::Admissible})
    EXPECT_EQ(maps_enclose_refusal(vectorize, {{"X", maps_enclose_map()}}, s),
              "no enclosure for a map value (map(int64, float)): maps have no enclosure, graph input 'X'");
}

TEST(EncloseMaps, AMapHasNoBoundsAloneOrInASequence) {
  EXPECT_THROW(Bounds::of(maps_enclose_map()), Unsupported);
  EXPECT_THROW(Bounds::of(Value::make_sequence({maps_enclose_map()})), Unsupported);
}

}  // namespace
}  // namespace sonnx::enclose
