// "Whatever check accepts, run executes" (issue 14): for random generated graphs, every validator
// mutation (conformance/fuzz/mutate.h) and every near miss (near_miss.h), a model the validator
// accepts under the onnx profile must run on the reference interpreter, fed inputs of its
// declared types and shapes, without a load, structure or internal error.
//
// A run may still stop with a trap the specification allows for some input values; those are
// listed in `allowed_traps()` (each with its reason) and counted, not reported.
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <string>
#include <vector>

#include <onnx/onnx_pb.h>

#include "sonnx/value.h"

namespace sonnx::oracle {

// A run-time trap the specification allows: the change that can produce it ("" any), a fragment
// of the message, and why it is allowed.
struct AllowedTrap {
  std::string change;
  std::string fragment;
  std::string reason;
};
const std::vector<AllowedTrap>& allowed_traps();
const AllowedTrap* match_allowed(const std::string& change, const std::string& message);

// A finding reported (issue 14) whose fix belongs to another part (the validator): the change
// that produces it, a fragment of the failure message, and the bug. The long run and the property
// count a finding that matches one as known rather than new; a test keeps a minimal model of each
// and fails once it no longer reproduces (then remove the entry).
struct KnownFinding {
  std::string change;
  std::string fragment;
  std::string bug;
};
const std::vector<KnownFinding>& known_findings();

enum class Outcome {
  Rejected,     // the validator reports an error: nothing to run
  Unreadable,   // the loader refuses the proto (LoadError): nothing to check
  Ran,          // accepted and ran to the end
  AllowedTrap,  // accepted, stopped with an allowed trap
  Unfinished,   // accepted, still running at the time limit (a Loop may run forever: see below)
  Failed,       // accepted, and the run failed otherwise (or crashed): a finding
};

struct ModelVerdict {
  Outcome outcome = Outcome::Rejected;
  std::string kind;     // Failed: "trap", "internal", "unsupported", "load", "exception"
  std::string message;  // what was thrown
};

// Checks (profile onnx) and, when accepted, runs one model on the reference interpreter. Graph
// inputs are taken from `suggested` where the name, type and shape match (the generator's draws keep
// values in range), else drawn at random from their declared types (rng). With a time limit > 0 the
// run happens in a forked child (conformance/isolate.h): a crash is a finding, a run still going at
// the limit is Unfinished. ONNX lets a Loop without a trip count run while its condition holds, so
// an accepted model need not terminate: Unfinished runs are counted and listed, not findings.
ModelVerdict accepts_then_runs(const onnx::ModelProto& model, const NamedValues& suggested, uint64_t seed,
                               double time_limit_seconds = 10);

struct AcceptsRunsOptions {
  uint64_t seed = 1;  // graph i is generated from random_recipe(seed + i)
  int64_t graphs = 100;
  int opset = 0;                                                   // 0: each recipe draws one
  double time_limit_seconds = 10;                                  // per run (0: in-process, no limit)
  std::function<void(int64_t graphs, int64_t findings)> progress;  // after each graph
};

struct AcceptsRunsFinding;
// The known finding this one matches, or null.
const KnownFinding* match_known(const std::string& change, const std::string& message);

struct AcceptsRunsFinding {
  std::string recipe;  // the generated graph (conformance/fuzz/recipe.h)
  std::string change;  // "generated", a mutation or a near miss
  ModelVerdict verdict;
  onnx::ModelProto model;
};

struct AcceptsRunsReport {
  int64_t graphs = 0, models = 0;
  std::map<std::string, int64_t> accepted;  // per change: models the validator accepted
  std::map<std::string, int64_t> checked;   // per change: models made
  int64_t rejected = 0, unreadable = 0, ran = 0, allowed_traps = 0;
  std::vector<AcceptsRunsFinding> unfinished;  // accepted models still running at the time limit
  std::map<std::string, int64_t> traps_by_fragment;
  std::vector<AcceptsRunsFinding> findings;  // new ones
  std::map<std::string, int64_t> known;      // per known finding (its bug): how many matched
  double seconds = 0;
};

AcceptsRunsReport run_accepts_runs(const AcceptsRunsOptions& options);

}  // namespace sonnx::oracle
