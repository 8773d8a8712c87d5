// Timing one step (a small model) on one backend, for device calibration and node profiling: the
// step is prepared for the given inputs' element types, run once untimed, then run until at least
// 3 runs and 2 ms have passed (at most 25 runs); the median run counts.
#pragma once
#include <string>

#include "backend.h"

namespace sonnx {

struct StepTiming {
  double ms = 0;
  std::string error;  // why the backend could not prepare or run it ("" when timed)
};

StepTiming time_step(const Backend& backend, const Model& step, const NamedValues& inputs);

// The step's model with undeclared input element types taken from the values (as the partitioned
// executor prepares steps).
Model typed_step(const Model& step, const NamedValues& inputs);

}  // namespace sonnx
