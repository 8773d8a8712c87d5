// The C++ and C APIs (include/sonnx/sonnx.hpp, sonnx.h) as a program linking libsonnx.so uses
// them, on the rule fixtures: good_sonnx_mlp.onnx computes Y = Relu(X·W + B) with W all ones (2×3)
// and B zeros, so every element of Y is max(0, x0 + x1); STRUCT-SSA.onnx breaks one rule.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <thread>

#include <unistd.h>

#include "sonnx/sonnx.h"
#include "sonnx/sonnx.hpp"

namespace {

std::string fixture(const std::string& name) {
  const char* dir = std::getenv("SONNX_RULE_FIXTURES");
  return std::string(dir ? dir : "rule-fixtures") + "/" + name;
}

std::string read_bytes(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), {}};
}

sonnx::NamedValues mlp_input(float x0, float x1) { return {{"X", sonnx::Tensor::from_vector<float>({1, 2}, {x0, x1})}}; }

bool has_rule(const std::vector<sonnx::Diagnostic>& ds, const std::string& rule) {
  for (const auto& d : ds)
    if (d.rule == rule) return true;
  return false;
}

TEST(CppApi, LoadsFromFileAndFromBytesAlike) {
  sonnx::ModelHandle file = sonnx::load(fixture("good_sonnx_mlp.onnx"));
  sonnx::ModelHandle bytes = sonnx::load_bytes(read_bytes(fixture("good_sonnx_mlp.onnx")), "mlp");
  EXPECT_EQ(bytes.name(), "mlp");
  ASSERT_EQ(file.inputs().size(), 1u);  // W and B have initializers
  EXPECT_EQ(file.inputs()[0].first, "X");
  EXPECT_EQ(file.inputs(), bytes.inputs());
  EXPECT_EQ(file.outputs(), bytes.outputs());
  EXPECT_EQ(file.ir_version(), bytes.ir_version());
  EXPECT_EQ(file.opset_imports(), bytes.opset_imports());
}

TEST(CppApi, UnreadableModelsAreLoadErrors) {
  EXPECT_THROW(sonnx::load(fixture("no-such-model.onnx")), sonnx::LoadError);
  EXPECT_THROW(sonnx::load_bytes("this is not a protobuf model"), sonnx::LoadError);
  EXPECT_THROW(sonnx::load_bytes(""), sonnx::LoadError);
  std::string truncated = read_bytes(fixture("good_sonnx_mlp.onnx"));
  truncated.resize(truncated.size() / 2);
  EXPECT_THROW(sonnx::load_bytes(truncated), sonnx::LoadError);
}

TEST(CppApi, CheckReportsTheBrokenRule) {
  EXPECT_FALSE(sonnx::has_errors(sonnx::check(sonnx::load(fixture("good_sonnx_mlp.onnx")), "sonnx")));
  auto ds = sonnx::check(sonnx::load(fixture("STRUCT-SSA.onnx")));
  EXPECT_TRUE(sonnx::has_errors(ds));
  EXPECT_TRUE(has_rule(ds, "STRUCT-SSA"));
  EXPECT_THROW(sonnx::check(sonnx::load(fixture("good_sonnx_mlp.onnx")), "no-such-profile"), sonnx::LoadError);
}

TEST(CppApi, EveryExecutorComputesTheModel) {
  sonnx::ModelHandle model = sonnx::load(fixture("good_sonnx_mlp.onnx"));
  ASSERT_EQ(sonnx::executors().size(), 4u);
  for (const auto& executor : sonnx::executors()) {
    sonnx::Session session(model, {.executor = executor, .threads = 2});
    for (auto [x0, x1] : {std::pair{1.0f, 2.0f}, {-3.0f, 1.0f}, {0.25f, 0.5f}}) {
      sonnx::NamedValues out = session.run(mlp_input(x0, x1));
      const sonnx::Tensor& y = out.at("Y").tensor;
      ASSERT_EQ(y.shape(), (sonnx::Shape{1, 3})) << executor;
      for (float v : y.values<float>()) EXPECT_EQ(v, std::max(0.0f, x0 + x1)) << executor;
    }
  }
}

TEST(CppApi, OneSessionRunsFromManyThreads) {
  sonnx::Session session(sonnx::load(fixture("good_sonnx_mlp.onnx")), {.executor = "linear"});
  std::vector<std::thread> threads;
  std::vector<int> wrong(4, 0);
  for (int t = 0; t < 4; ++t)
    threads.emplace_back([&, t] {
      for (int i = 0; i < 50; ++i) {
        float x0 = static_cast<float>(t * 100 + i), x1 = 0.5f;
        sonnx::NamedValues out = session.run(mlp_input(x0, x1));
        for (float v : out.at("Y").tensor.values<float>()) wrong[t] += v != x0 + x1;
      }
    });
  for (auto& th : threads) th.join();
  EXPECT_EQ(wrong, std::vector<int>(4, 0));
}

TEST(CppApi, TypedErrors) {
  sonnx::ModelHandle good = sonnx::load(fixture("good_sonnx_mlp.onnx"));
  try {
    sonnx::Session session(sonnx::load(fixture("STRUCT-SSA.onnx")));
    FAIL() << "a model failing the check was compiled";
  } catch (const sonnx::CheckFailed& e) {
    EXPECT_TRUE(has_rule(e.diagnostics(), "STRUCT-SSA"));
    EXPECT_NE(e.details().find("STRUCT-SSA"), std::string::npos);
  }
  EXPECT_THROW(sonnx::Session(good, {.executor = "no-such-executor"}), sonnx::LoadError);
  sonnx::Session session(good);
  EXPECT_THROW(session.run({{"X", sonnx::Tensor::from_vector<int64_t>({1, 2}, {1, 2})}}), sonnx::Trap);
  EXPECT_THROW(session.run({{"X", sonnx::Tensor::from_vector<float>({1, 3}, {1, 2, 3})}}), sonnx::Trap);
  EXPECT_THROW(session.run({}), sonnx::Trap);
  // The session is still usable after a trap.
  EXPECT_EQ(session.run(mlp_input(1, 1)).at("Y").tensor.values<float>()[0], 2.0f);
}

TEST(CppApi, EnclosuresContainTheRun) {
  sonnx::ModelHandle model = sonnx::load(fixture("good_sonnx_mlp.onnx"));
  auto bounds = sonnx::enclosures(model, mlp_input(0.1f, 0.2f));
  float y = sonnx::run(model, mlp_input(0.1f, 0.2f)).at("Y").tensor.values<float>()[0];
  const sonnx::OutputEnclosure& e = bounds.at("Y");
  EXPECT_EQ(e.type, sonnx::DType::Float);
  for (int64_t i = 0; i < 3; ++i) {
    // 0.1f + 0.2f in reals, which the float result rounds.
    double exact = static_cast<double>(0.1f) + static_cast<double>(0.2f);
    EXPECT_LE(e.lower.values<double>()[i], exact);
    EXPECT_GE(e.upper.values<double>()[i], exact);
    EXPECT_NEAR(y, exact, 1e-7);
  }
  EXPECT_THROW(sonnx::enclosures(model, mlp_input(0, 0), "no-such-semantics"), sonnx::LoadError);
}

TEST(CppApi, ConformWithoutTestsIsALoadError) {
  EXPECT_THROW(sonnx::conform({fixture("no-such-dir")}), sonnx::LoadError);
  EXPECT_THROW(sonnx::conform({}), sonnx::LoadError);
}

// A one-test suite made here: good_sonnx_mlp.onnx on X = [1, 2], expecting Y = [3, 3, 3] (by
// hand: Relu(1 + 2)); and a second test expecting a wrong Y.
std::filesystem::path make_suite() {
  auto root = std::filesystem::temp_directory_path() / ("sonnx-api-suite-" + std::to_string(::getpid()));
  std::filesystem::remove_all(root);
  for (auto [name, y] : {std::pair{"test_mlp_right", 3.0f}, {"test_mlp_wrong", 4.0f}}) {
    auto data = root / name / "test_data_set_0";
    std::filesystem::create_directories(data);
    std::filesystem::copy_file(fixture("good_sonnx_mlp.onnx"), root / name / "model.onnx");
    sonnx::write_value_file(data / "input_0.pb", sonnx::Value(sonnx::Tensor::from_vector<float>({1, 2}, {1, 2})), "X");
    sonnx::write_value_file(data / "output_0.pb", sonnx::Value(sonnx::Tensor::from_vector<float>({1, 3}, {y, y, y})), "Y");
  }
  return root;
}

TEST(CppApiSuites, ConformAndCertifyReportAsStructs) {
  std::filesystem::path suite = make_suite();
  sonnx::ConformReport report = sonnx::conform({suite}, {.executor = "linear", .isolate = false});
  EXPECT_EQ(report.executor, "linear");
  EXPECT_EQ(report.total, 2);
  EXPECT_EQ(report.passed, 1);
  EXPECT_EQ(report.failed, 1);
  ASSERT_EQ(report.tests.size(), 2u);
  for (const auto& t : report.tests) {
    EXPECT_EQ(t.status, t.name == "test_mlp_right" ? "passed" : "failed") << t.name;
    EXPECT_EQ(t.op_types, (std::vector<std::string>{"Gemm-13", "Relu-14"})) << t.name;
    EXPECT_EQ(t.max_abs, t.name == "test_mlp_right" ? 0.0 : 1.0) << t.name;
  }
  EXPECT_NE(report.json.find("\"test_mlp_wrong\""), std::string::npos);

  // The certifier compares the backend with the reference (not with the expected outputs).
  sonnx::Certificate cert = sonnx::certify({suite}, {.backend = "cpu"});
  EXPECT_EQ(cert.verdict, "certified");
  EXPECT_EQ(cert.summary.at("passed"), 2);
  EXPECT_EQ(cert.operators.size(), 2u);
  for (const auto& o : cert.operators) EXPECT_EQ(o.verdict, "certified") << o.op_type;
  EXPECT_THROW(sonnx::certify({suite}, {.backend = "no-such-backend"}), std::exception);
  std::filesystem::remove_all(suite);
}

TEST(CApi, LoadCheckAndRun) {
  sonnx_model* model = nullptr;
  ASSERT_EQ(sonnx_model_load(fixture("good_sonnx_mlp.onnx").c_str(), &model), SONNX_OK) << sonnx_last_error();
  sonnx_diagnostics* found = nullptr;
  ASSERT_EQ(sonnx_check(model, "sonnx", &found), SONNX_OK);
  EXPECT_EQ(sonnx_diagnostics_errors(found), 0u);
  sonnx_diagnostics_free(found);

  sonnx_session* session = nullptr;
  ASSERT_EQ(sonnx_session_create(model, "linear", 1, &session), SONNX_OK) << sonnx_last_error();
  const float x[2] = {1.5f, 2.0f};
  const int64_t dims[2] = {1, 2};
  sonnx_named_tensor input{"X", SONNX_FLOAT, dims, 2, x, sizeof x};
  sonnx_outputs* outputs = nullptr;
  ASSERT_EQ(sonnx_session_run(session, &input, 1, &outputs), SONNX_OK) << sonnx_last_error();
  ASSERT_EQ(sonnx_outputs_count(outputs), 1u);
  sonnx_named_tensor y{};
  ASSERT_EQ(sonnx_outputs_get(outputs, 0, &y), 1);
  EXPECT_STREQ(y.name, "Y");
  EXPECT_EQ(y.elem_type, SONNX_FLOAT);
  ASSERT_EQ(y.rank, 2u);
  EXPECT_EQ(y.dims[1], 3);
  EXPECT_EQ(y.byte_size, 3 * sizeof(float));
  EXPECT_EQ(static_cast<const float*>(y.data)[2], 3.5f);
  EXPECT_EQ(sonnx_outputs_get(outputs, 1, &y), 0);
  sonnx_outputs_free(outputs);
  sonnx_session_free(session);
  sonnx_model_free(model);
}

TEST(CApi, FailuresAreStatusCodesWithMessages) {
  sonnx_model* model = nullptr;
  EXPECT_EQ(sonnx_model_load(fixture("no-such-model.onnx").c_str(), &model), SONNX_ERROR_LOAD);
  EXPECT_NE(std::string(sonnx_last_error()).find("no such file"), std::string::npos);
  EXPECT_EQ(sonnx_model_load(nullptr, &model), SONNX_ERROR_LOAD);
  EXPECT_EQ(sonnx_model_load_bytes("junk", 4, &model), SONNX_ERROR_LOAD);

  ASSERT_EQ(sonnx_model_load(fixture("STRUCT-SSA.onnx").c_str(), &model), SONNX_OK);
  sonnx_session* session = nullptr;
  EXPECT_EQ(sonnx_session_create(model, "reference", 1, &session), SONNX_ERROR_CHECK);
  EXPECT_NE(std::string(sonnx_last_error()).find("STRUCT-SSA"), std::string::npos);
  sonnx_model_free(model);

  ASSERT_EQ(sonnx_model_load(fixture("good_sonnx_mlp.onnx").c_str(), &model), SONNX_OK);
  ASSERT_EQ(sonnx_session_create(model, "reference", 1, &session), SONNX_OK);
  const float x[2] = {1, 2};
  const int64_t dims[2] = {1, 2};
  sonnx_outputs* outputs = nullptr;
  sonnx_named_tensor short_input{"X", SONNX_FLOAT, dims, 2, x, sizeof(float)};
  EXPECT_EQ(sonnx_session_run(session, &short_input, 1, &outputs), SONNX_ERROR_LOAD);
  EXPECT_NE(std::string(sonnx_last_error()).find("byte_size"), std::string::npos);
  const int64_t bad_dims[2] = {1, -2};
  sonnx_named_tensor negative{"X", SONNX_FLOAT, bad_dims, 2, x, sizeof x};
  EXPECT_NE(sonnx_session_run(session, &negative, 1, &outputs), SONNX_OK);
  sonnx_named_tensor wrong_type{"X", SONNX_INT32, dims, 2, x, sizeof x};
  EXPECT_EQ(sonnx_session_run(session, &wrong_type, 1, &outputs), SONNX_ERROR_TRAP);
  sonnx_named_tensor unknown{"Z", SONNX_FLOAT, dims, 2, x, sizeof x};
  EXPECT_EQ(sonnx_session_run(session, &unknown, 1, &outputs), SONNX_ERROR_TRAP);
  sonnx_session_free(session);
  sonnx_model_free(model);
  sonnx_model_free(nullptr);  // freeing NULL does nothing
}

}  // namespace
