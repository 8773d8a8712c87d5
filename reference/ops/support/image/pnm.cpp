// Netpbm (PNM), parsed here: P1/P4 bitmaps (1 is black), P2/P5 gray maps and P3/P6 pixmaps, plain
// (ASCII) or raw (binary, 1 byte a sample when maxval < 256, else 2 bytes big endian). Header fields
// are separated by whitespace and '#' comments. A sample s of maxval M becomes round(s * 255 / M)
// (ties to even, as PIL's PPM decoder rounds), samples above M clamping to 255.
#include "image.h"

namespace sonnx::support::image {
namespace {

struct Parser {
  std::span<const uint8_t> data;
  size_t at = 0;

  static bool space(uint8_t c) { return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'; }
  void skip_space_and_comments() {
    while (at < data.size()) {
      if (data[at] == '#') {
        while (at < data.size() && data[at] != '\n' && data[at] != '\r') ++at;
      } else if (space(data[at])) {
        ++at;
      } else {
        return;
      }
    }
  }
  // A decimal number no larger than `limit`.
  int64_t number(int64_t limit, const char* what) {
    skip_space_and_comments();
    if (at >= data.size()) throw ImageError("PNM data is truncated");
    if (data[at] < '0' || data[at] > '9') throw ImageError(std::string("PNM ") + what + " is not a number");
    int64_t v = 0;
    while (at < data.size() && data[at] >= '0' && data[at] <= '9') {
      v = v * 10 + (data[at++] - '0');
      if (v > limit) throw ImageError(std::string("PNM ") + what + " is larger than " + std::to_string(limit));
    }
    return v;
  }
  // P1's samples are single digits that need not be separated.
  int64_t bit() {
    skip_space_and_comments();
    if (at >= data.size()) throw ImageError("PNM data is truncated");
    uint8_t c = data[at++];
    if (c != '0' && c != '1') throw ImageError("PNM bitmap sample is neither 0 nor 1");
    return c - '0';
  }
};

uint8_t scale(int64_t s, int64_t maxval) {
  if (s >= maxval) return 255;
  int64_t q = s * 255 / maxval, rem = s * 255 % maxval;
  if (2 * rem > maxval || (2 * rem == maxval && q % 2 == 1)) ++q;
  return static_cast<uint8_t>(q);
}

}  // namespace

Image decode_pnm(std::span<const uint8_t> data) {
  if (data.size() < 3 || data[0] != 'P' || data[1] < '1' || data[1] > '6') throw ImageError("not a PNM image (P1-P6)");
  Parser p{data, 2};
  const int kind = data[1] - '0';
  const bool bitmap = kind == 1 || kind == 4, plain = kind <= 3;
  const int channels = kind == 3 || kind == 6 ? 3 : 1;
  int64_t width = p.number(kMaxSide + 1, "width");
  int64_t height = p.number(kMaxSide + 1, "height");
  int64_t maxval = bitmap ? 1 : p.number(65535, "maxval");
  if (maxval < 1) throw ImageError("PNM maxval is 0");
  check_dimensions(width, height, "PNM");
  const size_t samples = static_cast<size_t>(width * height * channels);
  if (plain) {
    // Each plain sample takes a byte at least (a digit, and a separator unless P1): a short file is
    // refused before the image is allocated.
    if (data.size() - p.at < (kind == 1 ? samples : 2 * samples - 1)) throw ImageError("PNM data is truncated");
    Image im = make_image(width, height, channels, "PNM");
    for (size_t i = 0; i < samples; ++i) {
      int64_t s = kind == 1 ? p.bit() : p.number(65535, "sample");
      im.pixels[i] = kind == 1 ? (s ? 0 : 255) : scale(s, maxval);
    }
    return im;
  }
  // One whitespace byte separates the header from the raster.
  if (p.at >= data.size() || !Parser::space(data[p.at])) throw ImageError("PNM header is not followed by whitespace");
  const uint8_t* raster = data.data() + p.at + 1;
  const size_t available = data.size() - p.at - 1;
  const size_t row_bytes = static_cast<size_t>((width + 7) / 8);
  const size_t bytes_per_sample = maxval < 256 ? 1 : 2;
  if (kind == 4 ? available < row_bytes * static_cast<size_t>(height) : available / bytes_per_sample < samples)
    throw ImageError("PNM data is truncated");
  Image im = make_image(width, height, channels, "PNM");
  if (kind == 4) {
    for (int64_t y = 0; y < height; ++y)
      for (int64_t x = 0; x < width; ++x) {
        bool black = (raster[static_cast<size_t>(y) * row_bytes + static_cast<size_t>(x / 8)] >> (7 - x % 8)) & 1;
        im.pixels[static_cast<size_t>(y * width + x)] = black ? 0 : 255;
      }
    return im;
  }
  for (size_t i = 0; i < samples; ++i) {
    int64_t s = bytes_per_sample == 1 ? raster[i] : raster[2 * i] << 8 | raster[2 * i + 1];
    im.pixels[i] = scale(s, maxval);
  }
  return im;
}

}  // namespace sonnx::support::image
