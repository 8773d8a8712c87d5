// Inputs the load+check fuzzer found crashing, kept as regression tests: each must now be
// validated without crashing and with the findings the rules define.
#include <filesystem>
#include <fstream>

#include <gtest/gtest.h>

#include "reference/check/validator.h"
#include "sonnx/errors.h"

namespace sonnx {
namespace {

std::vector<Diagnostic> check_bytes(const std::vector<unsigned char>& bytes, const std::string& name) {
  auto path = std::filesystem::temp_directory_path() / name;
  std::ofstream(path, std::ios::binary)
      .write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
  auto lm = load_model(path);
  std::filesystem::remove(path);
  return validate(*lm, load_profile("onnx"));
}

// A Scan node without its required attributes: onnx's Scan inference dereferences the missing
// body (a segfault in libonnx) unless TYPE-INFERENCE leaves such nodes out.
TEST(FuzzRegressions, ScanWithoutBodyIsReportedNotCrashed) {
  const std::vector<unsigned char> model{8,  8,  58, 57,  10, 15, 10,  1,   88,  18,  1,  89, 26, 1, 114, 34, 4,
                                         83, 99, 97, 110, 18, 4,  114, 101, 108, 117, 90, 15, 10, 1, 88,  18, 10,
                                         10, 8,  8,  1,   18, 4,  10,  2,   8,   2,   98, 15, 10, 1, 89,  18, 10,
                                         10, 8,  8,  1,   18, 4,  10,  2,   8,   2,   66, 4,  10, 0, 16,  17};
  auto ds = check_bytes(model, "sonnx-fuzz-scan-without-body.onnx");
  int required = 0;
  for (const auto& d : ds) {
    required += d.rule == "ATTR-REQUIRED";
    EXPECT_NE(d.rule, "TYPE-INFERENCE") << d.message;
  }
  EXPECT_EQ(required, 2);  // body and num_scan_inputs
}

// A model-local function whose node is named "@dd": in a model, that is an unknown operator, not
// one of the graph calls of sonnx's own operator bodies (which inference then failed to splice,
// throwing out of validate).
TEST(FuzzRegressions, AnAtSignOperatorInALocalFunctionIsAnUnknownOperator) {
  const std::vector<unsigned char> model{8,   8,   58,  62,  10,  16,  10,  1,   88,  18, 1,   89,  34,  1,   102, 58, 5,   108,
                                         111, 99,  97,  108, 18,  8,   102, 117, 110, 99, 116, 105, 111, 110, 90,  15, 10,  1,
                                         88,  18,  10,  10,  8,   8,   1,   18,  4,   10, 2,   8,   2,   98,  15,  10, 1,   89,
                                         18,  10,  10,  8,   8,   1,   18,  4,   10,  2,  8,   2,   66,  4,   10,  0,  16,  17,
                                         66,  9,   10,  5,   108, 111, 99,  97,  108, 16, 1,   202, 1,   38,  10,  1,  102, 34,
                                         1,   97,  42,  1,   98,  58,  14,  10,  1,   97, 10,  1,   97,  18,  1,   98, 34,  3,
                                         64,  100, 100, 74,  4,   10,  0,   16,  17,  82, 5,   108, 111, 99,  97,  108};
  auto ds = check_bytes(model, "sonnx-fuzz-at-sign-operator.onnx");
  int exists = 0;
  for (const auto& d : ds) exists += d.rule == "OP-EXISTS" && d.message.find("@dd does not exist") != std::string::npos;
  EXPECT_EQ(exists, 1);
}

// An initializer declaring a 3.5 GB shape with 16 bytes of data: refused before allocating.
TEST(FuzzRegressions, HugeShapeWithLittleDataIsRefusedBeforeAllocating) {
  const std::vector<unsigned char> model{8,   8,   58,  160, 1,   10,  81,  10,  1,   88,  10, 1,   87,  18,  1,   89, 26,  1,
                                         103, 34,  4,   71,  101, 109, 109, 42,  15,  10,  5,  97,  108, 112, 104, 97, 21,  0,
                                         0,   128, 63,  160, 1,   1,   42,  14,  10,  4,   98, 101, 116, 97,  21,  0,  0,   128,
                                         63,  160, 1,   1,   42,  13,  10,  6,   116, 114, 97, 110, 115, 65,  24,  0,  160, 1,
                                         2,   42,  13,  10,  6,   116, 114, 97,  110, 115, 66, 24,  1,   160, 1,   2,  18,  4,
                                         103, 101, 109, 109, 42,  69,  8,   2,   8,   2,   16, 1,   66,  1,   87,  74, 16,  0,
                                         0,   128, 63,  0,   0,   128, 63,  0,   0,   18,  6,  10,  4,   8,   0,   9,  18,  90,
                                         15,  10,  1,   88,  18,  10,  10,  8,   8,   1,   18, 251, 245, 2,   8,   2,  8,   2,
                                         66,  19,  10,  1,   89,  18,  242, 245, 12,  8,   1,  18,  8,   10,  2,   8,  1,   10,
                                         2,   8,   2,   66,  4,   10,  0,   16,  17};
  try {
    check_bytes(model, "sonnx-fuzz-huge-shape.onnx");
    FAIL() << "expected LoadError";
  } catch (const LoadError& e) {
    EXPECT_NE(std::string(e.what()).find("16 bytes of data for shape"), std::string::npos) << e.what();
  }
}

}  // namespace
}  // namespace sonnx
