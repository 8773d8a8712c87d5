// The parameters of Scan (reference/ops/op_params.h), read by its reference kernel, its shape rule
// and its enclosure (enclose/enclose_control.cpp).
#pragma once
#include <cstddef>
#include <cstdint>
#include <vector>

#include "reference/model/attr_reader.h"

namespace sonnx {

// Scan's parameters, checked against the body's signature (N state variables, M scan inputs, K
// scan outputs: N + M body inputs, N + K body outputs). Whether the node's inputs match the body,
// and whether an axis lies within its tensor's rank, the kernel and the shape rule check.
struct ScanParams {
  const Graph* body = nullptr;  // the node owns it
  size_t num_scan_inputs = 0;   // M >= 1
  size_t num_state = 0;         // N: the body's inputs before the scan inputs
  size_t num_scan_outputs = 0;  // K: the body's outputs after the state variables
  // Per scan input (M entries): the scanned axis (possibly negative from version 11; version 8: 0,
  // the sequence axis once the batch axis is taken off) and whether it is scanned in reverse
  // (version 8: `directions`).
  std::vector<int64_t> input_axes;
  std::vector<bool> input_reverse;
  // Per scan output (K entries): the axis its elements stack on and whether each new element is
  // prepended (version 8: 0 and false, after the batch axis).
  std::vector<int64_t> output_axes;
  std::vector<bool> output_reverse;

  static ScanParams read(const AttrReader& r, int64_t version);
};

}  // namespace sonnx
