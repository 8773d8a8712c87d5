// A backend certified in process: the model is partitioned over [backend] (+ cpu fallback) and run
// by the PartitionedExecutor; what ran on the fallback, and why, is part of the result.
#include "optimized/backends/partitioned_executor.h"
#include "sonnx/errors.h"
#include "target.h"

namespace sonnx {

namespace {

class BackendTarget : public CertTarget {
 public:
  BackendTarget(std::shared_ptr<Backend> b, bool allow_fallback) : backend_(std::move(b)), allow_fallback_(allow_fallback) {}
  std::string name() const override { return backend_->name(); }
  std::string version() const override { return backend_->version(); }
  bool enforces_timeout() const override { return false; }
  bool runs_in_process() const override { return true; }

  TargetResult run(const Model& model, const TestCase&, const std::filesystem::path&, const NamedValues& inputs) override {
    TargetResult r;
    try {
      PartitionOptions po;
      po.allow_fallback = allow_fallback_;
      PartitionedExecutor ex(partition(model, {backend_}, po));
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
  std::shared_ptr<Backend> backend_;
  bool allow_fallback_;
};

}  // namespace

std::unique_ptr<CertTarget> make_backend_target(const std::string& backend, bool allow_fallback) {
  return std::make_unique<BackendTarget>(make_backend(backend), allow_fallback);
}

}  // namespace sonnx
