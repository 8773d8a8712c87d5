// Writing a conformance run as JSON (the contract of docs/design.md §5.3), Markdown or JUnit XML.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

#include "runner.h"

namespace sonnx {

nlohmann::json report_json(const RunReport& r);
// One test's entry of report_json, and back (the isolated child hands its result over this way).
nlohmann::json test_json(const TestResult& t);
TestResult test_from_json(const nlohmann::json& j);
std::string report_markdown(const RunReport& r);
std::string report_junit(const RunReport& r);
// Picks the format from the extension (.json, .md, .xml); throws LoadError otherwise.
void write_report(const RunReport& r, const std::filesystem::path& file);

// XML/HTML text and attribute escaping; control characters other than \n and \t become spaces.
std::string escape_xml(const std::string& s);

}  // namespace sonnx
