// ImageDecoder-20 on hostile input: unknown formats, truncated or corrupt streams and absurd
// dimensions trap with a reason; nothing crashes or allocates without bound (these tests run under
// ASan/UBSan in scripts/test.sh). Random mutations of valid images must decode or trap.
#include <random>
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"
#include "tests/unit/ops/image_encode_util.h"

namespace sonnx::testing {
namespace {

using images::Bytes;

Value hostile_decode(const Bytes& b) {
  return run1("ImageDecoder", 20, {tensor<uint8_t>({static_cast<int64_t>(b.size())}, std::vector<uint8_t>(b.begin(), b.end()))});
}

Bytes gradient(int w, int h) {
  Bytes rgb;
  for (int y = 0; y < h; ++y)
    for (int x = 0; x < w; ++x) rgb.insert(rgb.end(), {uint8_t(x * 16), uint8_t(y * 16), uint8_t(x * y)});
  return rgb;
}

// One valid small image of every format the tests can make.
std::vector<std::pair<std::string, Bytes>> valid_images() {
  Bytes rgb = gradient(8, 8);
  Bytes ppm = images::text("P6 8 8 255\n");
  ppm.insert(ppm.end(), rgb.begin(), rgb.end());
  return {{"bmp", images::bmp24(8, 8, rgb)},
          {"ppm", ppm},
          {"png", images::png(8, 8, PNG_FORMAT_RGB, rgb)},
          {"jpeg", images::jpeg(8, 8, 3, rgb)},
          {"webp", images::webp_lossless(8, 8, rgb)},
          {"tiff", images::tiff(8, 8, 3, rgb)}};
}

uint32_t crc32(const uint8_t* p, size_t n) {
  uint32_t c = 0xFFFFFFFFu;
  for (size_t i = 0; i < n; ++i) {
    c ^= p[i];
    for (int k = 0; k < 8; ++k) c = (c >> 1) ^ (0xEDB88320u & (0u - (c & 1)));
  }
  return ~c;
}
void put_be32(Bytes& b, size_t at, uint32_t v) {
  for (int k = 0; k < 4; ++k) b[at + k] = uint8_t(v >> (24 - 8 * k));
}

TEST(ImageDecoderHostile, EmptyAndUnknownFormats) {
  expect_trap([] { hostile_decode({}); }, "empty");
  expect_trap([] { hostile_decode(images::text("hello, world")); }, "no supported format");
  expect_trap([] { hostile_decode(images::text("GIF89a....")); }, "no supported format");
  // A signature and nothing after it.
  expect_trap([] { hostile_decode({0xFF, 0xD8, 0xFF}); }, "JPEG");
  expect_trap([] { hostile_decode({0x89, 'P', 'N', 'G', 0x0D, 0x0A, 0x1A, 0x0A}); }, "PNG");
  expect_trap([] { hostile_decode({'B', 'M'}); }, "BMP");
  expect_trap([] { hostile_decode({'I', 'I', 42, 0}); }, "TIFF");
  expect_trap([] { hostile_decode({'R', 'I', 'F', 'F', 0, 0, 0, 0, 'W', 'E', 'B', 'P'}); }, "WebP");
  expect_trap([] { hostile_decode(images::text("P6 ")); }, "PNM");
  expect_trap([] { hostile_decode({0xFF, 0x4F, 0xFF, 0x51, 0, 0}); }, "JPEG 2000");
  expect_trap([] { hostile_decode({0, 0, 0, 0x0C, 'j', 'P', ' ', ' ', 0x0D, 0x0A, 0x87, 0x0A, 1, 2, 3}); }, "JPEG 2000");
}

TEST(ImageDecoderHostile, TruncatedStreamsTrap) {
  for (const auto& [name, full] : valid_images()) {
    SCOPED_TRACE(name);
    Bytes half(full.begin(), full.begin() + static_cast<std::ptrdiff_t>(full.size() / 2));
    expect_trap([&] { hostile_decode(half); }, "cannot decode the image");
  }
}

TEST(ImageDecoderHostile, AbsurdDimensionsTrapBeforeAllocating) {
  // BMP claiming 60000 x 60000 (each side allowed, 3.6e9 pixels not) and 100000 wide.
  Bytes bmp = images::bmp24(1, 1, {1, 2, 3});
  for (auto [w, h] : {std::pair<uint32_t, uint32_t>{60000, 60000}, {100000, 1}}) {
    Bytes b = bmp;
    for (int k = 0; k < 4; ++k) b[18 + k] = uint8_t(w >> 8 * k), b[22 + k] = uint8_t(h >> 8 * k);
    expect_trap([&] { hostile_decode(b); }, "exceeds the decoder's limit");
  }
  expect_trap([] { hostile_decode(images::text("P5 60000 60000 255\n")); }, "exceeds the decoder's limit");
  expect_trap([] { hostile_decode(images::text("P5 99999999999999999999 1 255\n")); }, "larger than");
  // JPEG whose frame header says 60000 x 60000 (libjpeg itself refuses sides over 65500).
  Bytes jpg = images::jpeg(8, 8, 3, gradient(8, 8));
  for (size_t i = 0; i + 8 < jpg.size(); ++i)
    if (jpg[i] == 0xFF && jpg[i + 1] == 0xC0) {
      jpg[i + 5] = jpg[i + 7] = 0xEA, jpg[i + 6] = jpg[i + 8] = 0x60;
      break;
    }
  expect_trap([&] { hostile_decode(jpg); }, "exceeds the decoder's limit");
  // PNG whose IHDR (CRC recomputed) says 60000 x 60000.
  Bytes png = images::png(8, 8, PNG_FORMAT_RGB, gradient(8, 8));
  put_be32(png, 16, 60000);
  put_be32(png, 20, 60000);
  put_be32(png, 29, crc32(png.data() + 12, 17));
  expect_trap([&] { hostile_decode(png); }, "exceeds the decoder's limit");
}

TEST(ImageDecoderHostile, CorruptPixelDataTraps) {
  // A BMP pixel pointing past its 2-color palette.
  Bytes bmp = images::bmp8(2, 1, {0, 0, 0, 255, 255, 255}, {0, 5});
  expect_trap([&] { hostile_decode(bmp); }, "beyond the palette");
  // Plain PNM samples that are not numbers.
  expect_trap([] { hostile_decode(images::text("P2 2 1 255 1 x ")); }, "not a number");
  // A PNG whose image data CRC is broken.
  Bytes png = images::png(8, 8, PNG_FORMAT_RGB, gradient(8, 8));
  png[png.size() - 13] ^= 0xFF;  // the last byte of IDAT's CRC (IEND is the last 12 bytes)
  expect_trap([&] { hostile_decode(png); }, "PNG");
}

// Every byte mutation or truncation of a valid image decodes (to a sane shape) or traps.
TEST(ImageDecoderHostile, RandomMutationsDecodeOrTrap) {
  std::mt19937 rng(20);
  for (const auto& [name, valid] : valid_images()) {
    int decoded = 0, trapped = 0;
    for (int round = 0; round < 150; ++round) {
      Bytes b = valid;
      std::uniform_int_distribution<size_t> at(0, b.size() - 1);
      int flips = 1 + round % 4;
      for (int k = 0; k < flips; ++k) b[at(rng)] = uint8_t(rng());
      if (round % 5 == 4) b.resize(at(rng));
      try {
        Value y = hostile_decode(b);
        const Shape& s = y.tensor.shape();
        ASSERT_EQ(s.size(), 3u);
        EXPECT_EQ(s[2], 3);
        EXPECT_GT(s[0] * s[1], 0);
        ++decoded;
      } catch (const Trap&) {
        ++trapped;
      }
    }
    EXPECT_EQ(decoded + trapped, 150) << name;
  }
}

}  // namespace
}  // namespace sonnx::testing
