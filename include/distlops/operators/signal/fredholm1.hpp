// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file fredholm1.hpp
/// Fredholm integral of the first kind (PyLops' Fredholm1, PyLops-MPI's MPIFredholm1): a
/// kernel G of shape (nsl, nx, ny) applied slice by slice to a model of shape (nsl, ny, nz),
///
///   y[k] = G[k] x[k]   (data of shape (nsl, nx, nz)),   x[k] = G[k]^H y[k]   (adjoint),
///
/// one OpenBLAS matrix product per slice (a matrix-vector product when nz == 1).
///
/// Space = Cuda: model and data are device arrays; G (given in host memory), and G^H with
/// `keep_adjoint`, are copied to the device once, and every slice goes in one batched cuBLAS
/// call (gemmStridedBatched, gemvStridedBatched when nz == 1). The all-gather of BROADCAST
/// moves device memory over NCCL, or through host copies over MPI (gpu_collectives()).
///
/// Performance options that replace PyLops' `saveGt` and `usematmul`:
/// - `keep_adjoint` stores G[k]^H next to G[k] (PyLops' saveGt): twice the memory, and the
///   adjoint reads a row-major G^H instead of G transposed. BLAS takes the conjugate
///   transpose of a matrix without copying it, so the gain is small and the default is false
///   (PyLops' default is true).
/// - `usematmul` has no counterpart: each slice is always one product (numpy's choice between
///   a batched matmul and a loop of dots does not arise).
///
/// The distributed operator splits the slices over the ranks: each rank passes its slices of
/// G (any number, zero included). With `partition` BROADCAST (PyLops-MPI) model and data are
/// whole on every rank; each rank computes its slices and an all-gather completes the
/// result. With SCATTER, model and data are split along their first axis like G and nothing
/// is communicated.

#include "distlops/config.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/linear_operator.hpp"

namespace distlops {

/// Options of the distributed Fredholm1.
struct Fredholm1Options {
  /// BROADCAST (or UNSAFE_BROADCAST): model and data replicated, as in PyLops-MPI; SCATTER:
  /// split along axis 0 like G.
  Partition partition = Partition::BROADCAST;
  /// Store G[k]^H next to G[k] (PyLops' saveGt; default false, see above).
  bool keep_adjoint = false;
};

namespace local {
/// Fredholm1 on one rank's arrays: `g` of shape (nsl, nx, ny), models of shape (nsl, ny, nz).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Fredholm1(const LocalArray<T, Host>& g, Index nz = 1,
                                  bool keep_adjoint = false);
}  // namespace local

/// The distributed Fredholm1: `local_g` holds this rank's slices (nsl_r, nx, ny); nsl is the
/// sum of the nsl_r in rank order. nx, ny and nz must agree on every rank. Collective.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Fredholm1(const LocalArray<T, Host>& local_g, Index nz = 1,
                                   const Fredholm1Options& options = {},
                                   const Communicator& comm = Communicator::world());

/// \cond
#define DISTLOPS_DETAIL_FREDHOLM1(PREFIX, T, S)                                                 \
  PREFIX template LocalOperator<T, S> local::Fredholm1<T, S>(const LocalArray<T, Host>&, Index, \
                                                             bool);                             \
  PREFIX template LinearOperator<T, S> Fredholm1<T, S>(                                         \
      const LocalArray<T, Host>&, Index, const Fredholm1Options&, const Communicator&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_FREDHOLM1, extern)
/// \endcond

}  // namespace distlops
