#include "scan.h"

#include <string>

namespace sonnx {

namespace {

// A list attribute with one entry per scan input or output, zeros when absent.
std::vector<int64_t> scan_list_attr(const AttrReader& r, const char* name, size_t count) {
  std::vector<int64_t> v = r.attr_ints(name, std::vector<int64_t>(count, 0));
  if (v.size() != count)
    r.fail(std::string("attribute ") + name + " has " + std::to_string(v.size()) + " entries, expected " +
           std::to_string(count));
  return v;
}

std::vector<bool> scan_directions_attr(const AttrReader& r, const char* name, size_t count) {
  std::vector<bool> reverse;
  for (int64_t d : scan_list_attr(r, name, count)) {
    if (d != 0 && d != 1) r.fail("direction " + std::to_string(d) + " is neither 0 (forward) nor 1 (reverse)");
    reverse.push_back(d == 1);
  }
  return reverse;
}

std::vector<int64_t> scan_axes_attr(const AttrReader& r, const char* name, size_t count, int64_t version) {
  std::vector<int64_t> axes = scan_list_attr(r, name, count);
  for (int64_t a : axes)
    if (a < 0 && version < 11) r.fail(std::string("negative ") + name + " need version 11");
  return axes;
}

}  // namespace

ScanParams ScanParams::read(const AttrReader& r, int64_t version) {
  ScanParams p;
  p.body = &r.required_graph("body");
  int64_t m = r.attr_int("num_scan_inputs", -1);
  if (m < 1) r.fail("num_scan_inputs must be at least 1");
  p.num_scan_inputs = static_cast<size_t>(m);
  const size_t body_in = p.body->inputs.size(), body_out = p.body->outputs.size();
  if (body_in < p.num_scan_inputs)
    r.fail("body has " + std::to_string(body_in) + " inputs, fewer than num_scan_inputs (" + std::to_string(m) + ")");
  p.num_state = body_in - p.num_scan_inputs;
  if (body_out < p.num_state)
    r.fail("body has " + std::to_string(body_out) + " outputs, fewer than the " + std::to_string(p.num_state) +
           " state variables");
  p.num_scan_outputs = body_out - p.num_state;
  if (version < 9) {
    p.input_axes.assign(p.num_scan_inputs, 0);
    p.input_reverse = scan_directions_attr(r, "directions", p.num_scan_inputs);
    p.output_axes.assign(p.num_scan_outputs, 0);
    p.output_reverse.assign(p.num_scan_outputs, false);
  } else {
    p.input_axes = scan_axes_attr(r, "scan_input_axes", p.num_scan_inputs, version);
    p.input_reverse = scan_directions_attr(r, "scan_input_directions", p.num_scan_inputs);
    p.output_axes = scan_axes_attr(r, "scan_output_axes", p.num_scan_outputs, version);
    p.output_reverse = scan_directions_attr(r, "scan_output_directions", p.num_scan_outputs);
  }
  return p;
}

}  // namespace sonnx
