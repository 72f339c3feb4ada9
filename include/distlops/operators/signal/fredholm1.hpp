#pragma once
/// \file fredholm1.hpp
/// Fredholm integral of the first kind (PyLops' Fredholm1, PyLops-MPI's MPIFredholm1): a
/// kernel G of shape (nsl, nx, ny) applied slice by slice to a model of shape (nsl, ny, nz),
///
///   y[k] = G[k] x[k]   (data of shape (nsl, nx, nz)),   x[k] = G[k]^H y[k]   (adjoint),
///
/// one Eigen matrix product per slice (a matrix-vector product when nz == 1).
///
/// Performance options that replace PyLops' `saveGt` and `usematmul`:
/// - `keep_adjoint` stores G[k]^H next to G[k] (PyLops' saveGt): twice the memory, and the
///   adjoint reads a row-major G^H instead of G transposed. Eigen's products take the
///   conjugate transpose of a matrix without copying it, so the gain is small and the default
///   is false (PyLops' default is true).
/// - `usematmul` has no counterpart: each slice is always one product (numpy's choice between
///   a batched matmul and a loop of dots does not arise).
///
/// The distributed operator splits the slices over the ranks: each rank passes its slices of
/// G (any number, zero included). With `partition` BROADCAST (PyLops-MPI) model and data are
/// whole on every rank; each rank computes its slices and an all-gather completes the
/// result. With SCATTER, model and data are split along their first axis like G and nothing
/// is communicated.

#include "distlops/operators/linear_operator.hpp"

namespace distlops {

struct Fredholm1Options {
  /// BROADCAST (or UNSAFE_BROADCAST): model and data replicated, as in PyLops-MPI; SCATTER:
  /// split along axis 0 like G.
  Partition partition = Partition::BROADCAST;
  bool keep_adjoint = false;
};

namespace local {
/// Fredholm1 on one rank's arrays: `g` of shape (nsl, nx, ny), models of shape (nsl, ny, nz).
template <Scalar T>
LocalOperator<T, Host> Fredholm1(const LocalArray<T, Host>& g, Index nz = 1,
                                 bool keep_adjoint = false);
}  // namespace local

/// The distributed Fredholm1: `local_g` holds this rank's slices (nsl_r, nx, ny); nsl is the
/// sum of the nsl_r in rank order. nx, ny and nz must agree on every rank. Collective.
template <Scalar T>
LinearOperator<T, Host> Fredholm1(const LocalArray<T, Host>& local_g, Index nz = 1,
                                  const Fredholm1Options& options = {},
                                  const Communicator& comm = Communicator::world());

#define DISTLOPS_DECLARE_FREDHOLM1(T)                                                        \
  namespace local {                                                                          \
  extern template LocalOperator<T, Host> Fredholm1(const LocalArray<T, Host>&, Index, bool); \
  }                                                                                          \
  extern template LinearOperator<T, Host> Fredholm1(const LocalArray<T, Host>&, Index,       \
                                                    const Fredholm1Options&, const Communicator&);
DISTLOPS_DECLARE_FREDHOLM1(float)
DISTLOPS_DECLARE_FREDHOLM1(double)
DISTLOPS_DECLARE_FREDHOLM1(std::complex<float>)
DISTLOPS_DECLARE_FREDHOLM1(std::complex<double>)
#undef DISTLOPS_DECLARE_FREDHOLM1

}  // namespace distlops
