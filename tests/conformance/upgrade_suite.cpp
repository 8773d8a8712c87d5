// The upgrade adapters and the model writer on the ONNX node suite's data: every test model whose
// nodes can all be carried to the target opset (admit/upgrade.h) is upgraded, written to protobuf
// and read back (reference/model/writer.h), and run by the reference interpreter before and after
// on each of its data sets; the outputs must be bitwise equal (a relabel or rewrite that changes a
// result is a wrong adapter, a value the writer loses a wrong writer). A model with a node that
// cannot be carried is only written and read back. Models the reference cannot run at their own
// opset are counted apart.
// Usage: sonnx_upgrade_suite TARGET_OPSET MIN_UPGRADED DIR... ; exit 1 on any difference or model
// not written, or when
// fewer than MIN_UPGRADED models were upgraded and compared (the adapters reach fewer tests).
#include <cstring>
#include <iostream>
#include <map>
#include <string>

#include "admit/upgrade.h"
#include "conformance/suite.h"
#include "reference/interp/interpreter.h"
#include "reference/model/loader.h"
#include "reference/model/writer.h"

using namespace sonnx;

namespace {

bool same_bits(const Value& a, const Value& b) {
  if (a.kind != b.kind) return false;
  if (a.kind == Value::Kind::Tensor) {
    const Tensor &x = a.tensor, &y = b.tensor;
    if (x.dtype() != y.dtype() || x.shape() != y.shape()) return false;
    if (x.dtype() == DType::String) {
      for (int64_t i = 0; i < x.size(); ++i)
        if (x.data<std::string>()[i] != y.data<std::string>()[i]) return false;
      return true;
    }
    return std::memcmp(x.raw(), y.raw(), x.byte_size()) == 0;
  }
  if (a.kind == Value::Kind::Optional) return !a.optional == !b.optional && (!a.optional || same_bits(*a.optional, *b.optional));
  if (a.kind == Value::Kind::Map) return a == b;  // the same entries, bit for bit (keys in one order)
  if (a.sequence.size() != b.sequence.size()) return false;
  for (size_t i = 0; i < a.sequence.size(); ++i)
    if (!same_bits(a.sequence[i], b.sequence[i])) return false;
  return true;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 4) {
    std::cerr << "usage: sonnx_upgrade_suite TARGET_OPSET MIN_UPGRADED DIR...\n";
    return 2;
  }
  const int64_t target = std::stoll(argv[1]);
  const long min_upgraded = std::stol(argv[2]);
  std::vector<std::filesystem::path> roots(argv + 3, argv + argc);
  long upgraded_models = 0, written = 0, refused = 0, unrunnable = 0, differing = 0;
  std::map<std::string, long> steps;  // "Conv-11 → Conv-22 (relabel)" -> models it was applied in
  for (const TestCase& t : discover_tests(roots)) {
    std::unique_ptr<LoadedModel> loaded;
    try {
      loaded = load_model(t.model);
    } catch (const std::exception&) {
      ++unrunnable;
      continue;
    }
    Model original = loaded->ir;
    Model upgraded = original;
    admit::UpgradeOutcome out = admit::upgrade_model(upgraded, target);
    if (!out.ok()) {
      ++refused;
      upgraded = original;
      out.steps.clear();
    }
    Model after;
    try {
      after = model_from_proto(model_to_proto(upgraded, &loaded->proto), t.dir);
    } catch (const std::exception& e) {
      ++differing;
      std::cout << "NOT WRITTEN: " << t.name << ": " << e.what() << "\n";
      continue;
    }
    bool compared = false;
    for (const auto& dir : t.data_sets) {
      NamedValues want, got;
      try {
        DataSet data = read_data_set(original, dir);
        want = Interpreter(original).run(data.inputs);
        got = Interpreter(after).run(data.inputs);
      } catch (const std::exception&) {
        // The reference refuses the original (a version it does not run) or the data: nothing to compare.
        continue;
      }
      compared = true;
      for (const auto& [name, value] : want) {
        auto it = got.find(name);
        if (it == got.end() || !same_bits(value, it->second)) {
          ++differing;
          std::cout << "DIFFERS: " << t.name << " output " << name << " after writing and reading back";
          for (const auto& s : out.steps) std::cout << "\n  " << s;
          std::cout << "\n";
        }
      }
    }
    if (!compared) {
      ++unrunnable;
      continue;
    }
    ++(out.steps.empty() ? written : upgraded_models);
    for (const auto& s : out.steps) ++steps[s.substr(0, s.find(':'))];
  }
  std::cout << "upgrade to opset " << target << ": " << upgraded_models << " models upgraded and compared, " << written
            << " only written and read back, " << differing << " outputs differ; " << refused
            << " models with a node no adapter carries, " << unrunnable << " not run; " << steps.size()
            << " distinct steps exercised:\n";
  for (const auto& [step, models] : steps) std::cout << "  " << step << " in " << models << " models\n";
  if (upgraded_models < min_upgraded) {
    std::cout << "FAIL: fewer than " << min_upgraded << " models upgraded\n";
    return 1;
  }
  return differing == 0 ? 0 : 1;
}
