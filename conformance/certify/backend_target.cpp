// A backend, or a device set, certified in process: the model is partitioned over the backends
// (+ cpu fallback) and run by the PartitionedExecutor; what ran on the fallback, and why, is part
// of the result. A device set may be assigned by profile (each test's model measured afresh).
#include <algorithm>

#include "optimized/backends/assign.h"
#include "optimized/backends/devices.h"
#include "optimized/backends/partitioned_executor.h"
#include "sonnx/errors.h"
#include "target.h"

namespace sonnx {

namespace {

class BackendTarget : public CertTarget {
 public:
  BackendTarget(std::vector<std::shared_ptr<Backend>> b, bool allow_fallback, bool by_profile)
      : backends_(std::move(b)), allow_fallback_(allow_fallback), by_profile_(by_profile) {}
  std::string name() const override {
    return joined([](const Backend& b) { return b.name(); });
  }
  std::string version() const override {
    return joined([](const Backend& b) { return b.version(); });
  }
  bool enforces_timeout() const override { return false; }
  bool runs_in_process() const override { return true; }

  TargetResult run(const Model& model, const TestCase&, const std::filesystem::path&, const NamedValues& inputs) override {
    TargetResult r;
    try {
      PartitionOptions po;
      po.allow_fallback = allow_fallback_;
      if (by_profile_) po = assign_by_profile(model, backends_, inputs, allow_fallback_, false);
      PartitionedExecutor ex(partition(model, backends_, po));
      r.unsupported_ops = ex.plan().unsupported_ops;
      try {
        r.outputs = ex.run(inputs);
      } catch (...) {
        for (const auto& f : ex.fallbacks()) note(r, f);
        throw;
      }
      for (const auto& f : ex.fallbacks()) note(r, f);
    } catch (const Unsupported& e) {
      r.status = "unsupported";
      r.message = e.what();
    } catch (const BackendError& e) {
      r.status = "errored";
      r.message = std::string("backend: ") + e.what();
    } catch (const Trap& e) {
      r.status = "errored";
      r.message = std::string("trap: ") + e.what();
    } catch (const std::exception& e) {
      r.status = "errored";
      r.message = std::string("error: ") + e.what();
    }
    return r;
  }

 private:
  static void note(TargetResult& r, const FallbackEvent& f) {
    std::string ops;
    for (const auto& op : f.ops) {
      ops += (ops.empty() ? "" : ",") + op;
      r.fallback_ops.push_back(op);
    }
    r.fallback_notes.push_back("step " + std::to_string(f.step) + " (" + ops + ") on " + f.backend + ": " + f.phase +
                               " failed (" + f.reason + "); ran on cpu");
  }
  template <class F>
  std::string joined(F part) const {
    std::string s;
    for (const auto& b : backends_) s += (s.empty() ? "" : "+") + part(*b);
    return s;
  }
  std::vector<std::shared_ptr<Backend>> backends_;
  bool allow_fallback_;
  bool by_profile_;
};

}  // namespace

std::unique_ptr<CertTarget> make_backend_target(const std::string& backend, bool allow_fallback) {
  return std::make_unique<BackendTarget>(std::vector<std::shared_ptr<Backend>>{make_backend(backend)}, allow_fallback, false);
}

std::unique_ptr<CertTarget> make_device_set_target(const std::vector<std::string>& devices,
                                                   const std::vector<std::string>& plugins, bool by_profile) {
  auto set = select_devices(discover_devices(plugins), devices);
  bool with_cpu = contains_cpu(set);
  return std::make_unique<BackendTarget>(std::move(set), with_cpu, by_profile);
}

}  // namespace sonnx
