// A device's relative-performance figure (`sonnx devices`): a short calibration run times four
// probes (a 3x3 Conv, a MatMul, an Add and a Relu on float32 tensors of a few hundred KiB) on the
// device and on `cpu`; the figure is the geometric mean of cpu's time over the device's, over the
// probes the device runs (cpu = 1, higher is faster). Figures are cached per machine and device
// version (device_cache.h) and measured again with `recalibrate`.
#pragma once
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "backend.h"

namespace sonnx {

struct Calibration {
  std::optional<double> figure;  // none when the device runs no probe
  std::string note;              // why there is no figure, or which probes it skipped
  bool from_cache = false;
};

// One result per device, in order.
std::vector<Calibration> calibrate(const std::vector<std::shared_ptr<Backend>>& devices, bool recalibrate);

}  // namespace sonnx
