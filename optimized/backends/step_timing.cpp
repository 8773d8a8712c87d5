#include "step_timing.h"

#include <algorithm>
#include <chrono>
#include <vector>

namespace sonnx {

Model typed_step(const Model& step, const NamedValues& inputs) {
  Model m = step;
  for (auto& vi : m.graph.inputs) {
    auto it = inputs.find(vi.name);
    if (it == inputs.end() || !it->second.is_tensor()) continue;
    if (vi.type.kind == TypeInfo::Kind::Unknown || vi.type.elem == DType::Undefined) {
      vi.type.kind = TypeInfo::Kind::Tensor;
      vi.type.elem = it->second.tensor.dtype();
      vi.type.shape.reset();
    }
  }
  return m;
}

StepTiming time_step(const Backend& backend, const Model& step, const NamedValues& inputs) {
  StepTiming t;
  try {
    auto compiled = backend.prepare(typed_step(step, inputs));
    NamedValues out = compiled->execute(inputs);
    for (const auto& vi : step.graph.outputs)
      if (!out.count(vi.name)) throw BackendError("output '" + vi.name + "' was not produced");
    std::vector<double> ms;
    double total = 0;
    while (ms.size() < 25 && (ms.size() < 3 || total < 2.0)) {
      auto t0 = std::chrono::steady_clock::now();
      compiled->execute(inputs);
      ms.push_back(std::chrono::duration<double, std::milli>(std::chrono::steady_clock::now() - t0).count());
      total += ms.back();
    }
    std::nth_element(ms.begin(), ms.begin() + static_cast<long>(ms.size() / 2), ms.end());
    t.ms = ms[ms.size() / 2];
  } catch (const std::exception& e) {
    t.error = e.what();
  }
  return t;
}

}  // namespace sonnx
