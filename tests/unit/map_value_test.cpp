// Map values (ai.onnx.ml's map(K, V)) wherever sequences are: the Value itself (canonical key
// order, equality), .pb files (MapProto alone, in a SequenceProto, in an OptionalProto, laid out as
// onnx's numpy_helper.from_dict lays them), the interpreter's check of a given graph input, and
// the conformance comparisons. Expected values are written out by hand.
#include <filesystem>
#include <limits>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <unistd.h>

#include "conformance/certify/strict_compare.h"
#include "conformance/compare.h"
#include "reference/interp/interpreter.h"
#include "reference/model/tensor_proto.h"
#include "sonnx/errors.h"
#include "tests/unit/infer_text_util.h"

namespace sonnx {
namespace {

template <class K, class V>
Value maps_value_of(const std::vector<K>& keys, const std::vector<V>& values) {
  return Value::make_map(Tensor::from_vector<K>({static_cast<int64_t>(keys.size())}, keys),
                         Tensor::from_vector<V>({static_cast<int64_t>(values.size())}, values));
}

// f throws E with `fragment` in its message.
template <class E, class F>
void maps_value_expect_throw(F f, const std::string& fragment) {
  try {
    f();
    ADD_FAILURE() << "expected an error mentioning '" << fragment << "'";
  } catch (const E& e) {
    EXPECT_NE(std::string(e.what()).find(fragment), std::string::npos) << e.what();
  }
}

std::filesystem::path maps_value_temp(const std::string& name) {
  return std::filesystem::path(::testing::TempDir()) / ("maps_" + std::to_string(::getpid()) + "_" + name);
}

TEST(MapValue, EntriesAreKeptInIncreasingKeyOrderWithTheirValues) {
  // {7: 0.5, -2: 1.5, 3: 2.5} is kept as keys [-2, 3, 7], values [1.5, 2.5, 0.5].
  Value m = maps_value_of<int64_t, float>({7, -2, 3}, {0.5f, 1.5f, 2.5f});
  ASSERT_TRUE(m.is_map());
  EXPECT_EQ(m.map_keys().dtype(), DType::Int64);
  EXPECT_EQ(m.map_keys().shape(), (Shape{3}));
  auto k = m.map_keys().values<int64_t>();
  auto v = m.map_values().values<float>();
  EXPECT_EQ(std::vector<int64_t>(k.begin(), k.end()), (std::vector<int64_t>{-2, 3, 7}));
  EXPECT_EQ(std::vector<float>(v.begin(), v.end()), (std::vector<float>{1.5f, 2.5f, 0.5f}));
  // Strings by their bytes: "B" (0x42) < "a" (0x61) < "ab".
  Value s = maps_value_of<std::string, int64_t>({"ab", "a", "B"}, {1, 2, 3});
  auto sk = s.map_keys().values<std::string>();
  auto sv = s.map_values().values<int64_t>();
  EXPECT_EQ(std::vector<std::string>(sk.begin(), sk.end()), (std::vector<std::string>{"B", "a", "ab"}));
  EXPECT_EQ(std::vector<int64_t>(sv.begin(), sv.end()), (std::vector<int64_t>{3, 2, 1}));
  // uint64 keys compare as unsigned: 2^63 comes after 1.
  const uint64_t big = uint64_t{1} << 63;
  Value u = maps_value_of<uint64_t, double>({big, 1}, {1, 2});
  EXPECT_EQ(u.map_keys().values<uint64_t>()[0], 1u);
  EXPECT_EQ(u.map_keys().values<uint64_t>()[1], big);
}

TEST(MapValue, TwoMapsAreEqualWhenTheirEntriesAre) {
  EXPECT_TRUE((maps_value_of<int64_t, float>({1, 2}, {3, 4}) == maps_value_of<int64_t, float>({2, 1}, {4, 3})));
  EXPECT_FALSE((maps_value_of<int64_t, float>({1, 2}, {3, 4}) == maps_value_of<int64_t, float>({1, 2}, {4, 3})));
  EXPECT_FALSE((maps_value_of<int64_t, float>({1, 2}, {3, 4}) == maps_value_of<int32_t, float>({1, 2}, {3, 4})));
  EXPECT_FALSE((maps_value_of<int64_t, float>({1}, {3}) == Value(Tensor::from_vector<float>({1}, {3}))));
}

TEST(MapValue, MakeMapRefusesWhatIsNoMap) {
  maps_value_expect_throw<Trap>([] { maps_value_of<int64_t, float>({1, 1}, {1, 2}); }, "key 1 is given twice");
  maps_value_expect_throw<Trap>([] { maps_value_of<std::string, float>({"x", "x"}, {1, 2}); }, "key \"x\" is given twice");
  maps_value_expect_throw<Trap>([] { maps_value_of<float, float>({1}, {1}); }, "keys must be of an integer type or strings");
  maps_value_expect_throw<Trap>([] { maps_value_of<bool, float>({true}, {1}); }, "keys must be of an integer type or strings");
  maps_value_expect_throw<Trap>([] { maps_value_of<int64_t, float>({1, 2}, {1}); }, "1-D tensors of one length");
  maps_value_expect_throw<Trap>(
      [] {
        Value::make_map(Tensor::from_vector<int64_t>({1, 1}, {1}), Tensor::from_vector<float>({1}, {1}));
      },
      "1-D tensors of one length");
}

// ---- .pb files ----

TEST(MapValue, PbFilesHoldMapsAloneInSequencesAndInOptionals) {
  Value m = maps_value_of<std::string, float>({"b", "a"}, {0.25f, 0.75f});
  auto file = maps_value_temp("map.pb");
  write_value_pb(file, m, "m");
  EXPECT_TRUE(read_value_pb(file, "map") == m);
  Value seq = Value::make_sequence({m, maps_value_of<std::string, float>({"c"}, {1})});
  write_value_pb(file, seq, "s");
  Value back = read_value_pb(file, "sequence");
  ASSERT_TRUE(back.is_sequence());
  ASSERT_EQ(back.sequence.size(), 2u);
  EXPECT_TRUE(back.sequence[0] == m);
  EXPECT_TRUE(back.sequence[1] == seq.sequence[1]);
  Value opt = Value::make_optional(maps_value_of<int64_t, std::string>({4}, {"four"}));
  write_value_pb(file, opt, "o");
  Value o = read_value_pb(file, "optional");
  ASSERT_TRUE(o.is_optional() && o.optional);
  EXPECT_TRUE(*o.optional == *opt.optional);
  std::filesystem::remove(file);
}

TEST(MapValue, AMapProtoIsReadAsOnnxWritesIt) {
  // numpy_helper.from_dict({"x": np.float32(2), "w": np.float32(1)}): string keys, the values a
  // SequenceProto of 0-D float tensors.
  onnx::MapProto p;
  p.set_name("d");
  p.set_key_type(static_cast<int32_t>(DType::String));
  p.add_string_keys("x");
  p.add_string_keys("w");
  p.mutable_values()->set_elem_type(onnx::SequenceProto::TENSOR);
  *p.mutable_values()->add_tensor_values() = tensor_to_proto(Tensor::scalar<float>(2));
  *p.mutable_values()->add_tensor_values() = tensor_to_proto(Tensor::scalar<float>(1));
  EXPECT_TRUE((value_from_map_proto(p) == maps_value_of<std::string, float>({"w", "x"}, {1, 2})));
  // What sonnx writes has the same layout: keys in order, one 0-D tensor per value.
  onnx::MapProto w = value_to_map_proto(maps_value_of<int64_t, double>({9, 8}, {0.5, 1.5}));
  EXPECT_EQ(w.key_type(), static_cast<int32_t>(DType::Int64));
  ASSERT_EQ(w.keys_size(), 2);
  EXPECT_EQ(w.keys(0), 8);
  EXPECT_EQ(w.values().tensor_values(0).dims_size(), 0);
  EXPECT_EQ(tensor_from_proto(w.values().tensor_values(0)).data<double>()[0], 1.5);
  // An int8 map keeps its key type; a key the type cannot hold is refused.
  onnx::MapProto small;
  small.set_key_type(static_cast<int32_t>(DType::Int8));
  small.add_keys(-5);
  small.mutable_values()->set_elem_type(onnx::SequenceProto::TENSOR);
  *small.mutable_values()->add_tensor_values() = tensor_to_proto(Tensor::scalar<int64_t>(3));
  Value s = value_from_map_proto(small);
  EXPECT_EQ(s.map_keys().dtype(), DType::Int8);
  EXPECT_EQ(s.map_keys().values<int8_t>()[0], -5);
  small.set_keys(0, 300);
  maps_value_expect_throw<LoadError>([&] { value_from_map_proto(small); }, "key 300 is not a int8");
}

TEST(MapValue, AMalformedMapProtoIsALoadError) {
  onnx::MapProto p;
  p.set_name("bad");
  p.set_key_type(static_cast<int32_t>(DType::Int64));
  p.add_keys(1);
  p.add_keys(1);
  p.mutable_values()->set_elem_type(onnx::SequenceProto::TENSOR);
  *p.mutable_values()->add_tensor_values() = tensor_to_proto(Tensor::scalar<float>(1));
  maps_value_expect_throw<LoadError>([&] { value_from_map_proto(p); }, "2 keys but 1 values");
  *p.mutable_values()->add_tensor_values() = tensor_to_proto(Tensor::scalar<float>(2));
  maps_value_expect_throw<LoadError>([&] { value_from_map_proto(p); }, "key 1 is given twice");
  p.set_keys(1, 2);
  *p.mutable_values()->mutable_tensor_values(1) = tensor_to_proto(Tensor::from_vector<float>({2}, {1, 2}));
  maps_value_expect_throw<LoadError>([&] { value_from_map_proto(p); }, "has 2 elements, not one");
  *p.mutable_values()->mutable_tensor_values(1) = tensor_to_proto(Tensor::scalar<double>(2));
  maps_value_expect_throw<LoadError>([&] { value_from_map_proto(p); }, "different element types");
  p.mutable_values()->set_elem_type(onnx::SequenceProto::SEQUENCE);
  maps_value_expect_throw<LoadError>([&] { value_from_map_proto(p); }, "values are tensors of one element");
  p.set_key_type(static_cast<int32_t>(DType::Float));
  maps_value_expect_throw<LoadError>([&] { value_from_map_proto(p); }, "integer type or strings");
}

TEST(MapValue, TheKindOfPbFileFollowsTheDeclaredType) {
  Model m = testing::parse_text_model(R"(<ir_version: 8, opset_import: ["" : 18]>
g (map(int64, float) a, seq(map(string, float)) b, optional(seq(float)) c, float[2] d) => (float[2] y) { y = Identity(d) })");
  EXPECT_EQ(value_pb_kind(m.graph.inputs[0].type), "map");
  EXPECT_EQ(value_pb_kind(m.graph.inputs[1].type), "sequence");
  EXPECT_EQ(value_pb_kind(m.graph.inputs[2].type), "optional");
  EXPECT_EQ(value_pb_kind(m.graph.inputs[3].type), "tensor");
  EXPECT_EQ(value_pb_kind(TypeInfo{}), "tensor");
  auto file = maps_value_temp("kind.pb");
  write_value_pb(file, maps_value_of<int64_t, float>({1}, {2}), "m");
  maps_value_expect_throw<LoadError>([&] { read_value_pb(file, "mapp"); }, "unknown kind of value 'mapp'");
  std::filesystem::remove(file);
}

// ---- the interpreter's check of given inputs ----

TEST(MapValue, AGraphInputDeclaredAMapTakesOnlyAMapOfItsTypes) {
  Model m = testing::parse_text_model(R"(<ir_version: 8, opset_import: ["" : 18]>
g (map(int64, float) X, float[1] T) => (map(int64, float) Y, float[1] U) {
  Y = Identity(X)
  U = Identity(T)
})");
  Value good = maps_value_of<int64_t, float>({1}, {2});
  NamedValues out = Interpreter(m).run({{"X", good}, {"T", Value(Tensor::from_vector<float>({1}, {0}))}});
  EXPECT_TRUE(out.at("Y") == good);
  auto run = [&](Value x, Value t) { Interpreter(m).run({{"X", std::move(x)}, {"T", std::move(t)}}); };
  Value t = Value(Tensor::from_vector<float>({1}, {0}));
  maps_value_expect_throw<Trap>(
      [&] { run(maps_value_of<int64_t, double>({1}, {2}), t); },
      "given as map(int64, double) but declared map(int64,tensor(float)[]): no implicit type conversion");
  maps_value_expect_throw<Trap>([&] { run(maps_value_of<std::string, float>({"a"}, {2}), t); }, "given as map(string, float)");
  maps_value_expect_throw<Trap>([&] { run(t, t); },
                                "graph input 'X' is declared map(int64,tensor(float)[]) but not given a map");
  maps_value_expect_throw<Trap>([&] { run(good, good); }, "graph input 'T' is given a map but declared tensor(float)[1]");
}

// ---- comparisons ----

TEST(MapValue, ConformanceComparesKeysExactlyAndValuesWithinTolerance) {
  Value want = maps_value_of<int64_t, float>({1, 2}, {1.0f, 2.0f});
  EXPECT_TRUE(compare_values(maps_value_of<int64_t, float>({2, 1}, {2.0f, 1.0f}), want, {}).ok);
  EXPECT_TRUE(compare_values(maps_value_of<int64_t, float>({1, 2}, {1.0f, 2.0001f}), want, {1e-3, 0}).ok);
  Comparison far = compare_values(maps_value_of<int64_t, float>({1, 2}, {1.0f, 3.0f}), want, {1e-3, 0});
  EXPECT_FALSE(far.ok);
  EXPECT_NE(far.message.find("map values"), std::string::npos) << far.message;
  Comparison keys = compare_values(maps_value_of<int64_t, float>({1, 3}, {1.0f, 2.0f}), want, {});
  EXPECT_FALSE(keys.ok);
  EXPECT_NE(keys.message.find("map keys"), std::string::npos) << keys.message;
  Comparison count = compare_values(maps_value_of<int64_t, float>({1}, {1.0f}), want, {});
  EXPECT_EQ(count.message, "map of 1 entries, expected 2");
  Comparison kind = compare_values(Value(Tensor::from_vector<float>({2}, {1, 2})), want, {});
  EXPECT_EQ(kind.message, "got a tensor, expected a map");
  // A sequence of maps (ZipMap's output), element by element.
  Comparison seq = compare_values(Value::make_sequence({want, want}),
                                  Value::make_sequence({want, maps_value_of<int64_t, float>({1, 2}, {1.0f, 5.0f})}), {});
  EXPECT_FALSE(seq.ok);
  EXPECT_NE(seq.message.find("sequence element 1: map values"), std::string::npos) << seq.message;
}

TEST(MapValue, CertifyComparesAMapsValuesUnderTheOperatorsAccuracy) {
  Value want = maps_value_of<std::string, float>({"a", "b"}, {0.25f, 0.75f});
  EXPECT_TRUE(strict_compare(maps_value_of<std::string, float>({"b", "a"}, {0.75f, 0.25f}), want, Accuracy::Exact).ok);
  Comparison off = strict_compare(maps_value_of<std::string, float>({"a", "b"}, {0.25f, 0.5f}), want, Accuracy::Exact);
  EXPECT_FALSE(off.ok);
  EXPECT_NE(off.message.find("map values"), std::string::npos) << off.message;
  EXPECT_FALSE(strict_compare(maps_value_of<std::string, float>({"a", "c"}, {0.25f, 0.75f}), want, Accuracy::Exact).ok);
}

}  // namespace
}  // namespace sonnx
