#include "conv_layout.h"

#include <cstdlib>
#include <cstring>

namespace sonnx::fast {

bool conv_prefers_blocked(const ConvShape& s) {
  // SONNX_CONV_LAYOUT=plain|blocked overrides the rule (for measurements).
  if (const char* env = std::getenv("SONNX_CONV_LAYOUT")) {
    if (std::strcmp(env, "plain") == 0) return false;
    if (std::strcmp(env, "blocked") == 0) return true;
  }
  // Measured on AVX-512 with oneDNN 2.6 at one thread (bench_conv_layouts): oneDNN's NCHW path
  // (gemm:jit) is 1.3-10x slower than brgconv/brdgmm on blocked layouts even counting the
  // reorders, except for 1x1 stride-1 projections to few channels (96->24 @56: 0.135 ms plain vs
  // 0.225 ms blocked+reorders; 192->32 @28: 0.057 vs 0.095; 384->64 @14: 0.057 vs 0.071), where the
  // reorders dominate. 960->320 @7 still favours blocked (0.195 vs 0.150).
  bool projection = s.kh == 1 && s.stride == 1 && s.group == 1 && s.M < s.C && s.M <= 64;
  return !projection;
}

}  // namespace sonnx::fast
