// Inputs for `run`, `enclose`, `plan`, `bench` and `partition`: NAME=FILE specs (.pb or .npy)
// checked against the model's declared input types, and deterministic synthetic inputs for the rest.
#pragma once
#include <CLI/CLI.hpp>
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "sonnx/sonnx.hpp"

namespace sonnx::cli {

// Reads every NAME=FILE; throws LoadError on a bad spec, an unknown or repeated name, or a value
// whose type or shape contradicts the declaration.
NamedValues read_input_specs(const ModelHandle& model, const std::vector<std::string>& specs);

// Parses NAME=VALUE dimension bindings (--dim batch=1).
std::map<std::string, int64_t> parse_dims(const std::vector<std::string>& specs);

// A file name for a value named `name` (which may contain '/' or other characters unsafe in a
// file name): letters, digits, '_', '-' and '.' kept, anything else '_'.
std::string safe_file_name(const std::string& name);

// The --input/--dim options of `plan` and `bench`: given files, synthetic values for the rest.
struct InputOptions {
  std::vector<std::string> inputs, dims;
  void add_to(CLI::App* cmd);
  NamedValues make(const ModelHandle& model) const;  // read_input_specs + add_synthetic_inputs
};

}  // namespace sonnx::cli
