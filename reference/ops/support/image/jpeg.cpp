// JPEG through libjpeg-turbo, with the settings PIL decodes with (so onnx's expected outputs are
// reproduced): the accurate integer IDCT (JDCT_ISLOW) and "fancy" (smooth, triangular) chroma
// upsampling, the method the ImageDecoder spec describes; YCbCr converts to RGB in libjpeg. Gray
// JPEGs stay gray; CMYK/YCCK JPEGs are refused. A stream that ends early or a scan cut short is an
// error (libjpeg would pad it with gray and only warn).
//
// libjpeg reports errors by longjmp: decode_into is the only frame between setjmp and libjpeg,
// and it holds no object with a destructor; the state and the image are the caller's.
#include <csetjmp>
#include <cstdio>

#include <jerror.h>
#include <jpeglib.h>

#include "image.h"

namespace sonnx::support::image {
namespace {

struct JpegState {
  jpeg_decompress_struct cinfo{};
  jpeg_error_mgr err{};
  std::jmp_buf jump{};
  char message[JMSG_LENGTH_MAX] = {};
  bool created = false;
  ~JpegState() {
    if (created) jpeg_destroy_decompress(&cinfo);
  }
};

JpegState& state_of(j_common_ptr c) { return *static_cast<JpegState*>(c->client_data); }

[[noreturn]] void on_error(j_common_ptr c) {
  JpegState& s = state_of(c);
  (*c->err->format_message)(c, s.message);
  std::longjmp(s.jump, 1);
}

// Warnings that mean missing data are errors; other warnings and trace messages are dropped.
void on_message(j_common_ptr c, int level) {
  if (level < 0 && (c->err->msg_code == JWRN_JPEG_EOF || c->err->msg_code == JWRN_HIT_MARKER)) on_error(c);
}

bool decode_into(JpegState& s, std::span<const uint8_t> data, Image& im) {
  s.cinfo.err = jpeg_std_error(&s.err);
  s.err.error_exit = on_error;
  s.err.emit_message = on_message;
  s.cinfo.client_data = &s;
  if (setjmp(s.jump)) return false;
  jpeg_create_decompress(&s.cinfo);
  s.created = true;
  // Progressive and multi-scan images buffer coefficients for the whole image: bounded, so that
  // a hostile header fails with libjpeg's "insufficient memory" instead of exhausting memory.
  s.cinfo.mem->max_memory_to_use = 1L << 30;
  jpeg_mem_src(&s.cinfo, data.data(), static_cast<unsigned long>(data.size()));
  jpeg_read_header(&s.cinfo, TRUE);
  check_dimensions(s.cinfo.image_width, s.cinfo.image_height, "JPEG");
  if (s.cinfo.jpeg_color_space == JCS_CMYK || s.cinfo.jpeg_color_space == JCS_YCCK)
    throw ImageError("CMYK JPEG images are not supported");
  s.cinfo.out_color_space = s.cinfo.num_components == 1 ? JCS_GRAYSCALE : JCS_RGB;
  s.cinfo.dct_method = JDCT_ISLOW;
  s.cinfo.do_fancy_upsampling = TRUE;
  jpeg_start_decompress(&s.cinfo);
  im = make_image(s.cinfo.output_width, s.cinfo.output_height, s.cinfo.output_components, "JPEG");
  const size_t stride = static_cast<size_t>(im.width * im.channels);
  while (s.cinfo.output_scanline < s.cinfo.output_height) {
    JSAMPROW row = im.pixels.data() + s.cinfo.output_scanline * stride;
    jpeg_read_scanlines(&s.cinfo, &row, 1);
  }
  jpeg_finish_decompress(&s.cinfo);
  return true;
}

}  // namespace

Image decode_jpeg(std::span<const uint8_t> data) {
  JpegState s;
  Image im;
  if (!decode_into(s, data, im)) throw ImageError(std::string("JPEG data is corrupt: ") + s.message);
  return im;
}

}  // namespace sonnx::support::image
