// The certificate's verdicts and texts (conformance/certify/cert_report.h): blame falls only on the
// operator a failing test is localized to, or on a model's only operator; an unsupported test blames
// nothing; every format states the judge it was judged by, and under the enclosure judge how many
// tests fell back to the strict tolerances and why.
#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "conformance/certify/cert_report.h"
#include "sonnx/errors.h"

namespace sonnx {
namespace {

CertTest test(const std::string& name, const std::string& status, std::vector<std::string> ops) {
  CertTest t;
  t.name = name;
  t.status = status;
  t.op_types = std::move(ops);
  return t;
}

CertReport aggregated(std::vector<CertTest> tests, const std::string& judge = "tolerance") {
  CertReport r;
  r.backend = "sample";
  r.judge = judge;
  r.tests = std::move(tests);
  aggregate(r);
  return r;
}

const CertOperator& op(const CertReport& r, const std::string& name) {
  for (const auto& o : r.operators)
    if (o.op_type == name) return o;
  throw std::runtime_error("no operator " + name);
}

const CertTest& find(const CertReport& r, const std::string& name) {
  for (const auto& t : r.tests)
    if (t.name == name) return t;
  throw std::runtime_error("no test " + name);
}

bool report_has(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(CertBlame, ALocalizedFailureBlamesOnlyTheLocalizedOperator) {
  CertTest t = test("test_ab", "failed", {"A", "B"});
  t.localized = "node a (A) introduces the error: ...";
  t.localized_op = "A";
  CertReport r = aggregated({t});
  EXPECT_EQ(op(r, "A").verdict, "failed");
  EXPECT_EQ(op(r, "A").failed, 1);
  EXPECT_EQ(op(r, "B").verdict, "inconclusive");  // it ran on the backend, only in a failure blamed on A
  EXPECT_EQ(op(r, "B").failed, 0);
  EXPECT_EQ(find(r, "test_ab").blamed_op, "A");
  EXPECT_EQ(r.summary.at("unattributed"), 0);
  EXPECT_EQ(r.verdict, "failed");
}

TEST(CertBlame, AnUnlocalizedFailureOfSeveralOperatorsBlamesNone) {
  CertTest t = test("test_ab", "failed", {"A", "B"});
  t.localized = "not localized: a runtime command cannot run single nodes";
  CertReport r = aggregated({t, test("test_a", "passed", {"A"})});
  EXPECT_EQ(op(r, "A").verdict, "certified");
  EXPECT_EQ(op(r, "A").failed, 0);
  EXPECT_EQ(op(r, "B").verdict, "inconclusive");
  EXPECT_EQ(r.summary.at("operators_failed"), 0);
  EXPECT_EQ(r.summary.at("unattributed"), 1);
  const CertTest& ab = find(r, "test_ab");
  EXPECT_EQ(ab.blamed_op, "");
  EXPECT_EQ(ab.blame, "not localized: a runtime command cannot run single nodes");
  EXPECT_EQ(r.verdict, "failed");  // the test still fails the run
  EXPECT_TRUE(report_has(cert_report_markdown(r), "not localized: a runtime command cannot run single nodes"));
  EXPECT_TRUE(report_has(cert_report_html(r), "not localized: a runtime command cannot run single nodes"));
}

TEST(CertBlame, AnErroredTestOfSeveralOperatorsWithoutLocalizationSaysWhy) {
  CertReport r = aggregated({test("test_ab", "errored", {"A", "B"})});
  EXPECT_EQ(r.summary.at("operators_failed"), 0);
  EXPECT_TRUE(find(r, "test_ab").blame.starts_with("not localized: the test errored")) << find(r, "test_ab").blame;
}

TEST(CertBlame, AFailedSingleOperatorTestBlamesItsOperator) {
  CertReport r = aggregated({test("test_a", "failed", {"A"}), test("test_a_crash", "crashed", {"A"})});
  EXPECT_EQ(op(r, "A").verdict, "failed");
  EXPECT_EQ(op(r, "A").failed, 2);
  EXPECT_EQ(find(r, "test_a").blame, "A: the only operator of its model");
}

TEST(CertBlame, AnUnsupportedTestBlamesNoOperator) {
  CertTest refused = test("test_ab", "unsupported", {"A", "B"});
  refused.message = "unsupported opset: 26";
  CertReport r = aggregated({refused, test("test_a", "unsupported", {"A"})});
  EXPECT_EQ(op(r, "A").verdict, "unsupported");
  EXPECT_EQ(op(r, "B").verdict, "unsupported");
  EXPECT_EQ(r.summary.at("operators_failed"), 0);
  EXPECT_EQ(r.summary.at("unattributed"), 0);
  EXPECT_EQ(find(r, "test_ab").blame, "");
  EXPECT_EQ(r.verdict, "unsupported");  // nothing failed, nothing certified
}

TEST(CertBlame, AnOperatorOnTheFallbackIsNotBlamed) {
  CertTest t = test("test_ab", "failed", {"A", "B"});
  t.localized_op = "A";
  t.unsupported_ops = {"A"};  // A ran on the cpu fallback
  CertTest single = test("test_b", "failed", {"B"});
  single.fallback_ops = {"B"};
  CertReport r = aggregated({t, single});
  EXPECT_EQ(r.summary.at("operators_failed"), 0);
  EXPECT_TRUE(report_has(find(r, "test_ab").blame, "ran on the cpu fallback")) << find(r, "test_ab").blame;
  EXPECT_TRUE(report_has(find(r, "test_b").blame, "ran on the cpu fallback")) << find(r, "test_b").blame;
}

TEST(CertBlame, ALocalizedNodeOfAFunctionBodyBlamesTheModelsOnlyOperator) {
  CertTest t = test("test_gelu", "failed", {"Gelu"});
  t.localized_op = "Tanh";  // a node of Gelu's body, inlined for localization
  CertReport r = aggregated({t});
  EXPECT_EQ(op(r, "Gelu").verdict, "failed");
  EXPECT_EQ(r.operators.size(), 1u);
}

TEST(CertBlame, ANativePassIsNeededToCertify) {
  // B passed only on the fallback and ran on the backend only in an unattributed failure.
  CertTest pass = test("test_b", "passed", {"B"});
  pass.unsupported_ops = {"B"};
  CertReport r = aggregated({pass, test("test_ab", "failed", {"A", "B"})});
  EXPECT_EQ(op(r, "B").verdict, "inconclusive");
}

TEST(CertBlame, BlameIsRecomputedFromJson) {
  CertTest t = test("test_ab", "failed", {"A", "B"});
  t.localized = "node a (A) introduces the error";
  t.localized_op = "A";
  CertReport r = aggregated({t});
  CertReport back = cert_report_from_json(cert_report_json(r));
  EXPECT_EQ(find(back, "test_ab").blamed_op, "A");
  EXPECT_EQ(op(back, "A").verdict, "failed");
  EXPECT_EQ(op(back, "B").verdict, "inconclusive");
}

// Two tests judged by enclosure, three that fell back for two reasons, one errored.
CertReport enclosure_report() {
  std::vector<CertTest> tests;
  for (const char* n : {"test_relu", "test_add"}) {
    CertTest t = test(n, "passed", {"Relu"});
    t.judge = "enclosure";
    tests.push_back(t);
  }
  for (auto [n, why] : {std::pair{"test_dft", "no enclosure for DFT-20"},
                        {"test_dft_axis", "no enclosure for DFT-20"},
                        {"test_stft", "no enclosure for STFT-17"}}) {
    CertTest t = test(n, n == std::string("test_stft") ? "failed" : "passed", {"DFT"});
    t.judge_note = why;
    tests.push_back(t);
  }
  CertTest errored = test("test_err", "errored", {"Relu"});
  errored.judge_note = "no enclosure for LpNormalization-22";  // not compared: counts in no group
  tests.push_back(errored);
  return aggregated(tests, "enclosure");
}

const char* const kOldClaims[] = {"Compared with the sonnx reference interpreter under the strict tolerances",
                                  "Each test's outputs are compared with the sonnx reference interpreter's"};

void expect_states_enclosure_judge(const std::string& text, const std::string& format) {
  SCOPED_TRACE(format);
  EXPECT_TRUE(report_has(text, "Judge: the admissible enclosure")) << text;
  EXPECT_TRUE(report_has(text, "Of the 5 tests compared, 2 were judged by the reference's admissible enclosure")) << text;
  EXPECT_TRUE(report_has(text, "3 fell back to the strict tolerances")) << text;
  EXPECT_TRUE(report_has(text, "for 2 distinct reasons")) << text;
  EXPECT_TRUE(report_has(text, "no enclosure for DFT-20")) << text;
  EXPECT_TRUE(report_has(text, "no enclosure for STFT-17")) << text;
  EXPECT_FALSE(report_has(text, "LpNormalization")) << text;
  for (const char* claim : kOldClaims) EXPECT_FALSE(report_has(text, claim)) << text;
}

TEST(CertJudge, EveryFormatNamesTheEnclosureJudgeAndTheFallbacks) {
  CertReport r = enclosure_report();
  JudgeSummary js = judge_summary(r);
  EXPECT_EQ(js.compared, 5);
  EXPECT_EQ(js.by_enclosure, 2);
  EXPECT_EQ(js.by_tolerance, 3);
  ASSERT_EQ(js.fallback.size(), 2u);
  EXPECT_EQ(js.fallback[0].reason, "no enclosure for DFT-20");  // the most frequent first
  EXPECT_EQ(js.fallback[0].tests, (std::vector<std::string>{"test_dft", "test_dft_axis"}));

  expect_states_enclosure_judge(judge_text(r), "text");
  expect_states_enclosure_judge(cert_report_markdown(r), "markdown");
  expect_states_enclosure_judge(cert_report_html(r), "html");
  expect_states_enclosure_judge(cert_report_junit(r), "junit");
  EXPECT_TRUE(report_has(judge_text(r), "  2  no enclosure for DFT-20\n"));
  // The detailed formats list the tests per reason.
  EXPECT_TRUE(report_has(cert_report_markdown(r), "| no enclosure for DFT-20 | 2 | test_dft, test_dft_axis |"));
  EXPECT_TRUE(report_has(cert_report_html(r), "<td>no enclosure for DFT-20</td><td>2</td><td>test_dft, test_dft_axis</td>"));
  EXPECT_TRUE(report_has(cert_report_junit(r), "<property name=\"judge\" value=\"enclosure\"/>"));
  EXPECT_TRUE(
      report_has(cert_report_junit(r), "<property name=\"fallback_reason\" value=\"2 tests: no enclosure for DFT-20\"/>"));
  EXPECT_EQ(cert_report_json(r).at("judge"), "enclosure");
}

TEST(CertJudge, WithoutFallbacksNoToleranceIsClaimed) {
  CertTest t = test("test_relu", "passed", {"Relu"});
  t.judge = "enclosure";
  CertReport r = aggregated({t}, "enclosure");
  for (const std::string& text : {judge_text(r), cert_report_markdown(r), cert_report_html(r), cert_report_junit(r)}) {
    EXPECT_TRUE(report_has(text, "None fell back to a tolerance.")) << text;
    EXPECT_FALSE(report_has(text, "1e-6")) << text;
  }
}

TEST(CertJudge, EveryFormatNamesTheStrictTolerancesUnderTheToleranceJudge) {
  CertReport r = aggregated({test("test_relu", "passed", {"Relu"}), test("test_abs", "failed", {"Abs"})});
  for (const std::string& text : {judge_text(r), cert_report_markdown(r), cert_report_html(r), cert_report_junit(r)}) {
    EXPECT_TRUE(report_has(text, "Judge: the strict tolerances")) << text;
    EXPECT_TRUE(report_has(text, "float32 abs 1e-6 / rel 1e-5 / 2 ULP")) << text;
    EXPECT_FALSE(report_has(text, "admissible enclosure")) << text;
  }
  EXPECT_EQ(cert_report_json(r).at("judge"), "tolerance");
}

TEST(CertJudge, TheJudgeSurvivesJsonAndMerging) {
  CertReport enc = enclosure_report();
  EXPECT_EQ(cert_report_from_json(cert_report_json(enc)).judge, "enclosure");
  // A report written before reports stated the judge: inferred from its tests.
  nlohmann::json old = cert_report_json(enc);
  old.erase("judge");
  EXPECT_EQ(cert_report_from_json(old).judge, "enclosure");

  CertReport merged;
  merge_cert_report(merged, cert_report_from_json(cert_report_json(enc)), "a.json");
  merge_cert_report(merged, cert_report_from_json(cert_report_json(enc)), "b.json");
  aggregate(merged);
  EXPECT_EQ(merged.judge, "enclosure");
  EXPECT_EQ(merged.summary.at("total"), 6);

  CertReport tol = aggregated({test("test_neg", "passed", {"Neg"})});
  try {
    merge_cert_report(merged, tol, "c.json");
    FAIL() << "reports of two judges merged";
  } catch (const LoadError& e) {
    EXPECT_TRUE(report_has(e.what(), "'c.json' was judged by tolerance, the reports before it by enclosure")) << e.what();
  }
}

TEST(CertJudge, JudgedUnder) {
  CertTest t = test("t", "passed", {"A"});
  EXPECT_EQ(judged_under(t), "tolerance");
  t.judge_note = "no enclosure for A-1";
  EXPECT_EQ(judged_under(t), "enclosure");
  t.status = "unsupported";
  EXPECT_EQ(judged_under(t), "");
}

}  // namespace
}  // namespace sonnx
