#include "devices.h"

#include <algorithm>
#include <cstdlib>
#include <filesystem>
#include <sstream>

#include "sonnx/errors.h"

namespace sonnx {

namespace {

void add_device(DeviceCatalog& c, std::shared_ptr<Backend> b, const std::string& source) {
  if (const Device* d = c.find(b->name()))
    throw LoadError("two devices are called '" + b->name() + "': " + d->source + " and " + source);
  c.devices.push_back({std::move(b), source});
}

// The plugin files of one SONNX_PLUGIN_PATH entry: the file itself, or a folder's *.so, sorted.
std::vector<std::string> plugin_files(const std::string& entry) {
  namespace fs = std::filesystem;
  std::error_code ec;
  if (!fs::is_directory(entry, ec)) return {entry};
  std::vector<std::string> files;
  for (const auto& e : fs::directory_iterator(entry, ec))
    if (e.path().extension() == ".so") files.push_back(e.path().string());
  std::sort(files.begin(), files.end());
  return files;
}

}  // namespace

const Device* DeviceCatalog::find(const std::string& name) const {
  for (const auto& d : devices)
    if (d.backend->name() == name) return &d;
  return nullptr;
}

bool contains_cpu(const std::vector<std::shared_ptr<Backend>>& set) {
  return std::any_of(set.begin(), set.end(), [](const auto& b) { return b->name() == "cpu"; });
}

DeviceCatalog discover_devices(const std::vector<std::string>& plugins) {
  DeviceCatalog c;
  add_device(c, make_cpu_backend(), "built-in");
  add_device(c, make_reference_backend(), "built-in");
  for (const auto& p : plugins) add_device(c, load_plugin_backend(p), p);
  const char* env = std::getenv("SONNX_PLUGIN_PATH");
  std::stringstream ss(env ? env : "");
  std::string entry;
  while (std::getline(ss, entry, ':')) {
    if (entry.empty()) continue;
    for (const auto& file : plugin_files(entry)) {
      bool already = std::any_of(c.devices.begin(), c.devices.end(), [&](const Device& d) {
        std::error_code ec;
        return d.source != "built-in" && std::filesystem::equivalent(d.source, file, ec);
      });
      if (already) continue;
      try {
        add_device(c, load_plugin_backend(file), file);
      } catch (const LoadError& e) {
        c.skipped.push_back(file + ": " + e.what());
      }
    }
  }
  return c;
}

std::vector<std::shared_ptr<Backend>> select_devices(const DeviceCatalog& catalog, const std::vector<std::string>& names) {
  if (names.empty()) throw LoadError("the device set is empty: name at least one device (sonnx devices lists them)");
  std::vector<std::shared_ptr<Backend>> out;
  for (const auto& name : names) {
    if (name.empty()) throw LoadError("a device name is empty");
    std::shared_ptr<Backend> b;
    if (const Device* d = catalog.find(name)) b = d->backend;
    else if (is_plugin_path(name)) b = load_plugin_backend(name);
    else {
      std::string known;
      for (const auto& d : catalog.devices) known += (known.empty() ? "" : ", ") + d.backend->name();
      throw LoadError("no device is called '" + name + "' (known: " + known +
                      "; add plugins with --plugin or SONNX_PLUGIN_PATH)");
    }
    for (const auto& o : out)
      if (o->name() == b->name()) throw LoadError("device '" + name + "' is named twice in the device set");
    out.push_back(std::move(b));
  }
  return out;
}

}  // namespace sonnx
