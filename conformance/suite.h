// The ONNX backend-test layout: DIR/model.onnx with DIR/test_data_set_N/{input,output}_K.pb.
// Input K binds the K-th graph input that has no initializer; output K the K-th graph output.
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "reference/model/ir.h"
#include "sonnx/value.h"

namespace sonnx {

struct TestCase {
  std::string name;  // directory name, e.g. test_add_bcast
  std::filesystem::path dir;
  std::filesystem::path model;                   // dir/model.onnx
  std::vector<std::filesystem::path> data_sets;  // dir/test_data_set_N, sorted
};

// Finds test cases under each root: a root that is itself a test directory, or whose children
// (or grandchildren, e.g. DIR/node/test_x) are. Sorted by name.
std::vector<TestCase> discover_tests(const std::vector<std::filesystem::path>& roots);

struct DataSet {
  NamedValues inputs;
  std::vector<std::pair<std::string, Value>> expected;  // graph output name -> value
};

// Reads one data set against the model's declared inputs/outputs (their types say whether a .pb
// holds a tensor, a sequence or an optional). Throws LoadError on unreadable data.
DataSet read_data_set(const Model& model, const std::filesystem::path& dir);

}  // namespace sonnx
