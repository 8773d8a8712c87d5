// Encoded images for the ImageDecoder tests, made independently of the decoders: BMP, PNM and
// uncompressed TIFF written byte by byte from their format descriptions; PNG, JPEG and WebP
// written with the libraries' encoders (PNG and lossless WebP round-trip exactly).
#pragma once
#include <cstdint>
#include <cstdio>
#include <string>
#include <vector>

#include <jpeglib.h>
#include <png.h>
#include <webp/encode.h>

namespace sonnx::testing::images {

using Bytes = std::vector<uint8_t>;

inline void put16(Bytes& b, uint32_t v) { b.insert(b.end(), {uint8_t(v), uint8_t(v >> 8)}); }
inline void put32(Bytes& b, uint32_t v) { b.insert(b.end(), {uint8_t(v), uint8_t(v >> 8), uint8_t(v >> 16), uint8_t(v >> 24)}); }

// A 24-bit bottom-up BMP (BITMAPINFOHEADER) of RGB pixels, rows padded to 4 bytes.
inline Bytes bmp24(int w, int h, const Bytes& rgb, bool top_down = false) {
  const uint32_t stride = (3 * w + 3) / 4 * 4, size = 54 + stride * h;
  Bytes b{'B', 'M'};
  put32(b, size), put32(b, 0), put32(b, 54);
  put32(b, 40), put32(b, w), put32(b, top_down ? uint32_t(-h) : uint32_t(h));
  put16(b, 1), put16(b, 24), put32(b, 0), put32(b, stride * h), put32(b, 2835), put32(b, 2835), put32(b, 0), put32(b, 0);
  for (int r = 0; r < h; ++r) {
    int y = top_down ? r : h - 1 - r;
    for (int x = 0; x < w; ++x) {
      const uint8_t* p = &rgb[3 * (y * w + x)];
      b.insert(b.end(), {p[2], p[1], p[0]});
    }
    b.resize(b.size() + (stride - 3 * w), 0);
  }
  return b;
}

// An 8-bit palette BMP: `palette` as R, G, B triples, `index` one byte a pixel.
inline Bytes bmp8(int w, int h, const Bytes& palette, const Bytes& index) {
  const uint32_t colors = uint32_t(palette.size() / 3), stride = (w + 3) / 4 * 4, offset = 54 + 4 * colors;
  Bytes b{'B', 'M'};
  put32(b, offset + stride * h), put32(b, 0), put32(b, offset);
  put32(b, 40), put32(b, w), put32(b, h);
  put16(b, 1), put16(b, 8), put32(b, 0), put32(b, stride * h), put32(b, 0), put32(b, 0), put32(b, colors), put32(b, 0);
  for (uint32_t c = 0; c < colors; ++c) b.insert(b.end(), {palette[3 * c + 2], palette[3 * c + 1], palette[3 * c], 0});
  for (int y = h - 1; y >= 0; --y) {
    b.insert(b.end(), index.begin() + y * w, index.begin() + (y + 1) * w);
    b.resize(b.size() + (stride - w), 0);
  }
  return b;
}

inline Bytes text(const std::string& s) { return Bytes(s.begin(), s.end()); }

// An uncompressed little-endian TIFF, one strip, 8-bit RGB (channels 3) or gray (channels 1).
inline Bytes tiff(int w, int h, int channels, const Bytes& pixels) {
  const uint32_t entries = 10, ifd = 8, bps_at = ifd + 2 + 12 * entries + 4, data_at = bps_at + 8;
  Bytes b{'I', 'I', 42, 0};
  put32(b, ifd);
  put16(b, entries);
  auto entry = [&](uint16_t tag, uint16_t type, uint32_t count, uint32_t value) {
    put16(b, tag), put16(b, type), put32(b, count), put32(b, value);  // SHORT values sit in the low bytes
  };
  entry(256, 4, 1, w);                                  // ImageWidth
  entry(257, 4, 1, h);                                  // ImageLength
  entry(258, 3, channels, channels == 3 ? bps_at : 8);  // BitsPerSample
  entry(259, 3, 1, 1);                                  // Compression: none
  entry(262, 3, 1, channels == 3 ? 2 : 1);              // Photometric: RGB or BlackIsZero
  entry(273, 4, 1, data_at);                            // StripOffsets
  entry(277, 3, 1, channels);                           // SamplesPerPixel
  entry(278, 4, 1, h);                                  // RowsPerStrip
  entry(279, 4, 1, uint32_t(pixels.size()));            // StripByteCounts
  entry(284, 3, 1, 1);                                  // PlanarConfiguration: contiguous
  put32(b, 0);                                          // no next IFD
  put16(b, 8), put16(b, 8), put16(b, 8), put16(b, 0);   // BitsPerSample values (+ padding)
  b.insert(b.end(), pixels.begin(), pixels.end());
  return b;
}

// PNG through libpng's simplified writer; format PNG_FORMAT_RGB, _GRAY, _RGBA, ...
inline Bytes png(int w, int h, uint32_t format, const Bytes& pixels) {
  png_image img{};
  img.version = PNG_IMAGE_VERSION;
  img.width = w;
  img.height = h;
  img.format = format;
  png_alloc_size_t size = 0;
  if (!png_image_write_to_memory(&img, nullptr, &size, 0, pixels.data(), 0, nullptr)) return {};
  Bytes b(size);
  if (!png_image_write_to_memory(&img, b.data(), &size, 0, pixels.data(), 0, nullptr)) return {};
  b.resize(size);
  return b;
}

// Lossless WebP of RGB pixels.
inline Bytes webp_lossless(int w, int h, const Bytes& rgb) {
  uint8_t* out = nullptr;
  size_t n = WebPEncodeLosslessRGB(rgb.data(), w, h, 3 * w, &out);
  Bytes b(out, out + n);
  WebPFree(out);
  return b;
}

// Baseline JPEG of RGB (channels 3) or gray (channels 1) pixels at the given quality.
inline Bytes jpeg(int w, int h, int channels, const Bytes& pixels, int quality = 95) {
  jpeg_compress_struct c{};
  jpeg_error_mgr err{};
  c.err = jpeg_std_error(&err);
  jpeg_create_compress(&c);
  unsigned char* out = nullptr;
  unsigned long size = 0;
  jpeg_mem_dest(&c, &out, &size);
  c.image_width = w;
  c.image_height = h;
  c.input_components = channels;
  c.in_color_space = channels == 3 ? JCS_RGB : JCS_GRAYSCALE;
  jpeg_set_defaults(&c);
  jpeg_set_quality(&c, quality, TRUE);
  jpeg_start_compress(&c, TRUE);
  while (c.next_scanline < c.image_height) {
    JSAMPROW row = const_cast<uint8_t*>(pixels.data()) + c.next_scanline * w * channels;
    jpeg_write_scanlines(&c, &row, 1);
  }
  jpeg_finish_compress(&c);
  jpeg_destroy_compress(&c);
  Bytes b(out, out + size);
  free(out);
  return b;
}

}  // namespace sonnx::testing::images
