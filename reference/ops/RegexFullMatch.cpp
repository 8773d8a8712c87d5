// RegexFullMatch (version 20): Y[i] is true when the whole of the string X[i] matches `pattern`,
// in RE2 syntax (the spec names RE2; matched with Debian's libre2, strings read as UTF-8). Y is bool
// of X's shape. A pattern RE2 does not accept (bad syntax, or a program over RE2's memory budget)
// traps with RE2's reason (and type inference reports it); so does an absent pattern (the
// attribute is required).
#include <re2/re2.h>

#include <memory>

#include "op_params.h"
#include "support/kernel.h"
#include "support/shape.h"

namespace sonnx {
using namespace support;
namespace {
struct RegexFullMatchParams {
  std::shared_ptr<const RE2> re;  // the required `pattern`, compiled (checked to be valid RE2)
  static RegexFullMatchParams read(const AttrReader& r, int64_t /*version*/) {
    if (!r.has_attr("pattern")) r.fail("the attribute 'pattern' is required");
    std::string pattern = r.attr_string("pattern", "");
    RE2::Options options;
    options.set_log_errors(false);  // the failure carries the reason; RE2 would also print it to stderr
    auto re = std::make_shared<const RE2>(pattern, options);
    if (!re->ok()) r.fail("pattern '" + pattern + "' is not a valid RE2 expression: " + re->error());
    return {std::move(re)};
  }
};

std::vector<Value> regex_full_match(OpContext& ctx) {
  const Tensor& x = ctx.input(0);
  require_type(ctx, x, DType::String, "X");
  RegexFullMatchParams p = RegexFullMatchParams::read(ctx, ctx.version());
  const RE2& re = *p.re;
  Tensor y(DType::Bool, x.shape());
  const std::string* in = x.data<std::string>();
  bool* out = y.data<bool>();
  for (int64_t i = 0; i < x.size(); ++i) out[i] = RE2::FullMatch(in[i], re);
  return one(std::move(y));
}

// Y: bool of X's shape.
void regex_full_match_shape(InferContext& ctx) {
  const Dims* x = ctx.input_shape(0);
  ctx.set_output(0, DType::Bool, x ? std::optional<Dims>(*x) : std::nullopt);
}
}  // namespace
SONNX_PARAMS("", "RegexFullMatch", (20), RegexFullMatchParams);
SONNX_KERNEL("", "RegexFullMatch", 20, regex_full_match, Accuracy::Exact);
SONNX_SHAPE_RULE("", "RegexFullMatch", (20), regex_full_match_shape);
}  // namespace sonnx
