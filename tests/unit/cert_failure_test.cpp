// Every failure explained (conformance/certify/cert_failure.h): the node, its inputs' ranges, the
// first wrong element judged by tolerance or by enclosure, and a repro directory that is an ONNX
// test directory (certified again, it fails the same way on the same backend and passes on the
// reference). The expected figures are worked out by hand in the comments.
#include <gtest/gtest.h>
#include <unistd.h>

#include <cmath>
#include <fstream>
#include <sstream>

#include "conformance/certify/cert_failure.h"
#include "conformance/certify/certify.h"
#include "conformance/certify/command_runner.h"
#include "conformance/certify/target.h"
#include "reference/model/loader.h"
#include "reference/model/tensor_proto.h"
#include "reference/model/text_syntax.h"
#include "reference/model/writer.h"

namespace sonnx {
namespace {

namespace fs = std::filesystem;

Tensor floats(Shape shape, std::vector<float> v) { return Tensor::from_vector<float>(std::move(shape), v); }
Tensor doubles(Shape shape, std::vector<double> v) { return Tensor::from_vector<double>(std::move(shape), v); }

bool has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

std::string read_text(const fs::path& f) {
  std::ifstream in(f, std::ios::binary);
  std::ostringstream s;
  s << in.rdbuf();
  return s.str();
}

// A fresh directory of this process for one test, removed with it.
struct Scratch {
  fs::path dir;
  explicit Scratch(const std::string& name)
      : dir(fs::temp_directory_path() / ("sonnx_cert_failure_" + std::to_string(getpid()) + "_" + name)) {
    fs::remove_all(dir);
    fs::create_directories(dir);
  }
  ~Scratch() {
    std::error_code ec;
    fs::remove_all(dir, ec);
  }
};

const char* const kAddModel = R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2,3] x, float[2,3] y) => (float[2,3] z) { [add] z = Add (x, y) })";

// z = x + y with x = 1..6 and y = 0.5: the reference gives 1.5 .. 6.5.
struct AddCase {
  Model model = text::parse_model(kAddModel);
  FailureEvidence e;
  AddCase() {
    e.model = &model;
    e.data_set = "test_data_set_0";
    e.inputs["x"] = floats({2, 3}, {1, 2, 3, 4, 5, 6});
    e.inputs["y"] = floats({2, 3}, {0.5f, 0.5f, 0.5f, 0.5f, 0.5f, 0.5f});
    e.reference["z"] = floats({2, 3}, {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 6.5f});
    e.not_localized = "not localized: localization is off (--no-localize)";
  }
};

TEST(CertFailureExplain, TheFirstWrongElementUnderTheTolerance) {
  AddCase c;
  c.e.runtime["z"] = floats({2, 3}, {1.5f, 2.5f, 3.5f, 4.5f, 6.0f, 7.0f});  // elements 4 and 5 off by 0.5
  CertFailure f = explain_failure(c.e);
  EXPECT_FALSE(f.localized);
  EXPECT_EQ(f.node, "add (Add)");  // the model's only node
  EXPECT_EQ(f.op_version, "Add-14");
  EXPECT_EQ(f.not_localized, "not localized: localization is off (--no-localize)");
  EXPECT_EQ(f.data_set, "test_data_set_0");
  ASSERT_EQ(f.inputs.size(), 2u);
  EXPECT_EQ(f.inputs[0].name, "x");
  EXPECT_EQ(f.inputs[0].type, "float");
  EXPECT_EQ(f.inputs[0].shape, (std::vector<int64_t>{2, 3}));
  EXPECT_EQ(f.inputs[0].min, "1");
  EXPECT_EQ(f.inputs[0].max, "6");
  EXPECT_EQ(f.inputs[1].min, "0.5");
  EXPECT_EQ(f.output, "z");
  EXPECT_EQ(f.judged_by, "tolerance");
  EXPECT_EQ(f.index, 4);
  EXPECT_EQ(f.multi_index, (std::vector<int64_t>{1, 1}));  // 4 = 1·3 + 1
  EXPECT_EQ(f.wrong, 2);
  EXPECT_EQ(f.elements, 6);
  EXPECT_EQ(f.runtime, "6");
  EXPECT_EQ(f.reference, "5.5");
  EXPECT_EQ(f.ulp_error, 1048576.0);  // 0.5 / ulp(5.5) = 0.5 / 2^-21 = 2^20 (float32, 5.5 in [4, 8))
  EXPECT_TRUE(std::isnan(f.ulps_outside));
  EXPECT_TRUE(has(f.tolerance, "1e-06") && has(f.tolerance, "1e-05") && has(f.tolerance, "2 ulps")) << f.tolerance;
  EXPECT_TRUE(f.lo.empty() && f.hi.empty());
  EXPECT_TRUE(f.note.empty()) << f.note;
}

TEST(CertFailureExplain, TheFirstElementOutsideItsEnclosure) {
  AddCase c;
  std::map<std::string, enclose::Bounds> bounds;
  enclose::Bounds& b = bounds["z"];
  b.type = DType::Float;
  b.lo = doubles({2, 3}, {1.5, 2.5, 3.5, 4.5, 5.5, 6.5});
  b.hi = doubles({2, 3}, {1.5, 2.5, 3.5, 4.5, 5.5, 6.5});
  c.e.bounds = &bounds;
  c.e.runtime["z"] = floats({2, 3}, {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 7.0f});
  CertFailure f = explain_failure(c.e);
  EXPECT_EQ(f.judged_by, "enclosure");
  EXPECT_EQ(f.index, 5);
  EXPECT_EQ(f.multi_index, (std::vector<int64_t>{1, 2}));
  EXPECT_EQ(f.wrong, 1);
  EXPECT_EQ(f.lo, "6.5");
  EXPECT_EQ(f.hi, "6.5");
  EXPECT_EQ(f.runtime, "7");
  EXPECT_EQ(f.reference, "6.5");
  EXPECT_EQ(f.ulps_outside, 1048576.0);  // (7 − 6.5) / ulp(6.5) = 0.5 / 2^-21
  EXPECT_TRUE(f.tolerance.empty());
}

TEST(CertFailureExplain, AnExactOutputNamesTheValueExactly) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 17]>
g (int64[2] a, int64[2] b) => (int64[2] s) { s = Add (a, b) })");
  FailureEvidence e;
  e.model = &m;
  e.inputs["a"] = Tensor::from_vector<int64_t>({2}, {9007199254740993, 1});  // 2^53 + 1: no double holds it
  e.inputs["b"] = Tensor::from_vector<int64_t>({2}, {0, 1});
  e.reference["s"] = Tensor::from_vector<int64_t>({2}, {9007199254740993, 2});
  e.runtime["s"] = Tensor::from_vector<int64_t>({2}, {9007199254740992, 2});
  std::map<std::string, enclose::Bounds> bounds;
  bounds["s"] = enclose::Bounds::of(e.reference["s"].tensor);
  e.bounds = &bounds;
  CertFailure f = explain_failure(e);
  EXPECT_EQ(f.node, "#0 (Add)");
  EXPECT_EQ(f.inputs[0].max, "9007199254740993");
  EXPECT_EQ(f.index, 0);
  EXPECT_EQ(f.lo, "9007199254740993");
  EXPECT_EQ(f.hi, "9007199254740993");
  EXPECT_EQ(f.runtime, "9007199254740992");
  EXPECT_TRUE(std::isnan(f.ulps_outside));  // no ulps for an integer
  EXPECT_TRUE(std::isnan(f.ulp_error));
}

TEST(CertFailureExplain, InputRangesCountNaNsAndInfinities) {
  AddCase c;
  c.e.inputs["x"] = floats({2, 3}, {NAN, -INFINITY, 2, -3, INFINITY, 0.25f});
  c.e.runtime["z"] = floats({2, 3}, {0, 0, 0, 0, 0, 0});
  CertFailure f = explain_failure(c.e);
  ASSERT_FALSE(f.inputs.empty());
  EXPECT_EQ(f.inputs[0].min, "-3");
  EXPECT_EQ(f.inputs[0].max, "2");
  EXPECT_EQ(f.inputs[0].nan, 1);
  EXPECT_EQ(f.inputs[0].pos_inf, 1);
  EXPECT_EQ(f.inputs[0].neg_inf, 1);
  EXPECT_TRUE(has(cert_failure_text(f), "input x: float [2,3] in [-3, 2]; 1 NaN, 1 +inf, 1 -inf")) << cert_failure_text(f);
}

TEST(CertFailureExplain, AttributesAndAMissingOutput) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2,2] a, float[2,2] b) => (float[2,2] y) { [gemm] y = Gemm <alpha = 0.5, transB = 1> (a, b) })");
  FailureEvidence e;
  e.model = &m;
  e.inputs["a"] = floats({2, 2}, {1, 2, 3, 4});
  e.inputs["b"] = floats({2, 2}, {1, 0, 0, 1});
  e.reference["y"] = floats({2, 2}, {0.5f, 1, 1.5f, 2});
  CertFailure f = explain_failure(e);
  EXPECT_EQ(f.op_version, "Gemm-13");
  EXPECT_EQ(f.attributes, "alpha=0.5, transB=1");
  EXPECT_EQ(f.output, "y");
  EXPECT_EQ(f.note, "the backend did not produce output 'y'");
  EXPECT_EQ(f.index, -1);
}

TEST(CertFailureExplain, NoNodeNamedForAModelOfSeveralNodes) {
  Model m = text::parse_model(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[2] x) => (float[2] y) { r = Relu (x)
 y = Neg (r) })");
  FailureEvidence e;
  e.model = &m;
  e.inputs["x"] = floats({2}, {-1, 1});
  e.reference["y"] = floats({2}, {0, -1});
  e.runtime["y"] = floats({2}, {0, -2});
  e.not_localized = "not localized: a runtime command cannot run single nodes";
  CertFailure f = explain_failure(e);
  EXPECT_EQ(f.node, "");
  EXPECT_EQ(f.inputs.size(), 1u);  // the model's inputs
  EXPECT_EQ(f.index, 1);
  std::string text = cert_failure_text(f);
  EXPECT_TRUE(has(text, "node: none named (the whole model); not localized: a runtime command cannot run single nodes")) << text;
}

TEST(CertFailureRepro, DirectoryNamesStayInside) {
  EXPECT_EQ(repro_dir_name("test_add_bcast"), "test_add_bcast");
  for (const std::string& hostile :
       std::vector<std::string>{"../x", "..", ".", "", "a/../../b", "/etc/passwd", ".hidden", std::string(300, 'a') + "/"}) {
    std::string d = repro_dir_name(hostile);
    SCOPED_TRACE(hostile);
    EXPECT_FALSE(d.empty());
    EXPECT_EQ(d.find('/'), std::string::npos);
    EXPECT_NE(d.front(), '.');
    EXPECT_LE(d.size(), 109u);
    EXPECT_EQ(fs::path(d).filename().string(), d);
  }
  EXPECT_NE(repro_dir_name("a/b"), repro_dir_name("a_b"));  // distinct names, distinct directories
  EXPECT_NE(repro_dir_name("a/b"), repro_dir_name("a:b"));
}

TEST(CertFailureRepro, WritesAnOnnxTestDirectoryWithTheEvidence) {
  Scratch scratch("writes");
  fs::path dir = scratch.dir;
  AddCase c;
  std::map<std::string, enclose::Bounds> bounds;
  enclose::Bounds& b = bounds["z"];
  b.type = DType::Float;
  b.lo = doubles({2, 3}, {1.5, 2.5, 3.5, 4.5, 5.5, 6.25});
  b.hi = doubles({2, 3}, {1.5, 2.5, 3.5, 4.5, 5.5, 6.75});
  c.e.bounds = &bounds;
  c.e.runtime["z"] = floats({2, 3}, {1.5f, 2.5f, 3.5f, 4.5f, 5.5f, 7.0f});
  fs::create_directories(dir / "test_add" / "test_data_set_0");
  std::ofstream(dir / "test_add" / "runtime_output_7.pb") << "stale";  // from an earlier run: removed
  std::ofstream(dir / "test_add" / "notes.txt") << "mine";             // not a repro file: kept
  CertFailure f = explain_failure(c.e);
  write_repro_dir(dir, "test_add", c.e, "sonnx certify --backend cpu", f);
  fs::path root = dir / "test_add";
  EXPECT_EQ(fs::path(f.repro_dir), fs::absolute(root).lexically_normal());
  EXPECT_EQ(f.rerun, "sonnx certify --backend cpu --suite " + shell_quote(f.repro_dir));
  EXPECT_FALSE(fs::exists(root / "runtime_output_7.pb"));
  EXPECT_TRUE(fs::exists(root / "notes.txt"));

  std::vector<TestCase> found = discover_tests({root});
  ASSERT_EQ(found.size(), 1u);
  ASSERT_EQ(found[0].data_sets.size(), 1u);
  auto lm = load_model(found[0].model);
  ASSERT_EQ(lm->ir.graph.nodes.size(), 1u);
  EXPECT_EQ(lm->ir.graph.nodes[0].op_type, "Add");
  DataSet ds = read_data_set(lm->ir, found[0].data_sets[0]);
  EXPECT_TRUE(ds.inputs.at("x").tensor == c.e.inputs.at("x").tensor);
  EXPECT_TRUE(ds.inputs.at("y").tensor == c.e.inputs.at("y").tensor);
  ASSERT_EQ(ds.expected.size(), 1u);
  EXPECT_TRUE(ds.expected[0].second.tensor == c.e.reference.at("z").tensor);
  EXPECT_TRUE(read_value_pb(root / "runtime_output_0.pb").tensor == c.e.runtime.at("z").tensor);
  EXPECT_TRUE(read_value_pb(root / "expected_lo_0.pb").tensor == b.lo);  // float64 bounds, as they are
  EXPECT_TRUE(read_value_pb(root / "expected_hi_0.pb").tensor == b.hi);
  std::string readme = read_text(root / "README.md");
  EXPECT_TRUE(has(readme, "# sonnx certify failure: test_add")) << readme;
  EXPECT_TRUE(has(readme, "- **enclosure**: [6.25, 6.75]")) << readme;
  EXPECT_TRUE(has(readme, "- **ulps outside**: 524288")) << readme;  // 0.25 / 2^-21
  EXPECT_TRUE(has(readme, "    " + f.rerun + "\n")) << readme;
}

TEST(CertFailureRepro, AHostileNameCannotEscape) {
  Scratch scratch("hostile");
  fs::path dir = scratch.dir / "repros";
  AddCase c;
  c.e.runtime["z"] = floats({2, 3}, {0, 0, 0, 0, 0, 0});
  CertFailure f = explain_failure(c.e);
  write_repro_dir(dir, "../escape", c.e, "sonnx certify --backend cpu", f);
  EXPECT_EQ(fs::path(f.repro_dir).parent_path(), fs::absolute(dir).lexically_normal());
  EXPECT_FALSE(fs::exists(dir.parent_path() / "escape"));
  EXPECT_TRUE(fs::exists(fs::path(f.repro_dir) / "README.md"));
}

// An in-process backend whose Relu adds 0.25 to every element: the reference backend running the
// model with an Add after every Relu.
class WrongReluTarget : public CertTarget {
 public:
  std::string name() const override { return "wrong_relu"; }
  std::string version() const override { return "1"; }
  bool enforces_timeout() const override { return true; }
  bool runs_in_process() const override { return true; }
  TargetResult run(const Model& model, const TestCase& test, const fs::path& data_set, const NamedValues& inputs) override {
    Model m = model;
    std::vector<Node> nodes;
    for (const Node& n : model.graph.nodes) {
      nodes.push_back(n);
      if (n.op_type != "Relu") continue;
      std::string out = n.outputs[0];
      nodes.back().outputs[0] = out + "_exact";
      Node add;
      add.name = n.name + "_wrong";
      add.op_type = "Add";
      add.inputs = {out + "_exact", "wrong_by"};
      add.outputs = {out};
      nodes.push_back(add);
    }
    for (size_t k = 0; k < nodes.size(); ++k) nodes[k].index = k;
    m.graph.nodes = nodes;
    m.graph.initializers.push_back({"wrong_by", Tensor::scalar<float>(0.25f)});
    return reference_->run(m, test, data_set, inputs);
  }

 private:
  std::unique_ptr<CertTarget> reference_ = make_backend_target("reference", true);
};

// y = Relu(x) + c with x = [1, 2, -3, 4] and c = 0.5: the reference gives [1.5, 2.5, 0.5, 4.5];
// the wrong Relu gives [1.25, 2.25, 0.25, 4.25] and y = [1.75, 2.75, 0.75, 4.75].
TestCase relu_add_test(const fs::path& suite) {
  fs::path dir = suite / "test_relu_add";
  fs::create_directories(dir / "test_data_set_0");
  save_model(text::parse_model(R"(<ir_version: 8, opset_import: ["" : 17]>
g (float[4] x, float[4] c) => (float[4] y) {
  [relu] r = Relu (x)
  [add] y = Add (r, c)
})"),
             dir / "model.onnx");
  write_value_pb(dir / "test_data_set_0" / "input_0.pb", Value(floats({4}, {1, 2, -3, 4})), "x");
  write_value_pb(dir / "test_data_set_0" / "input_1.pb", Value(floats({4}, {0.5f, 0.5f, 0.5f, 0.5f})), "c");
  return discover_tests({dir}).at(0);
}

CertifyOptions options_into(const fs::path& repros, bool localize) {
  CertifyOptions o;
  o.repro_command = "sonnx certify --backend wrong_relu";
  o.localize = localize;
  o.repro_dir = repros;
  return o;
}

TEST(CertFailureCertify, ALocalizedFailureIsReproducedByItsNodeAlone) {
  Scratch scratch("localized");
  fs::path work = scratch.dir;
  WrongReluTarget wrong;
  CertTest t = certify_one(relu_add_test(work / "suite"), wrong, options_into(work / "repros", true));
  ASSERT_EQ(t.status, "failed") << t.message;
  ASSERT_TRUE(t.failure.has_value());
  const CertFailure& f = *t.failure;
  EXPECT_TRUE(f.localized);
  EXPECT_EQ(f.node, "relu (Relu)");
  EXPECT_EQ(f.op_version, "Relu-14");
  ASSERT_EQ(f.inputs.size(), 1u);
  EXPECT_EQ(f.inputs[0].min, "-3");
  EXPECT_EQ(f.inputs[0].max, "4");
  EXPECT_EQ(f.output, "r");
  EXPECT_EQ(f.judged_by, "enclosure");  // a node is localized by its enclosure, under either judge
  EXPECT_EQ(f.index, 0);
  EXPECT_EQ(f.wrong, 4);
  EXPECT_EQ(f.runtime, "1.25");
  EXPECT_EQ(f.reference, "1");
  EXPECT_EQ(f.lo, "1");  // Relu is exact: its enclosure is the point
  EXPECT_EQ(f.hi, "1");
  EXPECT_EQ(f.ulps_outside, 2097152.0);  // 0.25 / ulp(1) = 0.25 / 2^-23 = 2^21
  // The rerun judges by enclosure, as the node was judged.
  EXPECT_EQ(f.rerun, "sonnx certify --backend wrong_relu --judge enclosure --suite " + shell_quote(f.repro_dir));

  fs::path root = f.repro_dir;
  EXPECT_EQ(root.parent_path(), fs::absolute(work / "repros").lexically_normal());
  auto lm = load_model(root / "model.onnx");
  ASSERT_EQ(lm->ir.graph.nodes.size(), 1u);  // the node alone
  EXPECT_EQ(lm->ir.graph.nodes[0].op_type, "Relu");
  EXPECT_TRUE(read_value_pb(root / "test_data_set_0" / "input_0.pb").tensor == floats({4}, {1, 2, -3, 4}));
  EXPECT_TRUE(read_value_pb(root / "test_data_set_0" / "output_0.pb").tensor == floats({4}, {1, 2, 0, 4}));
  EXPECT_TRUE(read_value_pb(root / "runtime_output_0.pb").tensor == floats({4}, {1.25f, 2.25f, 0.25f, 4.25f}));
  EXPECT_TRUE(read_value_pb(root / "expected_lo_0.pb").tensor == doubles({4}, {1, 2, 0, 4}));

  // Certified again: the same failure on the same backend; a pass on the reference.
  TestCase repro = discover_tests({root}).at(0);
  CertifyOptions again;
  again.judge = Judge::Enclosure;
  CertTest rerun = certify_one(repro, wrong, again);
  ASSERT_EQ(rerun.status, "failed") << rerun.message;
  ASSERT_TRUE(rerun.failure.has_value());
  EXPECT_EQ(rerun.failure->output, "r");
  EXPECT_EQ(rerun.failure->index, 0);
  EXPECT_EQ(rerun.failure->runtime, "1.25");
  EXPECT_EQ(rerun.failure->lo, "1");
  EXPECT_TRUE(rerun.failure->repro_dir.empty());  // none asked for
  auto reference = make_backend_target("reference", true);
  EXPECT_EQ(certify_one(repro, *reference, again).status, "passed");
}

TEST(CertFailureCertify, AnUnlocalizedFailureIsReproducedByTheWholeModel) {
  Scratch scratch("whole");
  fs::path work = scratch.dir;
  WrongReluTarget wrong;
  TestCase test = relu_add_test(work / "suite");
  CertTest t = certify_one(test, wrong, options_into(work / "repros", false));
  ASSERT_EQ(t.status, "failed") << t.message;
  ASSERT_TRUE(t.failure.has_value());
  const CertFailure& f = *t.failure;
  EXPECT_FALSE(f.localized);
  EXPECT_EQ(f.node, "");
  EXPECT_EQ(f.not_localized, "not localized: localization is off (--no-localize)");
  EXPECT_EQ(f.inputs.size(), 2u);
  EXPECT_EQ(f.output, "y");
  EXPECT_EQ(f.judged_by, "tolerance");
  EXPECT_EQ(f.index, 0);
  EXPECT_EQ(f.wrong, 4);
  EXPECT_EQ(f.runtime, "1.75");
  EXPECT_EQ(f.reference, "1.5");
  EXPECT_EQ(f.ulp_error, 2097152.0);  // 0.25 / ulp(1.5) = 0.25 / 2^-23
  EXPECT_EQ(f.rerun, "sonnx certify --backend wrong_relu --suite " + shell_quote(f.repro_dir));
  fs::path root = f.repro_dir;
  EXPECT_EQ(read_text(root / "model.onnx"), read_text(test.model));  // the test's model as it is
  EXPECT_FALSE(fs::exists(root / "expected_lo_0.pb"));               // judged by the tolerance: no bounds
  EXPECT_TRUE(read_value_pb(root / "test_data_set_0" / "output_0.pb").tensor == floats({4}, {1.5f, 2.5f, 0.5f, 4.5f}));

  TestCase repro = discover_tests({root}).at(0);
  CertifyOptions again;
  again.localize = false;
  CertTest rerun = certify_one(repro, wrong, again);
  ASSERT_EQ(rerun.status, "failed");
  ASSERT_TRUE(rerun.failure.has_value());
  EXPECT_EQ(rerun.failure->index, 0);
  EXPECT_EQ(rerun.failure->runtime, "1.75");
  auto reference = make_backend_target("reference", true);
  EXPECT_EQ(certify_one(repro, *reference, again).status, "passed");
}

// A failure as certify_one would give it, for the formats.
CertFailure sample_failure() {
  CertFailure f;
  f.data_set = "test_data_set_0";
  f.node = "add (Add)";
  f.op_version = "Add-14";
  f.not_localized = "not localized: a runtime command cannot run single nodes";
  f.inputs = {{"x", "float", {2, 3}, "1", "6", 1, 0, 2}};
  f.output = "z";
  f.judged_by = "enclosure";
  f.index = 4;
  f.multi_index = {1, 1};
  f.wrong = 2;
  f.elements = 6;
  f.runtime = "6";
  f.reference = "5.5";
  f.lo = "5.5";
  f.hi = "5.5";
  f.ulps_outside = INFINITY;
  f.note = "a <b>bold</b> claim";
  f.repro_dir = "/tmp/repros/test_add";
  f.rerun = "sonnx certify --backend-cmd 'sh wrong.sh' --suite /tmp/repros/test_add";
  return f;
}

CertReport report_with(const CertFailure& f) {
  CertTest t;
  t.name = "test_add";
  t.status = "failed";
  t.op_types = {"Add"};
  t.message = "test_data_set_0 output 'z': element 4 ...";
  t.failure = f;
  CertReport r;
  r.backend = "wrong";
  r.tests = {t};
  aggregate(r);
  return r;
}

TEST(CertFailureReport, JsonKeepsEveryFieldThroughResumeAndMerge) {
  CertFailure f = sample_failure();
  nlohmann::json j = cert_failure_json(f);
  EXPECT_EQ(j.at("ulps_outside"), "inf");  // JSON has no infinity
  EXPECT_FALSE(j.contains("ulp_error"));   // not applicable
  EXPECT_EQ(j.at("multi_index"), nlohmann::json::array({1, 1}));
  EXPECT_EQ(j.at("inputs")[0].at("neg_inf"), 2);

  CertReport merged;
  merge_cert_report(merged, cert_report_from_json(cert_report_json(report_with(f))), "a.json");
  aggregate(merged);
  ASSERT_EQ(merged.tests.size(), 1u);
  ASSERT_TRUE(merged.tests[0].failure.has_value());
  const CertFailure& back = *merged.tests[0].failure;
  EXPECT_EQ(cert_failure_json(back), j);
  EXPECT_TRUE(std::isinf(back.ulps_outside) && back.ulps_outside > 0);
  EXPECT_TRUE(std::isnan(back.ulp_error));
  EXPECT_EQ(back.inputs[0].nan, 1);
  EXPECT_EQ(back.rerun, f.rerun);
  // A resume file line is a test's JSON.
  CertTest line = cert_test_from_json(nlohmann::json::parse(cert_test_json(merged.tests[0]).dump()));
  ASSERT_TRUE(line.failure.has_value());
  EXPECT_EQ(cert_failure_json(*line.failure), j);
  // A passed test has none.
  CertTest passed;
  passed.name = "test_ok";
  passed.status = "passed";
  EXPECT_FALSE(cert_test_json(passed).contains("failure"));
}

TEST(CertFailureReport, EveryFormatExplainsTheFailure) {
  CertReport r = report_with(sample_failure());
  std::string text = cert_failure_text(sample_failure(), "  ");
  EXPECT_TRUE(has(text, "  node: add (Add), Add-14, no attributes; the model's only node; not localized: a runtime command "
                        "cannot run single nodes\n"))
      << text;
  EXPECT_TRUE(has(text, "  input x: float [2,3] in [1, 6]; 1 NaN, 2 -inf\n")) << text;
  EXPECT_TRUE(has(text, "  output: z: element [1,1] (flat 4), the first of 2 wrong of 6, judged by its admissible enclosure\n"))
      << text;
  EXPECT_TRUE(has(text, "  enclosure: [5.5, 5.5]\n  reference: 5.5\n  runtime: 6\n  ulps outside: inf\n")) << text;

  std::string md = cert_report_markdown(r);
  EXPECT_TRUE(has(md, "\n## Failures\n")) << md;
  EXPECT_TRUE(has(md, "\n### test_add\n\n- **node**: add (Add), Add-14")) << md;
  EXPECT_TRUE(has(md, "- **runtime**: 6\n")) << md;
  EXPECT_TRUE(has(md, "- **rerun**: `sonnx certify --backend-cmd 'sh wrong.sh' --suite /tmp/repros/test_add`\n")) << md;

  std::string html = cert_report_html(r);
  EXPECT_TRUE(has(html, "<h2>Failures</h2>")) << html;
  EXPECT_TRUE(has(html, "<tr><th>runtime</th><td>6</td></tr>")) << html;
  EXPECT_TRUE(has(html, "a &lt;b&gt;bold&lt;/b&gt; claim")) << html;
  EXPECT_FALSE(has(html, "<b>bold")) << html;

  std::string junit = cert_report_junit(r);
  EXPECT_TRUE(has(junit, "runtime: 6")) << junit;
  EXPECT_TRUE(has(junit, "a &lt;b&gt;bold")) << junit;

  CertReport none = report_with(sample_failure());
  none.tests[0].failure.reset();
  EXPECT_FALSE(has(cert_report_markdown(none), "## Failures"));
  EXPECT_FALSE(has(cert_report_html(none), "<h2>Failures</h2>"));
}

}  // namespace
}  // namespace sonnx
