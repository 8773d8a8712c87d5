#include "emit_op.h"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <cstdio>

#include "c_half.h"

namespace sonnx::emit {

int64_t CValue::size() const {
  int64_t n = 1;
  for (int64_t d : shape) n *= d;
  return n;
}

NodeEmitter::NodeEmitter(const Node& node, int64_t version, Mode mode, std::vector<CValue> inputs, std::vector<CValue> outputs)
    : node_(node),
      version_(version),
      mode_(mode),
      inputs_(std::move(inputs)),
      outputs_(std::move(outputs)),
      reader_(node, *this) {}

const CValue& NodeEmitter::input(size_t i) const {
  if (!has_input(i)) refuse("input " + std::to_string(i) + " is absent");
  return inputs_[i];
}

const CValue& NodeEmitter::output(size_t k) const {
  if (k >= outputs_.size() || outputs_[k].name.empty()) refuse("output " + std::to_string(k) + " is absent");
  return outputs_[k];
}

const Tensor& NodeEmitter::constant_input(size_t i, const std::string& what) const {
  const CValue& in = input(i);
  if (!in.constant) refuse("run-time " + what + " (input '" + in.name + "' is needed as a constant)");
  return *in.constant;
}

std::string NodeEmitter::op_name() const {
  return (node_.domain.empty() ? "" : node_.domain + ".") + node_.op_type + "-" + std::to_string(version_);
}

void NodeEmitter::refuse(const std::string& why) const {
  throw EmitRefused("no C template for " + op_name() + " at node " + node_.label() + ": " + why);
}

void NodeEmitter::line(const std::string& text) {
  if (!text.empty() && text.front() == '}') --indent_;
  body_.push_back(std::string(static_cast<size_t>(2 * std::max(indent_, 0)), ' ') + text);
  if (!text.empty() && text.back() == '{') ++indent_;
}

void NodeEmitter::helper(const std::string& name, const std::string& definition) {
  const auto same = [&](const auto& h) { return h.first == name; };
  if (std::find_if(helpers_.begin(), helpers_.end(), same) == helpers_.end()) helpers_.emplace_back(name, definition);
}

std::string NodeEmitter::load(DType t, const std::string& element) {
  if (is_half_type(t)) return emit_half_to_float(*this, t) + "(" + element + ")";
  if (t != DType::Float && t != DType::Double) refuse("element type " + std::string(dtype_name(t)) + " is not a floating type");
  return element;
}

std::string NodeEmitter::store(DType t, const std::string& element, const std::string& value, bool from_double) {
  if (is_half_type(t))
    return element + " = " + (from_double ? emit_half_from_double(*this, t) : emit_half_from_float(*this, t)) + "(" + value +
           ");";
  if (t == DType::Float) return element + " = " + (from_double ? "(float)(" + value + ")" : value) + ";";
  if (t == DType::Double) return element + " = " + value + ";";
  refuse("element type " + std::string(dtype_name(t)) + " is not a floating type");
}

namespace {
const char* emit_storage_type_or_null(DType type) {
  switch (type) {
    case DType::Float16:
    case DType::BFloat16: return "uint16_t";
    case DType::Float8E4M3FN:
    case DType::Float8E4M3FNUZ:
    case DType::Float8E5M2:
    case DType::Float8E5M2FNUZ:
    case DType::Float8E8M0:
    case DType::Float4E2M1:
    case DType::UInt4:
    case DType::UInt2: return "uint8_t";
    case DType::Int4:
    case DType::Int2: return "int8_t";
    default: return nullptr;
  }
}

const char* emit_c_type_or_null(DType type) {
  switch (type) {
    case DType::Float: return "float";
    case DType::Double: return "double";
    case DType::Int64: return "int64_t";
    case DType::Int32: return "int32_t";
    case DType::Int16: return "int16_t";
    case DType::Int8: return "int8_t";
    case DType::UInt64: return "uint64_t";
    case DType::UInt32: return "uint32_t";
    case DType::UInt16: return "uint16_t";
    case DType::UInt8: return "uint8_t";
    case DType::Bool: return "uint8_t";  // 0 or 1, one byte, as sonnx holds booleans
    default: return nullptr;
  }
}
}  // namespace

std::string NodeEmitter::literal(const Tensor& t, int64_t i) {
  if (t.dtype() == DType::Float || t.dtype() == DType::Double) {
    const double v = t.as_double(i);
    if (std::isnan(v)) {
      const auto bits = std::bit_cast<uint64_t>(v);
      if ((bits & 0x7fffffffffffffffULL) != 0x7ff8000000000000ULL) refuse("a NaN with a payload has no C99 constant");
      needs_math();
      const std::string nan = t.dtype() == DType::Float ? "NAN" : "((double)NAN)";
      return (bits >> 63) != 0 ? "(-" + nan + ")" : nan;
    }
    if (std::isinf(v)) needs_math();
  }
  return c_element(t, i);
}

const char* c_type(DType type) {
  if (const char* name = emit_c_type_or_null(type)) return name;
  throw EmitRefused("no C type for element type " + std::string(dtype_name(type)));
}

bool has_c_type(DType type) { return emit_c_type_or_null(type) != nullptr; }

const char* c_storage_type(DType type) {
  if (const char* name = emit_storage_type_or_null(type)) return name;
  return c_type(type);
}

bool has_c_storage_type(DType type) { return has_c_type(type) || emit_storage_type_or_null(type) != nullptr; }

const char* c_compute_type(DType type) { return is_half_type(type) ? "float" : c_type(type); }

std::string c_literal(DType type, double v) {
  if (type != DType::Float && type != DType::Double) return c_literal_int(type, static_cast<int64_t>(v));
  const bool is_float = type == DType::Float;
  if (std::isnan(v)) return is_float ? "NAN" : "((double)NAN)";
  if (std::isinf(v)) return std::string(v < 0 ? "-" : "") + (is_float ? "INFINITY" : "((double)INFINITY)");
  char s[64];
  std::snprintf(s, sizeof s, "%a", v);  // exact
  std::string text = s;
  if (is_float) text += "f";
  return v < 0 || std::signbit(v) ? "(" + text + ")" : text;
}

std::string c_literal_int(DType type, int64_t v) {
  switch (type) {
    case DType::Int64:
      if (v == INT64_MIN) return "(-INT64_C(9223372036854775807) - INT64_C(1))";
      return v < 0 ? "(-INT64_C(" + std::to_string(-v) + "))" : "INT64_C(" + std::to_string(v) + ")";
    case DType::UInt64: return "UINT64_C(" + std::to_string(static_cast<uint64_t>(v)) + ")";
    case DType::Bool: return v ? "1u" : "0u";
    case DType::UInt8:
    case DType::UInt16:
    case DType::UInt32: return std::to_string(static_cast<uint64_t>(v)) + "u";
    case DType::Int32:
      if (v == INT32_MIN) return "(-2147483647 - 1)";
      return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
    default: return v < 0 ? "(" + std::to_string(v) + ")" : std::to_string(v);
  }
}

std::string c_element(const Tensor& t, int64_t i) {
  if (const char* storage = emit_storage_type_or_null(t.dtype())) {  // the bits, as sonnx holds them
    const auto* bytes = reinterpret_cast<const unsigned char*>(t.raw());
    const size_t width = dtype_size(t.dtype()), at = static_cast<size_t>(i) * width;
    if (width == 2) return std::to_string(bytes[at] | (bytes[at + 1] << 8)) + "u";  // little-endian, as Tensor holds it
    if (std::string(storage) == "int8_t") return c_literal_int(DType::Int8, static_cast<int8_t>(bytes[at]));
    return std::to_string(bytes[at]) + "u";
  }
  switch (t.dtype()) {
    case DType::Float:
    case DType::Double: return c_literal(t.dtype(), t.as_double(i));
    case DType::UInt64: return "UINT64_C(" + std::to_string(t.data<uint64_t>()[i]) + ")";
    default: return c_literal_int(t.dtype(), t.as_int64(i));
  }
}

std::string c_comment(const std::string& text) {
  std::string out;
  for (size_t i = 0; i < text.size(); ++i) {
    const char ch = text[i];
    if (ch == '\n' || ch == '\r') out += ' ';
    else if (ch == '*' && i + 1 < text.size() && text[i + 1] == '/') out += "* ";
    else if (ch == '/' && i + 1 < text.size() && text[i + 1] == '*') out += "/ ";
    else if (static_cast<unsigned char>(ch) < 0x20) out += '?';
    else out += ch;
  }
  return out;
}

}  // namespace sonnx::emit
