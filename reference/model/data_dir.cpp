#include "data_dir.h"

#include <dlfcn.h>

#include <cstdlib>

namespace sonnx {

std::filesystem::path data_dir() {
  if (const char* env = std::getenv("SONNX_DATA_DIR"); env && *env) return env;
  static const std::filesystem::path found = [] {
    // The file holding this code: libsonnx.so, or a program that links sonnx statically.
    Dl_info info{};
    if (dladdr(reinterpret_cast<void*>(&data_dir), &info) && info.dli_fname)
      for (const char* to_data : {SONNX_LIB_TO_DATA, SONNX_BIN_TO_DATA}) {
        std::error_code ec;
        auto installed = std::filesystem::weakly_canonical(std::filesystem::path(info.dli_fname).parent_path() / to_data, ec);
        if (!ec && std::filesystem::is_directory(installed / "spec" / "profiles", ec)) return installed;
      }
    return std::filesystem::path(SONNX_SOURCE_DIR);
  }();
  return found;
}

}  // namespace sonnx
