// fold_constants (rewrites.h): a node whose inputs are all constants computes the same values at
// every run; computing them once, with the reference kernel of the node's version (the very
// computation the interpreter would do), and storing them as initializers keeps every output
// bitwise. Values sonnx's inference knows in full (a Shape of a static value, the shape arithmetic
// after it) are folded the same way, from inference's exact integers.
#include <set>

#include "reference/infer/fold.h"
#include "reference/infer/infer.h"
#include "reference/interp/interpreter.h"
#include "reference/ops/op_table.h"
#include "rewrites.h"

namespace sonnx::admit {
namespace {

// Folded values may grow the model by at most this many elements beyond what the node reads
// (a ConstantOfShape of a large shape stays a node).
constexpr int64_t kMaxGrowth = 1 << 16;

bool foldable_kind(const Model& m, const Node& n) {
  std::string d = canonical_domain(n.domain);
  if (d != "" && d != "ai.onnx.ml") return false;  // an operator sonnx does not know
  if (n.has_subgraph() || samples_random_numbers(n.op_type) || n.op_type == "Dropout") return false;
  for (const std::string& o : n.outputs)
    for (const ValueInfo& v : m.graph.outputs)
      if (o == v.name) return false;  // a graph output stays computed by a node
  return true;
}

// The node's outputs from inference's exact values, when it knows them all.
std::optional<std::vector<Tensor>> known_outputs(const Node& n, const InferenceResult& inf) {
  std::vector<Tensor> out;
  for (const std::string& o : n.outputs) {
    if (o.empty()) return std::nullopt;
    auto p = inf.partials.find(o);
    auto t = inf.types.find(o);
    if (p == inf.partials.end() || t == inf.types.end() || !p->second.fully_known()) return std::nullopt;
    std::optional<Tensor> v = tensor_from_partial(p->second, t->second.elem);
    if (!v) return std::nullopt;
    out.push_back(std::move(*v));
  }
  return out;
}

}  // namespace

void fold_constants(Model& m, ChangeLog& log) {
  Graph& g = m.graph;
  std::set<std::string> overridable;  // graph inputs: an initializer of the same name is a default only
  for (const ValueInfo& v : g.inputs) overridable.insert(v.name);
  std::map<std::string, Value> constants;
  for (const auto& [name, t] : g.initializers)
    if (!overridable.count(name)) constants[name] = Value(t);

  const InferenceResult inf = infer_model(m);
  Interpreter interp(m);
  ValueScope no_outer;
  std::vector<bool> folded(g.nodes.size(), false);
  for (bool changed = true; changed;) {  // one pass when the node list is topological
    changed = false;
    for (size_t i = 0; i < g.nodes.size(); ++i) {
      const Node& n = g.nodes[i];
      if (folded[i] || !foldable_kind(m, n)) continue;
      std::vector<const Value*> in;
      int64_t read = 0;
      bool all_constant = true;
      for (const std::string& name : n.inputs) {
        if (name.empty()) {
          in.push_back(nullptr);
          continue;
        }
        auto it = constants.find(name);
        if (it == constants.end()) {
          all_constant = false;
          break;
        }
        in.push_back(&it->second);
        if (it->second.kind == Value::Kind::Tensor) read += it->second.tensor.size();
      }
      std::vector<Value> values;
      std::string how;
      if (all_constant) {
        try {
          values = interp.run_node(n, in, no_outer, node_opset(m, n));
          how = "computed by the reference kernel";
        } catch (const std::exception&) {
          continue;  // it traps on these constants: left for the run to report
        }
      } else if (auto known = known_outputs(n, inf)) {
        for (Tensor& t : *known) values.emplace_back(std::move(t));
        how = "known to inference";
      } else {
        continue;
      }
      int64_t written = 0;
      bool tensors = values.size() == n.outputs.size();
      for (const Value& v : values) {
        tensors = tensors && v.kind == Value::Kind::Tensor;
        if (v.kind == Value::Kind::Tensor) written += v.tensor.size();
      }
      if (!tensors || (n.op_type != "Constant" && written > read + kMaxGrowth)) continue;
      for (size_t k = 0; k < values.size(); ++k)
        if (!n.outputs[k].empty()) constants[n.outputs[k]] = std::move(values[k]);
      folded[i] = changed = true;
      log.add("fold", n.label(), "SONNX-OPERATOR-SET", "its outputs are constants, " + how);
    }
  }

  std::vector<Node> kept;
  std::vector<std::string> now_constant;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    if (!folded[i]) kept.push_back(std::move(g.nodes[i]));
    else
      for (const std::string& o : g.nodes[i].outputs)
        if (!o.empty()) now_constant.push_back(o);
  }
  g.nodes = std::move(kept);
  for (const std::string& name : now_constant) g.initializers.emplace_back(name, constants.at(name).tensor);
}

}  // namespace sonnx::admit
