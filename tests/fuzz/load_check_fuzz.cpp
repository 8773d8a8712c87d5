// libFuzzer target: arbitrary bytes as a model file, loaded and validated under the sonnx profile
// (which runs every rule). Any crash, sanitizer report or uncaught exception other than LoadError
// is a finding.
#include <unistd.h>

#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <string>

#include "reference/check/validator.h"
#include "sonnx/errors.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
  // The loader reads files (it resolves external data relative to the model's directory), so the
  // input goes through a private temporary file.
  static const std::string path = [] {
    static const auto dir = std::filesystem::temp_directory_path() / ("sonnx-fuzz-" + std::to_string(getpid()));
    std::filesystem::create_directories(dir);
    std::atexit([] {
      std::error_code ec;
      std::filesystem::remove_all(dir, ec);
    });
    return (dir / "model.onnx").string();
  }();
  FILE* f = std::fopen(path.c_str(), "wb");
  if (!f) return 0;
  std::fwrite(data, 1, size, f);
  std::fclose(f);
  static const sonnx::Profile profile = sonnx::load_profile("sonnx");
  try {
    auto lm = sonnx::load_model(path);
    (void)sonnx::validate(*lm, profile);
  } catch (const sonnx::LoadError&) {
    // Unreadable input is an expected outcome.
  }
  return 0;
}
