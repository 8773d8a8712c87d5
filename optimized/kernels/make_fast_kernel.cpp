// Picks the fast kernel for a node: the one of its group's pattern, else the one its operator
// version's record holds; null when none applies.
#include <dnnl.hpp>

#include "fast_kernel.h"
#include "onednn_common.h"
#include "reference/catalogue/catalogue.h"

namespace sonnx {

namespace {
// The groups of nodes optimized/plan/fusion*.cpp computes as one, and the kernels that prepare them.
struct Pattern {
  const char* name;
  FastKernelFactory make;
  bool takes_fused;  // also a fused activation after the group
};
constexpr Pattern kPatterns[] = {
    {"LayerNorm", fast::make_decomposed_layer_norm_kernel, false},
    {"Attention", fast::make_attention_kernel, false},
    {"MatMulBias", fast::make_matmul_kernel, true},
};

FastKernelFactory factory_for(const FastKernelRequest& request) {
  const Node& n = *request.node;
  const bool fused = request.fused_sum || !request.fused_activation.empty();
  if (!request.fused_pattern.empty()) {
    for (const Pattern& p : kPatterns)
      if (request.fused_pattern == p.name) return !fused || p.takes_fused ? p.make : nullptr;
    return nullptr;
  }
  // The record of the version in force at request.version (the same version when it is one
  // already, as the compiler gives it; tests may give an opset).
  const catalogue::Schema* schema = catalogue::find(n.domain, n.op_type, request.version);
  const OpRecord* r = schema ? OpRecords::instance().find(n.domain, n.op_type, schema->version) : nullptr;
  if (!r || !r->fast_kernel || (fused && !r->fast_kernel->takes_fused)) return nullptr;
  return r->fast_kernel->make;
}
}  // namespace

std::unique_ptr<FastKernel> make_fast_kernel(const FastKernelRequest& request) {
  if (!request.node || canonical_domain(request.node->domain) != "") return nullptr;
  FastKernelFactory make = factory_for(request);
  if (!make) return nullptr;
  try {
    return make(request);
  } catch (const dnnl::error&) {
    return nullptr;  // oneDNN has no implementation for this configuration
  }
}

}  // namespace sonnx

namespace sonnx {

int64_t FastKernel::output_bytes(const std::vector<const Tensor*>& inputs, const std::vector<Layout>&, size_t k) const {
  return shape_size(output_shapes(inputs).at(k)) * static_cast<int64_t>(sizeof(float));
}

Tensor FastKernel::plain_input(size_t k) const { throw InternalError(name() + " holds no input " + std::to_string(k)); }

void FastKernel::run_with_layouts(const std::vector<const Tensor*>& inputs, const std::vector<Layout>&,
                                  const std::vector<Tensor*>& outputs, std::vector<Layout>& out_layouts) const {
  run(inputs, outputs);
  out_layouts.assign(outputs.size(), nullptr);
}

}  // namespace sonnx
