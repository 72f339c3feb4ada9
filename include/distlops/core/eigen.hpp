// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file eigen.hpp
/// Eigen views of a host DistributedArray's local block, without copies.

#include <Eigen/Core>

#include "distlops/core/distributed_array.hpp"

namespace distlops {

/// A dynamic-size Eigen column vector of T.
template <class T>
using EigenVector = Eigen::Matrix<T, Eigen::Dynamic, 1>;
/// A dynamic-size row-major Eigen matrix of T, the C order of distlops' arrays.
template <class T>
using EigenRowMajorMatrix = Eigen::Matrix<T, Eigen::Dynamic, Eigen::Dynamic, Eigen::RowMajor>;

/// The local block as a column vector (C order). Rank-local; the map aliases the array.
template <Scalar T>
Eigen::Map<EigenVector<T>> local_vector(DistributedArray<T, Host>& array) {
  return {array.data(), static_cast<Eigen::Index>(array.local_size())};
}
/// The local block as a read-only column vector (C order).
template <Scalar T>
Eigen::Map<const EigenVector<T>> local_vector(const DistributedArray<T, Host>& array) {
  return {array.data(), static_cast<Eigen::Index>(array.local_size())};
}

/// The local block as a row-major matrix: rows = local extent of axis 0, columns = the
/// product of the other local extents (0 x 0 on a rank that owns no row). Rank-local.
template <Scalar T>
Eigen::Map<EigenRowMajorMatrix<T>> local_matrix(DistributedArray<T, Host>& array) {
  const Shape shape = array.local_shape();
  const Index rows = shape[0];
  return {array.data(), static_cast<Eigen::Index>(rows),
          static_cast<Eigen::Index>(rows == 0 ? 0 : array.local_size() / rows)};
}
/// The local block as a read-only row-major matrix (see the mutable overload).
template <Scalar T>
Eigen::Map<const EigenRowMajorMatrix<T>> local_matrix(const DistributedArray<T, Host>& array) {
  const Shape shape = array.local_shape();
  const Index rows = shape[0];
  return {array.data(), static_cast<Eigen::Index>(rows),
          static_cast<Eigen::Index>(rows == 0 ? 0 : element_count(shape) / rows)};
}

}  // namespace distlops
