// Every failure explained (docs/certify-failures.md): for a failed test, the node (the localized one,
// else the model's only node, else the whole model), the range of each of its inputs, the first
// wrong element with its enclosure or its reference value and tolerance, the runtime's value and how
// far it is off; and a repro directory to attach to a bug report, which is itself a test directory
// that `sonnx certify --suite` runs again.
#pragma once
#include <filesystem>
#include <map>
#include <string>

#include "cert_report.h"
#include "enclose/encloser.h"
#include "reference/model/ir.h"
#include "reference/ops/op_record.h"
#include "sonnx/value.h"

namespace sonnx {

// What a failure is explained from, in the test's process where the values are: the model that
// failed (the test's, or its localized node alone) on the inputs of one data set.
struct FailureEvidence {
  const Model* model = nullptr;  // the test's model, or the localized node alone (localize.h)
  // The test's model.onnx, copied as it is into the repro directory; empty: `model` is written instead.
  std::filesystem::path model_file;
  NamedValues inputs;     // the model's inputs
  NamedValues reference;  // the reference interpreter's outputs on them
  NamedValues runtime;    // the backend's outputs (those it gave)
  // The outputs' admissible enclosures when the outputs are judged by enclosure; null: by the strict tolerances.
  const std::map<std::string, enclose::Bounds>* bounds = nullptr;
  Accuracy accuracy = Accuracy::Rounding;  // the model's accuracy class, for the strict tolerances
  std::string data_set;                    // the data set's directory name, "test_data_set_0"
  std::string node_label;                  // the localized node's label; empty: not localized
  std::string not_localized;               // when not localized: "not localized: <why>"
  std::string note;                        // a failure with no output to judge (an unreadable output): what happened
};

// The explanation of a failure: the node, its inputs' ranges, the first wrong element of the first
// wrong output (judged as the evidence says) and how many elements of it are wrong.
CertFailure explain_failure(const FailureEvidence& e);

// The directory a test gets inside a repro directory: its name with every character other than a
// letter, a digit, '.', '_' or '-' replaced by '_', never "." or ".." or hidden, at most 100
// characters, and then followed by a hash of the whole name when it was changed, so that two names
// never share a directory.
std::string repro_dir_name(const std::string& test_name);

// Writes DIR/<repro_dir_name(test_name)>/: model.onnx, test_data_set_0/input_K.pb (the inputs) and
// output_K.pb (the reference's outputs), and beside them expected_lo_K.pb and expected_hi_K.pb (the
// admissible enclosure's bounds: float64 tensors for a float output, the output's own value for an
// exact one) when judged by enclosure, runtime_output_K.pb (the backend's outputs) and README.md
// (the explanation and the command that reruns it). Sets f.repro_dir, and f.rerun to
// `certify_command` followed by " --suite DIR/<test>". Throws LoadError when it cannot be written.
void write_repro_dir(const std::filesystem::path& dir, const std::string& test_name, const FailureEvidence& e,
                     const std::string& certify_command, CertFailure& f);

}  // namespace sonnx
