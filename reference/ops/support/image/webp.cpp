// WebP through libwebp: lossy (VP8, with libwebp's default "fancy" chroma upsampling, as PIL
// decodes) and lossless (VP8L) still images; alpha is dropped. Animated WebP is refused.
#include <webp/decode.h>

#include "image.h"

namespace sonnx::support::image {

Image decode_webp(std::span<const uint8_t> data) {
  WebPBitstreamFeatures features;
  if (WebPGetFeatures(data.data(), data.size(), &features) != VP8_STATUS_OK)
    throw ImageError("WebP data is corrupt: cannot read the header");
  if (features.has_animation) throw ImageError("animated WebP images are not supported");
  check_dimensions(features.width, features.height, "WebP");
  Image im = make_image(features.width, features.height, 3, "WebP");
  const int stride = features.width * 3;
  if (!WebPDecodeRGBInto(data.data(), data.size(), im.pixels.data(), im.pixels.size(), stride))
    throw ImageError("WebP data is corrupt: cannot decode the image");
  return im;
}

}  // namespace sonnx::support::image
