// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Kirchhoff on the device (kirchhoff_kernels.hpp). The spray runs one thread per pair and image
// point, adding into the traces with atomics (several points land on one sample); the stack
// runs one thread per image point, which sums over the pairs and writes its point once. The
// weights come from kirchhoff_contribution, the host's formula.
#include "../waveeq/kirchhoff_kernels.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

using namespace device;
namespace pw = pointwise;

template <class R>
__device__ void add_to(R* target, R value) {
  atomicAdd(target, value);
}
template <class R>
__device__ void add_to(pw::complex_pair<R>* target, pw::complex_pair<R> value) {
  atomicAdd(&target->re, value.real());
  atomicAdd(&target->im, value.imag());
}

template <class D, class R>
__global__ void kirchhoff_spray_kernel(Index n, KirchhoffView<R> view, D alpha, const D* model,
                                       D* traces) {
  for (Index p = first_index(); p < n; p += grid_stride()) {
    const Index i = p % view.ni;
    const Index pair = p / view.ni;
    Index sample = 0;
    R first = 0, second = 0;
    if (!kirchhoff_contribution(view, pair / view.nr, pair % view.nr, i, sample, first, second))
      continue;
    const D value = pw::multiply(alpha, model[i]);
    D* trace = traces + pair * view.nt;
    add_to(trace + sample, pw::multiply(pw::from_real<D>(first), value));
    add_to(trace + sample + 1, pw::multiply(pw::from_real<D>(second), value));
  }
}

template <class D, class R>
__global__ void kirchhoff_stack_kernel(Index n, KirchhoffView<R> view, D alpha, const D* traces,
                                       D beta, D* model) {
  for (Index i = first_index(); i < n; i += grid_stride()) {
    D sum = pw::from_real<D>(R(0));
    for (Index s = 0; s < view.ns; ++s) {
      for (Index r = 0; r < view.nr; ++r) {
        Index sample = 0;
        R first = 0, second = 0;
        if (!kirchhoff_contribution(view, s, r, i, sample, first, second)) continue;
        const D* trace = traces + (s * view.nr + r) * view.nt;
        sum = pw::add(sum, pw::add(pw::multiply(pw::from_real<D>(first), trace[sample]),
                                   pw::multiply(pw::from_real<D>(second), trace[sample + 1])));
      }
    }
    model[i] = accumulate(pw::multiply(alpha, sum), beta, model + i);
  }
}

}  // namespace

template <Scalar T>
void kirchhoff_spray(Cuda, const KirchhoffView<real_type_t<T>>& view, T alpha, const T* model,
                     T beta, T* traces) {
  const Index samples = view.ns * view.nr * view.nt;
  if (beta == T(0)) {
    fill(Cuda{}, samples, T(0), traces);
  } else if (beta != T(1)) {
    scale(Cuda{}, samples, beta, traces);
  }
  launch_elements("Kirchhoff spray kernel launch", view.ns * view.nr * view.ni,
                  kirchhoff_spray_kernel<scalar_t<T>, real_type_t<T>>, view, value(alpha),
                  pointer(model), pointer(traces));
}

template <Scalar T>
void kirchhoff_stack(Cuda, const KirchhoffView<real_type_t<T>>& view, T alpha, const T* traces,
                     T beta, T* model) {
  launch_elements("Kirchhoff stack kernel launch", view.ni,
                  kirchhoff_stack_kernel<scalar_t<T>, real_type_t<T>>, view, value(alpha),
                  pointer(traces), value(beta), pointer(model));
}

DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_KIRCHHOFF_KERNELS, ::distlops::Cuda)

}  // namespace distlops::kernels
