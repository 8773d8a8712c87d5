#include "gemm.h"

#include "sonnx/tensor.h"

namespace sonnx {

GemmParams GemmParams::read(const AttrReader& r, int64_t version) {
  GemmParams p;
  p.trans_a = r.attr_int("transA", 0) != 0;
  p.trans_b = r.attr_int("transB", 0) != 0;
  p.alpha = r.attr_float("alpha", 1.0f);
  p.beta = r.attr_float("beta", 1.0f);
  p.c_broadcasts = version >= 7 || r.attr_int("broadcast", 0) != 0;
  return p;
}

std::string GemmParams::dims(const Shape& a, const Shape& b, Dims& out) const {
  if (a.size() != 2 || b.size() != 2) return "A and B must be 2-D, got " + shape_str(a) + " and " + shape_str(b);
  int64_t M = trans_a ? a[1] : a[0], K = trans_a ? a[0] : a[1];
  int64_t Kb = trans_b ? b[1] : b[0], N = trans_b ? b[0] : b[1];
  if (K != Kb)
    return "inner dimensions differ: A' is [" + std::to_string(M) + "," + std::to_string(K) + "], B' is [" + std::to_string(Kb) +
           "," + std::to_string(N) + "]";
  out = {M, K, N};
  return "";
}

}  // namespace sonnx
