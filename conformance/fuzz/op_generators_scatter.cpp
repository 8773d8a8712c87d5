// ScatterElements and ScatterND with every reduction: none, add, mul (opset 16) and max, min
// (opset 18). Generated at the newest opset only, so opset-17 graphs keep their operator table.
// Without a reduction the written positions are distinct (the order of duplicate writes is
// unspecified); with one, duplicates are what the reduction is for.
#include <numeric>

#include "generator_util.h"

namespace sonnx::fuzz {
namespace {

const char* const kReductions[] = {"none", "add", "mul", "max", "min"};

// The output range: data, updates (a new operand in `u`) and up to `k` combinations per position.
Interval scatter_range(const std::string& reduction, Interval data, Interval u, int64_t k) {
  if (reduction == "add") return add(data, Interval{u.lo * static_cast<double>(k), u.hi * static_cast<double>(k)});
  if (reduction == "mul") {
    double m = data.mag() * std::pow(std::max(1.0, u.mag()), static_cast<double>(k));
    return {-m, m};
  }
  return hull(data, u);
}

// The updates: a new constant or graph input of this shape.
std::string updates_operand(GenContext& c, const std::vector<int64_t>& shape, Interval u) {
  return c.coin(0.5) ? c.add_float_const(shape, u) : c.tensors[static_cast<size_t>(c.add_input(shape, u))].name;
}

// ScatterElements: indices (and updates) have data's shape with k ≤ dim positions along `axis`.
bool plan_scatter_elements(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  int64_t r = tv(c, x).rank(), axis = random_axis(c, r);
  std::string reduction = kReductions[c.uniform(0, 4)];
  bool neg_axis = c.coin(0.3), attr_none = reduction == "none" && c.coin(0.5);
  Interval u = reduction == "mul" ? Interval{-1.5, 1.5} : random_range(c, false);
  p.emit = [&c, x, r, axis, reduction, neg_axis, attr_none, u](const Solution&) {
    std::vector<int64_t> shape = tv(c, x).shape, ishape = shape;
    int64_t d = shape[static_cast<size_t>(axis)], k = c.uniform(1, d);
    ishape[static_cast<size_t>(axis)] = k;
    // Index values, fibre by fibre along the axis: distinct without a reduction.
    int64_t outer = 1, inner = 1;
    for (int64_t i = 0; i < axis; ++i) outer *= ishape[static_cast<size_t>(i)];
    for (int64_t i = axis + 1; i < r; ++i) inner *= ishape[static_cast<size_t>(i)];
    std::vector<int64_t> values(static_cast<size_t>(outer * k * inner));
    std::vector<int64_t> pos(static_cast<size_t>(d));
    for (int64_t o = 0; o < outer; ++o)
      for (int64_t in = 0; in < inner; ++in) {
        std::iota(pos.begin(), pos.end(), 0);
        std::shuffle(pos.begin(), pos.end(), c.rng);
        for (int64_t j = 0; j < k; ++j) {
          int64_t v = reduction == "none" ? pos[static_cast<size_t>(j)] : c.uniform(0, d - 1);
          if (c.coin(0.3)) v -= d;  // negative indices count from the end
          values[static_cast<size_t>((o * k + j) * inner + in)] = v;
        }
      }
    Interval range = scatter_range(reduction, tv(c, x).range, u, k);
    if (!c.fits(range)) return false;
    std::vector<std::string> ins{tv(c, x).name, c.add_int64_const(ishape, values), updates_operand(c, ishape, u)};
    int y = out_tensor(c, kFloat(), shape, range, {x}, "ScatterElements");
    auto& node = c.add_node("ScatterElements", ins, {y});
    set_attr(node, "axis", neg_axis ? axis - r : axis);
    if (reduction != "none" || attr_none) set_attr(node, "reduction", reduction);
    return true;
  };
  return true;
}

// ScatterND: m index tuples of length q into data's first q dims; updates [m] + data.shape[q:].
bool plan_scatter_nd(GenContext& c, OpPlan& p) {
  int x = c.pick([](const TVar& t) { return is_float(t) && t.rank() >= 1; });
  if (x < 0) return false;
  int64_t r = tv(c, x).rank(), q = c.uniform(1, r), m = c.uniform(1, 4);
  std::string reduction = kReductions[c.uniform(0, 4)];
  Interval u = reduction == "mul" ? Interval{-1.5, 1.5} : random_range(c, false);
  p.emit = [&c, x, q, m, reduction, u](const Solution&) {
    std::vector<int64_t> shape = tv(c, x).shape;  // a copy: adding the updates input may move the tensors
    int64_t slots = 1;
    for (int64_t i = 0; i < q; ++i) slots *= shape[static_cast<size_t>(i)];
    int64_t count = reduction == "none" ? std::min(m, slots) : m;
    // Distinct slots without a reduction, drawn with repeats otherwise; each as a tuple of indices.
    std::vector<int64_t> slot(static_cast<size_t>(slots));
    std::iota(slot.begin(), slot.end(), 0);
    std::shuffle(slot.begin(), slot.end(), c.rng);
    std::vector<int64_t> values;
    for (int64_t j = 0; j < count; ++j) {
      int64_t s = reduction == "none" ? slot[static_cast<size_t>(j)] : c.uniform(0, slots - 1);
      std::vector<int64_t> tuple(static_cast<size_t>(q));
      for (int64_t i = q - 1; i >= 0; --i) {
        int64_t d = shape[static_cast<size_t>(i)];
        tuple[static_cast<size_t>(i)] = s % d;  // ScatterND's text allows no negative indices
        s /= d;
      }
      values.insert(values.end(), tuple.begin(), tuple.end());
    }
    std::vector<int64_t> ushape{count};
    ushape.insert(ushape.end(), shape.begin() + q, shape.end());
    Interval range = scatter_range(reduction, tv(c, x).range, u, count);
    if (!c.fits(range) || !c.fits(ushape)) return false;
    std::vector<std::string> ins{tv(c, x).name, c.add_int64_const({count, q}, values), updates_operand(c, ushape, u)};
    int y = out_tensor(c, kFloat(), shape, range, {x}, "ScatterND");
    auto& node = c.add_node("ScatterND", ins, {y});
    if (reduction != "none") set_attr(node, "reduction", reduction);
    return true;
  };
  return true;
}

}  // namespace

void add_scatter_generators(std::vector<OpGenerator>& v) {
  v.push_back({"ScatterElements", plan_scatter_elements, 18});
  v.push_back({"ScatterND", plan_scatter_nd, 18});
}

}  // namespace sonnx::fuzz
