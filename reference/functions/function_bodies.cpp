#include "function_bodies.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "embedded_bodies.h"
#include "reference/model/errors.h"

namespace sonnx::functions {

namespace {

// "Softmax-13.onnxtxt" -> ("", "Softmax", 13); "ai.onnx.preview.X-1.onnxtxt" -> ("ai.onnx.preview", "X", 1).
void split_file_name(const std::string& file, BodyFile& b) {
  std::string stem = file.substr(0, file.rfind('.'));
  size_t dash = stem.rfind('-');
  if (dash == std::string::npos) throw InternalError("function body file " + file + " is not named <Op>-<version>.onnxtxt");
  b.version = std::stoll(stem.substr(dash + 1));
  std::string qualified = stem.substr(0, dash);
  size_t dot = qualified.rfind('.');
  b.op = dot == std::string::npos ? qualified : qualified.substr(dot + 1);
  b.domain = dot == std::string::npos ? "" : qualified.substr(0, dot);
}

bool needs_types(const std::vector<Node>& nodes) {
  for (const auto& n : nodes)
    for (const auto& a : n.attributes) {
      if (a.ref_attr_name.starts_with(kElemTypeMarker)) return true;
      if (a.g && needs_types(a.g->nodes)) return true;
      for (const auto& g : a.graphs)
        if (needs_types(g->nodes)) return true;
    }
  return false;
}

bool typed_guard(const std::vector<Condition>& guard) {
  return std::any_of(guard.begin(), guard.end(), [](const Condition& c) { return c.name.starts_with(kElemTypeMarker); });
}

struct Table {
  std::vector<BodyFile> bodies;
  std::map<std::tuple<std::string, std::string, int64_t>, size_t> index;
};

const Table& table() {
  static const Table t = [] {
    Table t;
    for (size_t i = 0; i < kEmbeddedBodyCount; ++i) {
      const EmbeddedBody& e = kEmbeddedBodies[i];
      BodyFile b;
      b.file = e.file;
      split_file_name(b.file, b);
      try {
        b.alternatives = text::parse_alternatives(std::string_view(e.begin, static_cast<size_t>(e.end - e.begin)));
      } catch (const ParseError& err) {
        throw InternalError("spec/functions/" + b.file + ": " + err.what());
      }
      for (const auto& a : b.alternatives) {
        b.uses_input_types = b.uses_input_types || needs_types(a.fn.nodes) || typed_guard(a.guard);
        for (const auto& g : a.node_guards) b.uses_input_types = b.uses_input_types || typed_guard(g);
      }
      t.index[{b.domain, b.op, b.version}] = t.bodies.size();
      t.bodies.push_back(std::move(b));
    }
    return t;
  }();
  return t;
}

const Attribute* attribute_value(const std::string& name, const Function& fn, const Node& call, const catalogue::Schema* schema) {
  if (const Attribute* a = call.attr(name)) return a;
  if (schema)
    if (const auto* spec = schema->attribute(name); spec && spec->default_value) return &*spec->default_value;
  for (const auto& d : fn.attribute_defaults)
    if (d.name == name) return &d;
  return nullptr;
}

bool same_value(const Attribute& actual, const Attribute& literal) {
  using T = Attribute::Type;
  auto number = [](const Attribute& a) { return a.type == T::Float ? static_cast<double>(a.f) : static_cast<double>(a.i); };
  if ((actual.type == T::Int || actual.type == T::Float) && (literal.type == T::Int || literal.type == T::Float))
    return number(actual) == number(literal);
  if (actual.type != literal.type) return false;
  switch (actual.type) {
    case T::String: return actual.s == literal.s;
    case T::Ints: return actual.ints == literal.ints;
    case T::Floats: return actual.floats == literal.floats;
    case T::Strings: return actual.strings == literal.strings;
    default: return false;
  }
}

bool holds(const Condition& c, const Function& fn, const Node& call, const catalogue::Schema* schema,
           const std::vector<TypeInfo>& types) {
  if (c.name.starts_with(kElemTypeMarker)) {
    auto it = std::find(fn.inputs.begin(), fn.inputs.end(), c.name.substr(kElemTypeMarker.size()));
    size_t i = static_cast<size_t>(it - fn.inputs.begin());
    if (it == fn.inputs.end() || i >= types.size() || types[i].elem == DType::Undefined) return false;
    bool equal = static_cast<int64_t>(types[i].elem) == c.value.i;
    return equal == (c.kind == Condition::Kind::Equal);
  }
  if (c.kind == Condition::Kind::Present || c.kind == Condition::Kind::Absent) {
    bool present = false;
    auto it = std::find(fn.inputs.begin(), fn.inputs.end(), c.name);
    if (it != fn.inputs.end()) {
      size_t i = static_cast<size_t>(it - fn.inputs.begin());
      present = i < call.inputs.size() && !call.inputs[i].empty();
    } else {
      present = call.attr(c.name) != nullptr;
    }
    return present == (c.kind == Condition::Kind::Present);
  }
  const Attribute* a = attribute_value(c.name, fn, call, schema);
  bool equal = a && same_value(*a, c.value);
  return equal == (c.kind == Condition::Kind::Equal);
}

// Replaces `$elem_type(X)` markers in `nodes` (and their subgraphs).
bool substitute(std::vector<Node>& nodes, const Function& fn, const std::vector<TypeInfo>& types, std::string& why) {
  for (auto& n : nodes)
    for (auto& a : n.attributes) {
      if (a.ref_attr_name.starts_with(kElemTypeMarker)) {
        std::string input = a.ref_attr_name.substr(kElemTypeMarker.size());
        auto it = std::find(fn.inputs.begin(), fn.inputs.end(), input);
        size_t i = static_cast<size_t>(it - fn.inputs.begin());
        if (it == fn.inputs.end() || i >= types.size() || types[i].elem == DType::Undefined) {
          why = "the function body of " + fn.name + " needs the element type of input '" + input + "', which is not known";
          return false;
        }
        a.ref_attr_name.clear();
        a.type = Attribute::Type::Int;
        a.i = static_cast<int64_t>(types[i].elem);
      }
      if (a.g) {
        a.g = std::make_shared<Graph>(*a.g);
        if (!substitute(a.g->nodes, fn, types, why)) return false;
      }
      for (auto& g : a.graphs) {
        g = std::make_shared<Graph>(*g);
        if (!substitute(g->nodes, fn, types, why)) return false;
      }
    }
  return true;
}

}  // namespace

const std::vector<BodyFile>& all_bodies() { return table().bodies; }

const BodyFile* find_body(std::string_view domain, std::string_view op, int64_t version) {
  const Table& t = table();
  std::string d(domain == "ai.onnx" ? std::string_view() : domain);
  auto it = t.index.find({d, std::string(op), version});
  return it == t.index.end() ? nullptr : &t.bodies[it->second];
}

bool guard_holds(const std::vector<Condition>& guard, const Function& fn, const Node& call, const catalogue::Schema* schema,
                 const std::vector<TypeInfo>& input_types) {
  return std::all_of(guard.begin(), guard.end(), [&](const Condition& c) { return holds(c, fn, call, schema, input_types); });
}

const Alternative* select_alternative(const BodyFile& body, const Node& call, const catalogue::Schema* schema,
                                      const std::vector<TypeInfo>& input_types) {
  for (const auto& a : body.alternatives)
    if (guard_holds(a.guard, a.fn, call, schema, input_types)) return &a;
  return nullptr;
}

bool instantiate(const Alternative& alt, const Node& call, const catalogue::Schema* schema,
                 const std::vector<TypeInfo>& input_types, Function& out, std::string& why) {
  out = alt.fn;
  out.nodes.clear();
  for (size_t i = 0; i < alt.fn.nodes.size(); ++i)
    if (i >= alt.node_guards.size() || guard_holds(alt.node_guards[i], alt.fn, call, schema, input_types)) out.nodes.push_back(alt.fn.nodes[i]);
  if (!substitute(out.nodes, out, input_types, why)) return false;
  if (schema)
    for (const auto& spec : schema->attributes) {
      if (!spec.default_value) continue;
      bool stated = std::any_of(out.attribute_defaults.begin(), out.attribute_defaults.end(),
                                [&](const Attribute& d) { return d.name == spec.name; });
      if (!stated) out.attribute_defaults.push_back(*spec.default_value);
    }
  return true;
}

}  // namespace sonnx::functions
