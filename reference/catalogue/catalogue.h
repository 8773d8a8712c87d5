// sonnx's operator catalogue: every schema of every version of the ai.onnx, ai.onnx.preview,
// ai.onnx.preview.training and ai.onnx.ml operators (inputs, outputs, attributes, type constraints,
// since-version, deprecation, function-defined), generated from the ONNX specification documents by
// scripts/make-catalogue.py into spec/operators.json and compiled into the library. It is the one
// table of schemas the validator, the operator table (reference/ops/op_table.h), the inliner and
// the executors read (docs/design.md §2.3).
#pragma once
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx::catalogue {

struct Formal {
  enum class Option { Single, Optional, Variadic };
  std::string name;
  std::string type;  // a type parameter ("T") or a concrete type ("tensor(int64)")
  Option option = Option::Single;
  bool heterogeneous = false;  // variadic whose elements may differ in type
};

struct AttributeSpec {
  std::string name;
  Attribute::Type type = Attribute::Type::Undefined;
  bool required = false;
  std::optional<Attribute> default_value;  // as the documents print it
};

struct TypeConstraint {
  std::string name;
  std::vector<std::string> types;  // "tensor(float)", "seq(tensor(int64))", "optional(tensor(bool))", ...
};

struct Schema {
  std::string domain;  // "" for ai.onnx
  std::string name;
  int64_t version = 0;  // since-version
  bool deprecated = false;
  bool function = false;  // the documents define this version by a function body
  std::vector<int64_t> function_opsets;
  int min_inputs = 0, max_inputs = 0, min_outputs = 0, max_outputs = 0;  // max -1: unbounded
  std::vector<Formal> inputs, outputs;
  std::vector<AttributeSpec> attributes;
  std::vector<TypeConstraint> type_constraints;

  // The documents print a deprecated version without its inputs, outputs and attributes; such a
  // schema says nothing about a node's structure.
  bool documents_structure() const { return !outputs.empty(); }
  const AttributeSpec* attribute(std::string_view attr) const;
  const TypeConstraint* constraint(std::string_view param) const;
  std::string id() const;  // "ReduceMax-18", "ai.onnx.preview.training.Adam-1"
};

// The schema in force for `op` at opset `opset` of `domain`: the newest version <= opset. Null when
// the operator does not exist at that opset. "ai.onnx" and "" name the same domain.
const Schema* find(std::string_view domain, std::string_view op, int64_t opset);
// The schema that starts exactly at `version`; null if none does.
const Schema* exact(std::string_view domain, std::string_view op, int64_t version);
// The operator's first version after `version` (the one an upgrade steps to); null if none is.
const Schema* next_version(std::string_view domain, std::string_view op, int64_t version);
// The newest opset of a domain the catalogue knows; 0 for a domain it does not describe.
int64_t max_opset(std::string_view domain);
const std::vector<Schema>& all();

}  // namespace sonnx::catalogue
