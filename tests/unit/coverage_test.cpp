// Coverage of the operator table against sonnx's catalogue (spec/operators.json): every kernel is
// registered at a version that exists, and every schema version through opset 17 (the versions
// onnx 1.12 knew, which the reference implemented first) maps to a reference kernel or a function
// body. A version with neither is refused by name (OP-IMPLEMENTED); since the ai.onnx.ml map
// operators got kernels no version of the catalogue lacks both, so the refusal is shown on a
// made-up schema and on a made-up opset of a domain.
#include <string>
#include <utility>
#include <vector>

#include <gtest/gtest.h>

#include "reference/catalogue/catalogue.h"
#include "tests/unit/catalogue_test_util.h"
#include "reference/infer/shape_rule.h"
#include "reference/ops/op_table.h"

namespace sonnx {
namespace {

bool covered(const catalogue::Schema& s) {
  std::string why;
  return testing::schema_runnable(s, why);
}

TEST(OperatorCoverage, EverySchemaVersionThroughOpset17HasAKernelOrAFunctionBody) {
  std::vector<std::string> missing;
  int pairs = 0;
  for (const auto& s : catalogue::all()) {
    if (s.version > kLegacyOpset || s.domain == "ai.onnx.preview" || s.domain == "ai.onnx.ml") continue;
    ++pairs;
    if (!covered(s)) missing.push_back(s.id());
  }
  EXPECT_GT(pairs, 400);
  std::string list;
  for (const auto& m : missing) list += " " + m;
  EXPECT_TRUE(missing.empty()) << missing.size() << " of " << pairs << " (operator, version) pairs uncovered:" << list;
}

TEST(OperatorCoverage, KernelsRegisterOnlyVersionsThatExist) {
  // A kernel registered at a version where no schema starts would never be selected.
  for (const auto& [key, r] : OpRecords::instance().all())
    if (r.kernel) {
      EXPECT_NE(catalogue::exact(r.domain, r.op_type, r.version), nullptr)
          << r.op_type << "-" << r.version << " is not a version in the catalogue";
    }
}

std::vector<Value> no_op(OpContext&) { return {}; }
void no_rule(InferContext&) {}

TEST(OperatorRecords, EveryPartIsRegisteredOnceAtAVersionSonnxRuns) {
  const OpRecords& records = OpRecords::instance();
  std::string errors;
  for (const auto& e : records.registration_errors()) errors += "\n  " + e;
  EXPECT_TRUE(records.registration_errors().empty()) << "registered twice:" << errors;
  int fast = 0, enclosures = 0;
  for (const auto& [key, r] : records.all()) {
    const catalogue::Schema* s = catalogue::exact(r.domain, r.op_type, r.version);
    ASSERT_NE(s, nullptr) << r.op_type << "-" << r.version << " has a record but is not a version in the catalogue";
    // A fast kernel or an enclosure computes what the reference computes: never for a version the
    // reference does not run.
    if (r.fast_kernel || r.enclosure) {
      EXPECT_TRUE(covered(*s)) << s->id() << " has a fast kernel or an enclosure, and no kernel or body";
    }
    fast += r.fast_kernel != nullptr;
    enclosures += r.enclosure != nullptr;
  }
  // The layers that fill these slots are linked into this test: their registrations ran.
  EXPECT_GT(fast, 100);
  EXPECT_GT(enclosures, 150);
}

TEST(OperatorRecords, APartRegisteredTwiceForOneVersionIsAnError) {
  OpRecords table;
  table.add_kernel({"", "X", 1, no_op, Accuracy::Exact});
  table.add_shape_rule("", "X", {1, 6}, no_rule);
  EXPECT_TRUE(table.registration_errors().empty());
  table.add_shape_rule("ai.onnx", "X", {6}, no_rule);  // the same domain spelled out
  table.add_kernel({"", "X", 1, no_op, Accuracy::Rounding});
  ASSERT_EQ(table.registration_errors().size(), 2u);
  EXPECT_EQ(table.registration_errors()[0], "X-6: a second shape rule");
  EXPECT_EQ(table.registration_errors()[1], "X-1: a second kernel");
  EXPECT_EQ(table.find("ai.onnx", "X", 6)->shape_rule, &no_rule);
  EXPECT_EQ(table.find("", "X", 13), nullptr);  // no record where nothing was registered
}

TEST(OperatorCoverage, AVersionFrom18OnNeverBorrowsAnOlderKernel) {
  OpRecords table;
  table.add_kernel({"", "X", 1, no_op, Accuracy::Exact});
  table.add_kernel({"", "X", 13, no_op, Accuracy::Exact});
  table.add_shape_rule("", "X", {14}, nullptr);            // a record without a kernel is skipped
  table.add_kernel({"", "W", 1, no_op, Accuracy::Exact});  // another operator is never borrowed
  EXPECT_EQ(table.kernel("", "X", 11)->since_version, 1);
  EXPECT_EQ(table.kernel("ai.onnx", "X", 17)->since_version, 13);
  EXPECT_EQ(table.kernel("", "X", 18), nullptr);  // e.g. ReduceMax-18 must not run as ReduceMax-13
  EXPECT_EQ(table.kernel("", "Y", 5), nullptr);
  table.add_kernel({"", "X", 18, no_op, Accuracy::Exact});
  EXPECT_EQ(table.kernel("", "X", 18)->since_version, 18);
  EXPECT_EQ(table.kernel("", "X", 19), nullptr);  // a later version needs its own registration
}

TEST(OperatorCoverage, OtherDomainsNeverBorrowAnOlderKernel) {
  OpRecords table;
  table.add_kernel({"ai.onnx.ml", "X", 2, no_op, Accuracy::Exact});
  EXPECT_EQ(table.kernel("ai.onnx.ml", "X", 2)->since_version, 2);
  EXPECT_EQ(table.kernel("ai.onnx.ml", "X", 4), nullptr);  // e.g. LabelEncoder-4 must not run as LabelEncoder-2
  EXPECT_EQ(table.kernel("", "X", 4), nullptr);            // another domain altogether
}

TEST(OperatorCoverage, TheMlDomainIsInTheCatalogueAndAVersionWithoutAKernelIsRefusedByName) {
  EXPECT_EQ(catalogue::max_opset("ai.onnx.ml"), 5);
  int ml = 0;
  for (const auto& s : catalogue::all()) ml += s.domain == "ai.onnx.ml";
  EXPECT_EQ(ml, 25);  // Changelog-ml.md of onnx 1.22: 25 schema versions
  const std::vector<std::pair<std::string, int64_t>> with_kernels = {
      {"ArrayFeatureExtractor", 1}, {"Binarizer", 1}, {"LabelEncoder", 1},   {"LabelEncoder", 2},     {"LabelEncoder", 4},
      {"LinearRegressor", 1},       {"Scaler", 1},    {"TreeEnsemble", 5},   {"LinearClassifier", 1}, {"SVMClassifier", 1},
      {"SVMRegressor", 1},          {"ZipMap", 1},    {"DictVectorizer", 1}, {"CastMap", 1}};
  for (const auto& [op, version] : with_kernels)
    EXPECT_TRUE(covered(*catalogue::exact("ai.onnx.ml", op, version))) << op << "-" << version;
  Model model;
  model.opset_imports["ai.onnx.ml"] = 3;
  Node node;
  node.op_type = "CastMap";
  node.domain = "ai.onnx.ml";
  std::string why;
  OpResolution r = resolve_op(model, node);
  EXPECT_EQ(r.version, 1);
  EXPECT_TRUE(runnable(r, node, 3, why)) << why;
  // A version with neither a kernel nor a body, of a made-up schema, is refused by name.
  catalogue::Schema made_up;
  made_up.domain = "com.example.coverage";
  made_up.name = "Frobnicate";
  made_up.version = 3;
  Node frob;
  frob.op_type = "Frobnicate";
  frob.domain = made_up.domain;
  OpResolution unimplemented;
  unimplemented.version = 3;
  unimplemented.has_schema = true;
  unimplemented.schema = &made_up;
  EXPECT_FALSE(runnable(unimplemented, frob, 3, why));
  EXPECT_EQ(why, "unsupported: com.example.coverage.Frobnicate-3 (no kernel and no function body for this operator version)");
  // A made-up opset of a domain (ai.onnx.ml 9; the catalogue ends at 5) runs nothing, by name.
  model.opset_imports["ai.onnx.ml"] = 9;
  EXPECT_FALSE(runnable(resolve_op(model, node), node, 9, why));
  EXPECT_NE(why.find("unsupported: CastMap at ai.onnx.ml opset 9 (the operator catalogue ends at opset 5)"), std::string::npos)
      << why;
  // LabelEncoder at ml opset 3 is version 2; at opset 5, version 4 (never 2's table semantics).
  model.opset_imports["ai.onnx.ml"] = 3;
  node.op_type = "LabelEncoder";
  EXPECT_EQ(resolve_op(model, node).kernel->since_version, 2);
  model.opset_imports["ai.onnx.ml"] = 5;
  EXPECT_EQ(resolve_op(model, node).kernel->since_version, 4);
}

TEST(OperatorCoverage, ANewOpsetIsRefusedByName) {
  Model model;
  model.opset_imports[""] = 99;
  Node node;
  node.op_type = "Relu";
  std::string why;
  OpResolution r = resolve_op(model, node);
  EXPECT_FALSE(r.opset_known);
  EXPECT_EQ(r.kernel, nullptr);
  EXPECT_FALSE(runnable(r, node, 99, why));
  EXPECT_NE(why.find("unsupported: Relu at ai.onnx opset 99"), std::string::npos) << why;
}

}  // namespace
}  // namespace sonnx
