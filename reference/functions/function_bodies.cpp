#include "function_bodies.h"

#include <algorithm>
#include <map>
#include <tuple>

#include "embedded_bodies.h"
#include "sonnx/errors.h"

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
  for (const auto& n : nodes) {
    if (n.op_type == text::kEachMarker && !n.attr("filter")->s.empty()) return true;  // picks elements by kind
    for (const auto& a : n.attributes) {
      if (a.ref_attr_name.starts_with(kElemTypeMarker)) return true;
      if (a.g && needs_types(a.g->nodes)) return true;
      for (const auto& g : a.graphs)
        if (needs_types(g->nodes)) return true;
    }
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

const Attribute* attribute_value(const std::string& name, const Function& fn, const Node& call,
                                 const catalogue::Schema* schema) {
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

// The element type output k of the call's graph attribute g declares (`$elem_type(@g[k])`, after
// expansion "@g#k"); Undefined when it declares none.
DType graph_output_elem_type(const Node& call, const std::string& target) {
  size_t hash = target.rfind('#');
  if (hash == std::string::npos) return DType::Undefined;
  const Attribute* g = call.attr(target.substr(1, hash - 1));
  size_t k = std::stoul(target.substr(hash + 1));
  if (!g || !g->g || k >= g->g->outputs.size()) return DType::Undefined;
  const TypeInfo& t = g->g->outputs[k].type;
  return t.kind == TypeInfo::Kind::Tensor ? t.elem : DType::Undefined;
}

// Replaces `$elem_type(X)` markers in `nodes` (and their subgraphs).
bool substitute(std::vector<Node>& nodes, const Function& fn, const Node& call, const std::vector<TypeInfo>& types,
                std::string& why) {
  for (auto& n : nodes)
    for (auto& a : n.attributes) {
      if (a.ref_attr_name.starts_with(kElemTypeMarker) && a.ref_attr_name[kElemTypeMarker.size()] == '@') {
        std::string target = a.ref_attr_name.substr(kElemTypeMarker.size());
        DType t = graph_output_elem_type(call, target);
        if (t == DType::Undefined) {
          why = "the function body of " + fn.name + " needs the element type of an output of graph attribute " + target +
                ", which is not declared";
          return false;
        }
        a.ref_attr_name.clear();
        a.type = Attribute::Type::Int;
        a.i = static_cast<int64_t>(t);
      } else if (a.ref_attr_name.starts_with(kElemTypeMarker)) {
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
        if (!substitute(a.g->nodes, fn, call, types, why)) return false;
      }
      for (auto& g : a.graphs) {
        g = std::make_shared<Graph>(*g);
        if (!substitute(g->nodes, fn, call, types, why)) return false;
      }
    }
  return true;
}

// Variadic formals (`xs...`), their elements (`x[k]`) and `each` blocks, expanded for one call:
// element i of a variadic name x is the value "x#i".
class VariadicExpansion {
 public:
  VariadicExpansion(const Node& call, const std::vector<TypeInfo>& types) : call_(call), types_(types) {}

  bool run(Function& fn, std::string& why) {
    try {
      expand_formals(fn.inputs, call_.inputs.size(), true);
      expand_formals(fn.outputs, call_.outputs.size(), false);
      count_elements(fn.nodes, {});
      fn.nodes = expand(fn.nodes, {});
    } catch (const std::runtime_error& e) {
      why = "the function body of " + fn.name + ": " + e.what();
      return false;
    }
    return true;
  }

 private:
  using Bindings = std::map<std::string, size_t>;  // each variable -> element index

  // `xs...` as the last formal takes the call's remaining actuals.
  void expand_formals(std::vector<std::string>& formals, size_t actuals, bool inputs) {
    if (formals.empty() || !formals.back().ends_with("...")) return;
    std::string base = formals.back().substr(0, formals.back().size() - 3);
    formals.pop_back();
    size_t count = actuals > formals.size() ? actuals - formals.size() : 0;
    counts_[base] = count;
    if (inputs) first_input_[base] = formals.size();
    for (size_t i = 0; i < count; ++i) formals.push_back(element(base, i));
  }

  static std::string element(const std::string& base, size_t i) { return base + "#" + std::to_string(i); }

  size_t count_of(const std::string& base) const {
    auto it = counts_.find(base);
    if (it == counts_.end())
      throw std::runtime_error("'" + base + "...' names no variadic formal or element of an 'each' block");
    return it->second;
  }

  // A name `y[k]` written inside `each k in xs` makes y a variadic name with as many elements as xs.
  void count_elements(const std::vector<Node>& nodes, const std::map<std::string, std::string>& over) {
    for (const auto& n : nodes) {
      if (n.op_type == text::kEachMarker) {
        auto inner = over;
        inner[n.attr("var")->s] = n.attr("over")->s;
        count_elements(n.attr("nodes")->g->nodes, inner);
        continue;
      }
      for (const auto& names : {n.inputs, n.outputs})
        for (const auto& name : names) note_element(name, over);
      for (const auto& a : n.attributes)
        if (a.g) {
          for (const auto& v : a.g->inputs) note_element(v.name, over);
          for (const auto& v : a.g->outputs) note_element(v.name, over);
          count_elements(a.g->nodes, over);
        }
    }
  }

  void note_element(const std::string& name, const std::map<std::string, std::string>& over) {
    size_t open = name.find('[');
    if (open == std::string::npos || !name.ends_with("]")) return;
    auto it = over.find(name.substr(open + 1, name.size() - open - 2));
    if (it != over.end() && !counts_.count(name.substr(0, open))) counts_[name.substr(0, open)] = count_of(it->second);
  }

  // A list entry: `xs...` becomes every element, `x[k]` the element k is bound to.
  void rename(const std::string& name, const Bindings& b, std::vector<std::string>& out) const {
    if (name.ends_with("...")) {
      std::string base = name.substr(0, name.size() - 3);
      for (size_t i = 0; i < count_of(base); ++i) out.push_back(element(base, i));
      return;
    }
    out.push_back(renamed(name, b));
  }

  static std::string renamed(const std::string& name, const Bindings& b) {
    size_t open = name.find('[');
    if (open == std::string::npos || !name.ends_with("]")) return name;
    std::string var = name.substr(open + 1, name.size() - open - 2);
    auto it = b.find(var);
    if (it == b.end()) throw std::runtime_error("'" + name + "' is outside an 'each " + var + "' block");
    return element(name.substr(0, open), it->second);
  }

  std::vector<std::string> renamed_list(const std::vector<std::string>& names, const Bindings& b) const {
    std::vector<std::string> out;
    for (const auto& n : names) rename(n, b, out);
    return out;
  }

  std::vector<ValueInfo> renamed_infos(const std::vector<ValueInfo>& infos, const Bindings& b) const {
    std::vector<ValueInfo> out;
    for (const auto& v : infos) {
      std::vector<std::string> names;
      rename(v.name, b, names);
      for (auto& n : names) out.push_back(ValueInfo{std::move(n), v.type});
    }
    return out;
  }

  // Whether element i of the variadic input formal xs is of the kind `filter` asks for.
  bool selected(const std::string& xs, size_t i, const std::string& filter) const {
    if (filter.empty()) return true;
    auto it = first_input_.find(xs);
    if (it == first_input_.end())
      throw std::runtime_error("'each ... when " + filter + "' needs '" + xs + "' to be a variadic input");
    size_t pos = it->second + i;
    if (pos >= types_.size() || types_[pos].kind == TypeInfo::Kind::Unknown)
      throw std::runtime_error("the type of input " + std::to_string(pos) + " is not known");
    return (types_[pos].kind == TypeInfo::Kind::Sequence) == (filter == "sequence");
  }

  std::vector<Node> expand(const std::vector<Node>& nodes, const Bindings& b) const {
    std::vector<Node> out;
    for (const auto& n : nodes) {
      if (n.op_type == text::kEachMarker) {
        const std::string& xs = n.attr("over")->s;
        for (size_t i = 0; i < count_of(xs); ++i) {
          if (!selected(xs, i, n.attr("filter")->s)) continue;
          Bindings inner = b;
          inner[n.attr("var")->s] = i;
          for (auto& m : expand(n.attr("nodes")->g->nodes, inner)) out.push_back(std::move(m));
        }
        continue;
      }
      Node m = n;
      m.inputs = renamed_list(n.inputs, b);
      m.outputs = renamed_list(n.outputs, b);
      for (auto& a : m.attributes) {
        if (a.ref_attr_name.starts_with(kElemTypeMarker))
          a.ref_attr_name = std::string(kElemTypeMarker) + renamed(a.ref_attr_name.substr(kElemTypeMarker.size()), b);
        if (a.g) {
          auto g = std::make_shared<Graph>(*a.g);
          g->inputs = renamed_infos(a.g->inputs, b);
          g->outputs = renamed_infos(a.g->outputs, b);
          g->nodes = expand(a.g->nodes, b);
          for (size_t i = 0; i < g->nodes.size(); ++i) g->nodes[i].index = i;
          a.g = g;
        }
      }
      out.push_back(std::move(m));
    }
    return out;
  }

  const Node& call_;
  const std::vector<TypeInfo>& types_;
  std::map<std::string, size_t> counts_;       // variadic name -> number of elements
  std::map<std::string, size_t> first_input_;  // variadic input formal -> position of its first element
};

bool expand_variadics(Function& fn, const Node& call, const std::vector<TypeInfo>& types, std::string& why) {
  bool variadic = (!fn.inputs.empty() && fn.inputs.back().ends_with("...")) ||
                  (!fn.outputs.empty() && fn.outputs.back().ends_with("..."));
  if (!variadic) return true;
  if (!VariadicExpansion(call, types).run(fn, why)) return false;
  for (size_t i = 0; i < fn.nodes.size(); ++i) fn.nodes[i].index = i;
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
    if (i >= alt.node_guards.size() || guard_holds(alt.node_guards[i], alt.fn, call, schema, input_types))
      out.nodes.push_back(alt.fn.nodes[i]);
  if (!expand_variadics(out, call, input_types, why)) return false;
  if (!substitute(out.nodes, out, call, input_types, why)) return false;
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
