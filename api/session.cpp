// The C++ API's sessions (include/sonnx/sonnx.hpp): one compiled model, one executor instance
// per concurrent run, kept for the next run.
#include <algorithm>
#include <mutex>

#include "optimized/backends/assign.h"
#include "optimized/backends/devices.h"
#include "optimized/backends/partitioned_executor.h"
#include "optimized/exec/make_executor.h"
#include "reference/check/prepare.h"
#include "reference/model/loader.h"
#include "reference/model/synthetic_inputs.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

struct Session::Impl {
  explicit Impl(SessionOptions o) : options(std::move(o)) {}
  SessionOptions options;
  ExecutorOptions executor_options;
  Model ir;                                          // checked, types inferred (the reference runs it)
  std::vector<ValueInfo> inputs;                     // the graph's inputs as declared
  std::shared_ptr<const CompiledModel> compiled;     // the optimized executors share it
  std::shared_ptr<const ExecutionPlan> device_plan;  // with SessionOptions::devices
  std::mutex mutex;
  std::vector<std::unique_ptr<Executor>> idle;

  std::unique_ptr<Executor> make_instance() {
    if (device_plan) return std::make_unique<DeviceSetExecutor>(*device_plan);
    if (!compiled) return make_executor(ir, "reference", executor_options);
    return make_optimized_executor(compiled, options.executor, executor_options);
  }
};

std::vector<std::string> executors() { return executor_names(); }
std::vector<std::string> optimized_executors() { return optimized_executor_names(); }

Session::Session(const ModelHandle& model, SessionOptions options) : impl_(std::make_unique<Impl>(std::move(options))) {
  Impl& s = *impl_;
  const auto& names = executor_names();
  if (std::find(names.begin(), names.end(), s.options.executor) == names.end())
    throw LoadError("unknown executor '" + s.options.executor + "' (reference, linear, dataflow, parallel)");
  if (s.options.threads < 1 || s.options.threads > 256)
    throw LoadError("threads must be 1 to 256, not " + std::to_string(s.options.threads));
  s.ir = prepared_ir(model.impl(), PrepareOptions::with_profile(s.options.check, s.options.profile), model.name());
  s.inputs = s.ir.graph.inputs;
  s.executor_options.threads = s.options.threads;
  s.executor_options.seed = s.options.seed;
  s.executor_options.verify_arena_run = s.options.verify_arena_run;
  if (!s.options.devices.empty()) {
    if (s.options.assign != "first" && s.options.assign != "profile")
      throw LoadError("assign is first or profile, not '" + s.options.assign + "'");
    auto set = select_devices(discover_devices(s.options.plugins), s.options.devices);
    const bool by_profile = s.options.assign == "profile";
    NamedValues synthetic;  // the profiling run's inputs
    if (by_profile) add_synthetic_inputs(s.ir, {}, synthetic);
    s.device_plan = std::make_shared<const ExecutionPlan>(plan_for_device_set(s.ir, set, by_profile, synthetic));
    s.idle.push_back(s.make_instance());
  } else if (s.options.executor == "reference") {
    s.idle.push_back(make_executor(s.ir, "reference", s.executor_options));
  } else {
    // Moved in: the compiled model holds what the optimized executors need.
    auto first = make_optimized_executor(std::move(s.ir), s.options.executor, s.executor_options);
    s.compiled = first->compiled();
    s.idle.push_back(std::move(first));
  }
}

Session::~Session() = default;
Session::Session(Session&&) noexcept = default;
Session& Session::operator=(Session&&) noexcept = default;

namespace {

// A given tensor must have the declared rank and every declared dimension (the executors check the
// element type; the declared shape is the model's contract with its caller too).
void check_declared_shapes(const std::vector<ValueInfo>& declared, const NamedValues& given) {
  for (const auto& in : declared) {
    auto it = given.find(in.name);
    if (it == given.end() || !it->second.is_tensor() || in.type.kind != TypeInfo::Kind::Tensor || !in.type.shape) continue;
    const Shape& shape = it->second.tensor.shape();
    const auto& dims = *in.type.shape;
    bool ok = dims.size() == shape.size();
    for (size_t i = 0; ok && i < dims.size(); ++i) ok = !dims[i].value || *dims[i].value == shape[i];
    if (!ok)
      throw Trap("graph input '" + in.name + "' is given with shape " + shape_str(shape) + " but declared " + in.type.str());
  }
}

}  // namespace

namespace {

// An executor taken from the session's pool for one run, and given back after it (an executor may
// run again after a Trap, Executor::run, so it goes back either way).
template <class Impl>
class Lease {
 public:
  explicit Lease(Impl& s) : s_(s) {
    {
      std::lock_guard lock(s_.mutex);
      if (!s_.idle.empty()) {
        exec_ = std::move(s_.idle.back());
        s_.idle.pop_back();
      }
    }
    if (!exec_) exec_ = s_.make_instance();
  }
  ~Lease() {
    std::lock_guard lock(s_.mutex);
    s_.idle.push_back(std::move(exec_));
  }
  Lease(const Lease&) = delete;
  Lease& operator=(const Lease&) = delete;
  Executor& operator*() const { return *exec_; }

 private:
  Impl& s_;
  std::unique_ptr<Executor> exec_;
};

}  // namespace

NamedValues Session::run(const NamedValues& inputs) const {
  check_declared_shapes(impl_->inputs, inputs);
  Lease exec(*impl_);
  return (*exec).run(inputs);
}

// As run, on an executor from the same pool; everything that goes wrong ends up in the future.
std::future<NamedValues> Session::run_async(NamedValues inputs, TaskLauncher launcher) const {
  std::promise<NamedValues> result;
  std::future<NamedValues> future = result.get_future();
  try {
    if (!launcher) throw LoadError("run_async needs a task launcher");
    check_declared_shapes(impl_->inputs, inputs);
    Lease exec(*impl_);
    result.set_value((*exec).run_launched(inputs, launcher));
  } catch (...) {
    result.set_exception(std::current_exception());
  }
  return future;
}

const SessionOptions& Session::options() const { return impl_->options; }

NamedValues run(const ModelHandle& model, const NamedValues& inputs, const SessionOptions& options) {
  return Session(model, options).run(inputs);
}

}  // namespace sonnx
