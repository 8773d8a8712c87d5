// The onnx profile's check of a graph the fuzzer generated: every generated graph must pass it at
// its own opset before a property says anything about it.
#pragma once
#include <string>

#include "conformance/fuzz/graph_gen.h"
#include "reference/check/profile.h"
#include "reference/check/validator.h"

namespace sonnx::fuzz {

// The onnx profile's errors on g, one per line ("" when it passes).
inline std::string onnx_check_errors(const GeneratedCase& g) {
  static const Profile onnx = load_profile("onnx");
  std::string out;
  for (const Diagnostic& d : validate(LoadedModel{g.proto, g.model}, onnx))
    if (d.severity == Severity::Error) out += "\n  " + format_diagnostic(d);
  return out;
}

}  // namespace sonnx::fuzz
