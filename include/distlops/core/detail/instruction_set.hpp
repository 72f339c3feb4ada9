// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// The instruction set the host's compute-bound kernels run with, chosen once at run time: a
// portable build (no -march) still uses AVX2/FMA or AVX-512 where the processor has them. The
// kernels are compiled once per level through GCC/Clang target attributes
// (DISTLOPS_TARGET_AVX2, DISTLOPS_TARGET_AVX512) and dispatch on host_instruction_set().
// Elsewhere (other processors or compilers) only the portable level exists, and so in the
// sanitizer build (DISTLOPS_PORTABLE_KERNELS_ONLY, which DISTLOPS_SANITIZE sets): its tests run
// one level anyway, the processor's, the levels share their loops and indexing, and the main
// build's tests compare every level with the portable one. Instrumented, the three levels of
// the stencil kernels took 54 CPU-seconds to compile, the portable one alone 8.

namespace distlops::kernels {

enum class InstructionSet { portable, avx2, avx512 };

#if defined(__x86_64__) && defined(__GNUC__) && !defined(DISTLOPS_PORTABLE_KERNELS_ONLY)
#define DISTLOPS_HAVE_X86_TARGETS 1
#define DISTLOPS_TARGET_AVX2 __attribute__((target("avx2,fma")))
#define DISTLOPS_TARGET_AVX512 __attribute__((target("avx512f,avx2,fma")))

inline InstructionSet host_instruction_set() {
  static const InstructionSet level = [] {
    __builtin_cpu_init();
    if (__builtin_cpu_supports("avx512f")) return InstructionSet::avx512;
    if (__builtin_cpu_supports("avx2") && __builtin_cpu_supports("fma"))
      return InstructionSet::avx2;
    return InstructionSet::portable;
  }();
  return level;
}
#else
#define DISTLOPS_HAVE_X86_TARGETS 0
inline InstructionSet host_instruction_set() {
  return InstructionSet::portable;
}
#endif

/// Whether kernels compiled for `level` can run here (every lower level can).
inline bool instruction_set_available(InstructionSet level) {
  return static_cast<int>(level) <= static_cast<int>(host_instruction_set());
}

}  // namespace distlops::kernels
