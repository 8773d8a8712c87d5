// sonnx's function bodies of operator versions that ONNX defines by a function: one text file per
// version in spec/functions/ (<Op>-<version>.onnxtxt, docs/function_bodies.md), compiled in and
// parsed once. A file holds one or more alternatives; the first whose guard holds for a call is
// its body, and `$elem_type(X)` takes the element type of the call's input X. The operator table
// (reference/ops/op_table.h) is the only user at run time.
#pragma once
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "reference/catalogue/catalogue.h"
#include "reference/model/ir.h"
#include "reference/model/text_syntax.h"

namespace sonnx::functions {

using text::Alternative;
using text::Condition;
using text::kElemTypeMarker;
using text::ParseError;

struct BodyFile {
  std::string file;    // "Softmax-13.onnxtxt"
  std::string domain;  // "" for ai.onnx
  std::string op;
  int64_t version = 0;
  std::vector<Alternative> alternatives;
  bool uses_input_types = false;  // some alternative or guard needs `$elem_type(X)`
};

// Every body file, parsed (an embedded file that does not parse is an InternalError).
const std::vector<BodyFile>& all_bodies();
// The body file of exactly this operator version; null when there is none.
const BodyFile* find_body(std::string_view domain, std::string_view op, int64_t version);

// Whether every condition holds for `call`: inputs by `fn`'s formal names, attributes from the
// call or else the default of `schema` (may be null) or of `fn`.
// `$elem_type(X)` conditions read `input_types` (by position; an unknown type fails the condition).
bool guard_holds(const std::vector<Condition>& guard, const Function& fn, const Node& call, const catalogue::Schema* schema,
                 const std::vector<TypeInfo>& input_types = {});
// The first alternative whose guard holds; null when none does.
const Alternative* select_alternative(const BodyFile& body, const Node& call, const catalogue::Schema* schema,
                                      const std::vector<TypeInfo>& input_types = {});
// The alternative's function ready for expand_call: the nodes whose block guards hold, `$elem_type(X)` replaced by the element type
// of the call's input X (from `input_types`, by position), attribute defaults the body does not
// state taken from the schema. False, with `why`, when an element type is needed and unknown.
bool instantiate(const Alternative& alt, const Node& call, const catalogue::Schema* schema,
                 const std::vector<TypeInfo>& input_types, Function& out, std::string& why);

}  // namespace sonnx::functions
