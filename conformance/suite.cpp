#include "suite.h"

#include <algorithm>
#include <cstring>
#include <set>

#include "sonnx/errors.h"
#include "reference/model/tensor_proto.h"

namespace sonnx {
namespace fs = std::filesystem;

namespace {
bool is_test_dir(const fs::path& p) {
  std::error_code ec;
  return fs::is_regular_file(p / "model.onnx", ec);
}

void add_test(const fs::path& dir, std::vector<TestCase>& out) {
  TestCase t;
  t.name = dir.filename().string();
  t.dir = dir;
  t.model = dir / "model.onnx";
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec))
    if (e.is_directory() && e.path().filename().string().rfind("test_data_set_", 0) == 0) t.data_sets.push_back(e.path());
  std::sort(t.data_sets.begin(), t.data_sets.end());
  out.push_back(std::move(t));
}

// numpy has no bfloat16: onnx's generators store bfloat16 data as uint16 with the same bits.
Value as_declared(Value v, const TypeInfo& t) {
  if (v.is_tensor() && t.kind == TypeInfo::Kind::Tensor && t.elem == DType::BFloat16 && v.tensor.dtype() == DType::UInt16) {
    Tensor b(DType::BFloat16, v.tensor.shape());
    if (b.byte_size()) std::memcpy(b.raw(), v.tensor.raw(), v.tensor.byte_size());
    v.tensor = std::move(b);
  }
  return v;
}

std::vector<fs::path> numbered_files(const fs::path& dir, const std::string& prefix) {
  std::vector<std::pair<int, fs::path>> files;
  std::error_code ec;
  for (const auto& e : fs::directory_iterator(dir, ec)) {
    std::string f = e.path().filename().string();
    if (f.rfind(prefix, 0) == 0 && e.path().extension() == ".pb") {
      try {
        files.emplace_back(std::stoi(f.substr(prefix.size())), e.path());
      } catch (const std::exception&) {
      }
    }
  }
  std::sort(files.begin(), files.end());
  std::vector<fs::path> out;
  for (auto& [k, p] : files) out.push_back(p);
  return out;
}
}  // namespace

std::vector<TestCase> discover_tests(const std::vector<fs::path>& roots) {
  std::vector<TestCase> out;
  for (const auto& root : roots) {
    std::error_code ec;
    if (!fs::is_directory(root, ec)) throw LoadError("'" + root.string() + "' is not a directory");
    if (is_test_dir(root)) {
      add_test(root, out);
      continue;
    }
    for (const auto& e : fs::directory_iterator(root, ec)) {
      if (!e.is_directory()) continue;
      if (is_test_dir(e.path())) add_test(e.path(), out);
      else
        for (const auto& g : fs::directory_iterator(e.path(), ec))
          if (g.is_directory() && is_test_dir(g.path())) add_test(g.path(), out);
    }
  }
  std::sort(out.begin(), out.end(), [](const TestCase& a, const TestCase& b) { return a.dir < b.dir; });
  return out;
}

DataSet read_data_set(const Model& model, const fs::path& dir) {
  const Graph& g = model.graph;
  std::set<std::string> initialized;
  for (const auto& [name, t] : g.initializers) initialized.insert(name);
  std::vector<const ValueInfo*> inputs;
  for (const auto& in : g.inputs)
    if (!initialized.count(in.name)) inputs.push_back(&in);
  DataSet ds;
  auto in_files = numbered_files(dir, "input_");
  if (in_files.size() > inputs.size())
    throw LoadError(dir.string() + ": " + std::to_string(in_files.size()) + " input files for " + std::to_string(inputs.size()) +
                    " graph inputs");
  for (size_t k = 0; k < in_files.size(); ++k)
    ds.inputs[inputs[k]->name] = as_declared(read_value_pb(in_files[k], value_pb_kind(inputs[k]->type)), inputs[k]->type);
  auto out_files = numbered_files(dir, "output_");
  if (out_files.size() > g.outputs.size()) throw LoadError(dir.string() + ": more output files than graph outputs");
  for (size_t k = 0; k < out_files.size(); ++k)
    ds.expected.emplace_back(g.outputs[k].name,
                             as_declared(read_value_pb(out_files[k], value_pb_kind(g.outputs[k].type)), g.outputs[k].type));
  return ds;
}

}  // namespace sonnx
