// Cast-25's C template (emit/ops_cast.cpp, emit/c_small_types.cpp, emit/c_half.cpp) and the test
// driver's element types (emit/driver.cpp), checked bitwise against the reference: a one-input
// model of Cast nodes (one per target) is emitted by emit_model, its model.c and main.c compiled
// by the system's C compiler at -std=c99 -Wall -Wextra -pedantic -Wconversion -Werror with the
// exact mode's flags, and run on the input written as sonnx writes it (TensorProto raw_data,
// packed for the 4- and 2-bit types) or in the other forms the driver reads (int32_data, .npy).
// Every output_K.pb's raw_data must be byte for byte what the reference interpreter's Cast kernel
// gives, serialized by tensor_to_proto: the expected bits come from the library, never from the
// C. Inputs cover NaN (with signs and payloads), ±inf, ±0, subnormals, every code of the small
// types, the halfway cases between neighbouring float8/float4 values and values just beside
// them, and values beyond every type's range. Skipped when there is no `cc`.

#include <algorithm>
#include <cmath>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "emit/emit_model.h"
#include "reference/infer/infer_types.h"
#include "reference/interp/interpreter.h"
#include "reference/model/npy.h"
#include "reference/model/tensor_proto.h"
#include "reference/model/text_syntax.h"
#include "sonnx/float16.h"
#include "sonnx/small_types.h"
#include "emit_test_util.h"

namespace sonnx::emit {
namespace {
namespace fs = std::filesystem;

// One Cast node of the model: its `to`, and `saturate` / `round_mode` when given (-1 / "": absent,
// the defaults 1 and "up").
struct EmitCastTypesTarget {
  EmitCastTypesTarget(DType t, int s = -1, std::string r = "") : to(t), saturate(s), round_mode(std::move(r)) {}  // NOLINT
  DType to;
  int saturate;
  std::string round_mode;
};

// How the program receives its input.
enum class EmitCastTypesForm { RawData, Int32Data, Npy };

const double emit_cast_types_inf = std::numeric_limits<double>::infinity();
const double emit_cast_types_nan = std::numeric_limits<double>::quiet_NaN();

bool emit_cast_types_is_small_float(DType t) { return is_small_float(t); }

// The exact value of every code of a float8 kind or float4e2m1 (NaN included).
double emit_cast_types_code_value(DType t, int code) {
  const auto b = static_cast<uint8_t>(code);
  switch (t) {
    case DType::Float8E4M3FN: return small_to_double(float8e4m3fn_t{b});
    case DType::Float8E4M3FNUZ: return small_to_double(float8e4m3fnuz_t{b});
    case DType::Float8E5M2: return small_to_double(float8e5m2_t{b});
    case DType::Float8E5M2FNUZ: return small_to_double(float8e5m2fnuz_t{b});
    case DType::Float8E8M0: return small_to_double(float8e8m0_t{b});
    default: return small_to_double(float4e2m1_t{b});
  }
}

// Doubles that exercise every conversion: specials, signed zeros, subnormals of float, float16,
// bfloat16 and double, ties and near-ties of float16/bfloat16, 64-bit integers' neighbourhoods,
// e8m0's range ends, and for each float8 kind and float4e2m1 every finite value, the midpoint of
// each pair of neighbours (a tie: to even), the doubles just beside it, and values beyond the
// largest.
std::vector<double> emit_cast_types_doubles() {
  std::vector<double> v = {0.0,
                           -0.0,
                           emit_cast_types_nan,
                           -emit_cast_types_nan,
                           emit_cast_types_inf,
                           -emit_cast_types_inf,
                           1.0,
                           -1.0,
                           0.1,
                           -0.7,
                           0.5,
                           -0.5,
                           1.5,
                           2.5,
                           -2.5,
                           3.5,
                           7.5,
                           -7.5,
                           8.5,
                           -9.0,
                           15.5,
                           -16.5,
                           255.5,
                           65504.0,
                           65519.0,
                           65520.0,
                           1e10,
                           -1e10,
                           3.4028234663852886e38,
                           3.5e38,
                           1e300,
                           -1e300,
                           std::ldexp(1.0, -149),  // float's smallest subnormal
                           std::ldexp(1.0, -150),
                           std::ldexp(3.0, -150),
                           std::ldexp(1.0, -133),
                           1e-40,
                           std::ldexp(1.0, -24),  // float16's smallest subnormal
                           std::ldexp(1.0, -25),
                           std::ldexp(3.0, -26),
                           std::ldexp(1.0, -1074),
                           1.0 + std::ldexp(1.0, -11),  // float16 ties and a near-tie
                           1.0 + 3 * std::ldexp(1.0, -11),
                           1.0 + std::ldexp(1.0, -11) + std::ldexp(1.0, -40),
                           1.0 + std::ldexp(1.0, -8),  // bfloat16 ties and a near-tie
                           1.0 + 3 * std::ldexp(1.0, -8),
                           1.0 + std::ldexp(1.0, -8) + std::ldexp(1.0, -40),
                           std::ldexp(1.0, -127),  // e8m0's range ends and round_mode's cases
                           std::ldexp(1.25, -127),
                           std::ldexp(1.5, -127),
                           std::ldexp(1.0, -128),
                           std::ldexp(1.0, 127),
                           std::ldexp(1.25, 127),
                           std::ldexp(1.5, 127),
                           std::ldexp(1.0, 128),
                           std::ldexp(1.5, 10),
                           std::ldexp(1.75, -3),
                           -std::ldexp(1.5, 4),
                           2147483647.5,
                           -2147483648.5,
                           4294967295.0,
                           9.2233720368547758e18,
                           -9.2233720368547758e18,
                           1.8446744073709552e19,
                           32767.5,
                           -32768.9,
                           127.9,
                           -128.9};
  for (DType t : {DType::Float8E4M3FN, DType::Float8E4M3FNUZ, DType::Float8E5M2, DType::Float8E5M2FNUZ, DType::Float4E2M1}) {
    std::vector<double> values;
    for (int code = 0; code < (t == DType::Float4E2M1 ? 16 : 256); ++code) {
      const double d = emit_cast_types_code_value(t, code);
      if (std::isfinite(d) && !std::signbit(d)) values.push_back(d);
    }
    std::sort(values.begin(), values.end());
    for (size_t i = 0; i + 1 < values.size(); ++i) {
      const double mid = (values[i] + values[i + 1]) / 2;
      for (double d : {values[i], mid, -mid, std::nextafter(mid, 0.0), std::nextafter(mid, emit_cast_types_inf)}) v.push_back(d);
    }
    const double max = values.back();
    for (double d : {max, -max, max * 1.0625, max * 1.125, -max * 1.125, max * 2}) v.push_back(d);
  }
  return v;
}

std::vector<int64_t> emit_cast_types_integers() {
  return {0,
          1,
          -1,
          2,
          3,
          -2,
          -3,
          7,
          8,
          15,
          16,
          17,
          -8,
          -9,
          127,
          -128,
          255,
          256,
          448,
          464,
          465,
          480,
          57344,
          61440,
          65535,
          2147483647,
          -2147483647 - 1,
          (int64_t{1} << 53) + 1,
          (int64_t{1} << 60) + 1,
          std::numeric_limits<int64_t>::max(),
          std::numeric_limits<int64_t>::min()};
}

Tensor emit_cast_types_float_input() {
  std::vector<float> v;
  for (double d : emit_cast_types_doubles()) v.push_back(static_cast<float>(d));
  return Tensor::from_vector<float>({static_cast<int64_t>(v.size())}, v);
}

Tensor emit_cast_types_double_input() {
  const std::vector<double> v = emit_cast_types_doubles();
  return Tensor::from_vector<double>({static_cast<int64_t>(v.size())}, v);
}

// float16 or bfloat16: the doubles rounded to the type, and NaNs with payloads (quiet and
// signalling) and subnormals as bits.
Tensor emit_cast_types_half_input(DType t) {
  std::vector<uint16_t> bits;
  for (double d : emit_cast_types_doubles())
    bits.push_back(t == DType::Float16 ? float16_t(static_cast<float>(d)).bits : bfloat16_t(static_cast<float>(d)).bits);
  const std::vector<uint16_t> more = t == DType::Float16 ? std::vector<uint16_t>{0x7c01, 0xfe01, 0x7d00, 0x0001, 0x8001, 0x03ff}
                                                         : std::vector<uint16_t>{0x7f81, 0xff81, 0x7fc1, 0x0001, 0x807f};
  bits.insert(bits.end(), more.begin(), more.end());
  Tensor x(t, {static_cast<int64_t>(bits.size())});
  std::memcpy(x.raw(), bits.data(), 2 * bits.size());
  return x;
}

// Every code of a small type (for the integers: every value, sign-extended for int4/int2).
Tensor emit_cast_types_small_input(DType t) {
  const int bits = dtype_bits(t);
  const int codes = 1 << bits;
  const bool is_signed = t == DType::Int4 || t == DType::Int2;
  Tensor x(t, {codes});
  auto* out = reinterpret_cast<uint8_t*>(x.raw());
  for (int c = 0; c < codes; ++c) out[c] = static_cast<uint8_t>(is_signed && bits < 8 && c >= codes / 2 ? c - codes : c);
  return x;
}

Tensor emit_cast_types_int32_input() {
  std::vector<int32_t> v;
  for (int64_t i : emit_cast_types_integers()) v.push_back(static_cast<int32_t>(i));
  return Tensor::from_vector<int32_t>({static_cast<int64_t>(v.size())}, v);
}

Tensor emit_cast_types_int64_input() {
  const std::vector<int64_t> v = emit_cast_types_integers();
  return Tensor::from_vector<int64_t>({static_cast<int64_t>(v.size())}, v);
}

std::string emit_cast_types_hex(const std::string& bytes, size_t at, size_t n) {
  static const char digits[] = "0123456789abcdef";
  std::string s;
  for (size_t i = at; i < at + n && i < bytes.size(); ++i) {
    const auto b = static_cast<unsigned char>(bytes[i]);
    s += digits[b >> 4];
    s += digits[b & 15];
  }
  return s.empty() ? "(none)" : s;
}

class EmitCastTypesTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!emit_test::has_cc()) GTEST_SKIP() << "no C compiler `cc`";
    dir_ = emit_test::scratch_dir("cast");
  }
  void TearDown() override {
    if (!dir_.empty() && !HasFailure()) fs::remove_all(dir_);
  }

  // Emits `Cast` from x to each target (outputs y0, y1, ...), compiles and runs the program on x
  // given in `form`, and compares each output with the reference's, bitwise.
  void check(const Tensor& x, const std::vector<EmitCastTypesTarget>& targets,
             EmitCastTypesForm form = EmitCastTypesForm::RawData) {
    const std::string n = std::to_string(x.size());
    std::string text = "<ir_version: 13, opset_import: [\"\" : 25]>\ng (" + std::string(dtype_name(x.dtype())) + "[" + n +
                       "] x) => (";
    std::string nodes;
    for (size_t k = 0; k < targets.size(); ++k) {
      const EmitCastTypesTarget& t = targets[k];
      const std::string y = "y" + std::to_string(k);
      text += (k ? ", " : "") + std::string(dtype_name(t.to)) + "[" + n + "] " + y;
      std::string attrs = "to = " + std::to_string(static_cast<int>(t.to));
      if (t.saturate >= 0) attrs += ", saturate = " + std::to_string(t.saturate);
      if (!t.round_mode.empty()) attrs += ", round_mode = \"" + t.round_mode + "\"";
      nodes += "  " + y + " = Cast <" + attrs + "> (x)\n";
    }
    text += ") {\n" + nodes + "}";
    Model model = text::parse_model(text);
    add_inferred_types(model);

    // The expected bits: the reference interpreter's Cast kernel.
    Interpreter interp(model);
    const NamedValues expected = interp.run({{"x", Value(x)}});

    // The C program.
    const EmitResult r = emit_model(model, {});
    for (const EmittedFile& f : r.files) std::ofstream(dir_ / f.name, std::ios::binary) << f.content;
    const std::string cc = "cc -std=c99 -O2 -Wall -Wextra -pedantic -Wconversion -Werror -ffp-contract=off -fno-builtin -o " +
                           emit_test::quote(dir_ / "prog") + " " + emit_test::quote(dir_ / "model.c") + " " +
                           emit_test::quote(dir_ / "main.c") + " -lm > " + emit_test::quote(dir_ / "cc.log") + " 2>&1";
    ASSERT_EQ(emit_test::status(cc), 0) << "the C does not compile warning-free:\n" << emit_test::read(dir_ / "cc.log");

    fs::path input;
    onnx::TensorProto proto = tensor_to_proto(x, "x");
    switch (form) {
      case EmitCastTypesForm::RawData:
        input = dir_ / "x.pb";
        std::ofstream(input, std::ios::binary) << proto.SerializeAsString();
        break;
      case EmitCastTypesForm::Int32Data: {
        // As the onnx test data may hold them: float16/bfloat16 as their bits, the small types one
        // int32 per serialized byte (packed for the 4- and 2-bit types).
        const std::string raw = proto.raw_data();
        proto.clear_raw_data();
        if (dtype_size(x.dtype()) == 2) {
          for (size_t i = 0; i + 1 < raw.size(); i += 2)
            proto.add_int32_data(static_cast<unsigned char>(raw[i]) | (static_cast<unsigned char>(raw[i + 1]) << 8));
        } else {
          for (char b : raw) proto.add_int32_data(static_cast<unsigned char>(b));
        }
        ASSERT_EQ(tensor_from_proto(proto), x) << "the library reads this int32_data otherwise";
        input = dir_ / "x.pb";
        std::ofstream(input, std::ios::binary) << proto.SerializeAsString();
        break;
      }
      case EmitCastTypesForm::Npy:
        input = dir_ / "x.npy";
        write_npy(input, x);
        ASSERT_EQ(read_npy(input), x);
        break;
    }
    fs::create_directories(dir_ / "out");
    const std::string run = emit_test::quote(dir_ / "prog") + " -o " + emit_test::quote(dir_ / "out") + " " +
                            emit_test::quote(input) + " 2> " + emit_test::quote(dir_ / "stderr");
    ASSERT_EQ(emit_test::status(run), 0) << emit_test::read(dir_ / "stderr");

    for (size_t k = 0; k < targets.size(); ++k) {
      const std::string y = "y" + std::to_string(k);
      SCOPED_TRACE("Cast " + std::string(dtype_name(x.dtype())) + " -> " + std::string(dtype_name(targets[k].to)) +
                   (targets[k].saturate >= 0 ? ", saturate " + std::to_string(targets[k].saturate) : "") +
                   (targets[k].round_mode.empty() ? "" : ", round_mode " + targets[k].round_mode) + " (" + y + ")");
      onnx::TensorProto got;
      ASSERT_TRUE(got.ParseFromString(emit_test::read(dir_ / "out" / ("output_" + std::to_string(k) + ".pb"))));
      const onnx::TensorProto want = tensor_to_proto(expected.at(y).tensor, y);
      EXPECT_EQ(got.name(), y);
      EXPECT_EQ(got.data_type(), static_cast<int>(targets[k].to));
      ASSERT_EQ(got.dims_size(), 1);
      EXPECT_EQ(got.dims(0), x.size());
      const std::string& g = got.raw_data();
      const std::string& w = want.raw_data();
      ASSERT_EQ(g.size(), w.size());
      if (g != w) {
        // The first element that differs, with the input's bits.
        const size_t width = std::max<size_t>(1, static_cast<size_t>(dtype_bits(targets[k].to)) / 8);
        size_t at = 0;
        while (g.compare(at, width, w, at, width) == 0) at += width;
        const auto in_width = dtype_size(x.dtype());
        const size_t element = dtype_bits(targets[k].to) < 8 ? at * static_cast<size_t>(8 / dtype_bits(targets[k].to))
                                                             : at / width;
        const std::string in(reinterpret_cast<const char*>(x.raw()), x.byte_size());
        ADD_FAILURE() << "byte " << at << " (element " << element << (dtype_bits(targets[k].to) < 8 ? " or the next ones" : "")
                      << ", input bits " << emit_cast_types_hex(in, element * in_width, in_width) << " little-endian): got "
                      << emit_cast_types_hex(g, at, width) << ", the reference gives " << emit_cast_types_hex(w, at, width);
      }
    }
  }

  fs::path dir_;
};

const std::vector<DType>& emit_cast_types_small_types() {
  static const std::vector<DType> t = {DType::Float8E4M3FN, DType::Float8E4M3FNUZ, DType::Float8E5M2, DType::Float8E5M2FNUZ,
                                       DType::Float8E8M0,   DType::Float4E2M1,     DType::Int4,       DType::UInt4,
                                       DType::Int2,         DType::UInt2};
  return t;
}

// float into every small type, with saturate 1 (the default) and 0, e8m0 under each round_mode.
TEST_F(EmitCastTypesTest, FloatIntoEverySmallTypeWithAndWithoutSaturation) {
  std::vector<EmitCastTypesTarget> targets;
  for (DType t : emit_cast_types_small_types()) {
    targets.push_back({t});
    if (emit_cast_types_is_small_float(t)) {
      targets.push_back({t, 1});
      targets.push_back({t, 0});
    }
  }
  for (const char* mode : {"up", "down", "nearest"})
    for (int saturate : {0, 1}) targets.push_back({DType::Float8E8M0, saturate, mode});
  check(emit_cast_types_float_input(), targets);
}

// double and float16 into the small floats: one rounding from the exact value.
TEST_F(EmitCastTypesTest, DoubleAndFloat16IntoTheSmallFloats) {
  std::vector<EmitCastTypesTarget> targets;
  for (DType t : emit_cast_types_small_types()) {
    targets.push_back({t});
    if (emit_cast_types_is_small_float(t)) targets.push_back({t, 0});
  }
  targets.push_back({DType::Float8E8M0, 1, "nearest"});
  check(emit_cast_types_double_input(), targets);
  check(emit_cast_types_half_input(DType::Float16), targets);
}

// Every code of each small type into float (and float16, double, int32, bool, and every other
// small type).
TEST_F(EmitCastTypesTest, EverySmallTypeIntoFloatAndTheOthers) {
  for (DType from : emit_cast_types_small_types()) {
    SCOPED_TRACE(std::string("from ") + std::string(dtype_name(from)));
    std::vector<EmitCastTypesTarget> targets = {{DType::Float}, {DType::Float16}, {DType::BFloat16}, {DType::Double},
                                                {DType::Int32}, {DType::UInt8},   {DType::Bool}};
    for (DType to : emit_cast_types_small_types())
      if (to != from) targets.push_back({to, 0});
    check(emit_cast_types_small_input(from), targets);
  }
}

// float16 <-> bfloat16, double -> float16/bfloat16 (rounded once from the double), and the half
// types into float, double, the integers and bool.
TEST_F(EmitCastTypesTest, HalfTypes) {
  check(emit_cast_types_half_input(DType::Float16), {{DType::BFloat16},
                                                     {DType::Float},
                                                     {DType::Double},
                                                     {DType::Int8},
                                                     {DType::UInt64},
                                                     {DType::Bool},
                                                     {DType::Int4},
                                                     {DType::UInt2}});
  check(emit_cast_types_half_input(DType::BFloat16), {{DType::Float16}, {DType::Float}, {DType::Int32}, {DType::Float8E5M2, 0}});
  check(emit_cast_types_double_input(), {{DType::Float16}, {DType::BFloat16}, {DType::Float}});
  check(emit_cast_types_float_input(), {{DType::Float16}, {DType::BFloat16}, {DType::Double}, {DType::Int64}});
}

// The 2- and 4-bit integers from and into int32 and float (int32: the low bits; float: rounded
// half to even, then the low bits; NaN and ±inf give 0), and 64-bit integers into the small floats
// (rounded to odd first, then once).
TEST_F(EmitCastTypesTest, SmallIntegersFromAndIntoInt32AndFloat) {
  const std::vector<EmitCastTypesTarget> small_ints = {{DType::Int4}, {DType::UInt4}, {DType::Int2}, {DType::UInt2}};
  check(emit_cast_types_int32_input(), small_ints);
  check(emit_cast_types_float_input(), small_ints);
  for (DType from : {DType::Int4, DType::UInt4, DType::Int2, DType::UInt2})
    check(emit_cast_types_small_input(from), {{DType::Int32}, {DType::Float}, {DType::Int64}, {DType::UInt16}});
  std::vector<EmitCastTypesTarget> into_small = small_ints;
  for (DType t : emit_cast_types_small_types())
    if (emit_cast_types_is_small_float(t)) into_small.push_back({t, 0});
  into_small.push_back({DType::Float16});
  check(emit_cast_types_int64_input(), into_small);
}

// The driver reads the other forms of the input as the library does: int32_data (float16 bits,
// float8 bytes, packed 4- and 2-bit bytes) and .npy (float16 as <f2, the small types as a
// one-field structured array, one byte per element).
TEST_F(EmitCastTypesTest, TheDriverReadsInt32DataAndNpy) {
  for (DType from : {DType::Float8E4M3FN, DType::Float8E8M0, DType::Float4E2M1, DType::Int4, DType::UInt2}) {
    SCOPED_TRACE(std::string("from ") + std::string(dtype_name(from)));
    check(emit_cast_types_small_input(from), {{DType::Float}, {DType::Int2}}, EmitCastTypesForm::Int32Data);
    check(emit_cast_types_small_input(from), {{DType::Float}, {DType::UInt4}}, EmitCastTypesForm::Npy);
  }
  check(emit_cast_types_half_input(DType::Float16), {{DType::Float}, {DType::Float4E2M1}}, EmitCastTypesForm::Int32Data);
  check(emit_cast_types_half_input(DType::BFloat16), {{DType::Float}}, EmitCastTypesForm::Int32Data);
  check(emit_cast_types_half_input(DType::Float16), {{DType::Float}}, EmitCastTypesForm::Npy);
}

// Strings have no C form: Cast to or from string is refused by name, never emitted as something else.
TEST(EmitCastTypesRefusal, StringIsRefusedByName) {
  for (const char* text :
       {"<ir_version: 13, opset_import: [\"\" : 25]>\ng (float[2] x) => (string[2] y) {\n  y = Cast <to = 8> (x)\n}",
        "<ir_version: 13, opset_import: [\"\" : 25]>\ng (string[2] x) => (float[2] y) {\n  y = Cast <to = 1> (x)\n}"}) {
    Model model = text::parse_model(text);
    add_inferred_types(model);
    try {
      emit_model(model, {});
      ADD_FAILURE() << "emitted a Cast with a string:\n" << text;
    } catch (const EmitRefused& e) {
      EXPECT_NE(std::string(e.what()).find("no C template for Cast-25"), std::string::npos) << e.what();
      EXPECT_NE(std::string(e.what()).find("element type string"), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace sonnx::emit
