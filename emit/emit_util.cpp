#include "emit_util.h"

#include <limits>

namespace sonnx::emit {

std::vector<int64_t> row_major_strides(const Shape& shape) {
  std::vector<int64_t> s(shape.size(), 1);
  for (size_t d = shape.size(); d-- > 1;) s[d - 1] = s[d] * shape[d];
  return s;
}

std::vector<int64_t> broadcast_strides(const Shape& in, const Shape& out) {
  std::vector<int64_t> s(out.size(), 0);
  const std::vector<int64_t> own = row_major_strides(in);
  const size_t lead = out.size() - in.size();
  for (size_t d = 0; d < in.size(); ++d) s[lead + d] = in[d] == 1 ? 0 : own[d];
  return s;
}

LoopNest open_loops(NodeEmitter& e, const Shape& shape, const std::string& prefix) {
  LoopNest n;
  for (size_t d = 0; d < shape.size(); ++d) {
    if (shape[d] == 1) {
      n.index.push_back("0");
      continue;
    }
    const std::string var = prefix + std::to_string(d);
    e.line(for_loop(var, shape[d]));
    n.index.push_back(var);
    ++n.opened;
  }
  return n;
}

void close_loops(NodeEmitter& e, const LoopNest& loops) {
  for (int k = 0; k < loops.opened; ++k) e.line("}");
}

std::string offset_expr(const LoopNest& loops, const std::vector<int64_t>& strides) {
  std::vector<std::string> terms;
  for (size_t d = 0; d < strides.size(); ++d) {
    if (strides[d] == 0 || loops.index[d] == "0") continue;
    terms.push_back(strides[d] == 1 ? loops.index[d] : loops.index[d] + " * " + std::to_string(strides[d]));
  }
  if (terms.empty()) return "0";
  if (terms.size() == 1) return terms[0];
  std::string s;  // each product parenthesised, as MISRA C 2012 rule 12.1 asks
  for (const std::string& t : terms) s += (s.empty() ? "" : " + ") + (t.find('*') == std::string::npos ? t : "(" + t + ")");
  return s;
}

std::string for_loop(const std::string& var, int64_t n) {
  return "for (int64_t " + var + " = 0; " + var + " < " + std::to_string(n) + "; ++" + var + ") {";
}

const char* emit_unsigned_of(DType t) {
  switch (t) {
    case DType::Int64:
    case DType::UInt64: return "uint64_t";
    case DType::Int32:
    case DType::UInt32:
    case DType::Int16:
    case DType::UInt16:
    case DType::Int8:
    case DType::UInt8: return "uint32_t";
    default: return nullptr;
  }
}

namespace {
template <class T>
std::string emit_util_saturating_cast(NodeEmitter& e, DType to) {
  const std::string t = c_type(to);
  const std::string name = "sonnx_saturating_cast_" + std::string(dtype_name(to));
  const auto lo = std::numeric_limits<T>::lowest(), hi = std::numeric_limits<T>::max();
  const std::string lo_c = to == DType::UInt64 ? "UINT64_C(0)" : c_literal_int(to, static_cast<int64_t>(lo));
  const std::string hi_c = to == DType::UInt64 ? "UINT64_C(18446744073709551615)" : c_literal_int(to, static_cast<int64_t>(hi));
  e.needs_math();
  e.helper(name, "/* support::saturating_cast<" + t +
                     "> (numeric.h): NaN -> 0, saturates at the limits, truncates toward zero. */\n" + "static " + t + " " +
                     name + "(double v) {\n" + "  if (isnan(v)) {\n    return 0;\n  }\n" +
                     "  if (v <= " + c_literal(DType::Double, static_cast<double>(lo)) + ") {\n    return " + lo_c + ";\n  }\n" +
                     "  if (v >= " + c_literal(DType::Double, static_cast<double>(hi)) + ") {\n    return " + hi_c + ";\n  }\n" +
                     "  return (" + t + ")v;\n}\n");
  return name;
}
}  // namespace

std::string emit_saturating_cast(NodeEmitter& e, DType to) {
  switch (to) {
    case DType::Int64: return emit_util_saturating_cast<int64_t>(e, to);
    case DType::Int32: return emit_util_saturating_cast<int32_t>(e, to);
    case DType::Int16: return emit_util_saturating_cast<int16_t>(e, to);
    case DType::Int8: return emit_util_saturating_cast<int8_t>(e, to);
    case DType::UInt64: return emit_util_saturating_cast<uint64_t>(e, to);
    case DType::UInt32: return emit_util_saturating_cast<uint32_t>(e, to);
    case DType::UInt16: return emit_util_saturating_cast<uint16_t>(e, to);
    case DType::UInt8: return emit_util_saturating_cast<uint8_t>(e, to);
    default: throw EmitRefused("no saturating conversion into element type " + std::string(dtype_name(to)));
  }
}

}  // namespace sonnx::emit
