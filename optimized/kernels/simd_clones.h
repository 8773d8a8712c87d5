// SONNX_SIMD_CLONES marks a hot loop to be compiled also for AVX-512 and AVX2, the variant picked
// at load time from the CPU (GCC's target_clones). Files using it are compiled with
// -ffp-contract=off (optimized/CMakeLists.txt), so no variant fuses a multiply-add and every
// variant gives the baseline's bits. Sanitized builds define SONNX_NO_TARGET_CLONES: the ifunc
// resolvers would run before the sanitizer's runtime is ready.
#pragma once

#if defined(__x86_64__) && !defined(SONNX_NO_TARGET_CLONES)
#define SONNX_SIMD_CLONES __attribute__((target_clones("avx512f", "avx2", "default")))
#else
#define SONNX_SIMD_CLONES
#endif
