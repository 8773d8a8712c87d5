// The enclosure of one operator: from the bounds of its inputs, the bounds of its outputs. Each
// family lives in its own file (enclose_elementwise.cpp, enclose_linear.cpp, enclose_lift.cpp,
// enclose_pool.cpp, enclose_compare.cpp; the ai.onnx.ml operators: enclose_ml.cpp).
#pragma once
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "encloser.h"
#include "interval.h"
#include "type_rounding.h"
#include "reference/interp/interpreter.h"
#include "reference/ops/op_record.h"
#include "reference/ops/registry.h"

namespace sonnx::enclose {

// The walk of a subgraph (an If branch, a Loop or Scan body): the bounds of its outputs, in order,
// from those of its inputs; the rest of what it reads resolves in the scope of the node's graph.
using SubgraphWalk = std::function<std::vector<Bounds>(const Graph&, std::map<std::string, Bounds>)>;

struct OpCall {
  OpCall(const Node& n, int64_t v, std::vector<const Bounds*> inputs, Interpreter& ref, int64_t domain_opset, Semantics s)
      : node(n),
        version(v),
        in(std::move(inputs)),
        reference(ref),
        opset(domain_opset),
        semantics(s),
        ctx(n, v, {}, nullptr, nullptr) {}
  const Node& node;
  int64_t version;                // the operator version selected
  std::vector<const Bounds*> in;  // null for an omitted optional input
  Interpreter& reference;         // runs the reference kernel (enclose_lift.cpp)
  int64_t opset;                  // the node's domain opset
  Semantics semantics;
  OpContext ctx;                            // the node's attributes and traps, as a reference kernel reads them
  const SubgraphWalk* subgraphs = nullptr;  // set by the encloser for a node with graph attributes
  const Bounds& input(size_t k) const;      // Trap when it is omitted
};

// "Op-N", as the refusals name an operator version ("ai.onnx.ml.Op-N" outside ai.onnx).
inline std::string op_name(const OpCall& c) {
  bool standard = c.node.domain.empty() || c.node.domain == "ai.onnx";
  return (standard ? "" : c.node.domain + ".") + c.node.op_type + "-" + std::to_string(c.version);
}

using EncloseFn = std::function<std::vector<Bounds>(const OpCall&)>;

// How far from the exact result (the real enclosure of the operator on its inputs' bounds) an
// implementation's result may lie under the `admissible` semantics (spec/accuracy.md, "Admissible
// results"). The encloser widens each float output by it and rounds it outward to the output's type.
struct Allowance {
  enum class Kind {
    Exact,  // every output value is an input value or exact in the type (data movement, Relu, Max)
    Ulps,   // within `ulps` units in the last place of the exact result (0.5: correctly rounded)
    Own,    // the enclosure function bounds it itself (c.semantics), e.g. a sum in any order
  } kind = Kind::Exact;
  double ulps = 0;
  static Allowance exact() { return {}; }
  static Allowance within(double k) { return {Kind::Ulps, k}; }
  static Allowance own() { return {Kind::Own, 0}; }
};

// The elementary functions (exp, log, tanh, the logistic function, erf, ...): an implementation's
// result on a float type lies within this many ulps of the exact value (spec/accuracy.md).
inline constexpr double kElementaryUlps = 4;

// Under the admissible semantics, an operator enclosed through a body may also be computed as a
// whole, like a library function (spec/accuracy.md, "Operators defined by a function body"): each
// float element of `body`'s result joined with `real`'s (the body's exact value) widened by
// kElementaryUlps (encloser.cpp; enclose_through_body, enclose_training.cpp).
void admit_whole_operator(Bounds& body, const Bounds& real);

}  // namespace sonnx::enclose

namespace sonnx {
namespace enclose {
// An operator version that a later version re-states with a function body without changing what
// it computes (enclose_restated.cpp): enclosed as that version's body.
struct RestatedVersion {
  int64_t version = 0;         // the later version, which has a function body
  bool axes_to_input = false;  // the `axes` attribute becomes input 1
};
}  // namespace enclose

// The enclosure slot of an operator version's record (reference/ops/op_record.h): a function, or
// the later version whose body encloses it (encloser.cpp walks that body).
struct EnclosureSlot {
  enclose::EncloseFn fn;
  enclose::Allowance allowance;
  std::optional<enclose::RestatedVersion> restated = std::nullopt;
  // Whether fn encloses exact inputs too (integers, strings): an operator whose float result on
  // them is a real number the reference rounds (the ai.onnx.ml predictors, on integer features),
  // not one it defines by a rounding, as Cast does. Otherwise the reference's result is taken.
  bool on_exact_inputs = false;
};
}  // namespace sonnx

namespace sonnx::enclose {

// The enclosure of an operator version of `domain` ("" or "ai.onnx", "ai.onnx.ml"), or null.
const EnclosureSlot* find_enclosure(const std::string& domain, const std::string& op_type, int64_t version);
inline const EnclosureSlot* find_enclosure(const std::string& op_type, int64_t version) {
  return find_enclosure("", op_type, version);
}

struct EnclosureRegistrar {
  EnclosureSlot slot;
  EnclosureRegistrar(const char* domain, const char* op, std::initializer_list<int64_t> versions, Allowance allowance,
                     EncloseFn fn)
      : slot{std::move(fn), allowance} {
    OpRecords::instance().fill(domain, op, versions, &OpRecord::enclosure, &slot, "enclosure");
  }
  // The same, with fn enclosing exact inputs too (EnclosureSlot::on_exact_inputs).
  struct OnExactInputs {};
  EnclosureRegistrar(OnExactInputs, const char* domain, const char* op, std::initializer_list<int64_t> versions,
                     Allowance allowance, EncloseFn fn)
      : EnclosureRegistrar(domain, op, versions, allowance, std::move(fn)) {
    slot.on_exact_inputs = true;
  }
  EnclosureRegistrar(const char* op, std::initializer_list<int64_t> versions, RestatedVersion later)
      : slot{nullptr, Allowance::own(), later} {
    OpRecords::instance().fill("", op, versions, &OpRecord::enclosure, &slot, "enclosure");
  }
};

// SONNX_RESTATED_ENCLOSURE("Selu", (6), {22, false}): versions of an ai.onnx operator enclosed as a
// later version's function body (enclose_restated.cpp).
#define SONNX_RESTATED_ENCLOSURE(op, versions, ...)                                                        \
  static const ::sonnx::enclose::EnclosureRegistrar SONNX_CONCAT(sonnx_enclosure_,                         \
                                                                 __COUNTER__)(op, {SONNX_EXPAND versions}, \
                                                                              ::sonnx::enclose::RestatedVersion __VA_ARGS__)

// SONNX_ENCLOSURE("Add", (7, 13, 14), Allowance::within(0.5), function): the enclosure of exactly
// those versions of an ai.onnx operator. The function comes last, so a lambda may hold commas.
#define SONNX_ENCLOSURE(op, versions, allowance, ...)                                                                    \
  static const ::sonnx::enclose::EnclosureRegistrar SONNX_CONCAT(sonnx_enclosure_, __COUNTER__)("", op,                  \
                                                                                                {SONNX_EXPAND versions}, \
                                                                                                allowance, __VA_ARGS__)
// SONNX_ML_ENCLOSURE("Binarizer", (1), Allowance::exact(), function): the same for an ai.onnx.ml
// operator (enclose_ml.cpp).
#define SONNX_ML_ENCLOSURE(op, versions, allowance, ...)                                                                 \
  static const ::sonnx::enclose::EnclosureRegistrar SONNX_CONCAT(sonnx_enclosure_, __COUNTER__)("ai.onnx.ml", op,        \
                                                                                                {SONNX_EXPAND versions}, \
                                                                                                allowance, __VA_ARGS__)
// SONNX_ML_PREDICTOR_ENCLOSURE("LinearRegressor", (1), Allowance::own(), function): an ai.onnx.ml
// operator whose enclosure also computes integer inputs (EnclosureSlot::on_exact_inputs).
#define SONNX_ML_PREDICTOR_ENCLOSURE(op, versions, allowance, ...)                               \
  static const ::sonnx::enclose::EnclosureRegistrar SONNX_CONCAT(sonnx_enclosure_, __COUNTER__)( \
      ::sonnx::enclose::EnclosureRegistrar::OnExactInputs{}, "ai.onnx.ml", op, {SONNX_EXPAND versions}, allowance, __VA_ARGS__)
// SONNX_TRAINING_ENCLOSURE("Adam", (1), Allowance::own(), function): the same for an
// ai.onnx.preview.training operator (enclose_training.cpp).
#define SONNX_TRAINING_ENCLOSURE(op, versions, allowance, ...)                                                                  \
  static const ::sonnx::enclose::EnclosureRegistrar SONNX_CONCAT(sonnx_enclosure_, __COUNTER__)("ai.onnx.preview.training", op, \
                                                                                                {SONNX_EXPAND versions},        \
                                                                                                allowance, __VA_ARGS__)

// Element i of float bounds as an interval.
inline Interval at(const Bounds& b, int64_t i) { return {b.lo.data<double>()[i], b.hi.data<double>()[i]}; }
// Float bounds of `type` and `shape` (zero-filled).
Bounds float_bounds(DType type, const Shape& shape);
inline void set(Bounds& b, int64_t i, Interval v) {
  b.lo.data<double>()[i] = v.lo;
  b.hi.data<double>()[i] = v.hi;
}

// The reference kernel's result on exact inputs (enclose_lift.cpp), each output as exact Bounds.
std::vector<Bounds> lift_exact(const OpCall& c);
// The reference kernel run once on the lower (or upper) bounds, float bounds as float64: its
// outputs, and its checks and traps (types, shapes, attributes), which an enclosure makes its own
// by calling it first (enclose_lift.cpp).
std::vector<Value> run_on_bounds(const OpCall& c, bool upper);
// An operator nondecreasing in every float input and exact on float64 (data movement, Relu, Max,
// ...): the reference kernel run once on every lower and once on every upper bound (enclose_lift.cpp).
// Sequences and optionals are moved element by element.
std::vector<Bounds> lift_monotone(const OpCall& c);
// The value the reference runs on for bounds b: its lower (or upper) bound, float64 for a float
// tensor, the value itself for an exact one; a sequence or an optional of such (enclose_lift.cpp).
Value bound_value(const Bounds& b, bool upper);
// A float enclosure cast to bool: true where it excludes 0, false where it is the point 0, else
// Undetermined (enclose_select.cpp).
Bounds float_to_bool(const OpCall& c, const Bounds& x);

// The softmax of the `count` elements of x at base, base + stride, ... into the same places of y;
// with `type`, widened by what the admissible semantics allows in that type (enclose_linear.cpp).
// Softmax, TreeEnsemble's post_transform (enclose_ml_trees.cpp).
void softmax_line(const Bounds& x, Bounds& y, int64_t base, int64_t count, int64_t stride, const FloatFormat* type);

// Input k, which must be a float tensor (Trap otherwise).
const Bounds& float_input(const OpCall& c, size_t k);
// f (Interval → Interval) of each element of float input 0, in its type and shape.
template <class F>
std::vector<Bounds> map_elements(const OpCall& c, F f) {
  const Bounds& x = float_input(c, 0);
  Bounds out = float_bounds(x.type, x.lo.shape());
  for (int64_t i = 0; i < out.lo.size(); ++i) set(out, i, f(at(x, i)));
  return {out};
}
// Under the `real` semantics, the centered enclosure of the operator (enclose_centered.cpp), where it
// has one that applies to these inputs.
std::optional<std::vector<Bounds>> centered_enclosure(const OpCall& c);

}  // namespace sonnx::enclose
