// Differential test of sonnx's type and shape inference against libonnx 1.12's
// (onnx::shape_inference::InferShapes with data propagation, as reference/infer/infer_types.cpp
// calls it) on every model of the given directories: suites (DIR/test_x/model.onnx) or folders of
// real models (DIR/name.onnx, e.g. what conformance/data/make-real-models.sh makes).
//
// For each value libonnx gives a type: the element type must be ours, and where libonnx knows the
// rank or a dim, so must we, with the same value (we may know more). Differences listed in the
// known-differences file (one "test value reason" a line: libonnx bugs, named) are counted apart.
// Our inference errors on these valid models count as differences too.
// Usage: sonnx_infer_diff KNOWN_DIFFERENCES_FILE DIR... ; exit 1 when an unlisted difference remains.
#include <onnx/defs/schema.h>
#include <onnx/shape_inference/implementation.h>

#include <filesystem>
#include <fstream>
#include <iostream>
#include <map>
#include <set>
#include <sstream>

#include "reference/infer/infer.h"
#include "reference/model/loader.h"

namespace fs = std::filesystem;
using namespace sonnx;

namespace {

// Why `ours` does not match what libonnx says (`theirs`), or "" when it does.
std::string compare(const TypeInfo& theirs, const TypeInfo& ours) {
  if (theirs.kind == TypeInfo::Kind::Unknown) return "";
  if (ours.kind != theirs.kind) return "kind";
  if (theirs.kind == TypeInfo::Kind::Sequence || theirs.kind == TypeInfo::Kind::Optional) {
    if (!theirs.inner) return "";
    if (!ours.inner) return "inner type unknown";
    return compare(*theirs.inner, *ours.inner);
  }
  if (theirs.kind != TypeInfo::Kind::Tensor) return "";
  if (theirs.elem != DType::Undefined && ours.elem != theirs.elem) return "element type";
  if (!theirs.shape) return "";
  if (!ours.shape) return "rank unknown";
  if (ours.shape->size() != theirs.shape->size()) return "rank";
  for (size_t i = 0; i < ours.shape->size(); ++i) {
    const Dim& t = (*theirs.shape)[i];
    const Dim& o = (*ours.shape)[i];
    if (t.value && o.value != t.value) return "dim " + std::to_string(i);
  }
  return "";
}

std::set<std::string> read_known(const fs::path& file) {
  std::set<std::string> known;
  std::ifstream in(file);
  std::string line;
  while (std::getline(in, line)) {
    if (line.empty() || line[0] == '#') continue;
    std::istringstream ls(line);
    std::string test, value;
    ls >> test >> value;
    known.insert(test + " " + value);
  }
  return known;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 3) {
    std::cerr << "usage: sonnx_infer_diff KNOWN_DIFFERENCES_FILE DIR...\n";
    return 2;
  }
  std::set<std::string> known = read_known(argv[1]);
  std::vector<fs::path> models;
  for (int i = 2; i < argc; ++i) {
    if (!fs::is_directory(argv[i])) {
      std::cerr << "not a directory: " << argv[i] << "\n";
      return 2;
    }
    for (const auto& e : fs::directory_iterator(argv[i])) {
      if (fs::exists(e.path() / "model.onnx")) models.push_back(e.path() / "model.onnx");
      else if (e.is_regular_file() && e.path().extension() == ".onnx") models.push_back(e.path());
    }
  }
  std::sort(models.begin(), models.end());
  size_t compared = 0, equal = 0, differing = 0, listed = 0, our_errors = 0, libonnx_failed = 0, unreadable = 0;
  std::map<std::string, int> without_rule;
  for (const auto& path : models) {
    std::string test = path.filename() == "model.onnx" ? path.parent_path().filename().string() : path.stem().string();
    std::unique_ptr<LoadedModel> m;
    try {
      m = load_model(path);
    } catch (const std::exception& e) {
      ++unreadable;
      continue;
    }
    onnx::ModelProto copy = m->proto;
    try {
      onnx::ShapeInferenceOptions opts(false, 0, true);
      onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), opts);
    } catch (const std::exception&) {
      ++libonnx_failed;
      continue;
    }
    InferenceResult ours = infer_model(m->ir);
    for (const auto& w : ours.without_rule) ++without_rule[w];
    for (const auto& e : ours.errors) {
      if (known.count(test + " error")) {
        ++listed;
        continue;
      }
      ++our_errors;
      std::cout << "ERROR " << test << ": " << e.str() << "\n";
    }
    std::vector<const onnx::ValueInfoProto*> theirs;
    for (const auto& vi : copy.graph().value_info()) theirs.push_back(&vi);
    for (const auto& vi : copy.graph().output()) theirs.push_back(&vi);
    for (const auto* vi : theirs) {
      TypeInfo t = type_from_proto(vi->type());
      if (t.kind == TypeInfo::Kind::Unknown) continue;
      ++compared;
      auto it = ours.types.find(vi->name());
      TypeInfo o = it == ours.types.end() ? TypeInfo{} : it->second;
      std::string why = compare(t, o);
      if (why.empty()) {
        ++equal;
      } else if (known.count(test + " " + vi->name())) {
        ++listed;
      } else {
        ++differing;
        std::cout << "DIFF " << test << " " << vi->name() << ": libonnx " << t.str() << ", sonnx " << o.str() << " (" << why
                  << ")\n";
      }
    }
  }
  std::cout << "models " << models.size() << " (unreadable " << unreadable << ", libonnx failed " << libonnx_failed
            << "); values compared " << compared << ", equal " << equal << ", differing " << differing
            << ", listed libonnx differences " << listed << "; sonnx inference errors " << our_errors << "\n";
  if (!without_rule.empty()) {
    std::cout << "operator versions without a rule:";
    for (const auto& [op, n] : without_rule) std::cout << " " << op << "(" << n << ")";
    std::cout << "\n";
  }
  return differing == 0 && our_errors == 0 ? 0 : 1;
}
