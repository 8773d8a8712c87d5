// The certifier: runs every test of the suites on the target in a forked child (a crash or a hang
// is recorded for that test and the run goes on), judges its outputs against the reference
// interpreter's under the strict tolerances (strict_compare.h) or by their admissible enclosure
// (--judge enclosure), appends each result to the JSON-lines resume file as it comes, and returns
// the report with its verdicts (cert_report.h).
#pragma once
#include <filesystem>
#include <string>
#include <vector>

#include "cert_report.h"
#include "conformance/enclosure_judge.h"
#include "conformance/test_lists.h"
#include "conformance/test_selection.h"
#include "target.h"

namespace sonnx {

struct CertifyOptions {
  std::string filter;           // regex on test names; empty = all
  double timeout_seconds = 60;  // per test, for the target's run
  Shard shard;
  std::filesystem::path resume_file;  // JSON lines: results already there are kept, new ones appended
  std::vector<SkipEntry> skips;
  std::string repro_command;  // e.g. "sonnx certify --backend cpu --timeout 60"; "--suite DIR" is added
  bool progress = false;
  // Enclosure: a float output passes when it lies in its admissible enclosure (enclosure_judge.h);
  // a test whose model has no enclosure is judged by the strict tolerances.
  Judge judge = Judge::Tolerance;
  // For a test whose outputs fail (under either judge) on an in-process backend: run its model node
  // by node on the backend, each node fed the backend's own values, and name the first node whose
  // output leaves its enclosure (localize.h); the test then blames that node's operator (cert_report.h).
  // A runtime command cannot run single nodes: its failing tests blame only a model's only operator.
  bool localize = true;
  // Where each failed test's repro directory goes: repro_dir/<test>/ (cert_failure.h), written by the
  // test's process, which has the values; empty: none is written (the explanation still is).
  std::filesystem::path repro_dir;
};

// One test in the current process (the isolated child calls this; also for debugging).
CertTest certify_one(const TestCase& test, CertTarget& target, const CertifyOptions& options);

CertReport certify(const std::vector<TestCase>& tests, CertTarget& target, const CertifyOptions& options);

// The results stored in a resume file (a torn last line from an interrupted run is ignored).
std::vector<CertTest> read_resume_file(const std::filesystem::path& file);

}  // namespace sonnx
