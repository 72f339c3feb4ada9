// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Kirchhoff on the host (kirchhoff_kernels.hpp): both directions walk the pairs, and for each
// pair the image points in order, so that the tables are read contiguously and one trace of
// nt samples stays in cache while it is sprayed into or stacked from.
#include "../waveeq/kirchhoff_kernels.hpp"

#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

template <Scalar T>
void kirchhoff_spray(Host, const KirchhoffView<real_type_t<T>>& view, T alpha, const T* model,
                     T beta, T* traces) {
  using R = real_type_t<T>;
  const Index samples = view.ns * view.nr * view.nt;
  if (beta == T(0)) {
    fill(Host{}, samples, T(0), traces);
  } else if (beta != T(1)) {
    scale(Host{}, samples, beta, traces);
  }
  for (Index s = 0; s < view.ns; ++s) {
    for (Index r = 0; r < view.nr; ++r) {
      T* trace = traces + (s * view.nr + r) * view.nt;
      for (Index i = 0; i < view.ni; ++i) {
        Index sample = 0;
        R first = 0, second = 0;
        if (!kirchhoff_contribution(view, s, r, i, sample, first, second)) continue;
        const T value = alpha * model[i];
        trace[sample] += value * first;
        trace[sample + 1] += value * second;
      }
    }
  }
}

template <Scalar T>
void kirchhoff_stack(Host, const KirchhoffView<real_type_t<T>>& view, T alpha, const T* traces,
                     T beta, T* model) {
  using R = real_type_t<T>;
  if (beta == T(0)) {
    fill(Host{}, view.ni, T(0), model);
  } else if (beta != T(1)) {
    scale(Host{}, view.ni, beta, model);
  }
  for (Index s = 0; s < view.ns; ++s) {
    for (Index r = 0; r < view.nr; ++r) {
      const T* trace = traces + (s * view.nr + r) * view.nt;
      for (Index i = 0; i < view.ni; ++i) {
        Index sample = 0;
        R first = 0, second = 0;
        if (!kirchhoff_contribution(view, s, r, i, sample, first, second)) continue;
        model[i] += alpha * (trace[sample] * first + trace[sample + 1] * second);
      }
    }
  }
}

DISTLOPS_FOR_EACH_SCALAR_IN(DISTLOPS_INSTANTIATE_KIRCHHOFF_KERNELS, ::distlops::Host)

}  // namespace distlops::kernels
