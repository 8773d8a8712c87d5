// The decoded image in the layout ImageDecoder's pixel_format asks for.
#include "image.h"

namespace sonnx::support::image {

namespace {
// PIL's RGB -> L: ITU-R 601-2 luma in 16-bit fixed point, rounded to nearest.
uint8_t luma(uint8_t r, uint8_t g, uint8_t b) {
  return static_cast<uint8_t>((19595u * r + 38470u * g + 7471u * b + 0x8000u) >> 16);
}
}  // namespace

Image convert(Image image, PixelFormat format) {
  const size_t n = static_cast<size_t>(image.width * image.height);
  const std::vector<uint8_t>& in = image.pixels;
  if (format == PixelFormat::Grayscale) {
    if (image.channels == 1) return image;
    Image out{image.height, image.width, 1, std::vector<uint8_t>(n)};
    for (size_t i = 0; i < n; ++i) out.pixels[i] = luma(in[3 * i], in[3 * i + 1], in[3 * i + 2]);
    return out;
  }
  if (image.channels == 1) {
    Image out{image.height, image.width, 3, std::vector<uint8_t>(3 * n)};
    for (size_t i = 0; i < n; ++i) out.pixels[3 * i] = out.pixels[3 * i + 1] = out.pixels[3 * i + 2] = in[i];
    image = std::move(out);
  }
  if (format == PixelFormat::BGR)
    for (size_t i = 0; i < n; ++i) std::swap(image.pixels[3 * i], image.pixels[3 * i + 2]);
  return image;
}

}  // namespace sonnx::support::image
