// `sonnx emit-c` (docs/emit-c.md): a model of the SONNX profile as C99 source. The model's
// constant computations are folded first with the reference kernels (admit's fold_constants, so
// the folded values are bitwise the interpreter's); every remaining node becomes one C function,
// written by its operator version's template (emit_op.h), called in Kahn's order from
// PREFIX_run; intermediate values live in the caller's arena at offsets from sonnx's memory
// planner (greedy by size, spec/memory_plan.md), so PREFIX_ARENA_BYTES is a compile-time constant.
#pragma once
#include <cstdint>
#include <string>
#include <vector>

#include "emit_op.h"
#include "reference/model/loader.h"

namespace sonnx::emit {

enum class WeightsMode { Embedded, File };

struct EmitOptions {
  std::string name = "model";  // PREFIX: a C identifier
  Mode mode = Mode::Exact;
  WeightsMode weights = WeightsMode::Embedded;
  std::string source_label;  // the model's file name, for the files' headers
};

struct EmittedFile {
  std::string name;  // relative to the output directory
  std::string content;
};

struct EmitResult {
  std::vector<EmittedFile> files;
  int64_t arena_bytes = 0, weights_bytes = 0;
  size_t functions = 0;  // node functions written (one per node left after folding)
  size_t folded = 0;     // nodes folded into constants
};

// The C form of a prepared model (checked under the SONNX profile, types inferred). Throws
// EmitRefused naming the first node without a template, or the value without a static type.
EmitResult emit_model(const Model& model, const EmitOptions& options);

bool is_c_identifier(const std::string& s);

}  // namespace sonnx::emit
