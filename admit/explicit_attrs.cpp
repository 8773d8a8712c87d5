// write_default_attributes (rewrites.h): an absent attribute with a default means its default; the
// same attribute written with that value means the same, at the same operator version.
#include "reference/catalogue/catalogue.h"
#include "rewrites.h"

namespace sonnx::admit {
namespace {

void write_defaults(Graph& g, const Model& m, ChangeLog& log) {
  for (Node& n : g.nodes) {
    for (Attribute& a : n.attributes) {
      if (a.g) write_defaults(*a.g, m, log);
      for (auto& sub : a.graphs)
        if (sub) write_defaults(*sub, m, log);
    }
    std::string domain = canonical_domain(n.domain);
    const catalogue::Schema* s = catalogue::find(domain, n.op_type, m.opset(domain));
    if (!s) continue;
    std::string written;
    for (const catalogue::AttributeSpec& spec : s->attributes) {
      if (spec.required || !spec.default_value || n.attr(spec.name)) continue;
      Attribute a = *spec.default_value;
      a.name = spec.name;
      n.attributes.push_back(std::move(a));
      written += (written.empty() ? "" : ", ") + spec.name;
    }
    if (!written.empty()) log.add("explicit-attributes", n.label(), "SONNX-EXPLICIT-ATTR", "wrote the defaults of " + written);
  }
}

}  // namespace

void write_default_attributes(Model& m, ChangeLog& log) { write_defaults(m.graph, m, log); }

}  // namespace sonnx::admit
