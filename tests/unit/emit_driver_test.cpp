// emit/driver.h: the main.c that `sonnx emit-c` writes, compiled with a stub model (tiny.h and
// tiny.c, written here) by the system's C compiler at -std=c99 -Wall -Wextra -pedantic -Wconversion
// -Werror, and run: a TensorProto input (raw_data or float_data) and a .npy input give the
// output_0.pb expected from the stub, in the process protocol's forms (`prog [MODEL] IN OUT`) and
// in `prog -o OUT FILE`; a wrong shape, a wrong element type and every truncation of a .pb are a
// message and exit status 1, never a crash. Skipped when there is no `cc`.

#include <cstdint>
#include <cstdlib>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <vector>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "emit/driver.h"
#include "emit/emit_op.h"
#include "emit_test_util.h"

namespace sonnx {
namespace {
namespace fs = std::filesystem;

// The stub model: y[i] = (int64_t)(x[i] * 10) + (int64_t)x[i + 2] for i < 4 (truncation toward
// zero), and exit status 5 from tiny_run when the arena is not 64-byte aligned.
const char* const emit_driver_stub_header = "#ifndef TINY_H\n"
                                            "#define TINY_H\n"
                                            "#include <stdint.h>\n"
                                            "#define TINY_ARENA_BYTES 64\n"
                                            "typedef struct { const float* x; } tiny_inputs;\n"
                                            "typedef struct { int64_t* y; } tiny_outputs;\n"
                                            "int tiny_run(const tiny_inputs* inputs, tiny_outputs* outputs, void* arena);\n"
                                            "#endif\n";
const char* const emit_driver_stub_source =
    "#include \"tiny.h\"\n"
    "int tiny_run(const tiny_inputs* inputs, tiny_outputs* outputs, void* arena) {\n"
    "  int i;\n"
    "  if ((uintptr_t)arena % 64u != 0u) return 5;\n"
    "  for (i = 0; i < 4; ++i) outputs->y[i] = (int64_t)(inputs->x[i] * 10.0f) + (int64_t)inputs->x[i + 2];\n"
    "  return 0;\n"
    "}\n";

const std::vector<float> emit_driver_x = {1.5f, -2.25f, 3.0f, 4.0f, 5.0f, 6.75f};
const std::vector<int64_t> emit_driver_y = {15 + 3, -22 + 4, 30 + 5, 40 + 6};

std::string emit_driver_float_bytes(const std::vector<float>& values) {
  std::string bytes(values.size() * sizeof(float), '\0');
  std::memcpy(bytes.data(), values.data(), bytes.size());  // little-endian, as this host
  return bytes;
}

class EmitDriverTest : public ::testing::Test {
 protected:
  void SetUp() override {
    if (!emit_test::has_cc()) GTEST_SKIP() << "no C compiler `cc`";
    dir_ = emit_test::scratch_dir("driver");
    fs::create_directories(dir_ / "in");
    fs::create_directories(dir_ / "out");
    write("tiny.h", emit_driver_stub_header);
    write("tiny.c", emit_driver_stub_source);
    write("main.c", emit::driver_source("tiny", {{"x", "x", DType::Float, {2, 3}}}, {{"y", "y", DType::Int64, {4}}}, false));
    const std::string cc = "cc -std=c99 -Wall -Wextra -pedantic -Wconversion -Werror -o " + emit_test::quote(dir_ / "prog") +
                           " " + emit_test::quote(dir_ / "main.c") + " " + emit_test::quote(dir_ / "tiny.c") + " > " +
                           emit_test::quote(dir_ / "cc.log") + " 2>&1";
    ASSERT_EQ(emit_test::status(cc), 0) << "main.c does not compile warning-free:\n" << read(dir_ / "cc.log");
  }
  void TearDown() override {
    if (!dir_.empty()) fs::remove_all(dir_);
  }

  fs::path write(const std::string& rel, const std::string& bytes) const {
    fs::path p = dir_ / rel;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }
  static std::string read(const fs::path& p) {
    std::ifstream in(p, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }

  // Runs the program with `args` (already quoted); stdout and stderr go to out_ and err_.
  int run(const std::string& args) {
    fs::remove(dir_ / "out" / "output_0.pb");
    int rc = emit_test::status(emit_test::quote(dir_ / "prog") + " " + args + " > " + emit_test::quote(dir_ / "stdout") +
                               " 2> " + emit_test::quote(dir_ / "stderr"));
    out_ = read(dir_ / "stdout");
    err_ = read(dir_ / "stderr");
    return rc;
  }

  // output_0.pb holds y, int64 [4], with the stub's values.
  void expect_output() const {
    onnx::TensorProto y;
    ASSERT_TRUE(y.ParseFromString(read(dir_ / "out" / "output_0.pb")));
    EXPECT_EQ(y.name(), "y");
    EXPECT_EQ(y.data_type(), onnx::TensorProto::INT64);
    ASSERT_EQ(y.dims_size(), 1);
    EXPECT_EQ(y.dims(0), 4);
    ASSERT_EQ(y.raw_data().size(), 4 * sizeof(int64_t));
    std::vector<int64_t> values(4);
    std::memcpy(values.data(), y.raw_data().data(), y.raw_data().size());
    EXPECT_EQ(values, emit_driver_y);
  }

  static onnx::TensorProto x_proto(std::vector<int64_t> dims = {2, 3}, bool raw = true) {
    onnx::TensorProto x;
    x.set_name("x");
    x.set_data_type(onnx::TensorProto::FLOAT);
    for (int64_t d : dims) x.add_dims(d);
    if (raw) x.set_raw_data(emit_driver_float_bytes(emit_driver_x));
    else
      for (float v : emit_driver_x) x.add_float_data(v);
    return x;
  }

  // A version 1.0 .npy file: {'descr': DESCR, 'fortran_order': False, 'shape': SHAPE, } and `data`.
  static std::string npy(const std::string& descr, const std::string& shape, const std::string& data) {
    std::string header = "{'descr': '" + descr + "', 'fortran_order': False, 'shape': " + shape + ", }";
    header.append((64 - (10 + header.size() + 1) % 64) % 64, ' ');
    header += '\n';
    std::string out = "\x93NUMPY";
    out += '\x01';
    out += '\0';
    out += static_cast<char>(header.size() & 0xff);
    out += static_cast<char>((header.size() >> 8) & 0xff);
    return out + header + data;
  }

  fs::path dir_;
  std::string out_, err_;
};

TEST_F(EmitDriverTest, TensorProtoInputsGiveTheOutputTensorProto) {
  write("in/input_0.pb", x_proto().SerializeAsString());
  // sonnx's process protocol: MODEL INPUT_DIR OUTPUT_DIR (MODEL ignored) ...
  ASSERT_EQ(run("model.onnx " + emit_test::quote(dir_ / "in") + " " + emit_test::quote(dir_ / "out")), 0) << err_;
  expect_output();
  // ... or INPUT_DIR OUTPUT_DIR, here with the values in float_data instead of raw_data.
  write("in/input_0.pb", x_proto({2, 3}, false).SerializeAsString());
  ASSERT_EQ(run(emit_test::quote(dir_ / "in") + " " + emit_test::quote(dir_ / "out")), 0) << err_;
  expect_output();
}

TEST_F(EmitDriverTest, NpyInputs) {
  // input_0.npy when there is no input_0.pb ...
  write("in/input_0.npy", npy("<f4", "(2, 3)", emit_driver_float_bytes(emit_driver_x)));
  ASSERT_EQ(run(emit_test::quote(dir_ / "in") + " " + emit_test::quote(dir_ / "out")), 0) << err_;
  expect_output();
  // ... and a file named on the command line.
  fs::path x = write("x.npy", npy("<f4", "(2, 3)", emit_driver_float_bytes(emit_driver_x)));
  ASSERT_EQ(run("-o " + emit_test::quote(dir_ / "out") + " " + emit_test::quote(x)), 0) << err_;
  expect_output();
  // A .npy of another shape or type is refused.
  x = write("x.npy", npy("<f4", "(6,)", emit_driver_float_bytes(emit_driver_x)));
  EXPECT_EQ(run("-o " + emit_test::quote(dir_ / "out") + " " + emit_test::quote(x)), 1);
  EXPECT_NE(err_.find("shape [6], the model's input has shape [2,3]"), std::string::npos) << err_;
  x = write("x.npy", npy("<i4", "(2, 3)", std::string(24, '\0')));
  EXPECT_EQ(run("-o " + emit_test::quote(dir_ / "out") + " " + emit_test::quote(x)), 1);
  EXPECT_NE(err_.find("element type int32"), std::string::npos) << err_;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "output_0.pb"));
}

TEST_F(EmitDriverTest, AWrongShapeOrTypeIsAnError) {
  fs::path x = write("x.pb", x_proto({3, 2}).SerializeAsString());
  EXPECT_EQ(run("-o " + emit_test::quote(dir_ / "out") + " " + emit_test::quote(x)), 1);
  EXPECT_NE(err_.find("input 0 ('x')"), std::string::npos) << err_;
  EXPECT_NE(err_.find("shape [3,2], the model's input has shape [2,3]"), std::string::npos) << err_;
  onnx::TensorProto wrong = x_proto();
  wrong.set_data_type(onnx::TensorProto::DOUBLE);
  x = write("x.pb", wrong.SerializeAsString());
  EXPECT_EQ(run("-o " + emit_test::quote(dir_ / "out") + " " + emit_test::quote(x)), 1);
  EXPECT_NE(err_.find("element type double, the model's input is float"), std::string::npos) << err_;
  EXPECT_FALSE(fs::exists(dir_ / "out" / "output_0.pb"));
}

TEST_F(EmitDriverTest, EveryTruncatedTensorProtoIsAnError) {
  const std::string whole = x_proto().SerializeAsString();
  for (size_t n = 0; n < whole.size(); ++n) {
    fs::path x = write("x.pb", whole.substr(0, n));
    ASSERT_EQ(run("-o " + emit_test::quote(dir_ / "out") + " " + emit_test::quote(x)), 1) << n << " bytes: " << err_;
    EXPECT_NE(err_.find("input 0 ('x')"), std::string::npos) << err_;
  }
  fs::path x = write("x.pb", whole.substr(0, whole.size() - 3));
  EXPECT_EQ(run("-o " + emit_test::quote(dir_ / "out") + " " + emit_test::quote(x)), 1);
  EXPECT_NE(err_.find("truncated"), std::string::npos) << err_;
  // A missing input, and a usage error.
  EXPECT_EQ(run(emit_test::quote(dir_ / "nothere") + " " + emit_test::quote(dir_ / "out")), 1);
  EXPECT_NE(err_.find("no input_0.pb nor input_0.npy"), std::string::npos) << err_;
  EXPECT_EQ(run("-o " + emit_test::quote(dir_ / "out")), 2);
  EXPECT_EQ(run("--help"), 0);
  EXPECT_NE(out_.find("input 0 'x': float [2,3]"), std::string::npos) << out_;
}

TEST(EmitDriverSource, RefusesATypeWithNoCType) {
  EXPECT_THROW(emit::driver_source("m", {{"s", "s", DType::Undefined, {1}}}, {}, false), emit::EmitRefused);
  // With weights in a file, the driver loads them through PREFIX_load_weights.
  std::string text = emit::driver_source("m", {}, {{"y", "y", DType::Bool, {}}}, true);
  EXPECT_NE(text.find("m_load_weights(arena, path)"), std::string::npos);
  EXPECT_NE(text.find("SONNX_WEIGHTS"), std::string::npos);
}

}  // namespace
}  // namespace sonnx
