// A validation finding: which rule, how severe, and where (DESIGN.md §5's JSON fields).
#pragma once
#include <string>
#include <vector>

namespace sonnx {

enum class Severity { Error, Warning };

struct Diagnostic {
  std::string rule;      // stable rule ID, e.g. STRUCT-SSA (spec/restrictions.md)
  Severity severity = Severity::Error;
  std::string node;      // node name (or "#index" when unnamed); empty for graph-level findings
  std::string op_type;
  std::string value;     // the offending value name, if any
  std::string graph;     // graph path: "main", "main/loop_node:body", "function dom.f"
  std::string message;   // the rule, then the violation
};

const char* severity_name(Severity s);

}  // namespace sonnx
