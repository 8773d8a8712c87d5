// The self-contained HTML certificate: inline CSS, inline SVG charts (operator verdicts by family,
// distribution of the largest ULP error per test), the per-operator table and the failures with
// their repro commands. The verdict banner is written by the page's own script from the embedded
// JSON summary, so a headless browser that shows it has run the page.
#include <array>
#include <map>
#include <set>
#include <sstream>

#include <nlohmann/json.hpp>

#include "cert_report.h"
#include "conformance/report.h"

namespace sonnx {

namespace {

bool starts(const std::string& s, const char* p) { return s.rfind(p, 0) == 0; }

std::string family(const std::string& op) {
  // clang-format off
  static const std::set<std::string> activation{"Relu", "LeakyRelu", "PRelu", "Elu", "Selu", "Celu", "Sigmoid", "HardSigmoid",
                                                "HardSwish", "Softplus", "Softsign", "Tanh", "ThresholdedRelu", "Gelu", "Mish",
                                                "Softmax", "LogSoftmax", "Hardmax", "SoftmaxCrossEntropyLoss", "NegativeLogLikelihoodLoss"};
  static const std::set<std::string> nn{"Conv", "ConvTranspose", "BatchNormalization", "InstanceNormalization", "LayerNormalization",
                                        "GroupNormalization", "LRN", "Dropout", "Gemm", "MatMul", "RNN", "LSTM", "GRU", "Einsum",
                                        "LpNormalization", "MeanVarianceNormalization", "DeformConv", "Col2Im", "RoiAlign",
                                        "NonMaxSuppression", "GridSample", "Resize", "Upsample"};
  static const std::set<std::string> logic{"And", "Or", "Xor", "Not", "Equal", "Less", "LessOrEqual", "Greater", "GreaterOrEqual",
                                           "Where", "IsNaN", "IsInf", "BitwiseAnd", "BitwiseOr", "BitwiseXor", "BitwiseNot", "BitShift"};
  static const std::set<std::string> control{"If", "Loop", "Scan"};
  static const std::set<std::string> reduction{"ArgMax", "ArgMin", "TopK", "CumSum"};
  static const std::set<std::string> math{"Abs", "Acos", "Acosh", "Add", "Asin", "Asinh", "Atan", "Atanh", "Ceil", "Clip", "Cos", "Cosh",
                                          "Div", "Erf", "Exp", "Floor", "Log", "Max", "Mean", "Min", "Mod", "Mul", "Neg", "Pow",
                                          "Reciprocal", "Round", "Sign", "Sin", "Sinh", "Sqrt", "Sub", "Sum", "Tan", "Det", "Shrink"};
  // clang-format on
  std::string base = op.substr(op.rfind('.') == std::string::npos ? 0 : op.rfind('.') + 1);
  if (op.find('.') != std::string::npos && op.find("training") != std::string::npos) return "training";
  if (control.count(base)) return "control flow";
  if (activation.count(base)) return "activation";
  if (starts(base, "Reduce") || reduction.count(base)) return "reduction";
  if (logic.count(base)) return "logic";
  if (math.count(base)) return "math";
  if (base.find("Pool") != std::string::npos || nn.count(base)) return "neural network";
  if (starts(base, "Random") || base == "Multinomial" || base == "Bernoulli") return "random";
  if (base.find("Sequence") != std::string::npos || starts(base, "Optional")) return "sequence/optional";
  if (base.find("Quantize") != std::string::npos || starts(base, "QLinear") || base.find("Integer") != std::string::npos)
    return "quantization";
  if (base.find("Window") != std::string::npos || base == "DFT" || base == "STFT" || base == "MelWeightMatrix") return "signal";
  if (base == "StringNormalizer" || base == "RegexFullMatch" || base == "TfIdfVectorizer") return "text";
  return "tensor";
}

// Stacked horizontal bars: per family, operators certified / failed / unsupported.
std::string family_chart(const CertReport& r) {
  struct Counts {
    int certified = 0, failed = 0, unsupported = 0, other = 0;
  };
  std::map<std::string, Counts> fam;
  for (const auto& o : r.operators) {
    auto& c = fam[family(o.op_type)];
    if (o.verdict == "certified") ++c.certified;
    else if (o.verdict == "failed") ++c.failed;
    else if (o.verdict == "unsupported") ++c.unsupported;
    else ++c.other;
  }
  const int row = 22, label_w = 140, bar_w = 420;
  std::ostringstream os;
  os << "<svg role=\"img\" aria-label=\"operators by family\" width=\"" << label_w + bar_w + 120 << "\" height=\""
     << row * static_cast<int>(fam.size()) + 30 << "\" xmlns=\"http://www.w3.org/2000/svg\">";
  int y = 0;
  for (const auto& [name, c] : fam) {
    int total = c.certified + c.failed + c.unsupported + c.other;
    double x = label_w;
    os << "<text x=\"" << label_w - 6 << "\" y=\"" << y + 15 << "\" text-anchor=\"end\">" << escape_xml(name) << "</text>";
    for (auto [n, cls] : std::array<std::pair<int, const char*>, 4>{
             {{c.certified, "certified"}, {c.failed, "failed"}, {c.unsupported, "unsupported"}, {c.other, "untested"}}}) {
      if (n == 0) continue;
      double w = static_cast<double>(bar_w) * n / total;
      os << "<rect class=\"" << cls << "\" x=\"" << x << "\" y=\"" << y + 3 << "\" width=\"" << w << "\" height=\"" << row - 6
         << "\"><title>" << n << " " << cls << "</title></rect>";
      x += w;
    }
    os << "<text x=\"" << label_w + bar_w + 6 << "\" y=\"" << y + 15 << "\">" << c.certified << "/" << total << " ("
       << (total ? 100 * c.certified / total : 0) << "%)</text>";
    y += row;
  }
  os << "<text x=\"" << label_w << "\" y=\"" << y + 20 << "\" class=\"legend\">green certified, red failed, grey unsupported, "
     << "white untested or inconclusive</text></svg>";
  return os.str();
}

// Column chart: how many compared tests had their largest ULP error in each bucket.
std::string error_chart(const CertReport& r) {
  const std::array<std::pair<double, const char*>, 6> buckets{
      {{0, "0"}, {1, "1"}, {2, "2"}, {16, "3-16"}, {1024, "17-1024"}, {1e300, ">1024"}}};
  std::array<int, 6> n{};
  for (const auto& t : r.tests) {
    if (t.status != "passed" && t.status != "failed") continue;
    for (size_t b = 0; b < buckets.size(); ++b)
      if (t.max_ulp <= buckets[b].first) {
        ++n[b];
        break;
      }
  }
  int top = 1;
  for (int v : n) top = std::max(top, v);
  const int h = 160, col = 70;
  std::ostringstream os;
  os << "<svg role=\"img\" aria-label=\"error distribution\" width=\"" << col * 6 + 20 << "\" height=\"" << h + 60
     << "\" xmlns=\"http://www.w3.org/2000/svg\">";
  for (size_t b = 0; b < buckets.size(); ++b) {
    int bh = n[b] * h / top;
    int x = 10 + static_cast<int>(b) * col;
    os << "<rect class=\"" << (b <= 2 ? "certified" : "failed") << "\" x=\"" << x << "\" y=\"" << h - bh + 20 << "\" width=\""
       << col - 14 << "\" height=\"" << bh << "\"><title>" << n[b] << " tests</title></rect>";
    os << "<text x=\"" << x + (col - 14) / 2 << "\" y=\"" << h - bh + 15 << "\" text-anchor=\"middle\">" << n[b] << "</text>";
    os << "<text x=\"" << x + (col - 14) / 2 << "\" y=\"" << h + 36 << "\" text-anchor=\"middle\">" << buckets[b].second
       << "</text>";
  }
  os << "<text x=\"10\" y=\"" << h + 54 << "\" class=\"legend\">largest ULP error per compared test</text></svg>";
  return os.str();
}

// The tests that did not pass, each with the operator it blames or why it blames none.
void html_failures(const CertReport& r, std::ostringstream& os) {
  os << "<h2>Tests that did not pass</h2>\n<p>An operator is failed only by a test localized to it (its first node leaving "
        "its enclosure) or whose model has no other operator; the others count against the test alone ("
     << (r.summary.count("unattributed") ? r.summary.at("unattributed") : 0) << " here).</p>\n"
     << "<table><tr><th>test</th><th>status</th><th>blame</th><th>message</th><th>repro</th></tr>\n";
  for (const auto& t : r.tests) {
    if (t.status == "passed" || t.status == "skipped") continue;
    std::string blame = t.blame.empty() ? "none (" + t.status + ")" : t.blame;
    os << "<tr><td>" << escape_xml(t.name) << "</td><td class=\"" << t.status << "\">" << t.status << "</td><td>"
       << escape_xml(blame) << "</td><td>" << escape_xml(t.message.substr(0, 400)) << "</td><td><code>" << escape_xml(t.repro)
       << "</code></td></tr>\n";
  }
  os << "</table>\n";
}

// Every failed test explained: a table of its explanation's lines, one per failure.
void html_explanations(const CertReport& r, std::ostringstream& os) {
  bool any = false;
  for (const auto& t : r.tests) {
    if (!t.failure) continue;
    if (!any)
      os << "<h2>Failures</h2>\n<p>Every failed test explained: the node, its inputs, the first wrong element, and a repro "
            "directory to attach to a bug report (docs/certify-failures.md).</p>\n";
    any = true;
    os << "<h3>" << escape_xml(t.name) << "</h3>\n<table class=\"failure\">\n";
    for (const auto& [label, text] : cert_failure_lines(*t.failure)) {
      bool code = label == "rerun" || label == "repro directory";
      os << "<tr><th>" << escape_xml(label) << "</th><td>" << (code ? "<code>" : "") << escape_xml(text)
         << (code ? "</code>" : "") << "</td></tr>\n";
    }
    os << "</table>\n";
  }
}

// Under the enclosure judge: the tests judged by the strict tolerances instead, by reason.
void html_fallbacks(const CertReport& r, std::ostringstream& os) {
  JudgeSummary js = judge_summary(r);
  if (js.fallback.empty()) return;
  os << "<h2>Judged by the strict tolerances instead of an enclosure</h2>\n"
        "<table><tr><th>reason</th><th>tests</th><th>which</th></tr>\n";
  for (const auto& f : js.fallback) {
    std::string names;
    for (const auto& n : f.tests) names += (names.empty() ? "" : ", ") + n;
    os << "<tr><td>" << escape_xml(f.reason) << "</td><td>" << f.tests.size() << "</td><td>" << escape_xml(names)
       << "</td></tr>\n";
  }
  os << "</table>\n";
}

}  // namespace

std::string cert_report_html(const CertReport& r) {
  nlohmann::json head{{"backend", r.backend}, {"judge", r.judge}, {"verdict", r.verdict}, {"summary", r.summary}};
  std::string data = head.dump();
  for (size_t p = 0; (p = data.find("</", p)) != std::string::npos; p += 3) data.replace(p, 2, "<\\/");
  std::ostringstream os;
  os << "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\"><title>sonnx certificate: " << escape_xml(r.backend)
     << "</title>\n<style>\n"
        "body{font-family:system-ui,sans-serif;margin:2em;color:#222}table{border-collapse:collapse;margin:1em 0}"
        "td,th{border:1px solid #ccc;padding:3px 8px;text-align:left;font-size:14px}th{background:#f3f3f3}"
        "#verdict{font-size:28px;font-weight:bold;padding:.4em .8em;display:inline-block;border-radius:6px}"
        "#verdict.certified{background:#d8f5d8;color:#145214}#verdict.failed{background:#fbd9d9;color:#7a1010}"
        "#verdict.unsupported,#verdict.untested{background:#eee;color:#444}"
        "rect.certified{fill:#3c9a3c}rect.failed{fill:#c83232}rect.unsupported{fill:#aaa}rect.untested{fill:#fff;stroke:#aaa}"
        "td.certified,td.passed{color:#145214}td.failed,td.crashed,td.timeout,td.errored{color:#7a1010;font-weight:bold}"
        "td.unsupported,td.inconclusive{color:#666}svg text{font-size:12px}.legend{fill:#666}code{font-size:12px}\n"
        "</style></head><body>\n";
  os << "<h1>sonnx certificate: " << escape_xml(r.backend) << "</h1>\n";
  if (!r.backend_version.empty()) os << "<p>Backend version: " << escape_xml(r.backend_version) << "</p>\n";
  os << "<div id=\"verdict\">verdict needs JavaScript</div>\n<p id=\"counts\"></p>\n";
  os << "<p id=\"judge\">" << escape_xml(judge_statement(r)) << "</p>\n";
  os << "<h2>Operators by family</h2>\n" << family_chart(r) << "\n<h2>Error distribution</h2>\n" << error_chart(r) << "\n";
  os << "<h2>Operators</h2>\n<table><tr><th>operator</th><th>family</th><th>verdict</th><th>tests</th><th>passed</th>"
        "<th>failed</th><th>on the backend</th></tr>\n";
  for (const auto& o : r.operators)
    os << "<tr><td>" << escape_xml(o.op_type) << "</td><td>" << escape_xml(family(o.op_type)) << "</td><td class=\"" << o.verdict
       << "\">" << o.verdict << "</td><td>" << o.tests << "</td><td>" << o.passed << "</td><td>" << o.failed << "</td><td>"
       << o.native << "</td></tr>\n";
  os << "</table>\n";
  html_failures(r, os);
  html_explanations(r, os);
  html_fallbacks(r, os);
  os << "<script type=\"application/json\" id=\"certificate-data\">" << data << "</script>\n";
  os << "<script>\n"
        "(function(){\n"
        "  var d = JSON.parse(document.getElementById('certificate-data').textContent);\n"
        "  var v = document.getElementById('verdict');\n"
        "  v.textContent = 'Verdict: ' + d.verdict.toUpperCase();\n"
        "  v.className = d.verdict;\n"
        "  var s = d.summary, parts = [];\n"
        "  ['total','passed','failed','unsupported','crashed','timeout','errored','skipped','fallback','unattributed'].forEach(function(k){\n"
        "    parts.push(k + ' ' + (s[k] || 0));\n"
        "  });\n"
        "  document.getElementById('counts').textContent = 'Tests: ' + parts.join(', ');\n"
        "})();\n"
        "</script>\n</body></html>\n";
  return os.str();
}

}  // namespace sonnx
