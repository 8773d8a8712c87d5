// The C emitter's slot of an operator version's record (`sonnx emit-c`, docs/emit-c.md): the
// function that writes the body of one node's C function. The generator (emit_model.cpp) makes,
// for each node in the plan's order, a function
//
//   /* node 3 "conv1": Conv-22, spec/ops/conv.mlw Conv.conv */
//   static void sonnx_node_3(const float* x0, const float* x1, const float* x2, float* y0) { BODY }
//
// where input i is the parameter `x<i>` and output k is `y<k>` (pointers to the element type's C
// type, C99, every shape static), and asks the node's record for BODY. An emitter writes the body
// with line() (the generator indents), every loop bound a literal constant, no allocation, no
// recursion, no global state. Parameters the body never names are left out of the signature.
//
// Modes: `exact` computes as the reference kernel does (same accumulation type and order, one
// rounding: the outputs are bitwise those of `sonnx run`); `fast` accumulates in the element type
// in a loop order a compiler vectorises, within the admissible enclosure (spec/accuracy.md).
#pragma once
#include <cstdint>
#include <functional>
#include <map>
#include <set>
#include <stdexcept>
#include <string>
#include <vector>

#include "reference/model/attr_reader.h"
#include "reference/model/ir.h"
#include "reference/ops/op_record.h"
#include "sonnx/tensor.h"

namespace sonnx {
namespace emit {

enum class Mode { Exact, Fast };

// A node's input or output as the generated C sees it: a static shape, and the value itself where
// the generator knows it (an initializer, a Constant, a value folded from constants).
struct CValue {
  std::string name;  // the ONNX value's name
  DType dtype = DType::Undefined;
  Shape shape;
  const Tensor* constant = nullptr;
  int64_t size() const;  // elements
};

// A node (or a case of one) that has no C template: refused by name, never emitted as something else.
struct EmitRefused : std::runtime_error {
  using std::runtime_error::runtime_error;
};

class NodeEmitter;
using EmitFn = void (*)(NodeEmitter&);

// What one node's emitter sees, and what it writes.
class NodeEmitter {
 public:
  NodeEmitter(const Node& node, int64_t version, Mode mode, std::vector<CValue> inputs, std::vector<CValue> outputs);

  const Node& node() const { return node_; }
  int64_t version() const { return version_; }
  Mode mode() const { return mode_; }
  size_t input_count() const { return inputs_.size(); }
  bool has_input(size_t i) const { return i < inputs_.size() && !inputs_[i].name.empty(); }
  const CValue& input(size_t i) const;
  size_t output_count() const { return outputs_.size(); }
  // Output k is produced: declared, with a non-empty name (a trailing unread output is not declared).
  bool has_output(size_t k) const { return k < outputs_.size() && !outputs_[k].name.empty(); }
  const CValue& output(size_t k) const;

  // Input i's value where the template needs it as a constant (`what` names it: "axes",
  // "scales"); a value computed at run time refuses the node with "run-time WHAT (input 'NAME'
  // is needed as a constant)", the form scripts/emit-c-backend.sh reads to fix that input.
  const Tensor& constant_input(size_t i, const std::string& what) const;

  // The node's attributes; a bad one refuses the node (the reference would trap on it).
  const AttrReader& attrs() const { return reader_; }
  template <class P>
  P params() const {
    return P::read(reader_, version_);
  }

  // "Op-N" and the node's label, for messages.
  std::string op_name() const;
  [[noreturn]] void refuse(const std::string& why) const;

  // The node can fail at run time (an index read from an input out of range, where the reference
  // traps): its function returns an int status, the local `status` starts at 0 and the body sets
  // it to 1 before anything out of range is read or written; PREFIX_run stops at the first node
  // that fails and returns its status.
  void may_fail() { fails_ = true; }
  bool fails() const { return fails_; }

  // Appends one line of the body ("{" and "}" at a line's end or start change the indent).
  void line(const std::string& text);
  // The C functions the body calls: <math.h> (exp, tanh, ...), or a file-level static helper
  // written once whatever the number of nodes that ask (`definition` is its whole text). Helpers
  // are written in the order first asked for: ask for a helper's callees before the helper.
  void needs_math() { math_ = true; }
  void helper(const std::string& name, const std::string& definition);

  // Element access for the floating types, float16 and bfloat16 included (held as their bits and
  // computed in float, the reference's compute_t): `element` ("x0[i]") as a value of
  // c_compute_type(t); and the statement storing `value` (a C expression of type double when
  // `from_double`, else of c_compute_type(t)) into `element`, rounded once as the reference's
  // support::to_storage (from double into a half type: one rounding, never through float).
  std::string load(DType t, const std::string& element);
  std::string store(DType t, const std::string& element, const std::string& value, bool from_double);

  // A C constant of element i of a constant tensor (c_element), with <math.h> asked for where it
  // needs INFINITY or NAN. A NaN keeps its sign; one with a payload has no C99 spelling and refuses
  // the node (for complex, in either part). For the struct types (string, complex: is_c_struct_type)
  // it is a C99 compound literal, `(sonnx_complex64){ re, im }`; constant_object() below is the
  // plainer form where a template stores one value many times.
  std::string literal(const Tensor& t, int64_t i);
  // Element i of a constant tensor as an initializer of a `static const` object or table: literal()
  // for the scalar types, the braces `{ re, im }` or `{ "text", 4u }` for the struct types.
  std::string initializer(const Tensor& t, int64_t i);
  // Element i of a constant tensor as a C expression to store: for the struct types, the name of a
  // `static const` object `name` this call declares (a line of the body, so call it where a
  // declaration may stand, before the loops that use it); for the others, literal().
  std::string constant_object(const Tensor& t, int64_t i, const std::string& name);

  const std::vector<std::string>& body() const { return body_; }
  bool uses_math() const { return math_; }
  const std::vector<std::pair<std::string, std::string>>& helpers() const { return helpers_; }

 private:
  struct Reader final : AttrReader {
    Reader(const Node& node, const NodeEmitter& owner) : AttrReader(node), owner_(owner) {}
    [[noreturn]] void fail(const std::string& message) const override { owner_.refuse(message); }
    const NodeEmitter& owner_;
  };
  const Node& node_;
  int64_t version_;
  Mode mode_;
  std::vector<CValue> inputs_, outputs_;
  Reader reader_;
  std::vector<std::string> body_;
  int indent_ = 1;
  bool math_ = false;
  bool fails_ = false;
  std::vector<std::pair<std::string, std::string>> helpers_;  // in the order asked for
  std::string real_literal(DType t, double v);                // literal() of a float or double value
};

// C spellings, one place for each.
const char* c_type(DType type);  // "float", "double", "int64_t", "int32_t", "uint8_t" (bool), ...; EmitRefused for others
bool has_c_type(DType type);
// The C type holding one element in memory, for templates that only move elements: c_type's for
// the types above; the bits of float16 and bfloat16 (uint16_t) and of the float8 and float4 types
// (uint8_t); the 4- and 2-bit integers one per byte (uint8_t, int8_t), as sonnx holds them
// (include/sonnx/small_types.h); and the struct types the generated header defines when the model
// uses them (emit_model.cpp): complex64 and complex128 as `sonnx_complex64` / `sonnx_complex128`,
// `struct { float re; float im; }` and `struct { double re; double im; }` (std::complex's layout,
// so the bytes are sonnx's), and string as `sonnx_string`, `struct { const char* data; size_t
// size; }`, a VIEW of bytes that live in the caller's input or in a constant string literal: no
// template creates string bytes, they move views (assignment) and compare them (Equal-19).
// EmitRefused for Undefined.
const char* c_storage_type(DType type);
bool has_c_storage_type(DType type);
// string, complex64, complex128: held as a C struct (c_storage_type). Templates only assign them
// (and Equal-19 compares strings); c_type() refuses them, so every template that computes does.
bool is_c_struct_type(DType type);
// Bytes of one element in the arena: dtype_size(), but 16 for string, an upper bound of
// sizeof(sonnx_string) on every target (a pointer and a size_t), which the generated header checks
// at compile time.
int64_t c_storage_bytes(DType type);
// The C type a template computes in for element type t: float for float16 and bfloat16 (the
// reference's compute_t), else c_type(t).
const char* c_compute_type(DType type);
// A C constant of the element type holding `v` exactly: hexadecimal floats ("0x1.8p+1f"), INFINITY,
// NAN, INT64_C(...) ...
std::string c_literal(DType type, double v);
std::string c_literal_int(DType type, int64_t v);
// The element at flat index i of a constant tensor, as a C constant of its type; for the struct
// types an initializer (valid in a declaration only): `{ re, im }` with c_literal's exact parts,
// `{ "text", 4u }` with the bytes as c_string() writes them.
std::string c_element(const Tensor& t, int64_t i);
// `bytes` as a C string literal: printable ASCII as it is, but `"`, `\` and `?` escaped (`\?`: no
// trigraph can form), every other byte (NUL included) as a 3-digit octal escape `\ooo`, which no
// following digit extends; a plain character after one starts an adjacent literal ("\303" "x"),
// so that every octal escape ends a literal or meets another escape (MISRA C 2012 rule 4.1).
std::string c_string(const std::string& bytes);
// A C comment's text with "*/" and line breaks made harmless.
std::string c_comment(const std::string& text);

}  // namespace emit

// The record slot (op_record.h declares it).
struct EmitCSlot {
  emit::EmitFn emit = nullptr;
};

struct EmitCRegistrar {
  EmitCSlot slot;
  EmitCRegistrar(const char* domain, const char* op, std::initializer_list<int64_t> versions, emit::EmitFn fn) : slot{fn} {
    OpRecords::instance().fill(domain, op, versions, &OpRecord::emit_c, &slot, "C emitter");
  }
};

// SONNX_EMIT_C("", "Relu", (14), emit_relu): the C template of exactly those versions.
#define SONNX_EMIT_C(domain, op, versions, fn) \
  static const ::sonnx::EmitCRegistrar SONNX_CONCAT(sonnx_emit_c_, __COUNTER__)(domain, op, {SONNX_EXPAND versions}, fn)

}  // namespace sonnx
