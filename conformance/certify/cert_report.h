// A certification run and its verdicts (docs/design.md §5.4, the `certify` contract). Tests carry everything
// the verdicts are computed from, so shard reports merge by concatenating tests (aggregate()).
//
// Test status: passed, failed (differs from the reference, or unreadable output), unsupported
// (the backend declined the model and nothing ran it), crashed, timeout, errored (the backend
// reported an error), skipped (the reference itself cannot run the test: nothing to compare with).
// Operator verdict: failed if it ran on the backend in a test that did not pass (a failing test
// with no operator on the backend blames all of its operators); else certified if it ran on the
// backend in a passed test; else unsupported if it appeared in a test that ran; else untested.
// Overall: certified when no test failed, crashed, timed out or errored and at least one operator
// is certified; otherwise failed.
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
  std::string localized;                  // --localize: the first node whose output leaves its enclosure
  bool ran_on_backend(const std::string& op) const;
};

struct CertOperator {
  std::string op_type;
  std::string verdict;  // certified, failed, unsupported, untested
  int tests = 0, passed = 0, failed = 0, native = 0;
};

struct CertReport {
  std::string backend, backend_version;
  std::vector<std::string> suites;
  std::string verdict;
  std::map<std::string, int>
      summary;  // total, passed, failed, unsupported, crashed, timeout, errored, skipped, fallback, operators_*
  std::vector<CertOperator> operators;
  std::vector<CertTest> tests;
};

bool is_failure_status(const std::string& status);  // failed, crashed, timeout, errored

// Recomputes summary, operators and verdict from the tests (sorted by name, one per name).
void aggregate(CertReport& r);

nlohmann::json cert_test_json(const CertTest& t);
CertTest cert_test_from_json(const nlohmann::json& j);
nlohmann::json cert_report_json(const CertReport& r);
CertReport cert_report_from_json(const nlohmann::json& j);

std::string cert_report_markdown(const CertReport& r);
std::string cert_report_junit(const CertReport& r);
std::string cert_report_html(const CertReport& r);
// Picks the format by extension: .json, .md, .xml, .html. Throws LoadError otherwise.
void write_cert_report(const CertReport& r, const std::filesystem::path& file);

}  // namespace sonnx
