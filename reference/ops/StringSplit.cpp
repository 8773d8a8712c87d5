// StringSplit (version 20): splits every element of a string tensor X into substrings.
//   - delimiter set and not empty: split at each occurrence of the delimiter, left to right;
//     consecutive delimiters delimit empty strings, and an empty element gives one empty
//     substring;
//   - delimiter unset or "": split on runs of whitespace, leading and trailing whitespace
//     dropped (an element of only whitespace gives no substrings). Whitespace is what Python's
//     str.isspace accepts, read from the UTF-8 bytes: ASCII \t \n \v \f \r, space, \x1c-\x1f, and
//     the Unicode spaces U+0085, U+00A0, U+1680, U+2000-U+200A, U+2028, U+2029, U+202F, U+205F,
//     U+3000.
// maxsplit, when set and not negative, limits the number of splits: after the maxsplit-th split
// the rest of the element (in whitespace mode without its leading whitespace) is one more
// substring. (A negative maxsplit, which the spec leaves undefined, means no limit, as in the
// Python str.split the onnx reference uses.)
// Outputs: Y, of shape X.shape + [n] with n the largest substring count (0 when X is empty),
// each element's substrings padded with empty strings; Z (int64, X's shape) the substring counts.
#include <limits>

#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
// The byte length of the whitespace character starting at s[i], or 0 when it is not one.
size_t whitespace_at(const std::string& s, size_t i) {
  auto b = [&](size_t k) { return i + k < s.size() ? static_cast<unsigned char>(s[i + k]) : 0u; };
  unsigned c0 = b(0);
  if (c0 == ' ' || (c0 >= 0x09 && c0 <= 0x0d) || (c0 >= 0x1c && c0 <= 0x1f)) return 1;
  if (c0 == 0xc2 && (b(1) == 0x85 || b(1) == 0xa0)) return 2;
  if (c0 == 0xe1 && b(1) == 0x9a && b(2) == 0x80) return 3;  // U+1680
  if (c0 == 0xe2 && b(1) == 0x80 && ((b(2) >= 0x80 && b(2) <= 0x8a) || b(2) == 0xa8 || b(2) == 0xa9 || b(2) == 0xaf))
    return 3;                                                // U+2000-U+200A, U+2028, U+2029, U+202F
  if (c0 == 0xe2 && b(1) == 0x81 && b(2) == 0x9f) return 3;  // U+205F
  if (c0 == 0xe3 && b(1) == 0x80 && b(2) == 0x80) return 3;  // U+3000
  return 0;
}

size_t skip_whitespace(const std::string& s, size_t i) {
  while (i < s.size()) {
    size_t n = whitespace_at(s, i);
    if (n == 0) break;
    i += n;
  }
  return i;
}

std::vector<std::string> split_whitespace(const std::string& s, int64_t maxsplit) {
  std::vector<std::string> parts;
  size_t i = 0;
  for (int64_t k = 0; k < maxsplit; ++k) {
    i = skip_whitespace(s, i);
    if (i == s.size()) return parts;
    size_t start = i;
    while (i < s.size() && whitespace_at(s, i) == 0) ++i;
    parts.push_back(s.substr(start, i - start));
  }
  i = skip_whitespace(s, i);
  if (i < s.size()) parts.push_back(s.substr(i));
  return parts;
}

std::vector<std::string> split_delimiter(const std::string& s, const std::string& delimiter, int64_t maxsplit) {
  std::vector<std::string> parts;
  size_t i = 0;
  for (int64_t k = 0; k < maxsplit; ++k) {
    size_t at = s.find(delimiter, i);
    if (at == std::string::npos) break;
    parts.push_back(s.substr(i, at - i));
    i = at + delimiter.size();
  }
  parts.push_back(s.substr(i));
  return parts;
}

struct StringSplitParams {
  std::string delimiter;                                   // "" (or unset): split on runs of whitespace
  int64_t maxsplit = std::numeric_limits<int64_t>::max();  // the limit on splits; unset or negative: none
  static StringSplitParams read(const AttrReader& r, int64_t /*version*/) {
    StringSplitParams p;
    p.delimiter = r.attr_string("delimiter", "");
    if (int64_t m = r.attr_int("maxsplit", -1); m >= 0) p.maxsplit = m;
    return p;
  }
};

std::vector<Value> string_split(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  require_type(ctx, x, DType::String, "X");
  const StringSplitParams p = StringSplitParams::read(ctx, ctx.version());
  const std::string& delimiter = p.delimiter;
  const int64_t maxsplit = p.maxsplit;
  std::vector<std::vector<std::string>> parts(static_cast<size_t>(x.size()));
  size_t widest = 0;
  const std::string* in = x.data<std::string>();
  for (size_t i = 0; i < parts.size(); ++i) {
    parts[i] = delimiter.empty() ? split_whitespace(in[i], maxsplit) : split_delimiter(in[i], delimiter, maxsplit);
    widest = std::max(widest, parts[i].size());
  }
  Shape y_shape = x.shape();
  y_shape.push_back(static_cast<int64_t>(widest));
  Tensor y(DType::String, y_shape);
  Tensor z(DType::Int64, x.shape());
  std::string* yo = y.data<std::string>();
  int64_t* zo = z.data<int64_t>();
  for (size_t i = 0; i < parts.size(); ++i) {
    zo[i] = static_cast<int64_t>(parts[i].size());
    for (size_t k = 0; k < parts[i].size(); ++k) yo[i * widest + k] = std::move(parts[i][k]);
  }
  std::vector<Value> out;
  out.emplace_back(std::move(y));
  out.emplace_back(std::move(z));
  return out;
}

// Y: X's shape and one more dim whose size depends on the data; Z: int64 of X's shape.
void string_split_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  std::optional<Dims> y;
  if (x) {
    y = *x;
    y->push_back(Dim{});
  }
  ctx.set_output(0, DType::String, y);
  if (ctx.has_output(1)) ctx.set_output(1, DType::Int64, x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_PARAMS("", "StringSplit", (20), StringSplitParams);
SONNX_KERNEL("", "StringSplit", 20, string_split, Accuracy::Exact);
SONNX_SHAPE_RULE("", "StringSplit", (20), string_split_shape);
}  // namespace sonnx
