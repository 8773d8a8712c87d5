// Judging an output against its admissible enclosure (spec/accuracy.md, "Judging against
// enclosures"): a float element passes when it lies within the interval that holds every result an
// implementation meeting each operator's allowance may produce; an integer or boolean output must
// equal the value the enclosure determines. No tolerance is guessed.
#pragma once
#include <map>
#include <optional>
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "conformance/suite.h"
#include "enclose/encloser.h"
#include "sonnx/value.h"

namespace sonnx {

// How `conform` and `certify` judge a float output: within the tolerance, or within its enclosure.
// Bitwise (certify only): every output equals the reference interpreter's, bit for bit (NaN equals
// NaN, whatever its payload): what `sonnx emit-c --mode exact` promises.
enum class Judge { Tolerance, Enclosure, Bitwise };
inline const char* judge_name(Judge j) {
  return j == Judge::Enclosure ? "enclosure" : j == Judge::Bitwise ? "bitwise" : "tolerance";
}

// One output's verdict, with the figures a report gives per output.
struct EnclosureCheck {
  std::string output;
  bool ok = true;
  std::string message;         // why it failed (the first element outside), without the output's name
  double ulps_outside = 0;     // how far the farthest element lies outside its enclosure, in ulps of its type (0: all inside)
  double width_ulps = 0;       // the widest enclosure of the output, in ulps of its type (0 for an exact output)
  double real_width_ulps = 0;  // the same for the output's real enclosure: how far the model itself determines it
  int64_t outside = 0;         // elements outside their enclosure
  int64_t undefined = 0;       // elements without a value in the reals (NaN in, ∞ − ∞): anything passes there
  void merge(const EnclosureCheck& o);  // the worse of two data sets' figures for the same output
};

// A sequence is judged element by element and an optional by its value (an empty one must be
// empty): the figures are its tensors' together, the message names the element that failed.
EnclosureCheck judge_by_enclosure(const std::string& output, const Value& actual, const enclose::Bounds& bounds);

// The enclosures of a model's outputs on one set of inputs: admissible (the judge) and real (how
// far the model itself determines them).
struct OutputEnclosures {
  std::map<std::string, enclose::Bounds> admissible, real;
};
// Nullopt, with the reason in `why`, when they cannot be had: an operator without an enclosure, an
// undetermined value, a trap of the encloser's own.
std::optional<OutputEnclosures> enclose_outputs(const Model& model, const NamedValues& inputs, std::string& why);
// judge_by_enclosure against the admissible enclosure, with the real one's width.
EnclosureCheck judge_output(const std::string& output, const Value& actual, const OutputEnclosures& e);

// A test judged by enclosure over its data sets (conform and certify): the enclosures of every data
// set come first, so that a test is judged one way throughout — by enclosure where every data set
// has one, by the tolerance otherwise (`of` gives nullopt, the reason in `why`).
class TestEnclosures {
 public:
  static std::optional<TestEnclosures> of(const Model& model, const std::vector<DataSet>& data_sets, std::string& why);
  // Data set d's output judged, and merged into the test's figures for that output.
  EnclosureCheck judge(size_t d, const std::string& output, const Value& actual);
  const OutputEnclosures& data_set(size_t d) const { return sets_.at(d); }
  // Per output, the worst figures over the data sets.
  std::vector<EnclosureCheck> checks() const;

 private:
  std::vector<OutputEnclosures> sets_;
  std::map<std::string, EnclosureCheck> by_output_;
};

// Per-output checks as report JSON ({"output", "ulps_outside", "width_ulps", "real_width_ulps",
// "outside", "undefined"}; an unbounded figure is null), and back.
nlohmann::json enclosure_json(const std::vector<EnclosureCheck>& checks);
std::vector<EnclosureCheck> enclosure_from_json(const nlohmann::json& j);
// JSON has no infinity: an unbounded figure is written as null and read back as +∞.
nlohmann::json number_or_null(double x);
double number_or_inf(const nlohmann::json& j);

}  // namespace sonnx
