#include "emit_op.h"

#include <algorithm>
#include <bit>
#include <cinttypes>
#include <cmath>
#include <complex>
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
    case DType::String: return "sonnx_string";
    case DType::Complex64: return "sonnx_complex64";
    case DType::Complex128: return "sonnx_complex128";
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

std::string NodeEmitter::real_literal(DType t, double v) {
  if (std::isnan(v)) {
    const auto bits = std::bit_cast<uint64_t>(v);
    if ((bits & 0x7fffffffffffffffULL) != 0x7ff8000000000000ULL) refuse("a NaN with a payload has no C99 constant");
    needs_math();
    const std::string nan = t == DType::Float ? "NAN" : "((double)NAN)";
    return (bits >> 63) != 0 ? "(-" + nan + ")" : nan;
  }
  if (std::isinf(v)) needs_math();
  return c_literal(t, v);
}

std::string NodeEmitter::initializer(const Tensor& t, int64_t i) {
  // A float's NaN widens to a double NaN of the same sign and payload bits (shifted), so the test
  // of real_literal holds for both parts' types.
  if (t.dtype() == DType::Complex64) {
    const std::complex<float> z = t.data<std::complex<float>>()[i];
    return "{ " + real_literal(DType::Float, static_cast<double>(z.real())) + ", " +
           real_literal(DType::Float, static_cast<double>(z.imag())) + " }";
  }
  if (t.dtype() == DType::Complex128) {
    const std::complex<double> z = t.data<std::complex<double>>()[i];
    return "{ " + real_literal(DType::Double, z.real()) + ", " + real_literal(DType::Double, z.imag()) + " }";
  }
  if (t.dtype() == DType::Float || t.dtype() == DType::Double) return real_literal(t.dtype(), t.as_double(i));
  return c_element(t, i);
}

std::string NodeEmitter::literal(const Tensor& t, int64_t i) {
  if (is_c_struct_type(t.dtype())) return "(" + std::string(c_storage_type(t.dtype())) + ")" + initializer(t, i);
  return initializer(t, i);
}

std::string NodeEmitter::constant_object(const Tensor& t, int64_t i, const std::string& name) {
  if (!is_c_struct_type(t.dtype())) return literal(t, i);
  line("static const " + std::string(c_storage_type(t.dtype())) + " " + name + " = " + initializer(t, i) + ";");
  return name;
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

bool is_c_struct_type(DType type) { return type == DType::String || type == DType::Complex64 || type == DType::Complex128; }

int64_t c_storage_bytes(DType type) { return type == DType::String ? 16 : static_cast<int64_t>(dtype_size(type)); }

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
  switch (t.dtype()) {  // the struct types: an initializer
    case DType::String: {
      const std::string& text = t.data<std::string>()[i];
      return "{ " + c_string(text) + ", " + std::to_string(text.size()) + "u }";
    }
    case DType::Complex64: {
      const std::complex<float> z = t.data<std::complex<float>>()[i];
      return "{ " + c_literal(DType::Float, static_cast<double>(z.real())) + ", " +
             c_literal(DType::Float, static_cast<double>(z.imag())) + " }";
    }
    case DType::Complex128: {
      const std::complex<double> z = t.data<std::complex<double>>()[i];
      return "{ " + c_literal(DType::Double, z.real()) + ", " + c_literal(DType::Double, z.imag()) + " }";
    }
    default: break;
  }
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

std::string c_string(const std::string& bytes) {
  std::string out = "\"";
  bool octal = false;  // the last thing written is an octal escape
  for (const char ch : bytes) {
    const auto b = static_cast<unsigned char>(ch);
    if (ch == '"' || ch == '\\' || ch == '?') {
      out += '\\';
      out += ch;
      octal = false;
    } else if (b >= 0x20 && b < 0x7F) {
      if (octal) out += "\" \"";  // MISRA C 2012 rule 4.1: an octal escape ends the literal or meets another escape
      out += ch;
      octal = false;
    } else {
      out += '\\';
      out += static_cast<char>('0' + (b >> 6));
      out += static_cast<char>('0' + ((b >> 3) & 7));
      out += static_cast<char>('0' + (b & 7));
      octal = true;
    }
  }
  return out + "\"";
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
