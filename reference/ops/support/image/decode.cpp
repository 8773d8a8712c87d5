// Format recognition by signature, and the dimension limits every decoder applies.
#include <algorithm>
#include <cstring>

#include "image.h"

namespace sonnx::support::image {

void check_dimensions(int64_t width, int64_t height, const char* format) {
  if (width < 1 || height < 1)
    throw ImageError(std::string(format) + " header gives an empty image (" + std::to_string(width) + "x" +
                     std::to_string(height) + ")");
  if (width > kMaxSide || height > kMaxSide || width * height > kMaxPixels)
    throw ImageError(std::string(format) + " image of " + std::to_string(width) + "x" + std::to_string(height) +
                     " pixels exceeds the decoder's limit (" + std::to_string(kMaxSide) + " a side, " +
                     std::to_string(kMaxPixels) + " in all)");
}

Image make_image(int64_t width, int64_t height, int channels, const char* format) {
  check_dimensions(width, height, format);
  Image im;
  im.width = width;
  im.height = height;
  im.channels = channels;
  im.pixels.assign(static_cast<size_t>(width * height * channels), 0);
  return im;
}

namespace {
bool starts_with(std::span<const uint8_t> data, std::initializer_list<uint8_t> sig) {
  return data.size() >= sig.size() && std::equal(sig.begin(), sig.end(), data.begin());
}
bool is_space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
}  // namespace

Image decode(std::span<const uint8_t> data) {
  if (data.empty()) throw ImageError("the encoded stream is empty");
  if (starts_with(data, {0xFF, 0xD8, 0xFF})) return decode_jpeg(data);
  if (starts_with(data, {0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A})) return decode_png(data);
  if (starts_with(data, {'B', 'M'})) return decode_bmp(data);
  if (starts_with(data, {'I', 'I', 42, 0}) || starts_with(data, {'M', 'M', 0, 42}) || starts_with(data, {'I', 'I', 43, 0}) ||
      starts_with(data, {'M', 'M', 0, 43}))
    return decode_tiff(data);
  if (data.size() >= 12 && starts_with(data, {'R', 'I', 'F', 'F'}) && std::memcmp(data.data() + 8, "WEBP", 4) == 0)
    return decode_webp(data);
  if (starts_with(data, {0, 0, 0, 0x0C, 'j', 'P', ' ', ' ', 0x0D, 0x0A, 0x87, 0x0A}) ||
      starts_with(data, {0xFF, 0x4F, 0xFF, 0x51}))
    return decode_jpeg2000(data);
  if (data.size() >= 3 && data[0] == 'P' && data[1] >= '1' && data[1] <= '6' && is_space(data[2])) return decode_pnm(data);
  throw ImageError("the encoded stream is in no supported format (BMP, JPEG, JPEG 2000, TIFF, PNG, WebP, PNM)");
}

}  // namespace sonnx::support::image
