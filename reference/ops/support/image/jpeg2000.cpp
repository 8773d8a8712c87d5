// JPEG 2000 through OpenJPEG: a JP2 file or a raw J2K codestream. One or two components (gray,
// gray + alpha) decode to gray, three or more to RGB from the first three; components must have
// the image's full size (subsampled and YCC/CMYK color spaces are refused). A sample of p bits
// (signed ones offset by 2^(p-1)) becomes 8 bits by its high byte when p > 8 and by
// s * 255 / (2^p - 1), truncated, when p < 8.
#include <algorithm>
#include <cstring>
#include <memory>

#include <openjpeg.h>

#include "image.h"

namespace sonnx::support::image {
namespace {

struct Jp2Source {
  std::span<const uint8_t> data;
  size_t at = 0;
  std::string message;
};

OPJ_SIZE_T read_fn(void* out, OPJ_SIZE_T n, void* user) {
  auto* s = static_cast<Jp2Source*>(user);
  if (s->at >= s->data.size()) return static_cast<OPJ_SIZE_T>(-1);
  size_t k = std::min(static_cast<size_t>(n), s->data.size() - s->at);
  std::memcpy(out, s->data.data() + s->at, k);
  s->at += k;
  return k;
}
OPJ_OFF_T skip_fn(OPJ_OFF_T n, void* user) {
  auto* s = static_cast<Jp2Source*>(user);
  if (n < 0 || static_cast<uint64_t>(n) > s->data.size() - s->at) return -1;
  s->at += static_cast<size_t>(n);
  return n;
}
OPJ_BOOL seek_fn(OPJ_OFF_T pos, void* user) {
  auto* s = static_cast<Jp2Source*>(user);
  if (pos < 0 || static_cast<uint64_t>(pos) > s->data.size()) return OPJ_FALSE;
  s->at = static_cast<size_t>(pos);
  return OPJ_TRUE;
}
void on_error(const char* msg, void* user) {
  auto* s = static_cast<Jp2Source*>(user);
  if (s->message.empty()) {
    s->message = msg;
    while (!s->message.empty() && s->message.back() == '\n') s->message.pop_back();
  }
}
void on_quiet(const char*, void*) {}

// opj_stream_t and opj_codec_t are both void*: one deleter type each.
struct FreeStream {
  void operator()(opj_stream_t* p) const { opj_stream_destroy(p); }
};
struct FreeCodec {
  void operator()(opj_codec_t* p) const { opj_destroy_codec(p); }
};
struct FreeImage {
  void operator()(opj_image_t* p) const { opj_image_destroy(p); }
};

uint8_t to_8_bits(OPJ_INT32 v, const opj_image_comp_t& c) {
  const int64_t top = (int64_t{1} << c.prec) - 1;
  int64_t s = c.sgnd ? int64_t{v} + (int64_t{1} << (c.prec - 1)) : int64_t{v};
  s = std::clamp<int64_t>(s, 0, top);
  if (c.prec > 8) return static_cast<uint8_t>(s >> (c.prec - 8));
  return static_cast<uint8_t>(s * 255 / top);
}

}  // namespace

Image decode_jpeg2000(std::span<const uint8_t> data) {
  Jp2Source src{data, 0, {}};
  const bool jp2 = data.size() >= 4 && data[0] == 0 && data[1] == 0 && data[2] == 0 && data[3] == 0x0C;
  std::unique_ptr<opj_codec_t, FreeCodec> codec(opj_create_decompress(jp2 ? OPJ_CODEC_JP2 : OPJ_CODEC_J2K));
  std::unique_ptr<opj_stream_t, FreeStream> stream(opj_stream_create(OPJ_J2K_STREAM_CHUNK_SIZE, OPJ_TRUE));
  if (!codec || !stream) throw ImageError("JPEG 2000: out of memory");
  opj_stream_set_read_function(stream.get(), read_fn);
  opj_stream_set_skip_function(stream.get(), skip_fn);
  opj_stream_set_seek_function(stream.get(), seek_fn);
  opj_stream_set_user_data(stream.get(), &src, nullptr);
  opj_stream_set_user_data_length(stream.get(), data.size());
  opj_set_error_handler(codec.get(), on_error, &src);
  opj_set_warning_handler(codec.get(), on_quiet, &src);
  opj_set_info_handler(codec.get(), on_quiet, &src);
  auto fail = [&](const char* what) {
    throw ImageError(std::string("JPEG 2000 data is corrupt: ") + (src.message.empty() ? what : src.message));
  };
  opj_dparameters_t params;
  opj_set_default_decoder_parameters(&params);
  if (!opj_setup_decoder(codec.get(), &params)) fail("cannot set up the decoder");
  opj_image_t* raw = nullptr;
  bool header = opj_read_header(stream.get(), codec.get(), &raw);
  std::unique_ptr<opj_image_t, FreeImage> img(raw);
  if (!header || !img) fail("cannot read the header");
  const int64_t width = int64_t{img->x1} - img->x0, height = int64_t{img->y1} - img->y0;
  check_dimensions(width, height, "JPEG 2000");
  if (img->numcomps < 1) fail("the image has no components");
  if (img->color_space == OPJ_CLRSPC_SYCC || img->color_space == OPJ_CLRSPC_EYCC || img->color_space == OPJ_CLRSPC_CMYK)
    throw ImageError("JPEG 2000 images in YCC or CMYK color spaces are not supported");
  const int channels = img->numcomps >= 3 ? 3 : 1;
  for (int c = 0; c < channels; ++c) {
    const opj_image_comp_t& comp = img->comps[c];
    if (comp.dx != 1 || comp.dy != 1) throw ImageError("JPEG 2000 images with subsampled components are not supported");
    if (comp.prec < 1 || comp.prec > 31) fail("a component has an invalid precision");
  }
  if (!opj_decode(codec.get(), stream.get(), img.get()) || !opj_end_decompress(codec.get(), stream.get()))
    fail("cannot decode the image");
  Image im = make_image(width, height, channels, "JPEG 2000");
  for (int c = 0; c < channels; ++c) {
    const opj_image_comp_t& comp = img->comps[c];
    if (comp.w != width || comp.h != height || comp.data == nullptr) fail("a component does not cover the image");
    for (size_t i = 0; i < static_cast<size_t>(width * height); ++i)
      im.pixels[i * static_cast<size_t>(channels) + static_cast<size_t>(c)] = to_8_bits(comp.data[i], comp);
  }
  return im;
}

}  // namespace sonnx::support::image
