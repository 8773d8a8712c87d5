// PNG through libpng: palette images expand to RGB, gray below 8 bits to 8, 16-bit samples keep
// their high byte (as PIL reduces them), alpha (an alpha channel or a tRNS chunk) is dropped, and
// interlaced images are deinterlaced. Gray stays gray. Each pixel row is checked against its CRC and
// a stream that ends early is an error.
//
// libpng reports errors by longjmp: decode_into is the only frame between setjmp and libpng, and it
// holds no object with a destructor; the state and the image are the caller's.
#include <csetjmp>
#include <cstring>

#include <png.h>

#include "image.h"

namespace sonnx::support::image {
namespace {

struct PngState {
  png_structp png = nullptr;
  png_infop info = nullptr;
  std::span<const uint8_t> data;
  size_t at = 0;
  char message[256] = {};
  std::vector<png_bytep> rows;
  ~PngState() {
    if (png) png_destroy_read_struct(&png, info ? &info : nullptr, nullptr);
  }
};

void on_error(png_structp png, png_const_charp message) {
  auto* s = static_cast<PngState*>(png_get_error_ptr(png));
  std::snprintf(s->message, sizeof s->message, "%s", message);
  png_longjmp(png, 1);
}
void on_warning(png_structp, png_const_charp) {}

void read_bytes(png_structp png, png_bytep out, size_t n) {
  auto* s = static_cast<PngState*>(png_get_io_ptr(png));
  if (s->data.size() - s->at < n) png_error(png, "the stream ends early");
  std::memcpy(out, s->data.data() + s->at, n);
  s->at += n;
}

bool decode_into(PngState& s, Image& im) {
  s.png = png_create_read_struct(PNG_LIBPNG_VER_STRING, &s, on_error, on_warning);
  if (!s.png) return false;
  s.info = png_create_info_struct(s.png);
  if (!s.info) return false;
  if (setjmp(png_jmpbuf(s.png))) return false;
  png_set_read_fn(s.png, &s, read_bytes);
  png_set_user_limits(s.png, kMaxSide, kMaxSide);
  png_read_info(s.png, s.info);
  check_dimensions(png_get_image_width(s.png, s.info), png_get_image_height(s.png, s.info), "PNG");
  png_set_expand(s.png);    // palette -> RGB, gray < 8 bits -> 8, tRNS -> alpha
  png_set_strip_16(s.png);  // 16 -> 8 bits: the high byte
  png_set_strip_alpha(s.png);
  png_set_interlace_handling(s.png);
  png_read_update_info(s.png, s.info);
  const int channels = png_get_channels(s.png, s.info);
  if (channels != 1 && channels != 3) png_error(s.png, "unexpected channel count after conversion");
  im = make_image(png_get_image_width(s.png, s.info), png_get_image_height(s.png, s.info), channels, "PNG");
  if (png_get_rowbytes(s.png, s.info) != static_cast<size_t>(im.width * channels))
    png_error(s.png, "unexpected row size after conversion");
  s.rows.resize(static_cast<size_t>(im.height));
  for (size_t y = 0; y < s.rows.size(); ++y) s.rows[y] = im.pixels.data() + y * static_cast<size_t>(im.width * channels);
  png_read_image(s.png, s.rows.data());
  png_read_end(s.png, nullptr);
  return true;
}

}  // namespace

Image decode_png(std::span<const uint8_t> data) {
  PngState s;
  s.data = data;
  Image im;
  if (!decode_into(s, im)) throw ImageError(std::string("PNG data is corrupt: ") + (s.message[0] ? s.message : "out of memory"));
  return im;
}

}  // namespace sonnx::support::image
