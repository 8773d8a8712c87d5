// Picks the fast kernel for a node by operator; null when none applies.
#include "fast_kernel.h"
#include "onednn_common.h"

namespace sonnx {

std::unique_ptr<FastKernel> make_fast_kernel(const FastKernelRequest& request) {
  if (!request.node) return nullptr;
  const Node& n = *request.node;
  if (canonical_domain(n.domain) != "") return nullptr;
  // Besides the patterns, fusion is only defined for convolutions.
  bool fused = request.fused_sum || !request.fused_activation.empty();
  if (request.fused_pattern == "LayerNorm") return fused ? nullptr : fast::make_decomposed_layer_norm_kernel(request);
  if (request.fused_pattern == "Attention") return fused ? nullptr : fast::make_attention_kernel(request);
  if (!request.fused_pattern.empty() && request.fused_pattern != "MatMulBias") return nullptr;
  try {
    if (request.fused_pattern == "MatMulBias") return fast::make_matmul_kernel(request);
    if (n.op_type == "Conv") return fast::make_conv_kernel(request);
    if (fused) return nullptr;
    if (n.op_type == "ConvTranspose") return fast::make_conv_transpose_kernel(request);
    if (n.op_type == "Gemm") return fast::make_gemm_kernel(request);
    if (n.op_type == "MatMul") return fast::make_matmul_kernel(request);
    if (n.op_type == "MaxPool") return fast::make_max_pool_kernel(request);
    if (n.op_type == "AveragePool") return fast::make_average_pool_kernel(request);
    if (n.op_type == "GlobalAveragePool") return fast::make_global_average_pool_kernel(request);
    if (n.op_type == "BatchNormalization") return fast::make_batch_norm_kernel(request);
    if (n.op_type == "Add" || n.op_type == "Sub" || n.op_type == "Mul" || n.op_type == "Div")
      return fast::make_binary_kernel(request);
    if (n.op_type == "Softmax" || n.op_type == "LogSoftmax") return fast::make_softmax_kernel(request);
    if (n.op_type == "ReduceSum" || n.op_type == "ReduceMean" || n.op_type == "ReduceMax")
      return fast::make_reduce_kernel(request);
    if (n.op_type == "LayerNormalization") return fast::make_layer_norm_kernel(request);
    if (n.op_type == "InstanceNormalization") return fast::make_instance_norm_kernel(request);
    if (n.op_type == "GroupNormalization") return fast::make_group_norm_kernel(request);
    if (n.op_type == "Resize") return fast::make_resize_kernel(request);
    if (n.op_type == "Split") return fast::make_split_kernel(request);
    if (n.op_type == "Pad") return fast::make_pad_kernel(request);
    if (n.op_type == "Where") return fast::make_where_kernel(request);
    if (auto k = fast::make_movement_kernel(request)) return k;
    return fast::make_unary_kernel(request);  // null for anything it does not know
  } catch (const dnnl::error&) {
    return nullptr;  // oneDNN has no implementation for this configuration
  }
  return nullptr;
}

}  // namespace sonnx

namespace sonnx {

int64_t FastKernel::output_bytes(const std::vector<const Tensor*>& inputs, const std::vector<Layout>&, size_t k) const {
  return shape_size(output_shapes(inputs).at(k)) * static_cast<int64_t>(sizeof(float));
}

Tensor FastKernel::plain_input(size_t k) const {
  throw InternalError(name() + " holds no input " + std::to_string(k));
}

void FastKernel::run_with_layouts(const std::vector<const Tensor*>& inputs, const std::vector<Layout>&,
                                  const std::vector<Tensor*>& outputs, std::vector<Layout>& out_layouts) const {
  run(inputs, outputs);
  out_layouts.assign(outputs.size(), nullptr);
}

}  // namespace sonnx
