#pragma once
/// \file restriction.hpp
/// `local::Restriction`: sampling of an N-d array (C order) at the indices `iava` along one
/// axis, PyLops' `Restriction(dims, iava, axis)`. The range has the shape of `dims` with
/// dims[axis] replaced by iava.size(); the forward takes y[..., i, ...] = x[..., iava[i], ...]
/// and the adjoint puts every y[..., i, ...] back at iava[i] in an otherwise zero array.
///
/// Indices may repeat and come in any order; the adjoint then adds the samples that share an
/// index, as PyLops 2.8 does, which makes it the exact adjoint. It gathers: each model sample
/// sums its own list of data samples (built once), so every output element is written once.
/// `inplace` of PyLops has no counterpart (results always go to the caller's array).
///
/// Difference from PyLops: negative indices (NumPy counts them from the end) are rejected.
/// Errors: InvalidArgument for an index outside [0, dims[axis]), an axis out of range or a bad
/// shape.

#include <span>
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

template <Scalar T, MemorySpace Space = Host>
class RestrictionOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  RestrictionOperator(const Shape& dims, std::span<const Index> iava, int axis);

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;

 private:
  Index outer_ = 1;   // product of the extents before the axis
  Index length_ = 0;  // dims[axis]
  Index inner_ = 1;   // product of the extents after it
  Index count_ = 0;   // iava.size()
  // The index lists in the space: iava, and the data samples of each model index j,
  // sources_[first_[j]] ... sources_[first_[j + 1] - 1].
  Buffer<Index, Space> iava_;
  Buffer<Index, Space> first_;
  Buffer<Index, Space> sources_;
};

/// Sampling of arrays of shape `dims` at `iava` along `axis` (negative axes count from the
/// end).
template <Scalar T, MemorySpace Space = Host>
LocalOperator<T, Space> Restriction(const Shape& dims, std::span<const Index> iava, int axis = -1) {
  return LocalOperator<T, Space>::template make<RestrictionOperator<T, Space>>(dims, iava, axis);
}

DISTLOPS_EXTERN_TEMPLATE_CLASS(RestrictionOperator)

}  // namespace distlops::local
