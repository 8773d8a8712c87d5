// The one attribute parser: a node's attributes by name, the default when absent, and a check of
// the type. The reference kernels (OpContext), the shape rules (InferContext) and the fast-kernel
// factories and fusions (try_read in reference/ops/op_params.h) all read attributes through it, and the
// typed parameters of an operator (e.g. support::window_attrs) are read from any of them. What an
// attribute of the wrong type does is the reader's `fail`: the reference traps naming the node,
// type inference reports an inference error, a fast-kernel factory declines the node.
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx {

class AttrReader {
 public:
  explicit AttrReader(const Node& node) : node_(node) {}
  virtual ~AttrReader() = default;
  AttrReader(const AttrReader&) = delete;
  AttrReader& operator=(const AttrReader&) = delete;

  const Node& node() const { return node_; }
  bool has_attr(const std::string& name) const { return node_.attr(name) != nullptr; }
  const Attribute* attr(const std::string& name) const { return node_.attr(name); }
  int64_t attr_int(const std::string& name, int64_t def) const;
  float attr_float(const std::string& name, float def) const;
  std::string attr_string(const std::string& name, const std::string& def) const;
  std::vector<int64_t> attr_ints(const std::string& name, const std::vector<int64_t>& def = {}) const;
  std::vector<float> attr_floats(const std::string& name, const std::vector<float>& def = {}) const;
  std::vector<std::string> attr_strings(const std::string& name, const std::vector<std::string>& def = {}) const;
  // A data-type attribute (dtype, to, output_dtype, ...): nullopt when absent; fail()s when its
  // value names no element type.
  std::optional<DType> attr_dtype(const std::string& name) const;
  // A data-type attribute that must name a floating type (stash_type, softmax_precision, ...):
  // `def` when absent.
  DType attr_floating_type(const std::string& name, DType def) const;
  // A tensor or graph attribute (the node owns it): null when absent, or fail()s when required.
  const Tensor* attr_tensor(const std::string& name) const;
  const Graph* attr_graph(const std::string& name) const;
  const Tensor& required_tensor(const std::string& name) const;
  const Graph& required_graph(const std::string& name) const;

  // An attribute (or its value) the operator cannot take: never returns.
  [[noreturn]] virtual void fail(const std::string& message) const = 0;

 protected:
  // The attribute, null when absent; fail()s when it has another type.
  const Attribute* typed_attr(const std::string& name, Attribute::Type type) const;

 private:
  const Node& node_;
};

}  // namespace sonnx
