// The enclosures of the ai.onnx.preview.training optimizers Adagrad-1, Adam-1 and Momentum-1: each
// update is its formula (Operators.md) written as a body of standard operators in the optimized
// tensor's type, walked by enclose_graph as norm_body.h's bodies are (spec/accuracy.md,
// "Admissible results"): under `real` the formula's exact value, under `admissible` each step
// within its own allowance, hulled with every value within kElementaryUlps of the exact value (a
// kernel computing the update as a whole, as the reference does in double).
//   Adagrad:  r = R / (1 + T·decay_factor), G_reg = norm_coefficient·X + G, H_new = H + G_reg·G_reg,
//             X_new = X − (r·G_reg) / (√H_new + ε)
//   Momentum: V_new = α·V + β'·G_reg (β' = β for T > 0, else 1); standard X_new = X − R·V_new,
//             nesterov X_new = X − R·(G_reg + α·V_new)
//   Adam:     V_new = α·V + (1 − α)·G_reg, H_new = β·H + ((1 − β)·G_reg)·G_reg,
//             R_adj = R·√(1 − β^T) / (1 − α^T) for T > 0, else R,
//             X_new = (1 − norm_coefficient_post)·(X − (R_adj·V_new) / (√H_new + ε))
// R and T enter at their values as scalars of X's type (rounded outward to it under `admissible`,
// the conversion an implementation computing in that type makes); the attributes are floats, exact
// in X's type (float or double).
#include <string>
#include <vector>

#include "enclose_ops.h"
#include "norm_body.h"
#include "reference/ops/params/training.h"
#include "sonnx/errors.h"

namespace sonnx::enclose::training_detail {

using norms_detail::NormBody;

// A body of one optimized tensor: X's type, the scalars and constants it reads.
struct TrainingBody {
  NormBody body;
  DType type;
  Semantics semantics;

  // A scalar of X's type holding v: exact under `real`, rounded outward to the type otherwise.
  void scalar(const std::string& name, Interval v) {
    Bounds b = float_bounds(type, {});
    set(b, 0, semantics == Semantics::Admissible ? float_format(type).round_out(v) : v);
    body.given.emplace(name, std::move(b));
  }
  void node(const std::string& op, std::vector<std::string> in, const std::string& out) { body.node(op, std::move(in), out); }
  std::vector<Bounds> walk(const OpCall& c, const std::vector<std::string>& outs) { return body.walk_as_operator(c, outs); }
};

// The checks of the reference kernel (types, shapes, counts, attributes), then n, the number of
// optimized tensors, and the update count T.
size_t training_tensor_count(const OpCall& c, size_t groups, int64_t& t) {
  run_on_bounds(c, false);
  t = c.input(1).lo.data<int64_t>()[0];
  return (c.in.size() - 2) / groups;
}

// A body for optimized tensor i of n, given X, G and the further state inputs `state` (V, H, ...,
// named in `state_names`), R, T and the constant 1.
TrainingBody training_body(const OpCall& c, size_t i, size_t n, const std::vector<std::string>& state_names, int64_t t) {
  const Bounds& x = float_input(c, 2 + i);
  TrainingBody b{NormBody{}, x.type, c.semantics};
  b.body.given.emplace("X", x);
  b.body.given.emplace("G", float_input(c, 2 + n + i));
  for (size_t k = 0; k < state_names.size(); ++k) b.body.given.emplace(state_names[k], float_input(c, 2 + (2 + k) * n + i));
  b.scalar("R", at(float_input(c, 0), 0));
  b.scalar("T", Interval::point(static_cast<double>(t)));
  b.scalar("one", Interval::point(1));
  return b;
}

// G_reg = norm_coefficient·X + G.
void training_regularized(TrainingBody& b, float norm_coefficient) {
  b.scalar("norm_coefficient", Interval::point(norm_coefficient));
  b.node("Mul", {"norm_coefficient", "X"}, "scaled_x");
  b.node("Add", {"scaled_x", "G"}, "g_reg");
}

std::vector<Bounds> enclose_adagrad(const OpCall& c) {
  const AdagradParams p = AdagradParams::read(c.ctx, c.version);
  int64_t t = 0;
  size_t n = training_tensor_count(c, 3, t);
  std::vector<Bounds> out(2 * n);
  for (size_t i = 0; i < n; ++i) {
    TrainingBody b = training_body(c, i, n, {"H"}, t);
    b.scalar("decay_factor", Interval::point(p.decay_factor));
    b.scalar("epsilon", Interval::point(p.epsilon));
    b.node("Mul", {"T", "decay_factor"}, "decay");
    b.node("Add", {"one", "decay"}, "decay_den");
    b.node("Div", {"R", "decay_den"}, "r");
    training_regularized(b, p.norm_coefficient);
    b.node("Mul", {"g_reg", "g_reg"}, "g_reg_sq");
    b.node("Add", {"H", "g_reg_sq"}, "h_new");
    b.node("Sqrt", {"h_new"}, "h_root");
    b.node("Add", {"h_root", "epsilon"}, "step_den");
    b.node("Mul", {"r", "g_reg"}, "step_num");
    b.node("Div", {"step_num", "step_den"}, "step");
    b.node("Sub", {"X", "step"}, "x_new");
    std::vector<Bounds> r = b.walk(c, {"x_new", "h_new"});
    out[i] = std::move(r[0]);
    out[n + i] = std::move(r[1]);
  }
  return out;
}

std::vector<Bounds> enclose_momentum(const OpCall& c) {
  const MomentumParams p = MomentumParams::read(c.ctx, c.version);
  int64_t t = 0;
  size_t n = training_tensor_count(c, 3, t);
  std::vector<Bounds> out(2 * n);
  for (size_t i = 0; i < n; ++i) {
    TrainingBody b = training_body(c, i, n, {"V"}, t);
    b.scalar("alpha", Interval::point(p.alpha));
    b.scalar("beta", Interval::point(t > 0 ? p.beta : 1.0));  // the first update takes G_reg whole
    training_regularized(b, p.norm_coefficient);
    b.node("Mul", {"alpha", "V"}, "kept");
    b.node("Mul", {"beta", "g_reg"}, "added");
    b.node("Add", {"kept", "added"}, "v_new");
    if (p.nesterov) {
      b.node("Mul", {"alpha", "v_new"}, "ahead");
      b.node("Add", {"g_reg", "ahead"}, "direction");
    } else {
      b.node("Identity", {"v_new"}, "direction");
    }
    b.node("Mul", {"R", "direction"}, "step");
    b.node("Sub", {"X", "step"}, "x_new");
    std::vector<Bounds> r = b.walk(c, {"x_new", "v_new"});
    out[i] = std::move(r[0]);
    out[n + i] = std::move(r[1]);
  }
  return out;
}

std::vector<Bounds> enclose_adam(const OpCall& c) {
  const AdamParams p = AdamParams::read(c.ctx, c.version);
  int64_t t = 0;
  size_t n = training_tensor_count(c, 4, t);
  std::vector<Bounds> out(3 * n);
  for (size_t i = 0; i < n; ++i) {
    TrainingBody b = training_body(c, i, n, {"V", "H"}, t);
    b.scalar("alpha", Interval::point(p.alpha));
    b.scalar("beta", Interval::point(p.beta));
    b.scalar("epsilon", Interval::point(p.epsilon));
    b.scalar("norm_coefficient_post", Interval::point(p.norm_coefficient_post));
    training_regularized(b, p.norm_coefficient);
    b.node("Sub", {"one", "alpha"}, "one_minus_alpha");
    b.node("Mul", {"alpha", "V"}, "v_kept");
    b.node("Mul", {"one_minus_alpha", "g_reg"}, "v_added");
    b.node("Add", {"v_kept", "v_added"}, "v_new");
    b.node("Sub", {"one", "beta"}, "one_minus_beta");
    b.node("Mul", {"beta", "H"}, "h_kept");
    b.node("Mul", {"one_minus_beta", "g_reg"}, "h_scaled");
    b.node("Mul", {"h_scaled", "g_reg"}, "h_added");
    b.node("Add", {"h_kept", "h_added"}, "h_new");
    if (t > 0) {  // the bias corrections
      b.node("Pow", {"beta", "T"}, "beta_t");
      b.node("Sub", {"one", "beta_t"}, "h_correction");
      b.node("Sqrt", {"h_correction"}, "h_correction_root");
      b.node("Pow", {"alpha", "T"}, "alpha_t");
      b.node("Sub", {"one", "alpha_t"}, "v_correction");
      b.node("Mul", {"R", "h_correction_root"}, "r_scaled");
      b.node("Div", {"r_scaled", "v_correction"}, "r_adj");
    } else {
      b.node("Identity", {"R"}, "r_adj");
    }
    b.node("Sqrt", {"h_new"}, "h_root");
    b.node("Add", {"h_root", "epsilon"}, "step_den");
    b.node("Mul", {"r_adj", "v_new"}, "step_num");
    b.node("Div", {"step_num", "step_den"}, "step");
    b.node("Sub", {"X", "step"}, "x_stepped");
    b.node("Sub", {"one", "norm_coefficient_post"}, "decay_post");
    b.node("Mul", {"decay_post", "x_stepped"}, "x_new");
    std::vector<Bounds> r = b.walk(c, {"x_new", "v_new", "h_new"});
    for (size_t k = 0; k < 3; ++k) out[k * n + i] = std::move(r[k]);
  }
  return out;
}

}  // namespace sonnx::enclose::training_detail

namespace sonnx::enclose {
// The body's nodes bring their own allowances, and the walk its hull with the exact value.
SONNX_TRAINING_ENCLOSURE("Adagrad", (1), Allowance::own(), training_detail::enclose_adagrad);
SONNX_TRAINING_ENCLOSURE("Momentum", (1), Allowance::own(), training_detail::enclose_momentum);
SONNX_TRAINING_ENCLOSURE("Adam", (1), Allowance::own(), training_detail::enclose_adam);
}  // namespace sonnx::enclose
