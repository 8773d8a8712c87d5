// ImageDecoder (version 20): decodes the encoded image in the uint8 tensor `encoded_stream` (BMP,
// JPEG, JPEG 2000, TIFF, PNG, WebP or PNM, recognised by signature; support/image/) into a uint8
// tensor of shape [height, width, channels], channel last: 3 channels for pixel_format "RGB" or
// "BGR", 1 for "Grayscale" (PIL's "L" conversion; see support/image/image.h).
// The spec says an undecodable stream gives "an empty matrix" without saying its shape; onnx's
// reference (PIL) raises instead. sonnx traps, naming the reason (unknown format, truncated or
// corrupt data, dimensions beyond the decoder's limits), so a bad image is never mistaken for a
// decoded one.
#include <span>

#include "op_params.h"
#include "support/image/image.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {

struct ImageDecoderParams {
  image::PixelFormat format = image::PixelFormat::RGB;  // pixel_format "RGB", "BGR" or "Grayscale" (checked)
  static ImageDecoderParams read(const AttrReader& r, int64_t /*version*/) {
    std::string name = r.attr_string("pixel_format", "RGB");
    if (name == "RGB") return {image::PixelFormat::RGB};
    if (name == "BGR") return {image::PixelFormat::BGR};
    if (name != "Grayscale") r.fail("pixel_format '" + name + "' is not one of RGB, BGR, Grayscale");
    return {image::PixelFormat::Grayscale};
  }
};

std::vector<Value> image_decoder(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  require_type(ctx, x, DType::UInt8, "encoded_stream");
  if (x.shape().size() != 1) ctx.fail("encoded_stream must be 1-D, got rank " + std::to_string(x.shape().size()));
  const image::PixelFormat format = ImageDecoderParams::read(ctx, ctx.version()).format;
  image::Image decoded;
  try {
    std::span<const uint8_t> bytes(x.size() > 0 ? x.data<uint8_t>() : nullptr, static_cast<size_t>(x.size()));
    decoded = image::convert(image::decode(bytes), format);
  } catch (const image::ImageError& e) {
    ctx.fail(std::string("cannot decode the image: ") + e.what());
  }
  Tensor y(DType::UInt8, Shape{decoded.height, decoded.width, decoded.channels});
  std::copy(decoded.pixels.begin(), decoded.pixels.end(), y.data<uint8_t>());
  return one(std::move(y));
}

// [height, width, channels]: the size depends on the data; channels on pixel_format.
void image_decoder_shape(InferContext& ctx) {
  bool gray = ImageDecoderParams::read(ctx, ctx.version()).format == image::PixelFormat::Grayscale;
  ctx.set_output(0, DType::UInt8, Dims{Dim{}, Dim{}, known_dim(gray ? 1 : 3)});
}
}  // namespace
SONNX_PARAMS("", "ImageDecoder", (20), ImageDecoderParams);
SONNX_KERNEL("", "ImageDecoder", 20, image_decoder, Accuracy::Exact);
SONNX_SHAPE_RULE("", "ImageDecoder", (20), image_decoder_shape);
}  // namespace sonnx
