// Shape rules: what an operator version says about the types and shapes of its outputs given what
// is known of its inputs. Each operator file registers its rules next to its kernels with
// SONNX_SHAPE_RULE into the records of the exact operator versions (schema since_versions) the
// rule states (reference/ops/op_record.h); the engine (infer.h) never applies a rule to a version
// it was not registered for.
//
// Besides types, a rule may propagate a *partial value*: the elements of a small 0-D or 1-D integer
// tensor known at inference time, each a number, a symbol (dim_param) or unknown. That is what
// lets a shape computed in the graph (Shape -> Gather -> Concat -> Reshape) become a known shape.
#pragma once
#include <cstdint>
#include <functional>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"
#include "reference/model/ir.h"
#include "reference/ops/op_record.h"

namespace sonnx {

// An inference error found by a rule: the inputs contradict the operator's definition.
class InferError : public std::runtime_error {
 public:
  using std::runtime_error::runtime_error;
};

// Largest tensor the engine keeps as a known value or a partial value (elements).
inline constexpr int64_t kMaxKnownElements = 1024;

// Elements of a 0-D (scalar) or 1-D integer tensor known at inference time; a Dim per element
// (value: known number, param: symbol, neither: unknown).
struct PartialValue {
  bool scalar = false;  // 0-D: elems has exactly one entry
  std::vector<Dim> elems;
  bool fully_known() const;
  std::optional<std::vector<int64_t>> values() const;  // all numbers, or nullopt
};

// Type info helpers used by rules.
TypeInfo tensor_type(DType elem, std::optional<std::vector<Dim>> shape = std::nullopt);
std::vector<Dim> known_dims(const std::vector<int64_t>& dims);
inline Dim known_dim(int64_t v) { return Dim{v, ""}; }

// Infers a subgraph (If/Loop/Scan body) with the given input types; returns its output types.
using SubgraphInferrer = std::function<std::vector<TypeInfo>(const Graph&, const std::vector<TypeInfo>&)>;

// What a shape rule sees of its node and writes for its outputs.
class InferContext final : public AttrReader {
 public:
  struct Input {
    const TypeInfo* type = nullptr;         // null: omitted, or nothing is known about it
    const Tensor* value = nullptr;          // the whole value, when known (initializer, Constant, folded)
    const PartialValue* partial = nullptr;  // propagated elements of a small integer tensor
    bool present = false;                   // the node names this input
  };
  InferContext(const Node& node, int64_t version, std::vector<Input> inputs, SubgraphInferrer subgraphs);

  int64_t version() const { return version_; }

  size_t num_inputs() const { return inputs_.size(); }
  size_t num_outputs() const { return node_.outputs.size(); }
  bool has_input(size_t i) const { return i < inputs_.size() && inputs_[i].present; }
  bool has_output(size_t i) const { return i < node_.outputs.size() && !node_.outputs[i].empty(); }
  // The input's type, null when omitted or unknown.
  const TypeInfo* input_type(size_t i) const { return i < inputs_.size() ? inputs_[i].type : nullptr; }
  // The element type of a tensor input, Undefined when unknown; fails when the input is not a tensor.
  DType input_elem(size_t i) const;
  // The shape of a tensor input, null when the input or its rank is unknown.
  const std::vector<Dim>* input_shape(size_t i) const;
  std::optional<int64_t> input_rank(size_t i) const;
  const Tensor* input_value(size_t i) const { return i < inputs_.size() ? inputs_[i].value : nullptr; }
  // The input's elements as a partial value: from the known value (integer, at most 1-D) or the
  // propagated one; nullopt when nothing is known.
  std::optional<PartialValue> input_partial(size_t i) const;
  // A known integer input's elements (axes, pads, repeats ...); nullopt when not known.
  std::optional<std::vector<int64_t>> input_ints(size_t i) const;

  // Attributes: AttrReader's, and

  std::vector<TypeInfo> infer_subgraph(const Graph& g, const std::vector<TypeInfo>& inputs) const;

  // Outputs. Each starts unknown (Kind::Unknown); a rule sets what it can tell.
  void set_output(size_t i, TypeInfo t);
  void set_output(size_t i, DType elem, std::optional<std::vector<Dim>> shape) {
    set_output(i, tensor_type(elem, std::move(shape)));
  }
  void set_output_partial(size_t i, PartialValue v);
  void set_output_value(size_t i, Tensor v);
  const TypeInfo& output(size_t i) const { return outputs_.at(i); }
  std::vector<TypeInfo>& outputs() { return outputs_; }
  std::vector<std::optional<PartialValue>>& output_partials() { return partials_; }
  std::vector<std::optional<Tensor>>& output_values() { return values_; }
  void reset_outputs();

  [[noreturn]] void fail(const std::string& message) const override;

 private:
  const Node& node_;
  int64_t version_;
  std::vector<Input> inputs_;
  SubgraphInferrer subgraphs_;
  std::vector<TypeInfo> outputs_;
  std::vector<std::optional<PartialValue>> partials_;
  std::vector<std::optional<Tensor>> values_;
};

struct ShapeRuleRegistrar {
  ShapeRuleRegistrar(const char* domain, const char* op, std::initializer_list<int64_t> versions, ShapeRuleFn fn) {
    OpRecords::instance().add_shape_rule(domain, op, versions, fn);
  }
};

// SONNX_SHAPE_RULE("", "Relu", (1, 6, 13, 14), relu_shape): the rule for exactly those versions.
#define SONNX_SHAPE_RULE(domain, op, versions, fn) \
  static const ::sonnx::ShapeRuleRegistrar SONNX_CONCAT(sonnx_shape_rule_, __COUNTER__)(domain, op, {SONNX_EXPAND versions}, fn)

}  // namespace sonnx
