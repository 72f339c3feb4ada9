// Diagonal: rows of the (outer, length, inner) view scaled by one weight each, or element-wise
// products when the weights run along the innermost axis.
#include "distlops/operators/local/diagonal.hpp"

#include "../cuda/device_kernels.hpp"
#include "distlops/core/instantiate.hpp"
#include "support.hpp"

namespace distlops::local {

namespace {

// out[i] = alpha * w[i] * in[i] + beta * out[i] (out is not read when beta == 0).
template <class T>
void scaled_product(Host, Index n, T alpha, const T* w, const T* in, T beta, T* out) {
  if (beta == T(0)) {
    for (Index i = 0; i < n; ++i)
      out[i] = alpha * (w[i] * in[i]);
    return;
  }
  for (Index i = 0; i < n; ++i)
    out[i] = alpha * (w[i] * in[i]) + beta * out[i];
}

}  // namespace

template <Scalar T, MemorySpace Space>
DiagonalOperator<T, Space>::DiagonalOperator(std::span<const T> diag, Shape dims, int axis)
    : AccumulatingOperator<T, Space>(dims.empty() ? Shape{Index(diag.size())} : dims,
                                     dims.empty() ? Shape{Index(diag.size())} : dims, "Diagonal") {
  const Shape& shape = this->domain();
  const detail::AxisSplit split = detail::checked_split(this->name(), shape, axis);
  const auto count = static_cast<Index>(diag.size());
  if (count == split.length) {
    outer_ = split.outer;
    inner_ = split.inner;
  } else if (count == element_count(shape)) {
    outer_ = 1;
    inner_ = 1;
  } else {
    throw ShapeMismatch("Diagonal: " + std::to_string(count) + " weights fit neither dims[" +
                        std::to_string(split.axis) + "] = " + std::to_string(split.length) +
                        " nor the " + std::to_string(element_count(shape)) + " elements of dims " +
                        to_string(shape));
  }
  length_ = count;
  std::vector<T> conjugated(diag.begin(), diag.end());
  for (T& value : conjugated)
    value = conjugate(value);
  if (inner_ == 1 || !std::same_as<Space, Host>) {
    // Element-wise products (and every device kernel) read the weights in the space of the data.
    diag_ = Vector(Shape{count});
    conj_diag_ = Vector(Shape{count});
    memory::copy_bytes<Space, Host>(diag_.data(), diag.data(), diag.size() * sizeof(T));
    memory::copy_bytes<Space, Host>(conj_diag_.data(), conjugated.data(), diag.size() * sizeof(T));
  }
  if (inner_ != 1) {
    // Host row scalings take each weight as a kernel argument.
    row_weights_.assign(diag.begin(), diag.end());
    conj_row_weights_ = std::move(conjugated);
  }
}

template <Scalar T, MemorySpace Space>
void DiagonalOperator<T, Space>::forward_add(T alpha, const Vector& x, T beta, Vector& y) const {
  apply(false, alpha, x.data(), beta, y.data());
}

template <Scalar T, MemorySpace Space>
void DiagonalOperator<T, Space>::adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const {
  apply(true, alpha, y.data(), beta, x.data());
}

template <Scalar T, MemorySpace Space>
void DiagonalOperator<T, Space>::apply(bool conj, T alpha, const T* in, T beta, T* out) const {
  if constexpr (!std::same_as<Space, Host>) {
    // One kernel over the whole (outer, length, inner) array.
    device_ops::diagonal(Cuda{}, outer_, length_, inner_, alpha, (conj ? conj_diag_ : diag_).data(),
                         in, beta, out);
  } else {
    apply_host(conj, alpha, in, beta, out);
  }
}

// The host loops (called for the Host space only).
template <Scalar T, MemorySpace Space>
void DiagonalOperator<T, Space>::apply_host(bool conj, T alpha, const T* in, T beta, T* out) const {
  if (inner_ == 1) {
    // The weights run along the innermost axis: one element-wise product per outer index.
    const T* w = (conj ? conj_diag_ : diag_).data();
    for (Index o = 0; o < outer_; ++o)
      scaled_product(Host{}, length_, alpha, w, in + o * length_, beta, out + o * length_);
    return;
  }
  // One weight per contiguous row of `inner_` elements.
  const std::vector<T>& w = conj ? conj_row_weights_ : row_weights_;
  for (Index o = 0; o < outer_; ++o) {
    for (Index i = 0; i < length_; ++i) {
      const Index start = (o * length_ + i) * inner_;
      kernels::axpby(Host{}, inner_, alpha * w[static_cast<std::size_t>(i)], in + start, beta,
                     out + start);
    }
  }
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Diagonal(std::span<const T> diag, const Shape& dims, int axis) {
  return LocalOperator<T, Space>::template make<DiagonalOperator<T, Space>>(diag, dims, axis);
}

#define DISTLOPS_INSTANTIATE_DIAGONAL(T, S) \
  template class DiagonalOperator<T, S>;    \
  template LocalOperator<T, S> Diagonal<T, S>(std::span<const T>, const Shape&, int);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE(DISTLOPS_INSTANTIATE_DIAGONAL)

}  // namespace distlops::local
