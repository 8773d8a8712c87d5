// The C++ API's operator versions (include/sonnx/sonnx.hpp): the catalogue, each version with its
// record (reference/ops/op_record.h) and how a node of that version runs (op_table.h).
#include "reference/catalogue/catalogue.h"
#include "reference/ops/op_table.h"
#include "sonnx/sonnx.hpp"

namespace sonnx {

std::string OperatorVersion::id() const { return (domain.empty() ? "" : domain + ".") + name + "-" + std::to_string(version); }

std::vector<OperatorVersion> operator_versions() {
  std::vector<OperatorVersion> out;
  for (const catalogue::Schema& s : catalogue::all()) {
    OperatorVersion v;
    v.domain = s.domain;
    v.name = s.name;
    v.version = s.version;
    v.deprecated = s.deprecated;
    v.attributes = !s.attributes.empty();
    // How a node of exactly this version runs, as the interpreter resolves it.
    Model model;
    model.opset_imports[s.domain] = s.version;
    Node node;
    node.op_type = s.name;
    node.domain = s.domain;
    OpResolution r = resolve_op(model, node, s.version);
    v.runs = r.kernel ? "kernel" : r.has_function_body ? "function body" : "unsupported";
    if (r.kernel) {
      v.kernel_version = r.kernel->since_version;
      v.accuracy = accuracy_name(r.kernel->accuracy);
    }
    if (const OpRecord* rec = OpRecords::instance().find(s.domain, s.name, s.version)) {
      v.params = rec->params != nullptr;
      v.shape_rule = rec->shape_rule != nullptr;
      v.fast_kernel = rec->fast_kernel != nullptr;
      v.enclosure = rec->enclosure != nullptr;
      v.upgrade = rec->upgrade != nullptr;
      v.emit_c = rec->emit_c != nullptr;
    }
    out.push_back(std::move(v));
  }
  return out;
}

}  // namespace sonnx
