// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The operators of include/distlops/operators/waveeq/: MDC, real models and data (float32 and
// float64), G complex.
#include <algorithm>
#include <complex>
#include <concepts>

#include "distlops/operators/waveeq/mdc.hpp"
#include "factory_binding.hpp"

namespace distlops::python {
namespace {

// PyLops-MPI's MDC: G holds this rank's frequencies (nf_r, ns, nr).
template <std::floating_point R>
LinearOperator<R, Host> mdc(
    const nb::ndarray<const std::complex<R>, nb::ndim<3>, nb::c_contig, nb::device::cpu>& local_g,
    Index nt, Index nv, double dt, double dr, bool twosided, bool conj, bool prescaled,
    bool keep_adjoint, Partition partition, const Communicator& comm) {
  LocalArray<std::complex<R>, Host> g(Shape{static_cast<Index>(local_g.shape(0)),
                                            static_cast<Index>(local_g.shape(1)),
                                            static_cast<Index>(local_g.shape(2))});
  std::copy_n(local_g.data(), local_g.size(), g.data());
  return MDC<R, Host>(g, nt, nv,
                      {.dt = dt,
                       .dr = dr,
                       .twosided = twosided,
                       .conj = conj,
                       .prescaled = prescaled,
                       .keep_adjoint = keep_adjoint,
                       .partition = partition},
                      comm);
}

}  // namespace

void bind_waveeq(nb::module_& m) {
  Factories factories(m, "waveeq");
  factories.distributed(
      "MDC", []<class T>() requires std::floating_point<T> { return &mdc<T>; });
  // new_operator.sh: bindings of new operators above this line
}

}  // namespace distlops::python
