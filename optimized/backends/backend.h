// The C++ side of the backend contract (docs/design.md §2.7, Samsung ONE's small `Backend`): a backend
// says which nodes it runs (capabilities), compiles a subgraph into a step (prepare) and runs it
// (execute); releasing is the step's destructor. Built-in backends: `reference` (the interpreter's
// kernels) and `cpu` (the Linear executor with the fast kernels). Plugins speak the C ABI of
// include/sonnx/backend.h and are wrapped by PluginBackend. Failures are BackendError, which the
// partitioned executor answers by running the step on `cpu` (unless fallback is disallowed).
#pragma once
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string>
#include <vector>

#include "sonnx/value.h"
#include "reference/model/ir.h"

namespace sonnx {

struct BackendError : std::runtime_error {
  using std::runtime_error::runtime_error;
};

// One row of a backend's capability table: an operator, its opset range, its element types.
struct Capability {
  std::string domain;  // "" = ai.onnx
  std::string op_type;
  int64_t min_opset = 1;
  int64_t max_opset = 0;     // 0 = no upper bound
  std::vector<DType> types;  // empty = any
};

// What the partitioner asks about a node: the node, the opset in force for its domain, and the
// element types of its tensor inputs (Undefined when not known before running).
struct NodeQuery {
  const Model& model;
  const Node& node;
  int64_t opset = 0;
  std::vector<DType> input_types;
};

// A compiled subgraph. Its inputs and outputs are the subgraph model's graph inputs/outputs.
class CompiledStep {
 public:
  virtual ~CompiledStep() = default;
  virtual NamedValues execute(const NamedValues& inputs) = 0;
};

class Backend {
 public:
  virtual ~Backend() = default;
  virtual std::string name() const = 0;
  virtual std::string version() const = 0;
  // The kind of device: "cpu", "accelerator", "reference" or "other".
  virtual std::string type() const = 0;
  // Whether the backend implements every operator (the built-ins); else capabilities() lists them.
  virtual bool runs_everything() const { return false; }
  virtual std::vector<Capability> capabilities() const { return {}; }
  virtual bool supports(const NodeQuery& q) const = 0;
  // Why the backend does not run this node ("" when it does), for `sonnx devices --model`.
  virtual std::string why_not(const NodeQuery& q) const { return supports(q) ? "" : "the backend declines it"; }
  // Compiles `subgraph` (a model whose graph is one step); throws BackendError when it cannot.
  virtual std::unique_ptr<CompiledStep> prepare(const Model& subgraph) const = 0;
};

// True when `caps` has a row for this node, its opset and every known input element type.
bool capability_matches(const std::vector<Capability>& caps, const NodeQuery& q);
// Why no row of `caps` matches ("" when one does): no row for the operator, the opset outside
// every row's range, or an input element type no row accepts.
std::string capability_mismatch(const std::vector<Capability>& caps, const NodeQuery& q);

// "reference", "cpu", or a path to a plugin (.so, or anything with a '/'). Throws LoadError for an
// unknown name or a library that is not a sonnx backend.
std::shared_ptr<Backend> make_backend(const std::string& name_or_path);
std::shared_ptr<Backend> make_reference_backend();
std::shared_ptr<Backend> make_cpu_backend();
std::shared_ptr<Backend> load_plugin_backend(const std::string& path);
bool is_plugin_path(const std::string& name_or_path);

}  // namespace sonnx
