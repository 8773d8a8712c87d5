#include "emit_util.h"

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

}  // namespace sonnx::emit
