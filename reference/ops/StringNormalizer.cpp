// StringNormalizer: removes the `stopwords` from a [C] or [1, C] string tensor, then lowercases,
// uppercases or keeps each remaining string (case_change_action LOWER / UPPER / NONE). With
// is_case_sensitive=0 a stopword matches regardless of case. When every element is removed the
// output is a single empty string of shape [1] (input [C]) or [1, 1] (input [1, C]).
//
// Case mapping works on UTF-8 code points with Unicode's simple (one-to-one, context-free) case
// mappings for Basic Latin, Latin-1, Latin Extended-A, Greek and Cyrillic; other code points are
// unchanged (so ß stays ß in UPPER). The mapping does not depend on the process locale: `locale`
// may be empty or name any locale except the Turkic and Lithuanian ones (tr, az, lt), whose
// special casing rules for i/I the reference does not implement (reported as unsupported).
// Strings that are not valid UTF-8 trap.
#include <optional>

#include "op_params.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
// UTF-8 -> code points; nullopt when malformed (overlong forms, surrogates, > U+10FFFF included).
std::optional<std::u32string> decode_utf8(const std::string& s) {
  std::u32string out;
  size_t i = 0;
  while (i < s.size()) {
    auto b0 = static_cast<unsigned char>(s[i]);
    int len = b0 < 0x80 ? 1 : (b0 >> 5) == 0x6 ? 2 : (b0 >> 4) == 0xE ? 3 : (b0 >> 3) == 0x1E ? 4 : 0;
    if (len == 0 || i + static_cast<size_t>(len) > s.size()) return std::nullopt;
    char32_t cp = len == 1 ? b0 : len == 2 ? (b0 & 0x1Fu) : len == 3 ? (b0 & 0x0Fu) : (b0 & 0x07u);
    for (int k = 1; k < len; ++k) {
      auto b = static_cast<unsigned char>(s[i + static_cast<size_t>(k)]);
      if ((b >> 6) != 0x2) return std::nullopt;
      cp = (cp << 6) | (b & 0x3Fu);
    }
    static const char32_t min_for_len[] = {0, 0, 0x80, 0x800, 0x10000};
    if (cp < min_for_len[len] || cp > 0x10FFFF || (cp >= 0xD800 && cp <= 0xDFFF)) return std::nullopt;
    out.push_back(cp);
    i += static_cast<size_t>(len);
  }
  return out;
}

std::string encode_utf8(const std::u32string& cps) {
  std::string out;
  for (char32_t c : cps) {
    if (c < 0x80) {
      out.push_back(static_cast<char>(c));
    } else if (c < 0x800) {
      out.push_back(static_cast<char>(0xC0 | (c >> 6)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else if (c < 0x10000) {
      out.push_back(static_cast<char>(0xE0 | (c >> 12)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    } else {
      out.push_back(static_cast<char>(0xF0 | (c >> 18)));
      out.push_back(static_cast<char>(0x80 | ((c >> 12) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | ((c >> 6) & 0x3F)));
      out.push_back(static_cast<char>(0x80 | (c & 0x3F)));
    }
  }
  return out;
}

// Latin Extended-A U+0100..U+017F alternates capital/small letters: in these ranges the capital is
// at the even code point, in U+0139..U+0148 and U+0179..U+017E at the odd one. (U+0130/U+0131,
// U+0138, U+0149, U+0178 and U+017F are handled one by one.)
bool latin_ext_a_even_upper(char32_t c) {
  return (c >= 0x100 && c <= 0x12F) || (c >= 0x132 && c <= 0x137) || (c >= 0x14A && c <= 0x177);
}
bool latin_ext_a_odd_upper(char32_t c) { return (c >= 0x139 && c <= 0x148) || (c >= 0x179 && c <= 0x17E); }

char32_t to_lower(char32_t c) {
  if (c >= U'A' && c <= U'Z') return c + 32;
  if (c >= 0xC0 && c <= 0xDE && c != 0xD7) return c + 32;  // À..Þ except ×
  if (latin_ext_a_even_upper(c)) return (c % 2 == 0) ? c + 1 : c;
  if (latin_ext_a_odd_upper(c)) return (c % 2 == 1) ? c + 1 : c;
  if (c == 0x130) return U'i';                                // İ
  if (c == 0x178) return 0xFF;                                // Ÿ
  if (c >= 0x391 && c <= 0x3A9 && c != 0x3A2) return c + 32;  // Greek capitals
  if (c == 0x386) return 0x3AC;
  if (c >= 0x388 && c <= 0x38A) return c + 37;
  if (c == 0x38C) return 0x3CC;
  if (c == 0x38E || c == 0x38F) return c + 63;
  if (c >= 0x410 && c <= 0x42F) return c + 32;  // Cyrillic А..Я
  if (c >= 0x400 && c <= 0x40F) return c + 80;  // Ѐ..Џ
  return c;
}

char32_t to_upper(char32_t c) {
  if (c >= U'a' && c <= U'z') return c - 32;
  if (c >= 0xE0 && c <= 0xFE && c != 0xF7) return c - 32;  // à..þ except ÷
  if (c == 0xFF) return 0x178;                             // ÿ
  if (c == 0xB5) return 0x39C;                             // micro sign -> Μ
  if (latin_ext_a_even_upper(c)) return (c % 2 == 1) ? c - 1 : c;
  if (latin_ext_a_odd_upper(c)) return (c % 2 == 0) ? c - 1 : c;
  if (c == 0x131) return U'I';                                // dotless ı
  if (c == 0x17F) return U'S';                                // long s
  if (c >= 0x3B1 && c <= 0x3C9 && c != 0x3C2) return c - 32;  // Greek smalls
  if (c == 0x3C2) return 0x3A3;                               // final sigma
  if (c == 0x3AC) return 0x386;
  if (c >= 0x3AD && c <= 0x3AF) return c - 37;
  if (c == 0x3CC) return 0x38C;
  if (c == 0x3CD || c == 0x3CE) return c - 63;
  if (c >= 0x430 && c <= 0x44F) return c - 32;  // Cyrillic а..я
  if (c >= 0x450 && c <= 0x45F) return c - 80;  // ѐ..џ
  return c;
}

enum class CaseChange { None, Lower, Upper };

std::string change_case(const OpContext& ctx, const std::string& s, CaseChange how) {
  if (how == CaseChange::None) return s;
  std::optional<std::u32string> cps = decode_utf8(s);
  if (!cps) ctx.fail("input string is not valid UTF-8");
  for (char32_t& c : *cps) c = how == CaseChange::Lower ? to_lower(c) : to_upper(c);
  return encode_utf8(*cps);
}

struct StringNormalizerParams {
  CaseChange case_change = CaseChange::None;  // case_change_action NONE, LOWER or UPPER (checked)
  bool case_sensitive = false;                // is_case_sensitive (any nonzero is true)
  std::string locale;
  // locale names a Turkic or Lithuanian language (tr, az, lt), whose special casing rules for i/I
  // the reference does not implement: the kernel reports the node as unsupported.
  bool special_casing = false;
  std::vector<std::string> stopwords;
  static StringNormalizerParams read(const AttrReader& r, int64_t /*version*/) {
    StringNormalizerParams p;
    std::string action = r.attr_string("case_change_action", "NONE");
    if (action == "NONE") p.case_change = CaseChange::None;
    else if (action == "LOWER") p.case_change = CaseChange::Lower;
    else if (action == "UPPER") p.case_change = CaseChange::Upper;
    else r.fail("case_change_action '" + action + "' is not NONE, LOWER or UPPER");
    p.case_sensitive = r.attr_int("is_case_sensitive", 0) != 0;
    p.locale = r.attr_string("locale", "");
    std::string lang = p.locale.substr(0, p.locale.find_first_of("_-.@"));
    p.special_casing = lang == "tr" || lang == "az" || lang == "lt";
    p.stopwords = r.attr_strings("stopwords");
    return p;
  }
};

std::vector<Value> string_normalizer(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  if (x.dtype() != DType::String) ctx.fail("input must be a string tensor");
  bool two_dim = x.rank() == 2;
  if (!(x.rank() == 1 || (two_dim && x.dim(0) == 1)))
    ctx.fail("input must have shape [C] or [1, C], got " + shape_str(x.shape()));

  StringNormalizerParams p = StringNormalizerParams::read(ctx, ctx.version());
  const CaseChange how = p.case_change;
  if (p.special_casing)
    throw Unsupported(ctx.node().label() + ": StringNormalizer locale '" + p.locale + "' has special casing rules");

  const bool case_sensitive = p.case_sensitive;
  std::vector<std::string> stopwords = std::move(p.stopwords);
  if (!case_sensitive)
    for (std::string& w : stopwords) w = change_case(ctx, w, CaseChange::Lower);

  std::vector<std::string> kept;
  for (const std::string& s : x.values<std::string>()) {
    std::string key = case_sensitive ? s : change_case(ctx, s, CaseChange::Lower);
    bool stop = false;
    for (const std::string& w : stopwords) stop = stop || w == key;
    if (!stop) kept.push_back(change_case(ctx, s, how));
  }
  if (kept.empty()) kept.push_back("");  // everything removed: one empty string
  int64_t c = static_cast<int64_t>(kept.size());
  return one(Tensor::from_vector<std::string>(two_dim ? Shape{1, c} : Shape{c}, kept));
}
}  // namespace
SONNX_PARAMS("", "StringNormalizer", (10), StringNormalizerParams);
SONNX_KERNEL("", "StringNormalizer", 10, string_normalizer, Accuracy::Exact);
namespace {
// 1-D [C] or [1, C]; stopwords may remove elements (C unknown then, else kept).
void string_normalizer_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  bool stop = !StringNormalizerParams::read(ctx, ctx.version()).stopwords.empty();
  if (!x) return ctx.set_output(0, DType::String, std::nullopt);
  Dims o = *x;
  if (o.empty() || o.size() > 2) ctx.fail("the input must be [C] or [1, C]");
  if (stop) o.back() = Dim{};
  ctx.set_output(0, DType::String, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "StringNormalizer", (10), string_normalizer_shape);
}  // namespace sonnx
