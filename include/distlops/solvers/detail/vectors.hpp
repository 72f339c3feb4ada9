// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file vectors.hpp
/// What the solvers need from their vector types beyond the shared algebra: the communicator
/// their collective decisions run on, their local blocks (for checkpoints and element-wise
/// kernels), the first element (for the progress table) and a few reductions. Overloads for
/// DistributedArray, StackedDistributedArray and LocalArray.

#include <cmath>
#include <complex>
#include <optional>

#include "distlops/core/kernels.hpp"
#include "distlops/operators/vector_traits.hpp"

namespace distlops::detail {

/// The communicator on which a solver running on vectors like `v` agrees on its decisions
/// (the whole communicator of the layout, mask groups included). Local arrays: MPI_COMM_SELF.
template <Scalar T, MemorySpace Space>
Communicator solver_communicator(const DistributedArray<T, Space>& v) {
  return v.communicator();
}
template <Scalar T, MemorySpace Space>
Communicator solver_communicator(const StackedDistributedArray<T, Space>& v) {
  return v.communicator();
}
template <Scalar T, MemorySpace Space>
Communicator solver_communicator(const LocalArray<T, Space>&) {
  return Communicator::self();
}

/// Calls f(data, local_size, global_size) for every contiguous local block of `v`: the local
/// block of a distributed array, every leaf of a stacked array (depth first), a local array.
/// `data` points to const elements when `v` is const.
template <class V, class F>
void for_each_block(V& v, F&& f) {
  if constexpr (requires { v.narrays(); }) {
    v.for_each_array([&](auto& leaf) { f(leaf.data(), leaf.local_size(), leaf.global_size()); });
  } else if constexpr (requires { v.shape(); }) {
    f(v.data(), v.size(), v.size());
  } else {
    f(v.data(), v.local_size(), v.global_size());
  }
}

/// The first element of this rank's data of the first block (for rank 0 the first element of
/// the global vector), or nothing when this rank owns none of it.
template <class V>
std::optional<typename V::value_type> first_element(const V& v) {
  using T = typename V::value_type;
  using Space = typename V::space_type;
  std::optional<T> result;
  bool first = true;
  for_each_block(v, [&](const T* data, Index local, Index) {
    if (first && local > 0) {
      T value;
      memory::copy_bytes<Host, Space>(&value, data, sizeof(T));
      result = value;
    }
    first = false;
  });
  return result;
}

/// Re(a^H b): the real part of the conjugating dot product, as a double (one reduction).
template <class V>
double real_vdot(const V& a, const V& b) {
  return static_cast<double>(std::real(a.vdot(b)));
}

/// ||v||^2 = v^H v (one reduction), computed like PyLops' |v . conj(v)|.
template <class V>
double squared_norm(const V& v) {
  return real_vdot(v, v);
}

/// The sums behind the sparsity penalties: sum |v_i| (p = 1), the number of non-zeros
/// (p = 0) and sum |v_i|^(1/2) (p = 0.5). One reduction.
template <Scalar T, MemorySpace Space>
double penalty_sum(const DistributedArray<T, Space>& v, double p) {
  return p == 0.5 ? std::sqrt(static_cast<double>(v.norm(0.5))) : static_cast<double>(v.norm(p));
}
template <Scalar T, MemorySpace Space>
double penalty_sum(const StackedDistributedArray<T, Space>& v, double p) {
  return p == 0.5 ? std::sqrt(static_cast<double>(v.norm(0.5))) : static_cast<double>(v.norm(p));
}
template <Scalar T, MemorySpace Space>
double penalty_sum(const LocalArray<T, Space>& v, double p) {
  using R = real_type_t<T>;
  const auto kind = p == 0 ? kernels::NormKind::count_nonzero : kernels::NormKind::power_sum;
  return static_cast<double>(
      kernels::norm_reduce(Space{}, kind, static_cast<R>(p == 0 ? 1 : p), v.size(), v.data()));
}

/// The scalar type's value of a double (a real scalar for complex types).
template <class T>
T scalar(double value) {
  return T(static_cast<real_type_t<T>>(value));
}

/// True when every value is finite.
template <class... D>
bool all_finite(D... values) {
  return (std::isfinite(values) && ...);
}

}  // namespace distlops::detail
