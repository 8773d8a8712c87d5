// The implementation under certification: a backend run in this process through the partitioned
// executor (built-in or plugin, with cpu fallback unless disallowed), or an external runtime
// driven by the process protocol (`--backend-cmd`: CMD MODEL INPUT_DIR OUTPUT_DIR, inputs as
// input_K.pb, outputs expected as output_K.pb in graph-output order; exit 0 on success, 3 when the
// runtime does not support the model — its opset or IR version, an element type, an operator — with
// the reason as the last line printed; anything else is an error), or by its persistent form
// (`--persistent`: one `CMD --serve` answering a JSON line per model; docs/backends.md).
#pragma once
#include <filesystem>
#include <memory>
#include <string>
#include <vector>

#include "conformance/suite.h"

namespace sonnx {

struct TargetResult {
  // ok, unsupported, crashed, timeout, errored, garbage (outputs unreadable)
  std::string status = "ok";
  std::string message;
  NamedValues outputs;
  std::vector<std::string> unsupported_ops;  // operators the backend could not take (ran on fallback)
  std::vector<std::string> fallback_notes;   // "step 0 (Add) on sample: execute failed: ..."
  std::vector<std::string> fallback_ops;     // operators of steps that fell back
};

class CertTarget {
 public:
  virtual ~CertTarget() = default;
  virtual std::string name() const = 0;
  virtual std::string version() const = 0;
  // Whether the target enforces the timeout itself (else the caller arms an alarm around run).
  virtual bool enforces_timeout() const = 0;
  // Whether the target runs any model it is given in this process (a backend), so that a failing
  // model can be run again node by node (--localize); a command reads the test's model file.
  virtual bool runs_in_process() const { return false; }
  virtual TargetResult run(const Model& model, const TestCase& test, const std::filesystem::path& data_set,
                           const NamedValues& inputs) = 0;
};

// NAME (reference, cpu) or a plugin path. Throws LoadError for an unknown backend.
std::unique_ptr<CertTarget> make_backend_target(const std::string& backend, bool allow_fallback);
// Exactly the device set `devices` (names from discover_devices with `plugins`, or plugin paths);
// cpu is the fallback only when it is in the set. `by_profile`: profile-guided assignment per test.
std::unique_ptr<CertTarget> make_device_set_target(const std::vector<std::string>& devices,
                                                   const std::vector<std::string>& plugins, bool by_profile);
// A runtime command. `persistent`: started once as CMD --serve; throws LoadError when it makes no
// handshake (it does not speak the persistent protocol).
std::unique_ptr<CertTarget> make_command_target(const std::string& command, double timeout_seconds, bool persistent = false);

}  // namespace sonnx
