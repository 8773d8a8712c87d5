// What `sonnx admit` changed in a model: one entry per applied rewrite, for the report
// (spec/admission.md). A rewrite is exact (the admitted model computes bitwise what the original
// computes) unless it says it is only admissibly bounded.
#pragma once
#include <string>
#include <vector>

namespace sonnx::admit {

struct Change {
  std::string rewrite;  // the rewrite's name: "upgrade", "fold", "decompose", ... (spec/admission.md)
  std::string target;   // the node ("name (Op)") or value it changed
  std::string rule;     // the rule ID whose finding it removes, e.g. "SONNX-OPERATOR-SET"
  std::string detail;   // what it did, e.g. "HardSigmoid → Mul, Add, Max, Min"
  bool exact = true;    // false: the result is only admissibly bounded (checked by enclosure)
};

// The changes of one admission, in order, and what could not be removed.
struct ChangeLog {
  std::vector<Change> changes;
  std::vector<std::string> refused;  // "node (Op): why it can not be admitted"
  void add(std::string rewrite, std::string target, std::string rule, std::string detail, bool exact = true) {
    changes.push_back({std::move(rewrite), std::move(target), std::move(rule), std::move(detail), exact});
  }
};

}  // namespace sonnx::admit
