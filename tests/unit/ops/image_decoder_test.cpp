// ImageDecoder-20: each format decodes to [H, W, C] channel-last uint8 with the pixels the
// encoder was given (lossless formats; JPEG within its loss), and pixel_format picks RGB, BGR or
// PIL's "L" luma. Test images are made in image_encode_util.h, not by the decoders under test.
#include <string>
#include <vector>

#include "tests/unit/op_test_util.h"
#include "tests/unit/ops/image_encode_util.h"

namespace sonnx::testing {
namespace {

using images::Bytes;

Value stream(const Bytes& b) {
  return tensor<uint8_t>({static_cast<int64_t>(b.size())}, std::vector<uint8_t>(b.begin(), b.end()));
}

Value decode(const Bytes& b, const std::string& format = "RGB") {
  return run1("ImageDecoder", 20, {stream(b)}, {attr_string("pixel_format", format)});
}

std::vector<uint8_t> bytes_of(const Value& v) { return values_of<uint8_t>(v); }

// A 3x2 image (width 3, so BMP rows need a byte of padding): red, green, blue / white, black, gray.
const Bytes kRgb = {255, 0, 0, 0, 255, 0, 0, 0, 255, 255, 255, 255, 0, 0, 0, 10, 20, 30};

TEST(ImageDecoderOp, Bmp24BottomUpAndTopDown) {
  for (bool top_down : {false, true}) {
    Value y = decode(images::bmp24(3, 2, kRgb, top_down));
    EXPECT_EQ(y.tensor.dtype(), DType::UInt8);
    EXPECT_EQ(y.tensor.shape(), (Shape{2, 3, 3}));
    EXPECT_EQ(bytes_of(y), kRgb) << "top_down " << top_down;
  }
}

TEST(ImageDecoderOp, BgrReversesChannels) {
  Value y = decode(images::bmp24(3, 2, kRgb), "BGR");
  EXPECT_EQ(bytes_of(y), (std::vector<uint8_t>{0, 0, 255, 0, 255, 0, 255, 0, 0, 255, 255, 255, 0, 0, 0, 30, 20, 10}));
}

TEST(ImageDecoderOp, GrayscaleIsPilLuma) {
  // L = (19595 R + 38470 G + 7471 B + 32768) >> 16, by hand: red 5029493 >> 16 = 76,
  // green 9842618 >> 16 = 150, blue 1937873 >> 16 = 29, (10, 20, 30) 1222248 >> 16 = 18.
  Value y = decode(images::bmp24(3, 2, kRgb), "Grayscale");
  EXPECT_EQ(y.tensor.shape(), (Shape{2, 3, 1}));
  EXPECT_EQ(bytes_of(y), (std::vector<uint8_t>{76, 150, 29, 255, 0, 18}));
}

TEST(ImageDecoderOp, Bmp8Palette) {
  Bytes palette = {0, 0, 0, 200, 100, 50, 1, 2, 3};
  Value y = decode(images::bmp8(2, 2, palette, {1, 2, 0, 1}));
  EXPECT_EQ(y.tensor.shape(), (Shape{2, 2, 3}));
  EXPECT_EQ(bytes_of(y), (std::vector<uint8_t>{200, 100, 50, 1, 2, 3, 0, 0, 0, 200, 100, 50}));
}

TEST(ImageDecoderOp, PnmRawAndPlain) {
  Bytes p6 = images::text("P6\n# a comment\n3 2\n255\n");
  p6.insert(p6.end(), kRgb.begin(), kRgb.end());
  EXPECT_EQ(bytes_of(decode(p6)), kRgb);
  // P3 with the same pixels as text.
  Bytes p3 = images::text("P3 3 2 255\n255 0 0  0 255 0  0 0 255\n255 255 255 0 0 0 10 20 30\n");
  EXPECT_EQ(bytes_of(decode(p3)), kRgb);
}

TEST(ImageDecoderOp, PnmMaxvalScalesToEightBits) {
  // maxval 15: 0, 1, 7, 15 -> 0, 17, 119, 255. maxval 2: 1 -> 127.5, a tie, to even 128.
  Bytes p5 = images::text("P5 4 1 15\n");
  p5.insert(p5.end(), {0, 1, 7, 15});
  Value y = decode(p5, "Grayscale");
  EXPECT_EQ(y.tensor.shape(), (Shape{1, 4, 1}));
  EXPECT_EQ(bytes_of(y), (std::vector<uint8_t>{0, 17, 119, 255}));
  EXPECT_EQ(bytes_of(decode(images::text("P2 2 1 2 1 2 "), "Grayscale")), (std::vector<uint8_t>{128, 255}));
  // 16-bit samples (maxval 65535): big endian, 0x8000 -> 32768 * 255 / 65535 = 127.5019... -> 128.
  Bytes p5_16 = images::text("P5 1 1 65535\n");
  p5_16.insert(p5_16.end(), {0x80, 0x00});
  EXPECT_EQ(bytes_of(decode(p5_16, "Grayscale")), (std::vector<uint8_t>{128}));
}

TEST(ImageDecoderOp, PnmBitmapsOneIsBlack) {
  EXPECT_EQ(bytes_of(decode(images::text("P1 3 1 010"), "Grayscale")), (std::vector<uint8_t>{255, 0, 255}));
  Bytes p4 = images::text("P4 3 2\n");
  p4.insert(p4.end(), {0xA0, 0x40});  // rows 101 and 010, padded to a byte
  EXPECT_EQ(bytes_of(decode(p4, "Grayscale")), (std::vector<uint8_t>{0, 255, 0, 255, 0, 255}));
}

TEST(ImageDecoderOp, GrayImageInColorRepeatsTheValue) {
  Value y = decode(images::text("P2 2 1 255 7 200"));
  EXPECT_EQ(y.tensor.shape(), (Shape{1, 2, 3}));
  EXPECT_EQ(bytes_of(y), (std::vector<uint8_t>{7, 7, 7, 200, 200, 200}));
}

TEST(ImageDecoderOp, PngRgbGrayAndAlpha) {
  EXPECT_EQ(bytes_of(decode(images::png(3, 2, PNG_FORMAT_RGB, kRgb))), kRgb);
  Value gray = decode(images::png(2, 2, PNG_FORMAT_GRAY, {0, 64, 128, 255}), "Grayscale");
  EXPECT_EQ(gray.tensor.shape(), (Shape{2, 2, 1}));
  EXPECT_EQ(bytes_of(gray), (std::vector<uint8_t>{0, 64, 128, 255}));
  // RGBA: alpha is dropped, the colors are kept as stored.
  Bytes rgba = {255, 0, 0, 0, 0, 255, 0, 128, 1, 2, 3, 255};
  EXPECT_EQ(bytes_of(decode(images::png(3, 1, PNG_FORMAT_RGBA, rgba))), (std::vector<uint8_t>{255, 0, 0, 0, 255, 0, 1, 2, 3}));
}

TEST(ImageDecoderOp, TiffRgbAndGray) {
  EXPECT_EQ(bytes_of(decode(images::tiff(3, 2, 3, kRgb))), kRgb);
  Value gray = decode(images::tiff(2, 1, 1, {9, 250}), "Grayscale");
  EXPECT_EQ(gray.tensor.shape(), (Shape{1, 2, 1}));
  EXPECT_EQ(bytes_of(gray), (std::vector<uint8_t>{9, 250}));
}

TEST(ImageDecoderOp, WebpLossless) { EXPECT_EQ(bytes_of(decode(images::webp_lossless(3, 2, kRgb))), kRgb); }

TEST(ImageDecoderOp, JpegGrayExactAndColorClose) {
  // A flat gray block at quality 100 keeps only its DC coefficient, unquantized: exact.
  Value gray = decode(images::jpeg(16, 8, 1, Bytes(16 * 8, 128), 100), "Grayscale");
  EXPECT_EQ(gray.tensor.shape(), (Shape{8, 16, 1}));
  EXPECT_EQ(bytes_of(gray), Bytes(16 * 8, 128));
  // A flat color: YCbCr round trip, within 2 of the original in every channel.
  Bytes flat;
  for (int i = 0; i < 16 * 16; ++i) flat.insert(flat.end(), {200, 100, 50});
  Value bgr = decode(images::jpeg(16, 16, 3, flat, 100), "BGR");
  EXPECT_EQ(bgr.tensor.shape(), (Shape{16, 16, 3}));
  auto px = bytes_of(bgr);
  for (size_t i = 0; i < px.size(); i += 3) {
    EXPECT_NEAR(px[i], 50, 2);
    EXPECT_NEAR(px[i + 1], 100, 2);
    EXPECT_NEAR(px[i + 2], 200, 2);
  }
}

TEST(ImageDecoderOp, BadAttributesAndInputsTrap) {
  expect_trap([] { decode(images::bmp24(3, 2, kRgb), "RGBA"); }, "pixel_format");
  expect_trap([] { run1("ImageDecoder", 20, {tensor<uint8_t>({1, 2}, {'B', 'M'})}); }, "1-D");
  expect_trap([] { run1("ImageDecoder", 20, {tensor<int32_t>({2}, {1, 2})}); }, "uint8");
}

}  // namespace
}  // namespace sonnx::testing
