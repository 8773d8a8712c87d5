// CausalConvWithState (version 27): stateful causal depthwise 1-D convolution.
// input (batch, channels, length), weight (channels, 1, k), optional bias (channels) and
// past_state (batch, channels, k - 1; zeros when omitted). With the padded sequence
// P = past_state followed by input along the last axis (length k - 1 + length):
//   conv[b, c, t] = bias[c] + sum_{j < k} weight[c, 0, j] * P[b, c, t + j]
//   output = conv, or conv * sigmoid(conv) for activation 'silu' (alias 'swish')
//   present_state = the last k - 1 positions of P (so a sequence run in chunks, each chunk's
//   present_state passed as the next one's past_state, gives the outputs of one whole run).
// The schema's function body computes the convolution in T and the activation from that
// T-rounded result (upcast to float); so does this kernel: the sum in double rounded once to T,
// then the activation in double rounded once more.
#include <cmath>

#include "op_params.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct CausalConvWithStateParams {
  bool silu = false;  // activation 'silu' or its alias 'swish'; 'none' (the default) otherwise
  static CausalConvWithStateParams read(const AttrReader& r, int64_t /*version*/) {
    std::string a = r.attr_string("activation", "none");
    if (a != "none" && a != "silu" && a != "swish") r.fail("activation must be 'none', 'silu' or 'swish', got '" + a + "'");
    return {a != "none"};
  }
};

std::vector<Value> causal_conv_with_state(OpContext& ctx) {
  bool silu = CausalConvWithStateParams::read(ctx, ctx.version()).silu;
  const Tensor& x = ctx.input(0);
  const Tensor& w = ctx.input(1);
  require_same_type(ctx, x, w);
  if (x.rank() != 3) ctx.fail("input must be 3-D (batch, channels, length), got shape " + shape_str(x.shape()));
  int64_t batch = x.dim(0), channels = x.dim(1), length = x.dim(2);
  if (w.rank() != 3 || w.dim(0) != channels || w.dim(1) != 1 || w.dim(2) < 1)
    ctx.fail("weight must have shape (channels, 1, k) with channels " + std::to_string(channels) + " and k >= 1, got " +
             shape_str(w.shape()));
  int64_t k = w.dim(2), carry = k - 1;
  std::vector<double> xv = float_values(ctx, x), wv = float_values(ctx, w);
  std::vector<double> bias(static_cast<size_t>(channels), 0.0);
  if (ctx.has_input(2)) {
    const Tensor& b = ctx.input(2);
    require_same_type(ctx, x, b);
    if (b.shape() != Shape{channels}) ctx.fail("bias must have shape (channels) = (" + std::to_string(channels) + ")");
    bias = float_values(ctx, b);
  }
  Shape state_shape{batch, channels, carry};
  std::vector<double> past(static_cast<size_t>(batch * channels * carry), 0.0);
  if (ctx.has_input(3)) {
    const Tensor& p = ctx.input(3);
    require_same_type(ctx, x, p);
    if (p.shape() != state_shape)
      ctx.fail("past_state must have shape (batch, channels, k - 1) = " + shape_str(state_shape) + ", got " +
               shape_str(p.shape()));
    past = float_values(ctx, p);
  }
  int64_t padded_len = carry + length;
  std::vector<double> conv(xv.size()), present(past.size());
  std::vector<double> padded(static_cast<size_t>(padded_len));
  for (int64_t b = 0; b < batch; ++b)
    for (int64_t c = 0; c < channels; ++c) {
      int64_t row = b * channels + c;
      for (int64_t t = 0; t < padded_len; ++t)
        padded[static_cast<size_t>(t)] = t < carry ? past[static_cast<size_t>(row * carry + t)]
                                                   : xv[static_cast<size_t>(row * length + t - carry)];
      for (int64_t t = 0; t < length; ++t) {
        double s = bias[static_cast<size_t>(c)];
        for (int64_t j = 0; j < k; ++j) s += wv[static_cast<size_t>(c * k + j)] * padded[static_cast<size_t>(t + j)];
        conv[static_cast<size_t>(row * length + t)] = s;
      }
      for (int64_t t = 0; t < carry; ++t)
        present[static_cast<size_t>(row * carry + t)] = padded[static_cast<size_t>(length + t)];
    }
  Tensor out = float_tensor(ctx, x.dtype(), x.shape(), conv);
  if (silu) {
    std::vector<double> y = float_values(ctx, out);  // the T-rounded convolution
    for (double& v : y) v = v / (1.0 + std::exp(-v));
    out = float_tensor(ctx, x.dtype(), x.shape(), y);
  }
  std::vector<Value> result;
  result.emplace_back(std::move(out));
  result.emplace_back(float_tensor(ctx, x.dtype(), state_shape, present));
  return result;
}
}  // namespace
SONNX_PARAMS("", "CausalConvWithState", (27), CausalConvWithStateParams);
SONNX_KERNEL("", "CausalConvWithState", 27, causal_conv_with_state, Accuracy::Rounding);
namespace {
// output: input's type and shape; present_state: (batch, channels, k - 1), k = weight dim 2.
void causal_conv_with_state_shape(InferContext& ctx) {
  DType t = common_elem(ctx, {0, 1, 2, 3});
  require_rank(ctx, 0, 3, "input");
  require_rank(ctx, 1, 3, "weight");
  const Dims* x = ctx.input_shape(0);
  const Dims* w = ctx.input_shape(1);
  ctx.set_output(0, t, x ? std::optional<Dims>(*x) : std::nullopt);
  if (!ctx.has_output(1)) return;
  Dim carry;
  if (w && (*w)[2].value) {
    if (*(*w)[2].value < 1) ctx.fail("weight's kernel size (dim 2) must be at least 1");
    carry = known_dim(*(*w)[2].value - 1);
  }
  Dim channels = x ? (*x)[1] : Dim{};
  if (w) channels = unify_dim(ctx, channels, (*w)[0], "channels (input dim 1, weight dim 0)");
  ctx.set_output(1, t, Dims{x ? (*x)[0] : Dim{}, channels, carry});
}
}  // namespace
SONNX_SHAPE_RULE("", "CausalConvWithState", (27), causal_conv_with_state_shape);
}  // namespace sonnx
