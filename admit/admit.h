// `sonnx admit` (spec/admission.md): brings a model into a profile by rewrites that keep its
// meaning (rewrites.h, upgrade.h, decompose.h), checks the result against the profile, and runs the
// original and the admitted model with the reference interpreter on the user's inputs and on
// seeded random ones, requiring bitwise-equal outputs. The model is admitted only when the check
// passes and every run agrees.
#pragma once
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "change.h"
#include "reference/check/profile.h"
#include "reference/model/loader.h"
#include "rewrites.h"
#include "sonnx/diagnostic.h"
#include "sonnx/value.h"

namespace sonnx::admit {

// Whether outputs of the admitted model lie in the original model's admissible enclosure on these
// inputs (spec/accuracy.md): "" when they do, else where not. The enclosures are another layer's:
// the caller provides the judge (api/admit.cpp).
using EnclosureJudge = std::function<std::string(const NamedValues& inputs, const NamedValues& outputs)>;

struct AdmitOptions {
  std::shared_ptr<const Profile> profile;  // null: the sonnx profile
  InputFixes fixes;
  NamedValues inputs;               // values of other inputs to run both models on (besides the random ones)
  bool expose_unused = false;       // an unread output that cannot be dropped becomes a graph output
  EnclosureJudge within_enclosure;  // needed for admissions with a bounded (inexact) rewrite
  int samples = 3;                  // seeded random input sets
  uint64_t seed = 1;
};

// One run of the original and the admitted model on the same inputs.
struct ProofRun {
  std::string inputs;    // "given inputs", "random inputs (seed 7)"
  bool equal = false;    // every output bitwise equal, or within the enclosure when `bounded`
  bool bounded = false;  // judged by the original's admissible enclosure (an inexact rewrite applied)
  std::string detail;    // where they differ (the first differing value), or why the run was skipped
  bool skipped = false;  // the original traps on these inputs: nothing to compare
};

struct AdmitResult {
  bool admitted = false;
  bool unchanged = false;  // already in the profile: the model is returned as it was
  Model model;             // the admitted model (or as far as admission got)
  ChangeLog log;
  int64_t opset_from = 0, opset_to = 0;
  size_t errors_before = 0;           // the profile check's errors on the original
  std::vector<Diagnostic> remaining;  // the profile check's errors on the result
  std::vector<ProofRun> runs;
  double seconds = 0;
  // Why the model is not admitted: every refusal, every remaining error, every failed run.
  std::vector<std::string> reasons() const;
};

// The lowest ai.onnx opset that selects, for every operator the profile lists, a version the
// profile allows. Throws std::invalid_argument when no opset does.
int64_t profile_opset(const Profile& profile);

// Admits a loaded model (checked by the caller against the onnx profile: it must be runnable).
// Throws AdmitUsageError when a fix does not apply to the model.
AdmitResult admit_model(const LoadedModel& original, const AdmitOptions& options);

}  // namespace sonnx::admit
