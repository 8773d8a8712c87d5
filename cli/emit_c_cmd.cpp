// sonnx emit-c MODEL -o DIR : a model of the SONNX profile as C99 source (docs/emit-c.md; the C++
// API's emit_c). Exit 0 written, 1 the model is outside the profile or a node has no C template
// (nothing written), 2 unreadable model, bad option or unwritable directory.
#include <iostream>

#include "commands.h"
#include "sonnx/admit.hpp"
#include "sonnx/emit.hpp"

namespace sonnx::cli {

namespace {
struct EmitCArgs {
  std::string model, output;
  EmitCOptions options;
};
}  // namespace

void add_emit_c_command(CLI::App& app, int& exit_code) {
  auto args = std::make_shared<EmitCArgs>();
  auto* cmd = app.add_subcommand(
      "emit-c", "Write a SONNX-profile model as C99 source: PREFIX.h/.c with PREFIX_run, the weights, a test driver main.c and "
                "build files (exit 0 written, 1 outside the profile or no C template for a node: nothing written, 2 bad input)");
  cmd->add_option("model", args->model, "Model file (.onnx, or .onnxtxt text syntax) that passes `sonnx check --profile sonnx`")
      ->required();
  cmd->add_option("--output,-o", args->output, "Directory to write the files into (created if absent)")->required();
  cmd->add_option("--name", args->options.name, "PREFIX of the files and C names (a C identifier)")->capture_default_str();
  cmd->add_option("--mode", args->options.mode,
                  "exact: bitwise the results of `sonnx run`; fast: float accumulation, within the admissible enclosure")
      ->check(CLI::IsMember({"exact", "fast"}))
      ->capture_default_str();
  cmd->add_option("--weights", args->options.weights,
                  "embedded: const arrays in PREFIX.c; file: PREFIX.weights, read into the arena by PREFIX_load_weights")
      ->check(CLI::IsMember({"embedded", "file"}))
      ->capture_default_str();
  cmd->callback([args, &exit_code] {
    ModelHandle model = load(args->model);
    EmitCResult r;
    try {
      r = emit_c(model, args->output, args->options);
    } catch (const CheckFailed& e) {
      std::cerr << "sonnx: " << args->model << " is not in the SONNX profile; nothing written\n";
      for (const auto& d : e.diagnostics()) std::cerr << "  " << format_diagnostic(d) << "\n";
      const std::string fix = admit_suggestion(model, e.diagnostics(), "sonnx");
      if (!fix.empty()) std::cerr << "  " << fix << "\n";
      exit_code = 1;
      return;
    } catch (const Unsupported& e) {
      std::cerr << "sonnx: " << e.what() << "; nothing written\n";
      exit_code = 1;
      return;
    }
    std::cout << args->model << ": " << r.functions << " node functions (" << r.folded << " nodes folded into constants), arena "
              << r.arena_bytes << " bytes" << (r.weights_bytes ? " (" + std::to_string(r.weights_bytes) + " of weights)" : "")
              << ", mode " << args->options.mode << "; wrote";
    for (const auto& f : r.files) std::cout << " " << f.filename().string();
    std::cout << " to " << args->output << "\n";
    exit_code = 0;
  });
}

}  // namespace sonnx::cli
