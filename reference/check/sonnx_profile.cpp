// SONNX profile restrictions (spec/restrictions.md): explicit attributes and static types, the
// operator subset, determinism, inference only, no control flow, no sparse tensors, no input
// defaults. Rules on nodes judge every node of the model, function bodies included (graph_walk.h).
// Relies on structure.mlw Graph.ssa_strict: the strict STRUCT-SSA of subgraphs (no input is an initializer) is the main graph's STRUCT-SSA together with SONNX-NO-INPUT-DEFAULT.
#include "graph_walk.h"
#include "reference/catalogue/catalogue.h"
#include "profile.h"
#include "reference/ops/op_table.h"
#include "rules.h"

namespace sonnx {

void check_explicit_attributes(CheckContext& c) {
  for_each_node(c.model.ir,
                [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
                  auto it = opsets.find(n.domain);
                  if (it == opsets.end()) return;
                  const auto* s = catalogue::find(n.domain, n.op_type, it->second);
                  if (!s) return;
                  for (const auto& attr : s->attributes)
                    if (!attr.required && attr.default_value && !n.attr(attr.name))
                      c.report("SONNX-EXPLICIT-ATTR", path, &n, "",
                               "SONNX-EXPLICIT-ATTR: every attribute with a default is given explicitly; " + node_id(n) + " (" +
                                   n.op_type + ") relies on the default of '" + attr.name + "'");
                });
}

void check_static_types(CheckContext& c) {
  const Graph& g = c.model.ir.graph;
  std::map<std::string, const TypeInfo*> declared;
  for (const auto* list : {&g.inputs, &g.outputs, &g.value_info})
    for (const auto& v : *list) declared[v.name] = &v.type;
  auto need = [&](const std::string& name, const Node* n, const char* what) {
    auto it = declared.find(name);
    if (it == declared.end())
      c.report("SONNX-STATIC-TYPE", g.path, n, name,
               std::string("SONNX-STATIC-TYPE: every value has a declared type and static shape; ") + what + " '" + name +
                   "' has no declared type");
    else if (!it->second->is_static_tensor())
      c.report("SONNX-STATIC-TYPE", g.path, n, name,
               std::string("SONNX-STATIC-TYPE: every value has a declared type and static shape; ") + what + " '" + name +
                   "' is declared " + it->second->str());
  };
  for (const auto& v : g.inputs) need(v.name, nullptr, "graph input");
  for (const auto& v : g.outputs) need(v.name, nullptr, "graph output");
  std::set<std::string> io;
  for (const auto& v : g.inputs) io.insert(v.name);
  for (const auto& v : g.outputs) io.insert(v.name);
  for (const auto& n : g.nodes)
    for (const auto& o : n.outputs)
      if (!o.empty() && !io.count(o)) need(o, &n, "value");
}

void check_operator_set(CheckContext& c) {
  if (!c.profile.restricts_operators) return;
  const Model& m = c.model.ir;
  for_each_node(m, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>& opsets, const Function*) {
    // A call of a local function is replaced by its body when inlined: the body's nodes are judged
    // (they are visited too), not the call.
    if (called_function(m, n)) return;
    auto report = [&](const std::string& what) {
      c.report("SONNX-OPERATOR-SET", path, &n, "",
               "SONNX-OPERATOR-SET: only operators of the " + c.profile.name + " operator set; " + what);
    };
    auto allowed = c.profile.operators.find(n.op_type);
    if (!n.domain.empty() || allowed == c.profile.operators.end()) {
      report((n.domain.empty() ? "" : n.domain + ".") + n.op_type + " is not in it");
      return;
    }
    // The version the model's opset_import selects must be one the set lists (REQ-FO-020: a model
    // states exactly which version of each operator it uses).
    auto opset = opsets.find("");
    const catalogue::Schema* s = opset == opsets.end() ? nullptr : catalogue::find("", n.op_type, opset->second);
    if (allowed->second.empty() || !s || allowed->second.count(s->version)) return;  // OP-EXISTS reports a missing schema
    std::string listed;
    for (int64_t v : allowed->second) listed += (listed.empty() ? "" : ", ") + n.op_type + "-" + std::to_string(v);
    report(s->id() + " (selected by opset_import " + std::to_string(opset->second) + ") is not in it; it has " + listed);
  });
}

void check_deterministic(CheckContext& c) {
  const Model& m = c.model.ir;
  for_each_node_list(m, [&](const NodeList& l) {
    // Constants a Dropout's training_mode may name: the initializers of its graph (a function body
    // has none, so there training_mode must be absent).
    std::map<std::string, const Tensor*> constants;
    if (l.graph)
      for (const auto& [name, t] : l.graph->initializers) constants[name] = &t;
    for (const auto& n : l.nodes) {
      if (!n.domain.empty() || called_function(m, n)) continue;
      if (samples_random_numbers(n.op_type)) {
        c.report("SONNX-DETERMINISTIC", l.path, &n, "",
                 "SONNX-DETERMINISTIC: only deterministic operators; " + n.op_type + " samples random numbers");
      } else if (n.op_type == "Dropout" && n.inputs.size() > 2 && !n.inputs[2].empty()) {
        // training_mode must be a constant false for the node to be deterministic.
        auto it = constants.find(n.inputs[2]);
        bool constant_false = it != constants.end() && it->second->size() == 1 && it->second->dtype() == DType::Bool &&
                              !it->second->data<bool>()[0];
        if (!constant_false)
          c.report("SONNX-DETERMINISTIC", l.path, &n, n.inputs[2],
                   "SONNX-DETERMINISTIC: only deterministic operators; Dropout's training_mode '" + n.inputs[2] +
                       "' is not a constant false");
      }
    }
  });
}

void check_inference_only(CheckContext& c) {
  const char* training = "ai.onnx.preview.training";
  if (c.model.proto.training_info_size() > 0)
    c.report("SONNX-INFERENCE-ONLY", "main", nullptr, "",
             "SONNX-INFERENCE-ONLY: the model carries training information (training_info)");
  for_each_node(c.model.ir, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>&, const Function*) {
    if (n.domain == training)
      c.report("SONNX-INFERENCE-ONLY", path, &n, "",
               "SONNX-INFERENCE-ONLY: no training operators; " + n.op_type + " is in " + training);
    // BatchNormalization in training mode normalises by the batch's statistics and updates the
    // running ones: a training step (the working group's BatchNormalization R1).
    if (n.domain.empty() && n.op_type == "BatchNormalization")
      if (const Attribute* a = n.attr("training_mode"); a && a->type == Attribute::Type::Int && a->i != 0)
        c.report("SONNX-INFERENCE-ONLY", path, &n, "",
                 "SONNX-INFERENCE-ONLY: no training step; " + node_id(n) +
                     " (BatchNormalization) has training_mode=" + std::to_string(a->i));
  });
}

void check_no_control_flow(CheckContext& c) {
  for_each_node(c.model.ir, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>&, const Function*) {
    if (n.has_subgraph() ||
        (n.domain.empty() && (n.op_type == "If" || n.op_type == "Loop" || n.op_type == "Scan" || n.op_type == "SequenceMap")))
      c.report("SONNX-NO-CONTROL-FLOW", path, &n, "",
               "SONNX-NO-CONTROL-FLOW: no control-flow operators; " + node_id(n) + " is " + n.op_type);
  });
}

void check_no_sparse(CheckContext& c) {
  const Graph& g = c.model.ir.graph;
  for (const auto& s : g.sparse_initializers)
    c.report("SONNX-NO-SPARSE", g.path, nullptr, s, "SONNX-NO-SPARSE: no sparse tensors; '" + s + "' is a sparse initializer");
  for (const auto* list : {&g.inputs, &g.outputs, &g.value_info})
    for (const auto& v : *list)
      if (v.type.kind == TypeInfo::Kind::SparseTensor)
        c.report("SONNX-NO-SPARSE", g.path, nullptr, v.name,
                 "SONNX-NO-SPARSE: no sparse tensors; '" + v.name + "' has a sparse tensor type");
  for_each_node(c.model.ir, [&](const Node& n, const std::string& path, const std::map<std::string, int64_t>&, const Function*) {
    for (const auto& a : n.attributes)
      if (a.type == Attribute::Type::SparseTensor || a.type == Attribute::Type::SparseTensors)
        c.report("SONNX-NO-SPARSE", path, &n, "",
                 "SONNX-NO-SPARSE: no sparse tensors; attribute '" + a.name + "' of " + node_id(n) + " is sparse");
  });
}

void check_no_input_defaults(CheckContext& c) {
  // Only the main graph: in a subgraph an input with an initializer is STRUCT-SSA's finding.
  const Graph& g = c.model.ir.graph;
  std::set<std::string> constants(g.sparse_initializers.begin(), g.sparse_initializers.end());
  for (const auto& [name, t] : g.initializers) constants.insert(name);
  for (const auto& v : g.inputs)
    if (constants.count(v.name))
      c.report(
          "SONNX-NO-INPUT-DEFAULT", g.path, nullptr, v.name,
          "SONNX-NO-INPUT-DEFAULT: no graph input has a default; input '" + v.name +
              "' is also an initializer, so the model computes with it or with the caller's tensor depending on the runtime");
}

}  // namespace sonnx
