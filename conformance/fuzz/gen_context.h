// The state of one graph under construction, shared by the operator generators (op_generators_*.cpp).
// Every operator is added in two steps, as in NNSmith: `plan` picks inputs and states the
// operator's constraints over fresh Z3 integer symbols (output sizes, attribute values, axes);
// the generator solves them (first with random preferences, then without) and `emit` builds the
// node from the solved, concrete values. Once an operator is emitted its shapes are constants, so
// every solve is small.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include <map>

#include <onnx/onnx_pb.h>
#include <z3++.h>

#include "sonnx/value.h"

namespace sonnx::fuzz {

// Bounds on a float tensor's elements; graph-input ranges are chosen so sensitive operators stay
// finite (Log sees positives, Div a divisor away from 0, Exp a bounded argument).
struct Interval {
  double lo = -1, hi = 1;
  double mag() const { return std::max(std::abs(lo), std::abs(hi)); }
};

struct TVar {
  std::string name;
  int32_t elem = onnx::TensorProto::FLOAT;
  std::vector<int64_t> shape;
  Interval range;
  bool fast_rounding = false;  // depends on a fast-kernel result (oneDNN rounds differently)
  bool rounding = false;       // depends on an operator of accuracy class `rounding`
  int consumers = 0;
  bool is_float() const { return elem == onnx::TensorProto::FLOAT; }
  int64_t rank() const { return static_cast<int64_t>(shape.size()); }
  int64_t numel() const;
};

// How a graph input's values are drawn (recorded with the case).
struct InputDraw {
  std::string name;
  Interval range;
  std::string kind;  // "uniform" (floats in range), "bool", "int64 [lo,hi]"
};

struct Solution;

// What an operator generator plans: constraints and preferences over fresh symbols, and how to emit.
struct OpPlan {
  std::vector<z3::expr> constraints;
  std::vector<z3::expr> prefs;                // dropped together when unsatisfiable
  std::function<bool(const Solution&)> emit;  // false: the solved sizes are out of bounds; nothing added
};

class GenContext {
 public:
  GenContext(z3::context& z, uint64_t seed, int max_dim, int opset);

  z3::context& z;
  std::mt19937_64 rng;
  int max_dim;
  int opset;  // the graph's ai.onnx opset: generators emit the operator versions in force there
  bool at_least(int version) const { return opset >= version; }
  static constexpr int64_t kMaxElements = 4096;
  static constexpr double kMaxMagnitude = 1e4;

  std::vector<TVar> tensors;
  std::vector<InputDraw> input_draws;
  onnx::GraphProto graph;
  int node_count = 0;

  // Random helpers.
  int64_t uniform(int64_t lo, int64_t hi);  // inclusive
  double uniform_real(double lo, double hi);
  bool coin(double p = 0.5);

  // A fresh dimension symbol in [lo, hi]; its bounds go into `p`.
  z3::expr fresh(OpPlan& p, const std::string& hint, int64_t lo, int64_t hi);
  z3::expr c(int64_t v) { return z.int_val(v); }

  // A random existing tensor satisfying `ok`, or -1.
  int pick(const std::function<bool(const TVar&)>& ok);
  // A new graph input of this shape with values drawn uniformly from `range`.
  int add_input(const std::vector<int64_t>& shape, Interval range);
  int add_bool_input(const std::vector<int64_t>& shape);
  // A new integer graph input (int32 or int64), values uniform in [lo, hi].
  int add_int_input(int32_t elem, const std::vector<int64_t>& shape, int64_t lo, int64_t hi);
  // A new initializer (float, values uniform in `range`) or an int64 constant.
  std::string add_float_const(const std::vector<int64_t>& shape, Interval range);
  std::string add_int64_const(const std::vector<int64_t>& shape, const std::vector<int64_t>& values);
  std::string add_int_const(int32_t elem, const std::vector<int64_t>& shape, const std::vector<int64_t>& values);
  std::string add_bool_const(bool v);
  // A new output tensor of a node being emitted.
  int add_tensor(int32_t elem, std::vector<int64_t> shape, Interval range, const std::vector<int>& from,
                 const std::string& op_type);
  onnx::NodeProto& add_node(const std::string& op_type, const std::vector<std::string>& inputs, const std::vector<int>& outputs);
  std::string fresh_name(const std::string& prefix);
  bool fits(const std::vector<int64_t>& shape) const;  // within the element bound
  bool fits(Interval r) const { return r.mag() <= kMaxMagnitude; }

  std::map<std::string, Value> input_values;    // the drawn value of every graph input
  int index_of(const std::string& name) const;  // tensor index, or -1 (constants are not tensors)

 private:
  int counter_ = 0;
};

// The solved values of a plan's symbols.
struct Solution {
  const z3::model* m;
  int64_t operator()(const z3::expr& e) const;
  std::vector<int64_t> operator()(const std::vector<z3::expr>& es) const;
};

// Attribute helpers for NodeProto.
void set_attr(onnx::NodeProto& n, const std::string& name, int64_t v);
void set_attr(onnx::NodeProto& n, const std::string& name, float v);
void set_attr(onnx::NodeProto& n, const std::string& name, const std::vector<int64_t>& v);
void set_attr(onnx::NodeProto& n, const std::string& name, const std::string& v);
void set_attr(onnx::NodeProto& n, const std::string& name, const onnx::GraphProto& g);

// One operator the generator can add.
struct OpGenerator {
  const char* name;
  bool (*plan)(GenContext& c, OpPlan& p);  // false: not applicable to the current graph
  int since = 0;                           // the operator exists from this ai.onnx opset on (0: at every opset generated)
                                           // (or, below 17, its generated form does: e.g. Equal on float from 11)
};
// Every generator; a recipe's choice indexes the ones that exist at its opset.
const std::vector<OpGenerator>& op_generators();
const std::vector<OpGenerator>& op_generators(int opset, bool sonnx_ops = false);  // sonnx_ops: Recipe::sonnx_ops

// Per-family tables, concatenated by op_generators().
void add_elementwise_generators(std::vector<OpGenerator>& v);
void add_shape_generators(std::vector<OpGenerator>& v);
void add_nn_generators(std::vector<OpGenerator>& v);
void add_control_generators(std::vector<OpGenerator>& v);
void add_scatter_generators(std::vector<OpGenerator>& v);

}  // namespace sonnx::fuzz
