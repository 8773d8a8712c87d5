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
// A failed test carries its explanation (`failure`, CertFailure below; docs/certify-failures.md):
// every format renders it, and the JSON keeps it through --resume and `sonnx report merge`.
#pragma once
#include <filesystem>
#include <limits>
#include <map>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/enclosure_judge.h"

namespace sonnx {

// One input of the node a failure is explained on: its type and the range of its values.
struct CertInputRange {
  std::string name;
  std::string type;  // the element type ("float", "int64", ...), or "sequence", "optional"
  std::vector<int64_t> shape;
  std::string min, max;  // the least and the greatest value that is not NaN, as text; empty when none (or not numeric)
  int64_t nan = 0, pos_inf = 0, neg_inf = 0;
};

// Why a test failed (status "failed": an output judged wrong, or unreadable), built in the test's
// process from its values (cert_failure.h). Values are text, exact for their type (shortest
// round trip), so that an int64 or a NaN reads as it is.
struct CertFailure {
  static constexpr double kNotApplicable = std::numeric_limits<double>::quiet_NaN();
  std::string data_set;  // the first data set that failed: "test_data_set_0"
  // The node: the localized one, else the model's only node, else none (the whole model).
  bool localized = false;
  std::string node;                    // its label, "relu (Relu)"; empty: the whole model
  std::string op_version;              // "Relu-14"
  std::string attributes;              // "alpha=0.5, axis=1"; empty: none
  std::string not_localized;           // when not localized: "not localized: <why>"
  std::vector<CertInputRange> inputs;  // the node's inputs; the whole model's: its graph inputs
  // The first wrong element of the first wrong output.
  std::string output;
  std::string judged_by;  // "enclosure" or "tolerance"
  int64_t index = -1;     // flat (row-major); -1: no element to name (`note` says why)
  std::vector<int64_t> multi_index;
  int64_t wrong = 0, elements = 0;       // elements of that output judged wrong, of how many
  std::string runtime, reference;        // the element's values ("" unknown)
  std::string lo, hi;                    // its admissible enclosure (judged by enclosure)
  double ulps_outside = kNotApplicable;  // by enclosure: how far outside, in ulps of the type (+inf: a NaN, or unbounded)
  double ulp_error = kNotApplicable;     // float outputs: ulps between the runtime's value and the reference's
  std::string tolerance;                 // by tolerance: the rule the element breaks
  std::string note;                      // anything else: no element to name (an output missing, a shape differs, ...)
  std::string repro_dir;                 // the repro directory written for it; empty: none
  std::string rerun;                     // the command that certifies the repro directory again
};

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
  std::optional<CertFailure> failure;  // a failed test: why
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

nlohmann::json cert_failure_json(const CertFailure& f);
CertFailure cert_failure_from_json(const nlohmann::json& j);
// A failure's explanation as labelled lines ("node", "input x", "output", "enclosure", "runtime",
// ...), in the order every format renders them (cert_text_formats.cpp).
std::vector<std::pair<std::string, std::string>> cert_failure_lines(const CertFailure& f);
// The lines as plain text, "label: text" each, every line after `indent`.
std::string cert_failure_text(const CertFailure& f, const std::string& indent = "");

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
