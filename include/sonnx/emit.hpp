// `sonnx emit-c` (docs/emit-c.md): a model of the SONNX profile as C99 source with one entry point,
// PREFIX_run(inputs, outputs, arena), a compile-time arena size, the weights (embedded or in a
// file), a test driver (main.c, which also speaks sonnx's process protocol) and build files.
#pragma once
#include <cstdint>
#include <filesystem>
#include <string>
#include <vector>

#include "sonnx.hpp"

#pragma GCC visibility push(default)
namespace sonnx {

struct EmitCOptions {
  std::string name = "model";        // PREFIX of the files and the C names: a C identifier
  std::string mode = "exact";        // exact: bitwise the reference's results; fast: within the admissible enclosure
  std::string weights = "embedded";  // embedded: const arrays in PREFIX.c; file: PREFIX.weights, read into the arena
};

struct EmitCResult {
  std::vector<std::filesystem::path> files;  // written, in the output directory
  int64_t arena_bytes = 0, weights_bytes = 0;
  size_t functions = 0;  // one per node left after folding constants
  size_t folded = 0;     // nodes folded into constants by the reference kernels
};

// Writes the C form of `model` into `out_dir` (created if absent). Throws CheckFailed when the
// model is not in the SONNX profile (its diagnostics), Unsupported when a node has no C template
// (named), LoadError for a bad option or a directory that cannot be written.
EmitCResult emit_c(const ModelHandle& model, const std::filesystem::path& out_dir, const EmitCOptions& options = {});

}  // namespace sonnx
#pragma GCC visibility pop
