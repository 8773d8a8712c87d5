// String and complex elements in the C of `sonnx emit-c` (emit/emit_op.h c_storage_type: the views
// `sonnx_string`, and `sonnx_complex64` / `sonnx_complex128`): small models emitted by emit_model,
// compiled by the system's C compiler at -std=c99 -Wall -Wextra -pedantic -Wconversion -Werror
// with the exact mode's flags, run by their test driver on inputs written as sonnx writes them
// (TensorProto string_data, raw_data; the float_data / double_data pairs and .npy for complex),
// in both weights modes; every output_K.pb must hold what the reference interpreter gives, equal
// as tensors (the same strings byte for byte, the same bits). Also: the header's typedefs (guarded,
// two generated headers in one translation unit), the arena's 16 bytes per string element and the
// compile-time check of that bound, and the driver's refusal of a string .npy. Skipped when there
// is no `cc`.

#include <complex>
#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <limits>
#include <regex>
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
#include "emit_test_util.h"

namespace sonnx::emit {
namespace {
namespace fs = std::filesystem;

// How the program receives its inputs.
enum class EmitStringsForm { RawData, TypedFields, Npy };

Tensor emit_strings_of(const Shape& shape, const std::vector<std::string>& values) {
  Tensor t(DType::String, shape);
  for (size_t i = 0; i < values.size(); ++i) t.data<std::string>()[i] = values[i];
  return t;
}

// The initializer `name` of the model set to `value` (declared in the text with a placeholder), or
// the graph input `name` made that initializer (the text has no complex literals).
void emit_strings_set_constant(Model& m, const std::string& name, const Tensor& value) {
  auto& inputs = m.graph.inputs;
  for (auto it = inputs.begin(); it != inputs.end(); ++it)
    if (it->name == name) {
      inputs.erase(it);
      break;
    }
  for (auto& [n, t] : m.graph.initializers)
    if (n == name) {
      t = value;
      return;
    }
  m.graph.initializers.emplace_back(name, value);
}

// The bytes of a string constant that C spells only with escapes: a quote, a backslash, a pair of
// '?' before '=' (a trigraph if left unescaped), a non-ASCII byte, an embedded NUL followed by a
// digit and a letter (an octal escape must not swallow them), and the empty string.
const std::vector<std::string>& emit_strings_tricky() {
  static const std::vector<std::string> v = {"q\"uote", "back\\slash?\?=",
                                             std::string("nul\0"
                                                         "7x",
                                                         6),
                                             "\xff\x80 bytes"};
  return v;
}

class EmitStringsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!emit_test::has_cc()) GTEST_SKIP() << "no C compiler `cc`";
    dir_ = emit_test::scratch_dir("strings");
  }
  void TearDown() override {
    if (!dir_.empty() && !HasFailure()) fs::remove_all(dir_);
  }

  // Writes the emitted files into dir_/sub and compiles the program dir_/sub/prog; returns the result.
  EmitResult build(const Model& model, WeightsMode weights, const std::string& sub) {
    EmitOptions o;
    o.weights = weights;
    const EmitResult r = emit_model(model, o);
    const fs::path d = dir_ / sub;
    fs::create_directories(d);
    for (const EmittedFile& f : r.files) std::ofstream(d / f.name, std::ios::binary) << f.content;
    std::string sources = emit_test::quote(d / "model.c") + " " + emit_test::quote(d / "main.c");
    if (weights == WeightsMode::File) sources += " " + emit_test::quote(d / "model_weights.c");
    const std::string cc =
        "cc -std=c99 -O2 -Wall -Wextra -pedantic -Wconversion -Wvla -Werror -ffp-contract=off -fno-builtin -o " +
        emit_test::quote(d / "prog") + " " + sources + " -lm > " + emit_test::quote(d / "cc.log") + " 2>&1";
    EXPECT_EQ(emit_test::status(cc), 0) << "the C does not compile warning-free:\n" << emit_test::read(d / "cc.log");
    return r;
  }

  // Runs dir_/sub/prog on the inputs (in the model's input order) written in `form`, and compares
  // each output with the reference interpreter's.
  void check(const Model& model, const std::vector<std::pair<std::string, Tensor>>& inputs, EmitStringsForm form,
             const std::string& sub) {
    Interpreter interp(model);
    NamedValues feed;
    for (const auto& [name, t] : inputs) feed[name] = Value(t);
    const NamedValues expected = interp.run(feed);

    const fs::path d = dir_ / sub;
    std::string files;
    for (size_t k = 0; k < inputs.size(); ++k) {
      const auto& [name, t] = inputs[k];
      fs::path p = d / ("x" + std::to_string(k) + (form == EmitStringsForm::Npy ? ".npy" : ".pb"));
      if (form == EmitStringsForm::Npy) {
        write_npy(p, t);
        ASSERT_EQ(read_npy(p), t);
      } else {
        onnx::TensorProto proto = tensor_to_proto(t, name);
        if (form == EmitStringsForm::TypedFields && (t.dtype() == DType::Complex64 || t.dtype() == DType::Complex128)) {
          // The parts in pairs, re then im, in float_data or double_data.
          proto.clear_raw_data();
          for (int64_t i = 0; i < t.size(); ++i) {
            if (t.dtype() == DType::Complex64) {
              const std::complex<float> z = t.data<std::complex<float>>()[i];
              proto.add_float_data(z.real());
              proto.add_float_data(z.imag());
            } else {
              const std::complex<double> z = t.data<std::complex<double>>()[i];
              proto.add_double_data(z.real());
              proto.add_double_data(z.imag());
            }
          }
          ASSERT_EQ(tensor_from_proto(proto), t) << "the library reads these pairs otherwise";
        }
        std::ofstream(p, std::ios::binary) << proto.SerializeAsString();
      }
      files += " " + emit_test::quote(p);
    }
    fs::create_directories(d / "out");
    const std::string run = emit_test::quote(d / "prog") + " -o " + emit_test::quote(d / "out") + files + " 2> " +
                            emit_test::quote(d / "stderr");
    ASSERT_EQ(emit_test::status(run), 0) << emit_test::read(d / "stderr");

    for (size_t k = 0; k < model.graph.outputs.size(); ++k) {
      const std::string& y = model.graph.outputs[k].name;
      SCOPED_TRACE("output " + std::to_string(k) + " '" + y + "' (" + sub + ")");
      onnx::TensorProto got;
      ASSERT_TRUE(got.ParseFromString(emit_test::read(d / "out" / ("output_" + std::to_string(k) + ".pb"))));
      EXPECT_EQ(got.name(), y);
      const Tensor& want = expected.at(y).tensor;
      EXPECT_EQ(got.data_type(), static_cast<int>(want.dtype()));
      if (want.dtype() == DType::String) {  // string_data, as sonnx writes strings
        EXPECT_FALSE(got.has_raw_data());
        ASSERT_EQ(got.string_data_size(), want.size());
        for (int64_t i = 0; i < want.size(); ++i)
          EXPECT_EQ(got.string_data(static_cast<int>(i)), want.data<std::string>()[i]) << "element " << i;
      }
      EXPECT_EQ(tensor_from_proto(got), want);
    }
  }

  fs::path dir_;
};

// x (string[2,3]) -> Reshape [3,2] -> Transpose -> Concat with the constant k (string[2,2], the
// tricky bytes) -> Gather (constant indices) -> g (string[2,4]), an output, and Equal against the
// constant e (string[4], broadcast) -> eq; Pad with a string constant_value -> p. The arena holds
// the string intermediates; k and e are `static const sonnx_string` arrays in model.c in both
// weights modes (the weights file holds no strings).
Model emit_strings_model() {
  Model m = text::parse_model(R"(<ir_version: 10, opset_import: ["" : 25]>
g (string[2,3] x) => (string[2,4] g, bool[2,4] eq, string[2,5] p)
  <int64[2] shape = {3, 2}, string[2,2] k = {"a", "b", "c", "d"}, int64[4] idx = {4, 3, 0, 2},
   string[4] e = {"a", "b", "c", "d"}, int64[4] pads = {0, 1, 0, 1}, string cv = {"?"}> {
  r = Reshape <allowzero = 0> (x, shape)
  t = Transpose <perm = [1, 0]> (r)
  c = Concat <axis = 1> (t, k)
  g = Gather <axis = 1> (c, idx)
  eq = Equal(g, e)
  p = Pad <mode = "constant"> (x, pads, cv)
})");
  const std::vector<std::string>& k = emit_strings_tricky();
  emit_strings_set_constant(m, "k", emit_strings_of({2, 2}, k));
  // g = [[k1, k0, x0, x4], [k3, k2, x1, x5]]: e equals it at (0,0), (0,1), (1,2) and (1,3); "same1"
  // and "same2" have one size and other bytes.
  emit_strings_set_constant(m, "e", emit_strings_of({4}, {k[1], k[0], "", "same2"}));
  emit_strings_set_constant(m, "cv", emit_strings_of({}, {std::string("pad\0\"ded", 8)}));
  add_inferred_types(m);
  return m;
}

Tensor emit_strings_input() { return emit_strings_of({2, 3}, {"alpha", "", "gamma", "d\xe9lta", "same1", "same2"}); }

TEST_F(EmitStringsTest, StringsMoveAndCompareAsTheReferenceDoes) {
  const Model m = emit_strings_model();
  for (WeightsMode mode : {WeightsMode::Embedded, WeightsMode::File}) {
    const std::string sub = mode == WeightsMode::Embedded ? "embedded" : "file";
    const EmitResult r = build(m, mode, sub);
    if (HasFailure()) return;
    const std::string& c = emit_test::file(r, "model.c");
    EXPECT_NE(c.find("static const sonnx_string sonnx_w"), std::string::npos) << c;
    EXPECT_NE(c.find("sonnx_string_equal("), std::string::npos) << c;
    EXPECT_NE(c.find(R"("back\\slash\?\?=")"), std::string::npos) << c;  // no trigraph
    EXPECT_NE(c.find(R"("nul\000" "7x")"), std::string::npos) << c;      // the NUL's escape ends before the digit
    EXPECT_NE(emit_test::file(r, "model.h").find("#ifndef SONNX_STRING_DEFINED"), std::string::npos);
    if (mode == WeightsMode::File) {
      EXPECT_EQ(r.weights_bytes, 0);  // the strings stay in the C
      EXPECT_EQ(emit_test::file(r, "model.weights").size(), 16u);
    }
    check(m, {{"x", emit_strings_input()}}, EmitStringsForm::RawData, sub);
  }
}

// The driver reads strings from .pb only: a string .npy is refused, as sonnx refuses one.
TEST_F(EmitStringsTest, AStringNpyIsRefused) {
  const Model m = emit_strings_model();
  build(m, WeightsMode::Embedded, "npy");
  if (HasFailure()) return;
  std::string header = "{'descr': '|S5', 'fortran_order': False, 'shape': (2, 3), }";
  header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
  header += '\n';
  std::string npy = "\x93NUMPY";
  npy += '\x01';
  npy += '\0';
  npy += static_cast<char>(header.size() & 0xff);
  npy += static_cast<char>((header.size() >> 8) & 0xff);
  npy += header + std::string(30, 'a');
  const fs::path d = dir_ / "npy";
  std::ofstream(d / "x.npy", std::ios::binary) << npy;
  fs::create_directories(d / "out");
  EXPECT_EQ(emit_test::status(emit_test::quote(d / "prog") + " -o " + emit_test::quote(d / "out") + " " +
                              emit_test::quote(d / "x.npy") + " 2> " + emit_test::quote(d / "stderr")),
            1);
  EXPECT_NE(emit_test::read(d / "stderr").find("string tensors are read from .pb only"), std::string::npos)
      << emit_test::read(d / "stderr");
}

// complex64 and complex128 through Transpose, Slice and Concat with a constant (signed zeros, a
// NaN, infinities, subnormals), in both weights modes, the inputs in raw_data, in float_data /
// double_data pairs and in .npy.
TEST_F(EmitStringsTest, ComplexMovesAsTheReferenceDoes) {
  Model m = text::parse_model(R"(<ir_version: 10, opset_import: ["" : 25]>
g (complex64[2,3] x, complex128[2,3] z, complex64[2,3] k, complex128[2,3] kz) => (complex64[2,5] y, complex128[2,5] yz)
  <int64[1] starts = {1}, int64[1] ends = {3}, int64[1] axes = {0}, int64[1] steps = {1}> {
  t = Transpose <perm = [1, 0]> (x)
  s = Slice(t, starts, ends, axes, steps)
  y = Concat <axis = 1> (s, k)
  tz = Transpose <perm = [1, 0]> (z)
  sz = Slice(tz, starts, ends, axes, steps)
  yz = Concat <axis = 1> (sz, kz)
})");
  const float inf = std::numeric_limits<float>::infinity(), nan = std::numeric_limits<float>::quiet_NaN();
  const double dinf = std::numeric_limits<double>::infinity(), dnan = std::numeric_limits<double>::quiet_NaN();
  emit_strings_set_constant(m, "k",
                            Tensor::from_vector<std::complex<float>>({2, 3}, {{1.5f, -0.0f},
                                                                              {nan, inf},
                                                                              {-inf, 0.1f},
                                                                              {std::numeric_limits<float>::denorm_min(), -2.0f},
                                                                              {0.0f, 0.0f},
                                                                              {3.0e38f, -1e-30f}}));
  emit_strings_set_constant(m, "kz",
                            Tensor::from_vector<std::complex<double>>({2, 3}, {{1.5, -0.0},
                                                                               {dnan, dinf},
                                                                               {-dinf, 0.1},
                                                                               {std::numeric_limits<double>::denorm_min(), -2.0},
                                                                               {0.0, 0.0},
                                                                               {1e300, -1e-300}}));
  add_inferred_types(m);
  const Tensor x = Tensor::from_vector<std::complex<float>>(
      {2, 3}, {{1.0f, 2.0f}, {-3.5f, 0.25f}, {-0.0f, 7.0f}, {1e-40f, -1e20f}, {0.5f, -0.5f}, {6.0f, 8.0f}});
  const Tensor z = Tensor::from_vector<std::complex<double>>(
      {2, 3}, {{1.0, 2.0}, {-3.5, 0.25}, {-0.0, 7.0}, {1e-310, -1e200}, {0.1, -0.3}, {6.0, 8.0}});
  for (WeightsMode mode : {WeightsMode::Embedded, WeightsMode::File}) {
    const std::string sub = mode == WeightsMode::Embedded ? "embedded" : "file";
    const EmitResult r = build(m, mode, sub);
    if (HasFailure()) return;
    const std::string& h = emit_test::file(r, "model.h");
    EXPECT_NE(h.find("#ifndef SONNX_COMPLEX64_DEFINED"), std::string::npos) << h;
    EXPECT_NE(h.find("#ifndef SONNX_COMPLEX128_DEFINED"), std::string::npos) << h;
    EXPECT_EQ(h.find("sonnx_string"), std::string::npos) << h;  // only the types the model uses
    if (mode == WeightsMode::Embedded) {
      EXPECT_NE(emit_test::file(r, "model.c").find("static const sonnx_complex128 sonnx_w"), std::string::npos);
    } else {
      EXPECT_EQ(r.weights_bytes, 64 + 128);  // k (48 bytes) and kz (96 bytes), each 64-aligned
    }
    check(m, {{"x", x}, {"z", z}}, EmitStringsForm::RawData, sub);
    check(m, {{"x", x}, {"z", z}}, EmitStringsForm::TypedFields, sub);
    check(m, {{"x", x}, {"z", z}}, EmitStringsForm::Npy, sub);
  }
}

// The arena gives each string element 16 bytes; the header defines sonnx_string under a guard (two
// generated headers compile in one translation unit) and does not compile where a view needs
// more than 16 bytes.
TEST_F(EmitStringsTest, TheArenaHolds16BytesAStringAndTheHeaderChecksIt) {
  Model m = text::parse_model(R"(<ir_version: 10, opset_import: ["" : 25]>
g (string[5] x) => (string[5] y) {
  a = Identity(x)
  y = Identity(a)
})");
  add_inferred_types(m);
  EmitOptions first, second;
  first.name = "first";
  second.name = "second";
  const EmitResult r1 = emit_model(m, first), r2 = emit_model(m, second);
  EXPECT_GE(r1.arena_bytes, 16 * 5);  // a: five views
  EXPECT_NE(emit_test::file(r1, "first.c").find("(sonnx_string*)(void*)&a[0]"), std::string::npos);
  for (const EmitResult* r : {&r1, &r2})
    for (const EmittedFile& f : r->files) std::ofstream(dir_ / f.name, std::ios::binary) << f.content;
  std::ofstream(dir_ / "both.c") << "#include \"first.h\"\n#include \"second.h\"\n#include \"first.h\"\n"
                                    "int both(const first_inputs* a, second_outputs* b);\n"
                                    "int both(const first_inputs* a, second_outputs* b) { return a->x == b->y; }\n";
  const std::string flags = "-std=c99 -Wall -Wextra -pedantic -Wconversion -Werror -fsyntax-only ";
  EXPECT_EQ(emit_test::status("cc " + flags + emit_test::quote(dir_ / "both.c") + " " + emit_test::quote(dir_ / "first.c") +
                              " > " + emit_test::quote(dir_ / "cc.log") + " 2>&1"),
            0)
      << emit_test::read(dir_ / "cc.log");

  // The header's check, given a view of 32 bytes, is a compile error.
  const std::string h = emit_test::file(r1, "first.h");
  std::smatch check;
  ASSERT_TRUE(std::regex_search(h, check, std::regex("typedef char sonnx_string_fits_16_bytes[^\\n]*"))) << h;
  std::ofstream(dir_ / "big.c") << "#include <stddef.h>\n"
                                   "typedef struct {\n  const char* data;\n  size_t size;\n  char more[24];\n} sonnx_string;\n"
                                << check.str(0) << "\n";
  EXPECT_NE(emit_test::status("cc " + flags + emit_test::quote(dir_ / "big.c") + " > /dev/null 2>&1"), 0);
}

// What still has no C form is refused, naming the element type (and the operator version where
// the template refuses it itself): Greater on strings, Cast from complex, arithmetic on complex
// (c_type's refusal), a ScatterND reduction on strings.
TEST(EmitStringsRefusal, ComputingOnStringsOrComplexIsRefused) {
  const std::vector<std::pair<std::string, std::vector<std::string>>> cases = {
      {"g (string[2] x, string[2] y) => (bool[2] z) {\n  z = Greater(x, y)\n}", {"Greater-13", "element type string"}},
      {"g (complex64[2] x) => (float[2] z) {\n  z = Cast <to = 1> (x)\n}", {"Cast-25", "element type complex64"}},
      {"g (complex64[2] x, complex64[2] y) => (complex64[2] z) {\n  z = Add(x, y)\n}", {"complex64"}},
      {"g (string[2] x, int64[1,1] i, string[1] u) => (string[2] z) {\n  z = ScatterND <reduction = \"add\"> (x, i, u)\n}",
       {"ScatterND-18", "reduction on element type string"}}};
  for (const auto& [body, want] : cases) {
    Model m = text::parse_model("<ir_version: 10, opset_import: [\"\" : 25]>\n" + body);
    add_inferred_types(m);
    try {
      emit_model(m, {});
      ADD_FAILURE() << "emitted " << body;
    } catch (const EmitRefused& e) {
      for (const std::string& w : want) EXPECT_NE(std::string(e.what()).find(w), std::string::npos) << e.what();
    }
  }
}

}  // namespace
}  // namespace sonnx::emit
