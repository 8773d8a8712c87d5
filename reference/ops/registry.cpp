#include "registry.h"

#include <algorithm>

namespace sonnx {

void OpContext::fail(const std::string& message) const {
  throw Trap(node_.label() + " version " + std::to_string(version_) + ": " + message);
}

const Value& OpContext::value(size_t i) const {
  if (!has_input(i)) fail("input " + std::to_string(i) + " is required but missing");
  return *inputs_[i];
}

const Tensor& OpContext::input(size_t i) const {
  const Value& v = value(i);
  if (!v.is_tensor()) fail("input " + std::to_string(i) + " must be a tensor");
  return v.tensor;
}

std::vector<Value> OpContext::run_subgraph(const Graph& g, const std::vector<Value>& inputs) const {
  if (!runner_) fail("this executor cannot run subgraphs");
  return runner_(g, inputs);
}

std::mt19937_64& OpContext::rng() const {
  if (!rng_) fail("no random number generator available");
  return *rng_;
}

}  // namespace sonnx
