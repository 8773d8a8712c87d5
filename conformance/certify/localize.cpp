#include "localize.h"

#include "one_node_model.h"

#include "conformance/enclosure_judge.h"
#include "reference/interp/inliner.h"
#include "reference/interp/interpreter.h"
#include "sonnx/errors.h"
#include "reference/model/ir.h"
#include "reference/ops/op_table.h"

namespace sonnx {

namespace {

// What the nodes judged before the one at hand showed.
std::string nodes_before(size_t n) {
  if (n == 0) return "it is the first node";
  return n == 1 ? "the node before it stays within its enclosure"
                : "the " + std::to_string(n) + " nodes before it stay within their enclosures";
}

Localization not_localized(const std::string& why) { return {"not localized: " + why, "", std::nullopt}; }

Localization named(const Node& n, const std::string& what, LocalizedNode evidence) {
  return {"node " + n.label() + what, qualified_op_type(n), std::move(evidence)};
}

}  // namespace

Localization localize_error(const Model& model, TargetStage& stage, const NamedValues& inputs) {
  Model flat = inline_model(model);
  // The reference walks the model, but every node is given the backend's own outputs of it alone:
  // the nodes after it (inside the If branch the backend's values choose, each Loop iteration)
  // read what the backend made. The walk stops at the first node that can say something.
  Interpreter walk(flat), alone(flat);
  std::optional<Localization> result;
  struct Stop {};
  auto stop = [&](Localization l) {
    result = std::move(l);
    throw Stop{};
  };
  size_t judged = 0;
  walk.set_node_hook([&](const Node& n, const std::vector<const Value*>& in) -> std::optional<std::vector<Value>> {
    NamedValues feed;
    for (size_t k = 0; k < n.inputs.size() && k < in.size(); ++k) {
      if (n.inputs[k].empty() || !in[k]) continue;
      if (!in[k]->is_tensor())
        stop(not_localized("node " + n.label() + " reads '" + n.inputs[k] + "', which is not a tensor the backend produced"));
      feed[n.inputs[k]] = *in[k];
    }
    Model one;
    NamedValues expected;
    try {
      std::vector<Value> out;
      one = one_node_model(flat, n, feed, alone, &out);
      for (size_t k = 0; k < n.outputs.size() && k < out.size(); ++k)
        if (!n.outputs[k].empty()) expected[n.outputs[k]] = out[k];
    } catch (const std::exception& e) {
      stop(not_localized("the reference cannot run node " + n.label() + " alone: " + e.what()));
    }
    TargetResult r = stage.run(one, feed);
    if (r.status != "ok")
      stop(not_localized("the backend cannot run node " + n.label() + " alone (" + r.status + ": " + r.message + ")"));
    std::string why;
    std::optional<OutputEnclosures> e = enclose_outputs(one, feed, why);
    if (!e) stop(not_localized("node " + n.label() + " has no enclosure (" + why + "); " + nodes_before(judged)));
    auto evidence = [&] { return LocalizedNode{n.label(), one, feed, expected, r.outputs, *e}; };
    std::vector<Value> given(n.outputs.size());
    for (size_t k = 0; k < n.outputs.size(); ++k) {
      const std::string& name = n.outputs[k];
      if (name.empty()) continue;
      auto got = r.outputs.find(name);
      if (got == r.outputs.end()) stop(named(n, ": the backend did not produce output '" + name + "'", evidence()));
      EnclosureCheck c = judge_output(name, got->second, *e);
      if (!c.ok)
        stop(named(n,
                   " introduces the error: on the backend's own inputs, output '" + name + "': " + c.message + "; " +
                       nodes_before(judged),
                   evidence()));
      given[k] = got->second;
    }
    ++judged;
    return given;
  });
  try {
    walk.run(inputs);
  } catch (const Stop&) {
    return *result;
  } catch (const std::exception& e) {  // the backend's values took the walk where the reference cannot go
    return not_localized(std::string("the reference cannot go on with the backend's values: ") + e.what());
  }
  return not_localized("every node's output lies within its enclosure on the backend's own inputs");
}

}  // namespace sonnx
