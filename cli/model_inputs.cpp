#include "model_inputs.h"

#include <cctype>

namespace sonnx::cli {

namespace {

std::pair<std::string, std::string> split_spec(const std::string& spec, const std::string& option, const std::string& form) {
  auto eq = spec.find('=');
  if (eq == std::string::npos || eq == 0) throw LoadError(option + " takes " + form + ", got '" + spec + "'");
  return {spec.substr(0, eq), spec.substr(eq + 1)};
}

}  // namespace

NamedValues read_input_specs(const ModelHandle& model, const std::vector<std::string>& specs) {
  NamedValues feed;
  for (const auto& spec : specs) {
    auto [name, file] = split_spec(spec, "--input", "NAME=FILE");
    // Only the model's inputs enter the map (read_input refuses other names), so a name it lacks is
    // never reported as given twice.
    if (feed.count(name)) throw LoadError("input '" + name + "' given twice");
    feed[name] = read_input(model, name, file);
  }
  return feed;
}

std::map<std::string, int64_t> parse_dims(const std::vector<std::string>& specs) {
  std::map<std::string, int64_t> dims;
  for (const auto& spec : specs) {
    auto [name, value] = split_spec(spec, "--dim", "NAME=VALUE");
    size_t used = 0;
    int64_t v = -1;
    try {
      v = std::stoll(value, &used);
    } catch (const std::exception&) {
      used = 0;
    }
    if (used != value.size() || v < 0) throw LoadError("--dim " + name + ": '" + value + "' is not a nonnegative integer");
    dims[name] = v;
  }
  return dims;
}

void InputOptions::add_to(CLI::App* cmd) {
  cmd->add_option("--input,-i", inputs, "NAME=FILE (.pb or .npy); other inputs are synthetic, of the declared shape");
  cmd->add_option("--dim", dims, "NAME=VALUE for a symbolic input dimension (default 1)");
}

NamedValues InputOptions::make(const ModelHandle& model) const {
  NamedValues feed = read_input_specs(model, inputs);
  add_synthetic_inputs(model, parse_dims(dims), feed);
  return feed;
}

std::string safe_file_name(const std::string& name) {
  std::string safe;
  for (char c : name) safe += (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-' || c == '.') ? c : '_';
  return safe;
}

}  // namespace sonnx::cli
