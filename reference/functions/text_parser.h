// A parser for the part of ONNX's text syntax that function bodies use (docs/function_bodies.md):
//
//   <domain: "", opset_import: ["" : 18]>
//   Name <attr, attr: float = 1.0> (in1, in2) => (out1) {
//     t = Constant <value = float[2] {1.0, 2.0}> ()
//     out1 = Mul <axis = @axis> (in1, t)
//   }
//
// into our IR Function: attribute literals of every kind used in bodies (ints, floats, strings,
// their lists, tensor literals, graphs), attribute references (`@attr`) and omitted inputs
// (`Op(a, , c)`), graph calls (`y = @g (x)`). `$elem_type(X)` (an int attribute: the element type of formal input X at the
// call) is kept as a marker for the body selection to fill in (function_bodies.h). Written for
// sonnx; it does not use libonnx's OnnxParser.
#pragma once
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "reference/model/ir.h"

namespace sonnx::functions {

// The marker `$elem_type(X)` leaves in Attribute::ref_attr_name.
inline constexpr std::string_view kElemTypeMarker = "$elem_type:";
// The op_type of a graph call `outs = @attr (ins)`: "@attr". The caller's graph attribute `attr`
// is spliced in its place when the body is expanded at the call (reference/interp/inliner.h).
inline constexpr std::string_view kGraphCallMarker = "@";

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
  int line = 0;  // where the alternative starts
};

// Parses exactly one function definition without guards. Throws ParseError with line and column.
Function parse_function(std::string_view text);
// Parses a body file: one or more alternatives. Throws ParseError.
std::vector<Alternative> parse_alternatives(std::string_view text);

}  // namespace sonnx::functions
