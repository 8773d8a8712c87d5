// What a reference kernel sees of its node (OpContext), and SONNX_KERNEL, with which each operator
// file registers its kernels into the operator version records (op_record.h). What applies to a
// node of a model (operator version, kernel or function body, accuracy class): op_table.h.
#pragma once
#include <cstdint>
#include <functional>
#include <random>
#include <string>
#include <vector>

#include "op_record.h"
#include "reference/model/attr_reader.h"
#include "reference/model/ir.h"
#include "sonnx/value.h"

namespace sonnx {

// Runs a subgraph (If/Loop/Scan body) with positional inputs; outer-scope names resolve in the
// caller's scope. Supplied by the interpreter.
using SubgraphRunner = std::function<std::vector<Value>(const Graph&, const std::vector<Value>&)>;

// What a kernel sees of the node it executes.
class OpContext final : public AttrReader {
 public:
  OpContext(const Node& node, int64_t version, std::vector<const Value*> inputs, SubgraphRunner runner, std::mt19937_64* rng)
      : AttrReader(node), node_(node), version_(version), inputs_(std::move(inputs)), runner_(std::move(runner)), rng_(rng) {}

  int64_t version() const { return version_; }  // the operator version selected (schema since_version)

  size_t num_inputs() const { return inputs_.size(); }
  size_t num_outputs() const { return node_.outputs.size(); }
  bool has_input(size_t i) const { return i < inputs_.size() && inputs_[i] != nullptr; }
  bool has_output(size_t i) const { return i < node_.outputs.size() && !node_.outputs[i].empty(); }
  const Value& value(size_t i) const;   // traps when omitted
  const Tensor& input(size_t i) const;  // traps when omitted or not a tensor

  // Attributes: AttrReader's, and

  std::vector<Value> run_subgraph(const Graph& g, const std::vector<Value>& inputs) const;
  std::mt19937_64& rng() const;
  // The nodes of the graph (or function body) this node belongs to, when the executor provides
  // them; null otherwise. For operators defined in terms of their enclosing graph (Gradient).
  const std::vector<Node>* graph_nodes() const { return graph_nodes_; }
  void set_graph_nodes(const std::vector<Node>* nodes) { graph_nodes_ = nodes; }

  // A runtime trap naming this node, op and version.
  [[noreturn]] void fail(const std::string& message) const override;

 private:
  const Node& node_;
  int64_t version_;
  std::vector<const Value*> inputs_;
  SubgraphRunner runner_;
  std::mt19937_64* rng_;
  const std::vector<Node>* graph_nodes_ = nullptr;
};

struct KernelRegistrar {
  KernelRegistrar(const char* domain, const char* op, int64_t since, KernelFn fn, Accuracy acc) {
    OpRecords::instance().add_kernel({domain, op, since, fn, acc});
  }
};

// SONNX_KERNEL(domain, "Op", since_version, kernel_function, Accuracy::X)
#define SONNX_KERNEL(domain, op, since, fn, acc) \
  static const ::sonnx::KernelRegistrar SONNX_CONCAT(sonnx_kernel_, __COUNTER__)(domain, op, since, fn, acc)

}  // namespace sonnx
