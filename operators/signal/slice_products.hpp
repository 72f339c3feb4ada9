#pragma once
// SliceProducts: the batched products of Fredholm1 and MDC. Slice i of a kernel G (nsl, nx,
// ny) multiplies slice i of a model (nsl, ny, nz): y[i] = G[i] x[i] and x[i] = G[i]^H y[i],
// one Eigen product per slice (GEMV when nz == 1). All arrays are C order.
#include <vector>

#include "distlops/core/eigen.hpp"
#include "distlops/core/types.hpp"

namespace distlops::detail {

template <Scalar T>
class SliceProducts {
 public:
  /// Copies nsl slices of G (scaled by `scale`, conjugated when `conjugate`); with
  /// `keep_adjoint` the conjugate transposes are stored too.
  SliceProducts(const T* g, Index nsl, Index nx, Index ny, Index nz, T scale, bool conjugate,
                bool keep_adjoint)
      : nsl_(nsl), nx_(nx), ny_(ny), nz_(nz), g_(g, g + nsl * nx * ny) {
    for (T& value : g_)
      value = (conjugate ? conjugate_value(value) : value) * scale;
    if (!keep_adjoint) return;
    g_adjoint_.resize(g_.size());
    for (Index i = 0; i < nsl_; ++i) {
      matrix(g_adjoint_.data() + i * nx_ * ny_, ny_, nx_) = kernel(i).adjoint();
    }
  }

  Index slices() const { return nsl_; }

  /// y[i] = G[i] x[i] for every slice: x (nsl, ny, nz), y (nsl, nx, nz).
  void forward(const T* x, T* y) const {
    for (Index i = 0; i < nsl_; ++i) {
      matrix(y + i * nx_ * nz_, nx_, nz_).noalias() = kernel(i) * view(x + i * ny_ * nz_, ny_, nz_);
    }
  }
  /// x[i] = G[i]^H y[i] for every slice.
  void adjoint(const T* y, T* x) const {
    for (Index i = 0; i < nsl_; ++i) {
      auto out = matrix(x + i * ny_ * nz_, ny_, nz_);
      const auto in = view(y + i * nx_ * nz_, nx_, nz_);
      if (g_adjoint_.empty()) {
        out.noalias() = kernel(i).adjoint() * in;
      } else {
        out.noalias() = view(g_adjoint_.data() + i * nx_ * ny_, ny_, nx_) * in;
      }
    }
  }

 private:
  using Map = Eigen::Map<EigenRowMajorMatrix<T>>;
  using ConstMap = Eigen::Map<const EigenRowMajorMatrix<T>>;
  static T conjugate_value(const T& value) { return conjugate(value); }
  static Map matrix(T* data, Index rows, Index cols) {
    return Map(data, static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  }
  static ConstMap view(const T* data, Index rows, Index cols) {
    return ConstMap(data, static_cast<Eigen::Index>(rows), static_cast<Eigen::Index>(cols));
  }
  ConstMap kernel(Index i) const { return view(g_.data() + i * nx_ * ny_, nx_, ny_); }

  Index nsl_, nx_, ny_, nz_;
  std::vector<T> g_;
  std::vector<T> g_adjoint_;
};

}  // namespace distlops::detail
