// Einsum: Einstein summation over the inputs as numpy.einsum does it (the equation's reading in
// reference/ops/params/einsum.h, which operand elements meet in support/einsum.h). Products and
// sums are computed in compute_t<T> (integers wrap).
#include <optional>
#include <string>

#include "op_params.h"
#include "params/einsum.h"
#include "support/einsum.h"
#include "support/shape.h"
#include "support/kernel.h"

namespace sonnx {
using namespace support;
namespace {
constexpr int kLetters = EinsumTerm::kLetters;

std::vector<Value> einsum(OpContext& ctx) {
  const EinsumParams params = EinsumParams::read(ctx, ctx.version());
  size_t n = ctx.num_inputs();
  if (n == 0) ctx.fail("at least one input is required");
  std::vector<Shape> shapes;
  for (size_t k = 0; k < n; ++k) {
    if (ctx.input(k).dtype() != ctx.input(0).dtype()) ctx.fail("inputs have different element types");
    shapes.push_back(ctx.input(k).shape());
  }
  const EinsumPlan plan = einsum_plan(ctx, params, shapes);

  DType type = ctx.input(0).dtype();
  Tensor out(type, plan.out_shape);
  visit_real(ctx, type, [&]<class T>() {
    using C = compute_t<T>;
    std::vector<const T*> src(n);
    for (size_t k = 0; k < n; ++k) src[k] = ctx.input(k).data<T>();
    T* dst = out.data<T>();
    plan.for_each_output([&](const std::vector<int64_t>&, int64_t olin, const std::vector<int64_t>& base) {
      C acc = C(0);
      for (int64_t s = 0; s < plan.products; ++s) {
        C prod = C(1);
        for (size_t k = 0; k < n; ++k) {
          C v = static_cast<C>(src[k][plan.element(base, s, k)]);
          if constexpr (std::is_integral_v<C>) prod = wrap_mul(prod, v);
          else prod = prod * v;
        }
        if constexpr (std::is_integral_v<C>) acc = wrap_add(acc, prod);
        else acc = acc + prod;
      }
      dst[olin] = to_storage<T>(acc);
    });
  });
  return one(std::move(out));
}
}  // namespace
SONNX_PARAMS("", "Einsum", (12), EinsumParams);
SONNX_KERNEL("", "Einsum", 12, einsum, Accuracy::Rounding);
namespace {
// The output subscripts (explicit after "->", else the letters used once, sorted) pick the dims
// of the operands' letters; "..." stands for the broadcast of the operands' remaining dims.
void einsum_shape(InferContext& ctx) {
  const EinsumParams p = EinsumParams::read(ctx, ctx.version());
  std::vector<size_t> all;
  for (size_t i = 0; i < ctx.num_inputs(); ++i) all.push_back(i);
  DType t = common_elem(ctx, all);
  if (std::string why = p.operands(ctx.num_inputs()); !why.empty()) ctx.fail(why);
  std::vector<std::optional<Dim>> letters(static_cast<size_t>(kLetters));  // each letter's dim (1 broadcasts)
  std::vector<Dims> ell_store(p.inputs.size());
  std::vector<const Dims*> ellipses;
  for (size_t i = 0; i < p.inputs.size(); ++i) {
    const Dims* s = ctx.input_shape(i);
    if (!s) return ctx.set_output(0, t, std::nullopt);
    const EinsumTerm& term = p.inputs[i];
    size_t named = term.letter_count();
    if (named > s->size()) ctx.fail("operand " + std::to_string(i) + " has fewer dims than subscripts");
    auto ell = static_cast<int64_t>(s->size() - named);
    if (!term.ellipsis && ell != 0) ctx.fail("operand " + std::to_string(i) + " has more dims than subscripts");
    const std::vector<int> labels = term.axis_labels(ell, ell);
    std::vector<std::optional<Dim>> in_term(static_cast<size_t>(kLetters));  // a repeated letter takes a diagonal
    for (size_t a = 0; a < labels.size(); ++a) {
      const Dim& d = (*s)[a];
      const int l = labels[a];
      if (l >= kLetters) {
        ell_store[i].push_back(d);
        continue;
      }
      std::optional<Dim>& first = in_term[static_cast<size_t>(l)];
      if (!first) first = d;
      else if (first->value && d.value && *first->value != *d.value)
        ctx.fail("a repeated letter in term " + std::to_string(i) + " spans dimensions of different sizes");
      std::optional<Dim>& known = letters[static_cast<size_t>(l)];
      if (!known) known = d;
      else if (known->value && d.value && *known->value != *d.value && *known->value != 1 && *d.value != 1)
        ctx.fail(std::string("subscript '") + EinsumTerm::label_char(l) + "' has sizes " + std::to_string(*known->value) +
                 " and " + std::to_string(*d.value));
      else if (d.value && (!known->value || *known->value == 1)) known = d;
    }
    if (term.ellipsis) ellipses.push_back(&ell_store[i]);
  }
  auto ell = broadcast_shapes(ctx, ellipses);
  if (!p.output.ellipsis && ell && !ell->empty())
    ctx.fail("the output must contain '...' when the inputs' ellipsis has dimensions");
  auto letter_dim = [&](int l) { return letters[static_cast<size_t>(l)].value_or(Dim{}); };
  Dims o;
  for (int l : p.output.letters_before) o.push_back(letter_dim(l));
  if (p.output.ellipsis && ell) o.insert(o.end(), ell->begin(), ell->end());
  for (int l : p.output.letters_after) o.push_back(letter_dim(l));
  ctx.set_output(0, t, o);
}
}  // namespace
SONNX_SHAPE_RULE("", "Einsum", (12), einsum_shape);
}  // namespace sonnx
