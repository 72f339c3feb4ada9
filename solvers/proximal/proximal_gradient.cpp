// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The proximal gradient method compiled for the distributed and stacked arrays of every scalar
// type and memory space.
#include "distlops/solvers/proximal/proximal_gradient.hpp"

namespace distlops {

const char* to_string(Acceleration acceleration) {
  switch (acceleration) {
    case Acceleration::none:
      return "none";
    case Acceleration::vandenberghe:
      return "vandenberghe";
    case Acceleration::fista:
      return "fista";
  }
  return "unknown";
}

#define DISTLOPS_INSTANTIATE_PROXIMAL_GRADIENT(...) template class ProximalGradient<__VA_ARGS__>;
DISTLOPS_FOR_EACH_PROX_VECTOR(DISTLOPS_INSTANTIATE_PROXIMAL_GRADIENT)
#undef DISTLOPS_INSTANTIATE_PROXIMAL_GRADIENT

}  // namespace distlops
