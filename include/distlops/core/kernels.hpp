// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file kernels.hpp
/// The per-space kernels on contiguous local data. Algorithms (DistributedArray, operators,
/// solvers) call only these, so a memory space is added by implementing this interface. The
/// first argument is the space tag: `kernels::axpy(Host{}, n, a, x, y)`.
///
/// Pointers refer to memory of the given space; counts are element counts. Output arrays may
/// alias input arrays exactly (in-place updates) but must not partially overlap them. The
/// per-element formulas are those of pointwise.hpp in every space.

#include <span>

#include "distlops/config.hpp"
#include "distlops/core/detail/streaming_stores.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/types.hpp"

/// The per-space kernels on contiguous rank-local data: overloads whose first argument is the
/// space tag (Host or Cuda). None of them communicates.
namespace distlops::kernels {

/// The element-wise binary operations.
enum class BinaryOp {
  add,       ///< x + y.
  subtract,  ///< x - y.
  multiply,  ///< x * y.
  divide,    ///< x / y (pointwise::divide: Smith's algorithm for complex).
};

/// The reductions behind vector norms: sum of |x|^p (finite p != 0), count of non-zeros (ord 0),
/// max |x| (ord inf) and min |x| (ord -inf).
enum class NormKind {
  power_sum,      ///< sum |x|^p; combines by sum.
  count_nonzero,  ///< Number of non-zero elements; combines by sum.
  max_abs,        ///< max |x|; combines by max.
  min_abs,        ///< min |x|; combines by min.
};

// ---- element-wise -------------------------------------------------------------------------
/// y[i] = value.
template <Scalar T>
void fill(Host, Index n, T value, T* y);
/// y[i] = x[i].
template <Scalar T>
void copy(Host, Index n, const T* x, T* y);
/// y[i] = a * y[i].
template <Scalar T>
void scale(Host, Index n, T a, T* y);
/// y[i] += a * x[i].
template <Scalar T>
void axpy(Host, Index n, T a, const T* x, T* y);
/// y[i] = a * x[i] + b * y[i] (y is not read when b == 0).
template <Scalar T>
void axpby(Host, Index n, T a, const T* x, T b, T* y);
/// z[i] = a * x[i] + b * y[i] + c * z[i] (z is not read when c == 0).
template <Scalar T>
void axpbypcz(Host, Index n, T a, const T* x, T b, const T* y, T c, T* z);
/// z[i] = x[i] op y[i].
template <Scalar T>
void binary(Host, BinaryOp op, Index n, const T* x, const T* y, T* z);
/// z[i] = x[i] op s.
template <Scalar T>
void binary_scalar(Host, BinaryOp op, Index n, const T* x, T s, T* z);
/// z[i] = s op x[i].
template <Scalar T>
void scalar_binary(Host, BinaryOp op, Index n, T s, const T* x, T* z);
/// y[i] = conj(x[i]); a copy for real types.
template <Scalar T>
void conj(Host, Index n, const T* x, T* y);

// ---- reductions (local; the caller reduces over ranks) -------------------------------------
/// sum_i x[i] * y[i] (bilinear).
template <Scalar T>
T dot(Host, Index n, const T* x, const T* y);
/// sum_i conj(x[i]) * y[i].
template <Scalar T>
T vdot(Host, Index n, const T* x, const T* y);
/// The reduction of `kind` over all of x: sum |x|^p for power_sum, the count for
/// count_nonzero, max |x| (0 when n == 0) or min |x| (+inf when n == 0).
template <Scalar T>
real_type_t<T> norm_reduce(Host, NormKind kind, real_type_t<T> p, Index n, const T* x);
/// The same reduction along the middle axis of x viewed as an (outer, length, inner) C-order
/// block: out[o * inner + i] = reduce over l of x[(o * length + l) * inner + i].
template <Scalar T>
void norm_reduce_axis(Host, NormKind kind, real_type_t<T> p, Index outer, Index length, Index inner,
                      const T* x, real_type_t<T>* out);
/// dot, vdot and norm_reduce with the result written to `*result`: the form the Cuda space has
/// (there the result stays in device memory), so that code written for both spaces reads the
/// same.
template <Scalar T>
void dot_into(Host, Index n, const T* x, const T* y, T* result) {
  *result = dot(Host{}, n, x, y);
}
/// vdot() written to `*result` (see dot_into()).
template <Scalar T>
void vdot_into(Host, Index n, const T* x, const T* y, T* result) {
  *result = vdot(Host{}, n, x, y);
}
/// norm_reduce() written to `*result` (see dot_into()).
template <Scalar T>
void norm_reduce_into(Host, NormKind kind, real_type_t<T> p, Index n, const T* x,
                      real_type_t<T>* result) {
  *result = norm_reduce(Host{}, kind, p, n, x);
}
/// How partial results of norm_reduce combine across ranks or blocks: sum, sum, max, min.
template <class R>
R norm_combine(NormKind kind, R a, R b) {
  switch (kind) {
    case NormKind::max_abs:
      return a > b ? a : b;
    case NormKind::min_abs:
      return a < b ? a : b;
    default:
      return a + b;
  }
}

// ---- stencils -------------------------------------------------------------------------------
/// y[i] = (sum_k coefficients[k] * sources[k][i]) + beta * y[i] for i < n, the sum formed in
/// the order of k and beta * y added last (y is not read when beta == 0; beta == 1 adds to y).
/// The building block of the stencil and convolution operators: each source is a shifted view
/// of the input, and y must not overlap any source. `count` may be 0 (then y = beta * y).
/// Stores::streaming writes y around the cache (core/detail/streaming_stores.hpp; the caller
/// fences) for real T, beta == 0 and up to 7 sources; y's values are the same either way.
template <Scalar T>
void combine(Host, Index n, int count, const T* coefficients, const T* const* sources, T beta, T* y,
             Stores stores = Stores::cached);

// ---- N-d boxes ------------------------------------------------------------------------------
/// A rectangular region of a C-order array: the array's shape and the region's corner.
struct BoxView {
  std::span<const Index> array_shape;  ///< The shape of the whole (local) array.
  std::span<const Index> corner;       ///< The region's first index along every axis.
};

/// Copies the region of size `extent` at `source.corner` in the source array to the region at
/// `destination.corner` in the destination array (element size `element_size` bytes).
void copy_box(Host, std::size_t element_size, const void* source_data, BoxView source,
              void* destination_data, BoxView destination, std::span<const Index> extent);

// ---- the Cuda space -------------------------------------------------------------------------
// The same kernels on device memory of the rank's device. They are enqueued on the library's
// stream (cuda_context.hpp) and return without waiting, except the reductions that return a
// value, which synchronise once to read it. Reductions run in a fixed order that depends only
// on the element count: results are reproducible from run to run and from device to device.

/// y[i] = value, on the device.
template <Scalar T>
void fill(Cuda, Index n, T value, T* y);
/// y[i] = x[i], on the device.
template <Scalar T>
void copy(Cuda, Index n, const T* x, T* y);
/// y[i] = a * y[i], on the device.
template <Scalar T>
void scale(Cuda, Index n, T a, T* y);
/// y[i] += a * x[i], on the device.
template <Scalar T>
void axpy(Cuda, Index n, T a, const T* x, T* y);
/// y[i] = a * x[i] + b * y[i], on the device (y is not read when b == 0).
template <Scalar T>
void axpby(Cuda, Index n, T a, const T* x, T b, T* y);
/// z[i] = a * x[i] + b * y[i] + c * z[i], on the device (z is not read when c == 0).
template <Scalar T>
void axpbypcz(Cuda, Index n, T a, const T* x, T b, const T* y, T c, T* z);
/// z[i] = x[i] op y[i], on the device.
template <Scalar T>
void binary(Cuda, BinaryOp op, Index n, const T* x, const T* y, T* z);
/// z[i] = x[i] op s, on the device.
template <Scalar T>
void binary_scalar(Cuda, BinaryOp op, Index n, const T* x, T s, T* z);
/// z[i] = s op x[i], on the device.
template <Scalar T>
void scalar_binary(Cuda, BinaryOp op, Index n, T s, const T* x, T* z);
/// y[i] = conj(x[i]), on the device.
template <Scalar T>
void conj(Cuda, Index n, const T* x, T* y);

/// sum_i x[i] * y[i] of device data, returned to the host (synchronises).
template <Scalar T>
T dot(Cuda, Index n, const T* x, const T* y);
/// sum_i conj(x[i]) * y[i] of device data, returned to the host (synchronises).
template <Scalar T>
T vdot(Cuda, Index n, const T* x, const T* y);
/// The norm reduction of the Host overload on device data, returned to the host (synchronises).
template <Scalar T>
real_type_t<T> norm_reduce(Cuda, NormKind kind, real_type_t<T> p, Index n, const T* x);
/// The reduction along the middle axis of the Host overload; `out` is device memory.
template <Scalar T>
void norm_reduce_axis(Cuda, NormKind kind, real_type_t<T> p, Index outer, Index length, Index inner,
                      const T* x, real_type_t<T>* out);

/// dot, vdot and norm_reduce with the result left in device memory at `result` (one element),
/// without synchronising: for results that stay on the device or go to a device collective.
template <Scalar T>
void dot_into(Cuda, Index n, const T* x, const T* y, T* result);
/// vdot() into device memory at `result`, without synchronising.
template <Scalar T>
void vdot_into(Cuda, Index n, const T* x, const T* y, T* result);
/// norm_reduce() into device memory at `result`, without synchronising.
template <Scalar T>
void norm_reduce_into(Cuda, NormKind kind, real_type_t<T> p, Index n, const T* x,
                      real_type_t<T>* result);

/// The box copy of the Host overload between device arrays.
void copy_box(Cuda, std::size_t element_size, const void* source_data, BoxView source,
              void* destination_data, BoxView destination, std::span<const Index> extent);

}  // namespace distlops::kernels
