// What the rewrite adapters (admit/adapters_*.cpp) share: what a rewrite may know of the values its
// node reads (their types, constant values) and the attribute edits they make. A rewrite that
// needs what these cannot tell refuses the node, naming what it needs.
#pragma once
#include <algorithm>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <string>
#include <vector>

#include "attributes.h"
#include "reference/model/ir.h"
#include "upgrade.h"

namespace sonnx::admit::adapt {

// The type of value `name` of the node's graph: as inferred before the upgrade
// (UpgradeContext::type_of), else an initializer's, else as the graph declares it (its inputs,
// value_info and outputs; the only types known in a nested graph); nullopt when unknown.
inline std::optional<TypeInfo> known_type(UpgradeContext& ctx, const std::string& name) {
  if (name.empty()) return std::nullopt;
  if (const TypeInfo* t = ctx.type_of(name)) return *t;
  if (const Tensor* t = ctx.initializer(name)) {
    TypeInfo info;
    info.kind = TypeInfo::Kind::Tensor;
    info.elem = t->dtype();
    std::vector<Dim> dims;
    for (int64_t d : t->shape()) dims.push_back(Dim{d, ""});
    info.shape = dims;
    return info;
  }
  const Graph& g = ctx.graph();
  for (const auto* list : {&g.inputs, &g.value_info, &g.outputs})
    for (const ValueInfo& v : *list)
      if (v.name == name && v.type.kind != TypeInfo::Kind::Unknown) return v.type;
  return std::nullopt;
}

// The element type of tensor `name`, Undefined when unknown.
inline DType elem_type(UpgradeContext& ctx, const std::string& name) {
  std::optional<TypeInfo> t = known_type(ctx, name);
  return t && t->kind == TypeInfo::Kind::Tensor ? t->elem : DType::Undefined;
}

// The dimensions of tensor `name` (each known or not), nullopt when its rank is unknown.
inline std::optional<std::vector<Dim>> dims_of(UpgradeContext& ctx, const std::string& name) {
  std::optional<TypeInfo> t = known_type(ctx, name);
  if (!t || t->kind != TypeInfo::Kind::Tensor) return std::nullopt;
  return t->shape;
}

// The value of `name` when it is a constant of the node's graph: an initializer, or the `value`
// tensor of a Constant node that outputs it; null otherwise.
inline const Tensor* constant_of(UpgradeContext& ctx, const std::string& name) {
  if (name.empty()) return nullptr;
  if (const Tensor* t = ctx.initializer(name)) return t;
  for (const Node& n : ctx.graph().nodes)
    if (n.op_type == "Constant" && (n.domain.empty() || n.domain == "ai.onnx") && n.outputs.size() == 1 &&
        n.outputs[0] == name) {
      const Attribute* a = n.attr("value");
      return a && a->type == Attribute::Type::Tensor ? &a->t : nullptr;
    }
  return nullptr;
}

inline Attribute* find_attr(Node& n, const std::string& name) {
  auto it = std::find_if(n.attributes.begin(), n.attributes.end(), [&](const Attribute& a) { return a.name == name; });
  return it == n.attributes.end() ? nullptr : &*it;
}

inline void erase_attr(Node& n, const std::string& name) {
  std::erase_if(n.attributes, [&](const Attribute& a) { return a.name == name; });
}

// Sets attribute `name` of n (added when absent) to an int, a string or ints.
inline void set_int_attr(Node& n, const std::string& name, int64_t value) { set_attribute(n, int_attribute(name, value)); }
inline void set_string_attr(Node& n, const std::string& name, const std::string& value) {
  set_attribute(n, string_attribute(name, value));
}
inline void set_ints_attr(Node& n, const std::string& name, const std::vector<int64_t>& value) {
  set_attribute(n, ints_attribute(name, value));
}

// The string attribute `name` of n, or `def` when absent; refuses an attribute of another kind.
inline std::string string_attr(Node& n, const std::string& name, const std::string& def) {
  const Attribute* a = find_attr(n, name);
  if (!a) return def;
  if (a->type != Attribute::Type::String) throw UpgradeRefused("attribute " + name + " is not a string");
  return a->s;
}

// The ints attribute `name` of n, empty when absent; refuses an attribute of another kind.
inline std::vector<int64_t> ints_attr(Node& n, const std::string& name) {
  const Attribute* a = find_attr(n, name);
  if (!a) return {};
  if (a->type != Attribute::Type::Ints) throw UpgradeRefused("attribute " + name + " is not a list of ints");
  return a->ints;
}

// Refuses a node with an attribute not in `known` (one the older version does not have, which its
// kernel ignores and the newer version may read).
inline void only_attributes(const Node& n, std::initializer_list<const char*> known) {
  for (const Attribute& a : n.attributes)
    if (std::none_of(known.begin(), known.end(), [&](const char* k) { return a.name == k; }))
      throw UpgradeRefused("attribute " + a.name + " is not one of this version's");
}

// A name for the initializers a rewrite adds for node n: its name, or its operator's.
inline std::string hint(const Node& n, const std::string& what) { return (n.name.empty() ? n.op_type : n.name) + "_" + what; }

// A node a rewrite adds beside n (UpgradeContext::add_node_before/after), named after n.
inline Node new_node(UpgradeContext& ctx, const Node& n, const std::string& op, const std::string& what,
                     std::vector<std::string> inputs, std::vector<std::string> outputs) {
  Node added;
  added.op_type = op;
  added.name = ctx.new_name(hint(n, what));
  added.inputs = std::move(inputs);
  added.outputs = std::move(outputs);
  return added;
}

}  // namespace sonnx::admit::adapt
