// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// SliceProducts: the batched products of Fredholm1 and MDC. Slice i of a kernel G (nsl, nx,
// ny) multiplies slice i of a model (nsl, ny, nz): y[i] = G[i] x[i] and x[i] = G[i]^H y[i], all
// slices in one batched product (matrix_mult_kernels.hpp) in the memory space of the data. All
// arrays are C order.
#include <vector>

#include "../dense/matrix_mult_kernels.hpp"
#include "../support.hpp"
#include "distlops/core/buffer.hpp"
#include "distlops/core/types.hpp"

namespace distlops::detail {

template <Scalar T, MemorySpace Space>
class SliceProducts {
 public:
  /// `caller` names the operator in errors. Copies nsl slices of G (host memory; scaled by `scale`,
  /// conjugated when `conjugate`); with `keep_adjoint` the conjugate transposes are stored too,
  /// which turns the adjoint's strided reads of G into contiguous ones.
  SliceProducts(const char* caller, const T* g, Index nsl, Index nx, Index ny, Index nz, T scale,
                bool conjugate, bool keep_adjoint)
      : caller_(caller), nsl_(nsl), nx_(nx), ny_(ny), nz_(nz) {
    std::vector<T> values(g, g + nsl * nx * ny);
    for (T& value : values)
      value = (conjugate ? distlops::conjugate(value) : value) * scale;
    g_ = detail::copy_to_space<T, Space>(values);
    if (!keep_adjoint) return;
    std::vector<T> adjoint(values.size());
    for (Index i = 0; i < nsl_; ++i) {
      const T* slice = values.data() + i * nx_ * ny_;
      T* transposed = adjoint.data() + i * nx_ * ny_;
      for (Index r = 0; r < nx_; ++r) {
        for (Index c = 0; c < ny_; ++c)
          transposed[c * nx_ + r] = distlops::conjugate(slice[r * ny_ + c]);
      }
    }
    g_adjoint_ = detail::copy_to_space<T, Space>(adjoint);
  }

  Index slices() const { return nsl_; }

  /// y[i] = G[i] x[i] for every slice: x (nsl, ny, nz), y (nsl, nx, nz).
  void forward(const T* x, T* y) const {
    kernels::gemm_strided_batched(Space{}, caller_, false, nsl_, nx_, ny_, g_.data(), nx_ * ny_,
                                  nz_, T(1), x, ny_ * nz_, T(0), y, nx_ * nz_);
  }
  /// x[i] = G[i]^H y[i] for every slice.
  void adjoint(const T* y, T* x) const {
    if (g_adjoint_.size() > 0) {
      kernels::gemm_strided_batched(Space{}, caller_, false, nsl_, ny_, nx_, g_adjoint_.data(),
                                    nx_ * ny_, nz_, T(1), y, nx_ * nz_, T(0), x, ny_ * nz_);
    } else {
      kernels::gemm_strided_batched(Space{}, caller_, true, nsl_, nx_, ny_, g_.data(), nx_ * ny_,
                                    nz_, T(1), y, nx_ * nz_, T(0), x, ny_ * nz_);
    }
  }

 private:
  const char* caller_;
  Index nsl_, nx_, ny_, nz_;
  Buffer<T, Space> g_;
  Buffer<T, Space> g_adjoint_;
};

}  // namespace distlops::detail
