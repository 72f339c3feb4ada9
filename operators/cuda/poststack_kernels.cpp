// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The device has no fused post-stack modelling (poststack_kernels.hpp): the algorithm takes the
// product of the Convolve1D and FirstDerivative operators, whose kernels run on the device.
#include "../signal/poststack_kernels.hpp"

#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

template <Scalar T>
std::optional<LocalOperator<T, Cuda>> fused_trace_modelling(Cuda, const Shape&, std::span<const T>,
                                                            DerivativeKind) {
  return std::nullopt;
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_POSTSTACK_KERNELS, , ::distlops::Cuda)

}  // namespace distlops::kernels
