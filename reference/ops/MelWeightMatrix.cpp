// MelWeightMatrix (version 17): a [dft_length/2 + 1, num_mel_bins] matrix of triangular filters
// that maps a one-sided linear spectrum to the mel scale, mel(f) = 2595 * log10(1 + f/700).
// As in onnx 1.12's definition (its node test), num_mel_bins + 2 edge points are spaced evenly
// in mel from lower_edge_hertz, the step being (mel(upper) - mel(lower)) / (num_mel_bins + 2),
// and each point is mapped to the spectrogram bin floor((dft_length + 1) * hz / sample_rate).
// Filter i rises from point i to point i+1 (value (j - left) / (center - left), 1 at the center,
// or just 1 at the center when left == center) and falls to 0 at point i+2 ((right - j) /
// (right - center) for center <= j < right; support::mel_triangles). Computed in double, then cast
// to output_datatype. The enclosure (enclose/enclose_melweight.cpp) follows the same steps.
#include <cmath>

#include "op_params.h"
#include "params/window_function.h"
#include "support/shape.h"
#include "support/spectral.h"

namespace sonnx {
using namespace support;
namespace {
std::vector<Value> mel_weight_matrix(OpContext& ctx) {
  const MelWeightMatrixParams p = MelWeightMatrixParams::read(ctx, ctx.version());
  auto int_input = [&](size_t i, const char* name) {
    const Tensor& t = ctx.input(i);
    if (t.dtype() != DType::Int32 && t.dtype() != DType::Int64) ctx.fail(std::string(name) + " must be int32 or int64");
    if (t.size() != 1) ctx.fail(std::string(name) + " must be a scalar");
    return t.as_int64(0);
  };
  auto float_input = [&](size_t i, const char* name) {
    const Tensor& t = ctx.input(i);
    if (!is_float(t.dtype())) ctx.fail(std::string(name) + " must be a floating-point tensor");
    if (t.size() != 1) ctx.fail(std::string(name) + " must be a scalar");
    return t.as_double(0);
  };
  const int64_t num_mel_bins = int_input(0, "num_mel_bins");
  const int64_t dft_length = int_input(1, "dft_length");
  const int64_t sample_rate = int_input(2, "sample_rate");
  const double lower = float_input(3, "lower_edge_hertz");
  const double upper = float_input(4, "upper_edge_hertz");
  if (num_mel_bins < 0) ctx.fail("num_mel_bins must not be negative");
  if (dft_length < 1) ctx.fail("dft_length must be positive");
  if (sample_rate < 1) ctx.fail("sample_rate must be positive");
  if (!(lower >= 0 && lower <= upper)) ctx.fail("the edges must satisfy 0 <= lower_edge_hertz <= upper_edge_hertz");

  const int64_t spectrogram_bins = dft_length / 2 + 1;
  const int64_t points = num_mel_bins + 2;
  auto mel = [](double hz) { return 2595.0 * std::log10(1.0 + hz / 700.0); };
  const double low_mel = mel(lower);
  const double step = (mel(upper) - low_mel) / static_cast<double>(points);
  std::vector<int64_t> bin(static_cast<size_t>(points));
  for (int64_t p = 0; p < points; ++p) {
    const double hz = 700.0 * (std::pow(10.0, (static_cast<double>(p) * step + low_mel) / 2595.0) - 1.0);
    const double b = std::floor(static_cast<double>(dft_length + 1) * hz / static_cast<double>(sample_rate));
    bin[static_cast<size_t>(p)] = mel_edge_bin(ctx, b, hz, spectrogram_bins);
  }

  Tensor w(DType::Double, {spectrogram_bins, num_mel_bins});
  double* o = w.data<double>();
  mel_triangles(bin, num_mel_bins, [&](int64_t j, int64_t i, int64_t num, int64_t den) {
    o[j * num_mel_bins + i] = static_cast<double>(num) / static_cast<double>(den);
  });
  return one(cast_tensor(ctx, w, p.output_datatype));
}
}  // namespace
SONNX_PARAMS("", "MelWeightMatrix", (17), MelWeightMatrixParams);
SONNX_KERNEL("", "MelWeightMatrix", 17, mel_weight_matrix, Accuracy::Rounding);
namespace {
// [dft_length / 2 + 1, num_mel_bins] of output_datatype (float by default).
void mel_weight_matrix_shape(InferContext& ctx) {
  const MelWeightMatrixParams p = MelWeightMatrixParams::read(ctx, ctx.version());
  Dim bins, rows;
  if (auto v = ctx.input_ints(0); v && v->size() == 1) bins = size_dim(ctx, (*v)[0], "num_mel_bins");
  if (auto v = ctx.input_ints(1); v && v->size() == 1) rows = size_dim(ctx, (*v)[0] / 2 + 1, "dft_length");
  ctx.set_output(0, p.output_datatype, Dims{rows, bins});
}
}  // namespace
SONNX_SHAPE_RULE("", "MelWeightMatrix", (17), mel_weight_matrix_shape);
}  // namespace sonnx
