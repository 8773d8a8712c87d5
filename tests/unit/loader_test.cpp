// Loading must refuse bad input with a LoadError and a reason, never crash: empty, truncated and
// random files, and external-data paths that try to leave the model's directory.
#include <filesystem>
#include <fstream>
#include <random>

#include <gtest/gtest.h>
#include <onnx/onnx_pb.h>

#include "sonnx/errors.h"
#include "reference/model/loader.h"

namespace sonnx {
namespace {
namespace fs = std::filesystem;

class LoaderTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("sonnx-loader-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) +
                                        "-" + ::testing::UnitTest::GetInstance()->current_test_info()->name());
    fs::remove_all(dir_);
    fs::create_directories(dir_ / "models");
  }
  void TearDown() override { fs::remove_all(dir_); }

  fs::path write(const std::string& rel, const std::string& bytes) {
    fs::path p = dir_ / rel;
    std::ofstream(p, std::ios::binary) << bytes;
    return p;
  }

  // A model Y = X + W with W an initializer stored as external data at `location`.
  onnx::ModelProto model_with_external(const std::string& location) {
    onnx::ModelProto m;
    m.set_ir_version(8);
    m.add_opset_import()->set_version(17);
    auto* g = m.mutable_graph();
    auto* n = g->add_node();
    n->set_op_type("Add");
    n->add_input("X");
    n->add_input("W");
    n->add_output("Y");
    g->add_input()->set_name("X");
    g->add_output()->set_name("Y");
    auto* w = g->add_initializer();
    w->set_name("W");
    w->set_data_type(onnx::TensorProto::FLOAT);
    w->add_dims(2);
    w->set_data_location(onnx::TensorProto::EXTERNAL);
    auto* kv = w->add_external_data();
    kv->set_key("location");
    kv->set_value(location);
    return m;
  }

  void expect_refused(const fs::path& file, const std::string& reason_part) {
    try {
      load_model(file);
      FAIL() << "expected LoadError for " << file;
    } catch (const LoadError& e) {
      EXPECT_NE(std::string(e.what()).find(reason_part), std::string::npos) << e.what();
    }
  }

  fs::path dir_;
};

TEST_F(LoaderTest, MissingFile) { expect_refused(dir_ / "nope.onnx", "no such file"); }

TEST_F(LoaderTest, EmptyFile) { expect_refused(write("empty.onnx", ""), "empty file"); }

TEST_F(LoaderTest, TruncatedModel) {
  std::string bytes = model_with_external("w.bin").SerializeAsString();
  expect_refused(write("cut.onnx", bytes.substr(0, bytes.size() / 2)), "");
}

TEST_F(LoaderTest, RandomBytesNeverCrash) {
  std::mt19937 rng(1234);
  for (int i = 0; i < 200; ++i) {
    std::string bytes(static_cast<size_t>(1 + rng() % 512), '\0');
    for (auto& c : bytes) c = static_cast<char>(rng());
    fs::path p = write("random.onnx", bytes);
    try {
      load_model(p);  // a random string may parse; then it must still be a usable model
    } catch (const LoadError&) {
    }
  }
}

TEST_F(LoaderTest, ExternalDataInsideTheDirectoryLoads) {
  float w[2] = {1.5f, -2.0f};
  write("models/w.bin", std::string(reinterpret_cast<const char*>(w), sizeof w));
  fs::path m = write("models/m.onnx", model_with_external("w.bin").SerializeAsString());
  auto lm = load_model(m);
  const Tensor& t = lm->ir.graph.initializers.at(0).second;
  EXPECT_EQ(t.data<float>()[0], 1.5f);
  EXPECT_EQ(t.data<float>()[1], -2.0f);
}

TEST_F(LoaderTest, ExternalDataWithDotDotIsRefused) {
  write("secret.bin", std::string(8, 'x'));
  expect_refused(write("models/m.onnx", model_with_external("../secret.bin").SerializeAsString()), "'..'");
}

TEST_F(LoaderTest, AbsoluteExternalDataIsRefused) {
  fs::path secret = write("secret.bin", std::string(8, 'x'));
  expect_refused(write("models/m.onnx", model_with_external(secret.string()).SerializeAsString()), "absolute");
}

TEST_F(LoaderTest, ExternalDataSymlinkOutsideIsRefused) {
  fs::path secret = write("secret.bin", std::string(8, 'x'));
  fs::create_symlink(secret, dir_ / "models" / "link.bin");
  expect_refused(write("models/m.onnx", model_with_external("link.bin").SerializeAsString()), "outside the model directory");
}

TEST_F(LoaderTest, ExternalDataTooShortIsRefused) {
  write("models/w.bin", std::string(3, 'x'));
  expect_refused(write("models/m.onnx", model_with_external("w.bin").SerializeAsString()), "bytes of data");
}

TEST_F(LoaderTest, ExternalDataThatIsADirectoryIsRefused) {
  // "." resolves to the model directory itself (found by the fuzzer: it used to allocate garbage).
  expect_refused(write("models/m.onnx", model_with_external(".").SerializeAsString()), "not a regular file");
}

TEST_F(LoaderTest, ExternalDataLocationWithNulIsRefused) {
  write("models/w.bin", std::string(8, 'x'));
  expect_refused(write("models/m.onnx", model_with_external(std::string("w.bin\0../x", 11)).SerializeAsString()), "NUL");
}

TEST_F(LoaderTest, AbsurdShapeIsRefusedNotAllocated) {
  onnx::ModelProto m = model_with_external("w.bin");
  auto* w = m.mutable_graph()->mutable_initializer(0);
  w->clear_dims();
  w->add_dims(int64_t{1} << 40);
  w->add_dims(int64_t{1} << 40);
  expect_refused(write("models/m.onnx", m.SerializeAsString()), "too large");
}

}  // namespace
}  // namespace sonnx
