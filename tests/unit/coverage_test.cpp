// Coverage of the operator table: every schema version of every ai.onnx (and
// ai.onnx.preview.training) operator in onnx 1.12's history maps to a reference kernel or to a
// function body the interpreter can run. The test lists whatever does not.
#include <gtest/gtest.h>
#include <onnx/defs/schema.h>

#include "reference/ops/registry.h"

namespace sonnx {
namespace {

TEST(OperatorCoverage, EverySchemaVersionHasAKernelOrAFunctionBody) {
  std::vector<std::string> missing;
  int pairs = 0;
  for (const auto& s : onnx::OpSchemaRegistry::get_all_schemas_with_history()) {
    std::string domain = s.domain() == "ai.onnx" ? "" : s.domain();
    if (domain != "" && domain != "ai.onnx.preview.training") continue;
    ++pairs;
    bool kernel = OpRegistry::instance().find(domain, s.Name(), s.since_version()) != nullptr;
    bool body = s.HasFunction() || s.HasContextDependentFunction();
    if (!kernel && !body) missing.push_back((domain.empty() ? "" : domain + ".") + s.Name() + "-" + std::to_string(s.since_version()));
  }
  EXPECT_GT(pairs, 300);
  std::string list;
  for (const auto& m : missing) list += " " + m;
  EXPECT_TRUE(missing.empty()) << missing.size() << " of " << pairs << " (operator, version) pairs uncovered:" << list;
}

TEST(OperatorCoverage, KernelsRegisterOnlyVersionsThatExist) {
  // A kernel registered at a version where no schema starts would never be selected.
  for (const auto& e : OpRegistry::instance().entries()) {
    std::string domain = e.domain.empty() ? "" : e.domain;
    const auto* s = onnx::OpSchemaRegistry::Schema(e.op_type, static_cast<int>(e.since_version), domain);
    ASSERT_NE(s, nullptr) << e.op_type << "-" << e.since_version << " has no schema";
    EXPECT_EQ(s->since_version(), e.since_version) << e.op_type << ": kernel at " << e.since_version << " but the schema in force starts at "
                                                   << s->since_version();
  }
}

}  // namespace
}  // namespace sonnx
