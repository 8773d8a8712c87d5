// sonnx's parser of ONNX's text syntax (the grammar of onnx's docs/Syntax.md), written for sonnx:
// it does not use libonnx's OnnxParser, which predates the IR 9-13 element types.
//
//   <ir_version: 10, opset_import: ["" : 21]>
//   agraph (float[N, 2] x, float[2] w = {1.0, 2.0}) => (float[N, 2] y) <float[2] c = {0.5, 0.5}> {
//     t = Mul(x, w)
//     [last] y = Add(t, c)
//   }
//   <domain: "local", opset_import: ["" : 21]>
//   Twice <alpha: float = 2.0> (a) => (b) { b = Mul(a, a) }
//
// Models (parse_model) become our IR directly: types of every kind (tensor, seq, map, optional,
// sparse_tensor), initializers (in the input list or the `<...>` list after the outputs), value
// infos, node labels, quoted names, attribute literals of every kind, tensor literals of every
// element type, graph-valued attributes and model-local functions.
//
// Function bodies of operator versions (spec/functions/, docs/function_bodies.md) use the same
// syntax with these additions: attribute references (`@attr`), graph calls (`y = @g (x)`),
// `$elem_type(X)` (an int attribute: the element type of formal input X at the call, kept as a
// marker for the body selection to fill in, reference/functions/function_bodies.h), guards
// (`when ...`) on alternatives and on blocks of nodes, and variadic formals: `xs...` in a
// signature or list, `x[k]` for element k, and `each k in xs { nodes }` blocks.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx::text {

// The marker `$elem_type(X)` leaves in Attribute::ref_attr_name.
inline constexpr std::string_view kElemTypeMarker = "$elem_type:";
// The op_type of a graph call `outs = @attr (ins)`: "@attr". The caller's graph attribute `attr`
// is spliced in its place when the body is expanded at the call (reference/interp/inliner.h).
inline constexpr std::string_view kGraphCallMarker = "@";

// The op_type of the pseudo-node an `each k in X [when sequence|tensor] { nodes }` block of a body
// file becomes: attributes "var" (k), "over" (X), "filter" ("", "sequence" or "tensor") and the
// graph "nodes". The body selection expands it (reference/functions/function_bodies.h).
inline constexpr std::string_view kEachMarker = "$each";

struct ParseError : std::runtime_error {
  ParseError(int line, int column, const std::string& what);
  int line, column;
};

// One condition of a guard: `present(X)`, `absent(X)` (X a formal input or an attribute the call
// gives) or `attr == literal`, `attr != literal` (the call's value, else the schema default), or
// `$elem_type(X) == code` (name kElemTypeMarker + X: the element type of input X at the call).
struct Condition {
  enum class Kind { Present, Absent, Equal, NotEqual };
  Kind kind = Kind::Present;
  std::string name;
  Attribute value;  // Equal / NotEqual: the literal
};

// One alternative of a body file: `when COND and COND ...` (optional) followed by a function whose
// node list may hold guarded blocks `when COND ... { nodes }` (nested blocks: all guards hold).
struct Alternative {
  std::vector<Condition> guard;  // empty: always applies
  Function fn;
  std::vector<std::vector<Condition>> node_guards;  // per node of fn.nodes: the guards of its blocks
  int line = 0;                                     // where the alternative starts
};

// Parses a model: an optional header, its graph, then model-local functions. Throws ParseError
// with line and column.
Model parse_model(std::string_view text);
// Parses exactly one function definition without guards. Throws ParseError.
Function parse_function(std::string_view text);
// Parses a body file: one or more alternatives. Throws ParseError.
std::vector<Alternative> parse_alternatives(std::string_view text);

}  // namespace sonnx::text
