// BMP (Windows bitmap), parsed here: the OS/2 core header (12 bytes) and the Windows info headers
// (40 bytes and the longer V2-V5 forms); 1, 4 and 8 bits per pixel through a palette, 16 and 32
// bits through channel masks (BI_BITFIELDS, or the defaults 5-5-5 and 8-8-8), 24 bits as B, G, R.
// Rows are bottom-up unless the height is negative. Run-length compressed bitmaps are refused.
// A channel of k < 8 bits scales to 8 as value * 255 / (2^k - 1), truncated (as PIL unpacks 5-bit
// channels); alpha is dropped.
#include <algorithm>
#include <bit>

#include "image.h"

namespace sonnx::support::image {
namespace {

struct Reader {
  std::span<const uint8_t> data;
  uint32_t u16(size_t at) const {
    need(at, 2);
    return data[at] | data[at + 1] << 8;
  }
  uint32_t u32(size_t at) const {
    need(at, 4);
    return data[at] | data[at + 1] << 8 | data[at + 2] << 16 | static_cast<uint32_t>(data[at + 3]) << 24;
  }
  void need(size_t at, size_t n) const {
    if (at > data.size() || data.size() - at < n) throw ImageError("BMP data is truncated");
  }
};

// One channel of a masked pixel, scaled to 8 bits.
struct Channel {
  uint32_t mask = 0;
  int shift = 0;
  uint32_t max = 0;
  explicit Channel(uint32_t m) : mask(m) {
    if (m == 0) return;
    shift = std::countr_zero(m);
    uint32_t bits = m >> shift;
    if ((bits & (bits + 1)) != 0) throw ImageError("BMP channel mask is not one run of bits");
    max = bits;
  }
  uint8_t operator()(uint32_t pixel) const {
    if (max == 0) return 0;
    uint32_t v = (pixel & mask) >> shift;
    if (max >= 255) return static_cast<uint8_t>(v >> (std::bit_width(max) - 8));
    return static_cast<uint8_t>(v * 255 / max);
  }
};

}  // namespace

Image decode_bmp(std::span<const uint8_t> data) {
  Reader r{data};
  const size_t pixel_offset = r.u32(10);
  const uint32_t header = r.u32(14);
  int64_t width, height;
  uint32_t bpp, compression = 0, colors_used = 0;
  size_t palette_at, entry_size;
  uint32_t masks[3] = {0, 0, 0};
  if (header == 12) {
    width = r.u16(18);
    height = r.u16(20);
    bpp = r.u16(24);
    palette_at = 14 + 12;
    entry_size = 3;
  } else if (header >= 40 && header <= 124) {
    width = static_cast<int32_t>(r.u32(18));
    height = static_cast<int32_t>(r.u32(22));
    bpp = r.u16(28);
    compression = r.u32(30);
    colors_used = r.u32(46);
    palette_at = 14 + header;
    entry_size = 4;
    if (compression == 3 || compression == 6) {         // BI_BITFIELDS, BI_ALPHABITFIELDS
      size_t at = header >= 52 ? 14 + 40 : palette_at;  // in the header, or just after it
      for (int c = 0; c < 3; ++c) masks[c] = r.u32(at + 4 * static_cast<size_t>(c));
      if (header < 52) palette_at += compression == 6 ? 16 : 12;
    } else if (compression != 0) {
      throw ImageError("BMP compression " + std::to_string(compression) + " is not supported (only uncompressed bitmaps)");
    }
  } else {
    throw ImageError("BMP header of " + std::to_string(header) + " bytes is not a known BMP header");
  }
  const bool top_down = height < 0;
  if (top_down) height = -height;
  check_dimensions(width, height, "BMP");
  if (bpp != 1 && bpp != 4 && bpp != 8 && bpp != 16 && bpp != 24 && bpp != 32)
    throw ImageError("BMP with " + std::to_string(bpp) + " bits per pixel is not supported");
  if ((compression == 3 || compression == 6) && bpp != 16 && bpp != 32)
    throw ImageError("BMP bit fields need 16 or 32 bits per pixel");

  // The palette (B, G, R[, reserved] entries).
  std::vector<uint8_t> palette;  // R, G, B triples
  if (bpp <= 8) {
    size_t n = colors_used == 0 ? size_t{1} << bpp : colors_used;
    if (n > (size_t{1} << bpp)) throw ImageError("BMP palette is larger than its bit depth allows");
    r.need(palette_at, n * entry_size);
    for (size_t i = 0; i < n; ++i) {
      const uint8_t* e = data.data() + palette_at + i * entry_size;
      palette.insert(palette.end(), {e[2], e[1], e[0]});
    }
  }
  if (compression == 0 && bpp == 16) masks[0] = 0x7C00, masks[1] = 0x03E0, masks[2] = 0x001F;
  if (compression == 0 && bpp == 32) masks[0] = 0xFF0000, masks[1] = 0xFF00, masks[2] = 0xFF;
  const Channel red(masks[0]), green(masks[1]), blue(masks[2]);

  const size_t stride = static_cast<size_t>((width * bpp + 31) / 32 * 4);
  r.need(pixel_offset, stride * static_cast<size_t>(height));
  Image im = make_image(width, height, 3, "BMP");
  for (int64_t y = 0; y < height; ++y) {
    const uint8_t* row = data.data() + pixel_offset + stride * static_cast<size_t>(top_down ? y : height - 1 - y);
    uint8_t* out = im.pixels.data() + static_cast<size_t>(y * width * 3);
    for (int64_t x = 0; x < width; ++x, out += 3) {
      if (bpp <= 8) {
        size_t bit = static_cast<size_t>(x) * bpp;
        size_t index = (row[bit / 8] >> (8 - bpp - bit % 8)) & ((1u << bpp) - 1);
        if (3 * index >= palette.size())
          throw ImageError("BMP pixel uses palette entry " + std::to_string(index) + " beyond the palette");
        std::copy_n(palette.data() + 3 * index, 3, out);
      } else if (bpp == 24) {
        const uint8_t* p = row + 3 * x;
        out[0] = p[2], out[1] = p[1], out[2] = p[0];
      } else {
        const uint8_t* p = row + x * (bpp / 8);
        uint32_t v = bpp == 16 ? p[0] | p[1] << 8 : p[0] | p[1] << 8 | p[2] << 16 | static_cast<uint32_t>(p[3]) << 24;
        out[0] = red(v), out[1] = green(v), out[2] = blue(v);
      }
    }
  }
  return im;
}

}  // namespace sonnx::support::image
