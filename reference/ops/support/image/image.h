// Decoding encoded images (ImageDecoder): a decoded image is 8-bit, row-major, channel-last, with
// one channel (gray) or three (R, G, B). Every decoder reads only the bytes it is given, checks the
// dimensions a header announces against the limits below before it allocates, and reports any
// failure (unknown format, truncated or corrupt data, absurd dimensions, a feature it does not
// decode) as an ImageError with a reason; the kernel turns that into a trap.
#pragma once
#include <cstdint>
#include <span>
#include <stdexcept>
#include <string>
#include <vector>

namespace sonnx::support::image {

struct ImageError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

struct Image {
  int64_t height = 0, width = 0;
  int channels = 0;             // 1 (gray) or 3 (RGB)
  std::vector<uint8_t> pixels;  // height * width * channels bytes
};

// The largest image decoded: 65535 pixels a side (JPEG's own limit) and 2^26 pixels in all
// (192 MiB as RGB). A header announcing more is refused before any pixel buffer is allocated.
inline constexpr int64_t kMaxSide = 65535;
inline constexpr int64_t kMaxPixels = int64_t{1} << 26;

// Throws unless 1 <= width, height <= kMaxSide and width * height <= kMaxPixels.
void check_dimensions(int64_t width, int64_t height, const char* format);
// An image of the given size with its pixel buffer allocated (zeroed); checks the dimensions.
Image make_image(int64_t width, int64_t height, int channels, const char* format);

enum class PixelFormat { RGB, BGR, Grayscale };

// Recognises the format by its signature and decodes.
Image decode(std::span<const uint8_t> data);
// The image in the requested layout: RGB, BGR (RGB's channels reversed) or Grayscale (one channel;
// a color pixel becomes (19595 R + 38470 G + 7471 B + 2^15) >> 16, the ITU-R 601-2 luma
// R*299/1000 + G*587/1000 + B*114/1000 in the fixed point and rounding of PIL's "L" conversion, which
// onnx's reference decodes with). A gray image asked for in color repeats its value in each channel.
Image convert(Image image, PixelFormat format);

// The decoders, one per format (each in its own file).
Image decode_bmp(std::span<const uint8_t> data);
Image decode_pnm(std::span<const uint8_t> data);
Image decode_jpeg(std::span<const uint8_t> data);
Image decode_png(std::span<const uint8_t> data);
Image decode_tiff(std::span<const uint8_t> data);
Image decode_webp(std::span<const uint8_t> data);
Image decode_jpeg2000(std::span<const uint8_t> data);

}  // namespace sonnx::support::image
