// A certification run and its verdicts (docs/design.md §5.4, the `certify` contract). Tests carry everything
// the verdicts are computed from, so shard reports merge by concatenating tests (aggregate()).
//
// Test status: passed, failed (differs from the reference, or unreadable output), unsupported
// (the backend or runtime declined the model — its opset, an element type, an operator — and
// nothing ran it), crashed, timeout, errored (the backend reported an error), skipped (the
// reference itself cannot run the test: nothing to compare with).
// Blame: a test that failed, crashed, timed out or errored blames one operator at most — the
// operator of its localized first divergent node (`localized_op`, from localization, on by default
// for in-process backends), else its only operator when the model has one operator type; and only
// if that operator ran on the backend itself. Any other failing test counts against the test alone
// (`blame` says why: "not localized: …"); an unsupported test blames nothing.
// Operator verdict: failed if some test blames it; else certified if it ran on the backend in a
// passed test; else inconclusive if it ran on the backend, but only in tests that failed without
// blaming it; else unsupported if it appeared in a test that ran; else untested.
// Overall: failed when a test failed, crashed, timed out or errored; else certified when at least
// one operator is certified; else unsupported when some test ran (nothing the backend ran itself
// passed: every model declined, or run on the fallback); else untested.
// How the outputs were judged is stated at report level (`judge`: tolerance or enclosure) and per
// test (its `judge`, and `judge_note` where the enclosure judge fell back to the tolerance).
#pragma once
#include <filesystem>
#include <map>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/enclosure_judge.h"

namespace sonnx {

struct CertTest {
  std::string name;
  std::string status;
  std::vector<std::string> op_types;
  std::vector<std::string> unsupported_ops;  // not taken by the backend: ran on the cpu fallback
  std::vector<std::string> fallback_ops;     // in steps the backend failed: ran on the cpu fallback
  std::vector<std::string> fallback_notes;
  std::string accuracy;
  double max_abs = 0, max_rel = 0, max_ulp = 0, time_ms = 0;
  std::string message;
  std::string dir;                        // the test directory
  std::string repro;                      // the command that replays it
  std::string judge = "tolerance";        // or "enclosure" (certify --judge enclosure, where the model has one)
  std::string judge_note;                 // why a test under --judge enclosure was judged by the tolerance
  std::vector<EnclosureCheck> enclosure;  // per output, under the enclosure judge
  // Localization of a failing test: a sentence naming the first node whose output leaves its
  // enclosure, or "not localized: <why>"; and that node's (qualified) operator type, empty when none.
  std::string localized;
  std::string localized_op;
  // Computed by aggregate() for a failing test: the operator it blames (empty: none) and why.
  std::string blamed_op;
  std::string blame;
  bool ran_on_backend(const std::string& op) const;
};

struct CertOperator {
  std::string op_type;
  std::string verdict;  // certified, failed, inconclusive, unsupported, untested
  int tests = 0, passed = 0, failed = 0, native = 0;
};

struct CertReport {
  std::string backend, backend_version;
  std::vector<std::string> suites;
  std::string judge = "tolerance";  // how the outputs were judged: tolerance or enclosure (per test: CertTest::judge)
  std::string verdict;              // certified, failed, unsupported, untested
  // total, passed, failed, unsupported, crashed, timeout, errored, skipped, fallback, unattributed
  // (failing tests that blame no operator), operators_<verdict>
  std::map<std::string, int> summary;
  std::vector<CertOperator> operators;
  std::vector<CertTest> tests;
};

bool is_failure_status(const std::string& status);  // failed, crashed, timeout, errored

// Recomputes blame, summary, operators and verdict from the tests (sorted by name, one per name).
void aggregate(CertReport& r);

// Adds the tests of `part` (read from `source`) to `merged`, which takes its backend and judge from
// the first part. Throws LoadError when the backends or the judges differ (a certificate states one
// judge: certify the shards again under the same one). Call aggregate() after the last part.
void merge_cert_report(CertReport& merged, CertReport part, const std::string& source);

// How a compared test (passed or failed) was judged: "enclosure" when it ran under --judge enclosure
// (judged by its enclosure, or fallen back with a judge_note), else "tolerance"; empty for a test
// whose outputs were not compared.
std::string judged_under(const CertTest& t);

nlohmann::json cert_test_json(const CertTest& t);
CertTest cert_test_from_json(const nlohmann::json& j);
nlohmann::json cert_report_json(const CertReport& r);
CertReport cert_report_from_json(const nlohmann::json& j);

// How the outputs were judged: the judge, the tests judged by enclosure, and the ones that fell
// back to the strict tolerances, grouped by reason (judge_note).
struct FallbackReason {
  std::string reason;
  std::vector<std::string> tests;
};
struct JudgeSummary {
  std::string judge;
  int compared = 0;                      // tests whose outputs were compared (passed or failed)
  int by_enclosure = 0;                  // of those, judged by the admissible enclosure
  int by_tolerance = 0;                  // of those, judged by the strict tolerances (under enclosure: fell back)
  std::vector<FallbackReason> fallback;  // under enclosure, the fallen-back tests by reason, the most frequent first
};
JudgeSummary judge_summary(const CertReport& r);
// The strict tolerances, as the formats name them.
extern const char* const kStrictTolerances;
// A paragraph of plain text stating how the outputs were judged (every format opens with it).
std::string judge_statement(const CertReport& r);
// The statement followed by one line per fallback reason ("  N  reason"), as the CLI prints it.
std::string judge_text(const CertReport& r);

std::string cert_report_markdown(const CertReport& r);
std::string cert_report_junit(const CertReport& r);
std::string cert_report_html(const CertReport& r);
// Picks the format by extension: .json, .md, .xml, .html. Throws LoadError otherwise.
void write_cert_report(const CertReport& r, const std::filesystem::path& file);

}  // namespace sonnx
