// The C++ API's C emitter (include/sonnx/emit.hpp) over emit/emit_model.h.
#include <fstream>

#include "emit/emit_model.h"
#include "reference/check/prepare.h"
#include "reference/check/validator.h"
#include "sonnx/emit.hpp"

namespace sonnx {

EmitCResult emit_c(const ModelHandle& model, const std::filesystem::path& out_dir, const EmitCOptions& options) {
  emit::EmitOptions o;
  o.name = options.name;
  if (!emit::is_c_identifier(o.name)) throw LoadError("--name '" + o.name + "' is not a C identifier");
  if (options.mode == "exact") o.mode = emit::Mode::Exact;
  else if (options.mode == "fast") o.mode = emit::Mode::Fast;
  else throw LoadError("--mode must be exact or fast, got '" + options.mode + "'");
  if (options.weights == "embedded") o.weights = emit::WeightsMode::Embedded;
  else if (options.weights == "file") o.weights = emit::WeightsMode::File;
  else throw LoadError("--weights must be embedded or file, got '" + options.weights + "'");
  o.source_label = std::filesystem::path(model.name()).filename().string();

  const LoadedModel& loaded = model.impl();
  std::vector<Diagnostic> found = validate(loaded, load_profile("sonnx"));
  if (has_errors(found)) throw CheckFailed(model.name(), "sonnx", std::move(found));
  const Model prepared = prepared_ir(loaded, PrepareOptions::with_profile(true, "sonnx"), model.name());
  emit::EmitResult r;
  try {
    r = emit::emit_model(prepared, o);
  } catch (const emit::EmitRefused& e) {
    throw Unsupported(e.what());
  }

  std::error_code ec;
  std::filesystem::create_directories(out_dir, ec);
  if (ec) throw LoadError("cannot create the directory " + out_dir.string() + ": " + ec.message());
  EmitCResult out;
  for (const emit::EmittedFile& f : r.files) {
    const std::filesystem::path file = out_dir / f.name;
    std::ofstream s(file, std::ios::binary);
    s << f.content;
    s.close();
    if (!s) throw LoadError("cannot write " + file.string());
    out.files.push_back(file);
  }
  out.arena_bytes = r.arena_bytes;
  out.weights_bytes = r.weights_bytes;
  out.functions = r.functions;
  out.folded = r.folded;
  return out;
}

}  // namespace sonnx
