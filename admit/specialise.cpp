// specialise_control_flow (rewrites.h): an If whose condition is a constant runs the same branch at
// every run; the branch's nodes, in the If's place, compute the If's outputs (spec/control_flow.md:
// an If's outputs are its taken branch's outputs, the branch seeing the enclosing values).
#include <algorithm>
#include <set>

#include "constant.h"
#include "inline_graph.h"
#include "reference/model/names.h"
#include "rewrites.h"
#include "unique_name.h"

namespace sonnx::admit {

bool specialise_control_flow(Model& m, ChangeLog& log) {
  Graph& g = m.graph;
  for (size_t i = 0; i < g.nodes.size(); ++i) {
    const Node& n = g.nodes[i];
    if (!canonical_domain(n.domain).empty() || n.op_type != "If" || n.inputs.empty()) continue;
    const Tensor* cond = constant(g, n.inputs[0]);
    if (!cond || cond->size() != 1 || cond->dtype() != DType::Bool) continue;
    const bool taken = cond->data<bool>()[0];
    const Attribute* a = n.attr(taken ? "then_branch" : "else_branch");
    if (!a || !a->g || a->g->outputs.size() != n.outputs.size()) continue;
    Graph branch = *a->g;

    std::set<std::string> taken_names;
    collect_all_names(g, taken_names);
    auto fresh = [&](const std::string& base) { return unique_name(taken_names, base); };
    // The branch's own names: its outputs become the If's outputs, the others keep their names
    // unless the main graph has them.
    Renames r;
    std::set<std::string> defined;
    for (const auto& [name, t] : branch.initializers) defined.insert(name);
    for (const Node& b : branch.nodes)
      for (const std::string& o : b.outputs)
        if (!o.empty()) defined.insert(o);
    std::vector<Node> copies;  // If outputs the branch returns without defining them (captured values)
    std::set<std::string> claimed;
    for (size_t k = 0; k < branch.outputs.size(); ++k) {
      const std::string& out = branch.outputs[k].name;
      if (n.outputs[k].empty()) continue;
      if (defined.count(out) && !claimed.count(out)) {
        r[out] = n.outputs[k];
        claimed.insert(out);
      } else {
        Node copy;
        copy.op_type = "Identity";
        copy.name = fresh(n.name.empty() ? "If_output" : n.name + "_output");
        copy.inputs = {out};  // renamed below with the branch's reads
        copy.outputs = {n.outputs[k]};
        copies.push_back(std::move(copy));
      }
    }
    for (const std::string& name : defined)
      if (!r.count(name) && taken_names.count(name)) r[name] = fresh(name);

    for (Node& b : branch.nodes) {
      for (std::string& o : b.outputs) o = renamed(r, o);
      if (!b.name.empty() && taken_names.count(b.name)) b.name = fresh(b.name);
    }
    rename_captures(branch, r);
    for (Node& c : copies) c.inputs[0] = renamed(r, c.inputs[0]);
    for (auto& [name, t] : branch.initializers) g.initializers.emplace_back(renamed(r, name), std::move(t));
    for (ValueInfo& v : branch.value_info) g.value_info.push_back({renamed(r, v.name), v.type});

    std::string label = n.label();
    size_t count = branch.nodes.size();
    std::vector<Node> inserted = std::move(branch.nodes);
    inserted.insert(inserted.end(), copies.begin(), copies.end());
    g.nodes.erase(g.nodes.begin() + static_cast<std::ptrdiff_t>(i));
    g.nodes.insert(g.nodes.begin() + static_cast<std::ptrdiff_t>(i), inserted.begin(), inserted.end());
    log.add("specialise", label, "SONNX-NO-CONTROL-FLOW",
            std::string("the condition is constant ") + (taken ? "true" : "false") + ": the " + (taken ? "then" : "else") +
                " branch's " + std::to_string(count) + " nodes in its place");
    return true;
  }
  return false;
}

}  // namespace sonnx::admit
