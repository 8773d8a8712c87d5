// The devices a process can use (NNAPI's device discovery): the built-in backends `cpu` and
// `reference`, then plugins named with --plugin, then plugins found through SONNX_PLUGIN_PATH
// (a ':'-separated list of plugin files or folders, every *.so in a folder). A device set for a
// compilation is chosen from them by name (`--devices a,b`).
#pragma once
#include <memory>
#include <string>
#include <vector>

#include "backend.h"

namespace sonnx {

struct Device {
  std::shared_ptr<Backend> backend;
  std::string source;  // "built-in", or the plugin's path
};

struct DeviceCatalog {
  std::vector<Device> devices;
  // Files on SONNX_PLUGIN_PATH that could not be loaded as plugins (skipped): "path: why".
  std::vector<std::string> skipped;
  const Device* find(const std::string& name) const;
};

// Built-ins, then `plugins` (each must load: LoadError otherwise), then SONNX_PLUGIN_PATH. Two
// devices with one name are a LoadError naming both files.
DeviceCatalog discover_devices(const std::vector<std::string>& plugins);

// The backends named (device names, or plugin paths), in that order. Throws LoadError for an
// empty list, an unknown name (listing the known ones) or a name given twice.
std::vector<std::shared_ptr<Backend>> select_devices(const DeviceCatalog& catalog, const std::vector<std::string>& names);

// Whether `cpu` is one of the backends (then it is a device set's fallback).
bool contains_cpu(const std::vector<std::shared_ptr<Backend>>& set);

}  // namespace sonnx
