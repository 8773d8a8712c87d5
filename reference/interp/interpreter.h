// The reference interpreter: executes a model by the dataflow semantics of spec/execution.md.
// A node runs when every input it names (and every outer value its subgraphs use) is defined;
// each value is assigned once; among ready nodes the one earliest in the node list runs first
// (any choice gives the same result — proofs/ shows the semantics is confluent).
#pragma once
#include <functional>
#include <optional>
#include <random>
#include <set>
#include <string>
#include <unordered_map>
#include <vector>

#include "reference/model/ir.h"
#include "sonnx/value.h"

namespace sonnx {

// The values visible in one graph execution (a graph, a subgraph or a function body); outer names
// resolve through `parent`. (What names a graph defines or captures, statically: model/names.h.)
struct ValueScope {
  const ValueScope* parent = nullptr;
  std::unordered_map<std::string, Value> values;
  const Value* lookup(const std::string& name) const;
};

// A graph input's given value must have the input's declared element type when one is declared:
// sonnx converts no value implicitly (spec/restrictions.md, SONNX-NO-IMPLICIT-CONVERSION). A map
// must be given for an input declared a map, of its key type and value element type, and only
// there. Throws Trap naming the input, the given and the declared type.
void check_given_input(const ValueInfo& declared, const Value& given);

class Interpreter {
 public:
  explicit Interpreter(const Model& model, uint64_t seed = 0);

  // Runs the main graph. `inputs` binds graph inputs by name; a graph input with an initializer
  // may be left out (the initializer is its default). Returns every graph output by name.
  NamedValues run(const NamedValues& inputs);

  // Runs one node's operator on given input values (used by executors and kernel tests).
  std::vector<Value> run_node(const Node& node, const std::vector<const Value*>& inputs, const ValueScope& scope,
                              int64_t domain_opset);

  // Localization's view of a run (conformance/certify/localize.h): called before each node of the
  // model's graphs that has no subgraph runs, at any depth (the If branch taken, each Loop
  // iteration) but not inside an operator's function body, with the node's input values. It gives
  // the node's results itself (a backend's, certify) or nullopt for the operator's own (fuzzing).
  using NodeHook = std::function<std::optional<std::vector<Value>>(const Node&, const std::vector<const Value*>&)>;
  void set_node_hook(NodeHook hook) { hook_ = std::move(hook); }

 private:
  std::vector<Value> run_graph(const Graph& g, const std::vector<Value>& inputs, const ValueScope* outer);
  void run_nodes(const std::vector<Node>& nodes, ValueScope& scope);
  std::vector<Value> call_function(const Node& node, const std::vector<const Value*>& inputs, const ValueScope& scope,
                                   int64_t domain_opset);

  const Model& model_;
  std::mt19937_64 rng_;
  int call_depth_ = 0;
  int call_counter_ = 0;
  int function_depth_ = 0;  // function bodies being run: the hook does not see their nodes
  NodeHook hook_;
  std::set<std::string> model_names_;                 // every name of the model's graph, at any depth
  const std::vector<Node>* current_nodes_ = nullptr;  // the node list run_nodes is executing
};

}  // namespace sonnx
