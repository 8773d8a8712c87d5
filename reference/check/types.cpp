// TYPE-INFERENCE: element types satisfy the schemas' type constraints, and shapes are consistent,
// as onnx's own type and shape inference (strict mode, type checks on) decides. onnx stops at the
// first failing node, so we name unnamed nodes, run it, drop the failing node, and run again, to
// report every violation (bounded number of rounds).
#include <map>
#include <regex>
#include <set>

#include <onnx/shape_inference/implementation.h>

#include "graph_walk.h"
#include "reference/catalogue/catalogue.h"
#include "rules.h"

namespace sonnx {

namespace {
constexpr int kMaxRounds = 50;
const char* kTempPrefix = "__sonnx_node_";

using Opsets = std::map<std::string, int>;

// onnx's inference functions assume a node meets its schema's structure (arity, required
// attributes and their types): a Scan without its body crashes inside libonnx. Such nodes are
// OP-ARITY / ATTR-* findings, not type findings, so they are taken out before inference runs.
bool meets_schema_structure(const onnx::NodeProto& n, const Opsets& opsets) {
  std::string domain = n.domain() == "ai.onnx" ? "" : n.domain();
  auto it = opsets.find(domain);
  if (it == opsets.end()) return true;  // no schema to apply; inference reports or skips it
  const auto* s = onnx::OpSchemaRegistry::Schema(n.op_type(), it->second, domain);
  if (!s) return true;
  // libonnx 1.12 knows the opsets through 17; a node whose version (the catalogue's) it does not
  // know would be inferred under an older version's rules, so it is left out here.
  const auto* known = catalogue::find(domain, n.op_type(), it->second);
  if (!known || known->version != s->since_version()) return false;
  if (n.input_size() < s->min_input() || n.input_size() > s->max_input()) return false;
  if (n.output_size() < s->min_output() || n.output_size() > s->max_output()) return false;
  for (const auto& [name, attr] : s->attributes()) {
    const onnx::AttributeProto* given = nullptr;
    for (const auto& a : n.attribute())
      if (a.name() == name) given = &a;
    if (!given) {
      if (attr.required) return false;
    } else if (given->ref_attr_name().empty() && given->type() != attr.type) {
      return false;
    }
  }
  return true;
}

void remove_malformed_nodes(google::protobuf::RepeatedPtrField<onnx::NodeProto>& nodes, const Opsets& opsets) {
  for (int i = nodes.size() - 1; i >= 0; --i) {
    if (!meets_schema_structure(nodes.Get(i), opsets)) {
      nodes.DeleteSubrange(i, 1);
      continue;
    }
    for (auto& a : *nodes.Mutable(i)->mutable_attribute()) {
      if (a.has_g()) remove_malformed_nodes(*a.mutable_g()->mutable_node(), opsets);
      for (auto& g : *a.mutable_graphs()) remove_malformed_nodes(*g.mutable_node(), opsets);
    }
  }
}

Opsets opsets_of(const google::protobuf::RepeatedPtrField<onnx::OperatorSetIdProto>& imports) {
  Opsets out;
  for (const auto& o : imports) out[o.domain() == "ai.onnx" ? "" : o.domain()] = static_cast<int>(o.version());
  return out;
}
}  // namespace

void check_type_inference(CheckContext& c) {
  if (c.has_recursion) return;  // onnx's inference recurses into functions without a bound
  // Inference presupposes a well-formed graph; on a malformed one its findings are echoes of the
  // structural error. Likewise a node another rule already rejected is not reported again.
  std::set<std::string> already;
  for (const auto& d : c.out) {
    if (d.severity != Severity::Error) continue;
    if (d.rule.rfind("STRUCT-", 0) == 0 || d.rule.rfind("FUNC-", 0) == 0) return;
    if (!d.node.empty()) already.insert(d.node);
  }
  onnx::ModelProto copy = c.model.proto;
  auto* g = copy.mutable_graph();
  for (int i = 0; i < g->node_size(); ++i)  // named before pruning, so "#index" stays the original index
    if (g->node(i).name().empty()) g->mutable_node(i)->set_name(kTempPrefix + std::to_string(i));
  remove_malformed_nodes(*g->mutable_node(), opsets_of(copy.opset_import()));
  for (auto& f : *copy.mutable_functions()) remove_malformed_nodes(*f.mutable_node(), opsets_of(f.opset_import()));
  static const std::regex where(R"(\(op_type:([^,]*), node name: ([^)]*)\):\s*(.*))");
  for (int round = 0; round < kMaxRounds; ++round) {
    try {
      // Inference only adds inferred value_info to the copy; a later round can run on it as is.
      onnx::ShapeInferenceOptions opts(/*check_type=*/true, /*strict_mode=*/1, /*data_prop=*/false);
      onnx::shape_inference::InferShapes(copy, onnx::OpSchemaRegistry::Instance(), opts);
      return;
    } catch (const std::exception& e) {
      std::string msg = e.what();
      std::smatch m;
      std::string op, name, detail = msg;
      static const std::regex other_form(R"(node name ([^ .]+))");
      if (std::regex_search(msg, m, where)) {
        op = m[1];
        name = m[2];
        detail = m[3];
      } else if (std::regex_search(msg, m, other_form)) {
        name = m[1];
      }
      // Find and drop the failing node in the main graph so the next round looks further.
      int index = -1;
      for (int i = 0; i < g->node_size(); ++i)
        if (!name.empty() && g->node(i).name() == name) index = i;
      Diagnostic d;
      d.rule = "TYPE-INFERENCE";
      d.severity = Severity::Error;
      d.graph = "main";
      d.op_type = op;
      d.node = name.rfind(kTempPrefix, 0) == 0 ? "#" + name.substr(std::string(kTempPrefix).size()) : name;
      d.message = "TYPE-INFERENCE: types satisfy the schemas' constraints; " + detail;
      if (!already.count(d.node)) c.out.push_back(d);
      if (index < 0) return;
      g->mutable_node()->DeleteSubrange(index, 1);
    }
  }
}

}  // namespace sonnx
