// TIFF through libtiff: the first image of the file, read through libtiff's RGBA interface (any
// photometric interpretation, bit depth, compression, strips or tiles it supports), oriented top
// left, alpha dropped (libtiff's RGBA interface premultiplies unassociated alpha into the colors).
// libtiff's messages are captured per file (no global handler) and any error fails the decode.
#include <algorithm>
#include <cstdarg>
#include <cstdio>
#include <cstring>
#include <memory>

#include <tiffio.h>

#include "image.h"

namespace sonnx::support::image {
namespace {

struct TiffSource {
  std::span<const uint8_t> data;
  toff_t at = 0;
  char message[256] = {};
};

tmsize_t read_proc(thandle_t h, void* out, tmsize_t n) {
  auto* s = static_cast<TiffSource*>(h);
  if (n < 0 || s->at >= s->data.size()) return 0;
  size_t k = std::min(static_cast<size_t>(n), static_cast<size_t>(s->data.size() - s->at));
  std::memcpy(out, s->data.data() + s->at, k);
  s->at += k;
  return static_cast<tmsize_t>(k);
}
tmsize_t write_proc(thandle_t, void*, tmsize_t) { return 0; }
toff_t seek_proc(thandle_t h, toff_t off, int whence) {
  auto* s = static_cast<TiffSource*>(h);
  toff_t base = whence == SEEK_SET ? 0 : whence == SEEK_CUR ? s->at : s->data.size();
  if (off > UINT64_MAX - base) return static_cast<toff_t>(-1);
  s->at = base + off;  // beyond the end is allowed; reads there return nothing
  return s->at;
}
int close_proc(thandle_t) { return 0; }
toff_t size_proc(thandle_t h) { return static_cast<TiffSource*>(h)->data.size(); }

int on_error(TIFF*, void* user, const char* module, const char* fmt, va_list ap) {
  auto* s = static_cast<TiffSource*>(user);
  if (s->message[0] == 0) {
    int n = std::snprintf(s->message, sizeof s->message, "%s: ", module ? module : "TIFF");
    if (n > 0 && static_cast<size_t>(n) < sizeof s->message)
      std::vsnprintf(s->message + n, sizeof s->message - static_cast<size_t>(n), fmt, ap);
  }
  return 1;  // handled: libtiff's global handler (stderr) is not called
}
int on_warning(TIFF*, void*, const char*, const char*, va_list) { return 1; }

struct Closer {
  void operator()(TIFF* t) const { TIFFClose(t); }
  void operator()(TIFFOpenOptions* o) const { TIFFOpenOptionsFree(o); }
};

}  // namespace

Image decode_tiff(std::span<const uint8_t> data) {
  TiffSource src{data};
  std::unique_ptr<TIFFOpenOptions, Closer> options(TIFFOpenOptionsAlloc());
  if (!options) throw ImageError("TIFF: out of memory");
  TIFFOpenOptionsSetErrorHandlerExtR(options.get(), on_error, &src);
  TIFFOpenOptionsSetWarningHandlerExtR(options.get(), on_warning, &src);
  TIFFOpenOptionsSetMaxSingleMemAlloc(options.get(), 256 << 20);
  auto fail = [&](const char* what) {
    throw ImageError(std::string("TIFF data is corrupt: ") + (src.message[0] ? src.message : what));
  };
  // "rm": read only, never memory-map (the callbacks already read from memory).
  std::unique_ptr<TIFF, Closer> tif(TIFFClientOpenExt("ImageDecoder", "rm", &src, read_proc, write_proc, seek_proc, close_proc,
                                                      size_proc, nullptr, nullptr, options.get()));
  if (!tif) fail("cannot read the header");
  uint32_t width = 0, height = 0;
  if (!TIFFGetField(tif.get(), TIFFTAG_IMAGEWIDTH, &width) || !TIFFGetField(tif.get(), TIFFTAG_IMAGELENGTH, &height))
    fail("the image has no width or height");
  check_dimensions(width, height, "TIFF");
  char reason[1024] = {};
  if (!TIFFRGBAImageOK(tif.get(), reason)) throw ImageError(std::string("TIFF image is not supported: ") + reason);
  std::vector<uint32_t> raster(static_cast<size_t>(width) * height);
  if (!TIFFReadRGBAImageOriented(tif.get(), width, height, raster.data(), ORIENTATION_TOPLEFT, 1) || src.message[0])
    fail("cannot decode the image");
  Image im = make_image(width, height, 3, "TIFF");
  for (size_t i = 0; i < raster.size(); ++i) {
    im.pixels[3 * i] = static_cast<uint8_t>(TIFFGetR(raster[i]));
    im.pixels[3 * i + 1] = static_cast<uint8_t>(TIFFGetG(raster[i]));
    im.pixels[3 * i + 2] = static_cast<uint8_t>(TIFFGetB(raster[i]));
  }
  return im;
}

}  // namespace sonnx::support::image
