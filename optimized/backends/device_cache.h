// Where measurements of this machine's devices are kept between runs: the calibration figure of
// each device and the per-node profiles of models (profile-guided assignment). The folder is
// $SONNX_CACHE_DIR, else $XDG_CACHE_HOME/sonnx, else ~/.cache/sonnx. A cache that cannot be read or
// written is only a lost speed-up: the measurement is made again.
#pragma once
#include <filesystem>
#include <string>

#include <nlohmann/json.hpp>

namespace sonnx {

std::filesystem::path device_cache_dir();

// The machine the figures belong to: CPU model and logical CPU count.
std::string machine_id();

// The JSON in `file` (under device_cache_dir()), or null when absent or unreadable.
nlohmann::json read_cache(const std::string& file);
// Writes atomically (a temporary file renamed); returns false (and changes nothing) on failure.
bool write_cache(const std::string& file, const nlohmann::json& j);

// A stable hex digest (FNV-1a, 64 bits) of some bytes: cache keys, not security.
std::string digest(const std::string& bytes);

}  // namespace sonnx
