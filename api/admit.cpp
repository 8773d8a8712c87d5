// The C++ API's admission (include/sonnx/admit.hpp) over admit/admit.h.
#include "sonnx/admit.hpp"

#include <cmath>
#include <set>

#include "admit/admit.h"
#include "admit/report.h"
#include "reference/check/validator.h"
#include "reference/model/writer.h"

namespace sonnx {

Admission admit_model(const ModelHandle& model, const AdmitOptions& options) {
  const LoadedModel& loaded = model.impl();
  // The interpreter runs valid models only: the original must pass the onnx profile.
  std::vector<Diagnostic> onnx = validate(loaded, load_profile("onnx"));
  if (has_errors(onnx)) throw CheckFailed(model.name(), "onnx", std::move(onnx));

  admit::AdmitOptions o;
  o.profile = std::make_shared<Profile>(load_profile(options.profile));
  o.fixes.dims = options.dims;
  o.fixes.input_shapes = options.input_shapes;
  for (const auto& [name, v] : options.fixed) {
    if (v.kind != Value::Kind::Tensor) throw LoadError("fixed input '" + name + "' is not a tensor");
    o.fixes.values[name] = v.tensor;
  }
  o.inputs = options.inputs;
  o.expose_unused = options.expose_unused;
  o.within_enclosure = [&model](const NamedValues& inputs, const NamedValues& outputs) -> std::string {
    std::map<std::string, OutputEnclosure> bounds;
    try {
      bounds = enclosures(model, inputs, "admissible", false);
    } catch (const std::exception& e) {
      return std::string("the original model's admissible enclosure cannot be computed: ") + e.what();
    }
    for (const auto& [name, b] : bounds) {
      auto it = outputs.find(name);
      if (it == outputs.end() || it->second.kind != Value::Kind::Tensor || it->second.tensor.size() != b.lower.size())
        return "output '" + name + "' is missing or has another shape";
      const Tensor& t = it->second.tensor;
      for (int64_t i = 0; i < t.size(); ++i) {
        double v = t.as_double(i), lo = b.lower.as_double(i), hi = b.upper.as_double(i);
        // NaN bounds: the element has no real value (a NaN input): the admitted model's is NaN too.
        bool inside = std::isnan(lo) || std::isnan(hi) ? std::isnan(v) : lo <= v && v <= hi;
        if (!inside)
          return "output '" + name + "' element " + std::to_string(i) + " = " + std::to_string(v) +
                 " lies outside the original's admissible enclosure [" + std::to_string(lo) + ", " + std::to_string(hi) + "]";
      }
    }
    return "";
  };
  o.samples = options.samples;
  o.seed = options.seed;
  admit::AdmitResult r;
  try {
    r = admit::admit_model(loaded, o);
  } catch (const admit::AdmitUsageError& e) {
    throw LoadError(e.what());
  } catch (const std::invalid_argument& e) {
    throw LoadError(e.what());
  }

  Admission a;
  a.admitted = r.admitted;
  a.unchanged = r.unchanged;
  a.opset_from = r.opset_from;
  a.opset_to = r.opset_to;
  a.errors_before = r.errors_before;
  a.errors_after = r.remaining.size();
  a.rewrites = admit::rewrite_counts(r);
  for (const admit::ProofRun& run : r.runs) {
    ++a.runs;
    if (run.equal) ++a.runs_equal;
    a.bounded = a.bounded || run.bounded;
  }
  a.reasons = r.reasons();
  a.seconds = r.seconds;
  if (r.admitted && !r.unchanged) model_to_proto(r.model, &loaded.proto).SerializeToString(&a.model_bytes);
  a.report_json = admit::report_json(r, model.name(), o.profile->name).dump(2);
  a.report_markdown = admit::report_markdown(r, model.name(), o.profile->name);
  return a;
}

std::string admit_suggestion(const ModelHandle& model, const std::vector<Diagnostic>& diagnostics, const std::string& profile) {
  Profile p = load_profile(profile);
  size_t errors = 0;
  for (const Diagnostic& d : diagnostics) {
    if (d.severity != Severity::Error) continue;
    if (!admit::removable(d, p)) return "";
    ++errors;
  }
  if (errors == 0) return "";
  std::filesystem::path file(model.name());
  std::string command = "sonnx admit " + model.name() + " -o " + (file.parent_path() / file.stem()).string() + ".sonnx.onnx";
  if (profile != "sonnx") command += " --profile " + profile;
  std::set<std::string> dims;
  for (const ValueInfo& in : model.impl().ir.graph.inputs)
    if (in.type.shape)
      for (const Dim& d : *in.type.shape)
        if (!d.value && !d.param.empty() && dims.insert(d.param).second) command += " --dim " + d.param + "=…";
  return "all " + std::to_string(errors) + " errors are removable: " + command;
}

}  // namespace sonnx
