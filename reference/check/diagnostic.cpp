// The public diagnostic types (include/sonnx/diagnostic.h).
#include "sonnx/diagnostic.h"

namespace sonnx {

const char* severity_name(Severity s) { return s == Severity::Error ? "error" : "warning"; }

bool has_errors(const std::vector<Diagnostic>& ds) {
  for (const auto& d : ds)
    if (d.severity == Severity::Error) return true;
  return false;
}

std::string format_diagnostic(const Diagnostic& d) {
  return std::string(severity_name(d.severity)) + ": [" + d.rule + "] " + d.message +
         (d.node.empty() ? "" : " (node " + d.node + (d.op_type.empty() ? "" : ", " + d.op_type) + ")") + " in " + d.graph;
}

namespace {
size_t count_errors(const std::vector<Diagnostic>& ds) {
  size_t n = 0;
  for (const auto& d : ds) n += d.severity == Severity::Error;
  return n;
}
}  // namespace

CheckFailed::CheckFailed(const std::string& model, const std::string& profile, std::vector<Diagnostic> diagnostics)
    : std::runtime_error(model + " fails the check (profile " + profile + "): " + std::to_string(count_errors(diagnostics)) +
                         " error(s)"),
      diagnostics_(std::move(diagnostics)) {}

std::string CheckFailed::details() const {
  std::string out;
  for (const auto& d : diagnostics_)
    if (d.severity == Severity::Error) out += (out.empty() ? "" : "\n") + format_diagnostic(d);
  return out;
}

}  // namespace sonnx
