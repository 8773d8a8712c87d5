// A validation finding: which rule, how severe, and where (docs/design.md §5.2: the JSON fields).
#pragma once
#include <stdexcept>
#include <string>
#include <vector>

// Everything this header declares is the library's public API: exported from libsonnx.so, whose
// other symbols are hidden (api/CMakeLists.txt).
#pragma GCC visibility push(default)
namespace sonnx {

enum class Severity { Error, Warning };

struct Diagnostic {
  std::string rule;  // stable rule ID, e.g. STRUCT-SSA (spec/restrictions.md)
  Severity severity = Severity::Error;
  std::string node;  // node name (or "#index" when unnamed); empty for graph-level findings
  std::string op_type;
  std::string value;    // the offending value name, if any
  std::string graph;    // graph path: "main", "main/loop_node:body", "function dom.f"
  std::string message;  // the rule, then the violation
};

const char* severity_name(Severity s);  // "error", "warning"
bool has_errors(const std::vector<Diagnostic>& diagnostics);
// "error: [RULE] message (node n, Op) in graph", as `sonnx check` prints a finding.
std::string format_diagnostic(const Diagnostic& d);

// The validator refused a model that was to be run. what(): one line; diagnostics(): everything
// the validator reported.
class CheckFailed : public std::runtime_error {
 public:
  CheckFailed(const std::string& model, const std::string& profile, std::vector<Diagnostic> diagnostics);
  const std::vector<Diagnostic>& diagnostics() const { return diagnostics_; }
  std::string details() const;  // every error finding, one per line (format_diagnostic)

 private:
  std::vector<Diagnostic> diagnostics_;
};

}  // namespace sonnx
#pragma GCC visibility pop
