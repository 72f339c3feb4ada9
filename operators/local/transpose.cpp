// Transpose: a gather along the output's rows with the input strides permuted.
#include "distlops/operators/local/transpose.hpp"

#include "support.hpp"

namespace distlops::local {

namespace {

// The axes normalised and checked to be a permutation of [0, ndim).
std::vector<int> permutation_of(const std::string& op, const Shape& dims,
                                const std::vector<int>& axes) {
  const int ndim = static_cast<int>(dims.size());
  if (static_cast<int>(axes.size()) != ndim) {
    throw InvalidArgument(op + ": axes must list each of the " + std::to_string(ndim) +
                          " axes of dims " + to_string(dims) + " once, got " +
                          std::to_string(axes.size()) + " entries");
  }
  std::vector<int> normalised(axes.size());
  std::vector<bool> seen(axes.size(), false);
  for (std::size_t k = 0; k < axes.size(); ++k) {
    normalised[k] = detail::normalise_axis(op, axes[k], ndim);
    if (seen[static_cast<std::size_t>(normalised[k])]) {
      throw InvalidArgument(op + ": axis " + std::to_string(normalised[k]) +
                            " appears twice in axes");
    }
    seen[static_cast<std::size_t>(normalised[k])] = true;
  }
  return normalised;
}

// The shape after the permutation (axis k of the result is axis `order[k]` of `shape`).
Shape permuted(const Shape& shape, const std::vector<int>& order) {
  Shape result(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    result[k] = shape[static_cast<std::size_t>(order[k])];
  return result;
}

Shape permuted_shape(const Shape& dims, const std::vector<int>& axes) {
  if (axes.size() != dims.size()) return dims;  // rejected by the constructor
  for (int axis : axes) {
    if (axis < -int(dims.size()) || axis >= int(dims.size())) return dims;
  }
  std::vector<int> order(axes);
  for (int& axis : order)
    axis = axis < 0 ? axis + int(dims.size()) : axis;
  return permuted(dims, order);
}

// out[k] = alpha in[k * stride] + beta out[k] (out is not read when beta == 0).
template <class T>
void strided_row(Host, Index length, T alpha, const T* in, Index stride, T beta, T* out) {
  if (beta == T(0)) {
    for (Index k = 0; k < length; ++k)
      out[k] = alpha * in[k * stride];
    return;
  }
  for (Index k = 0; k < length; ++k)
    out[k] = alpha * in[k * stride] + beta * out[k];
}

}  // namespace

template <Scalar T, MemorySpace Space>
TransposeAxesOperator<T, Space>::TransposeAxesOperator(const Shape& dims,
                                                       const std::vector<int>& axes)
    : LinearOperatorBase<Vector>(dims, permuted_shape(dims, axes), "Transpose") {
  detail::check_shape(this->name(), "dims", dims);
  const std::vector<int> order = permutation_of(this->name(), dims, axes);
  std::vector<int> inverse(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    inverse[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  const Shape range = permuted(dims, order);
  forward_ = {range, permuted(detail::strides_of(dims), order)};
  adjoint_ = {dims, permuted(detail::strides_of(range), inverse)};
}

template <Scalar T, MemorySpace Space>
void TransposeAxesOperator<T, Space>::forward(const Vector& x, Vector& y) const {
  apply(forward_, T(1), x.data(), T(0), y.data());
}

template <Scalar T, MemorySpace Space>
void TransposeAxesOperator<T, Space>::adjoint(const Vector& y, Vector& x) const {
  apply(adjoint_, T(1), y.data(), T(0), x.data());
}

template <Scalar T, MemorySpace Space>
void TransposeAxesOperator<T, Space>::forward_add(T alpha, const Vector& x, T beta,
                                                  Vector& y) const {
  apply(forward_, alpha, x.data(), beta, y.data());
}

template <Scalar T, MemorySpace Space>
void TransposeAxesOperator<T, Space>::adjoint_add(T alpha, const Vector& y, T beta,
                                                  Vector& x) const {
  apply(adjoint_, alpha, y.data(), beta, x.data());
}

template <Scalar T, MemorySpace Space>
void TransposeAxesOperator<T, Space>::apply(const Permutation& permutation, T alpha, const T* in,
                                            T beta, T* out) const {
  const std::size_t last = permutation.shape.size() - 1;
  const Index length = permutation.shape[last];
  const Index stride = permutation.input_strides[last];
  const Shape rows(permutation.shape.begin(), permutation.shape.begin() + Index(last));
  for (detail::MultiIndex index(rows); index.valid(); index.next(), out += length) {
    Index base = 0;
    for (std::size_t k = 0; k < last; ++k)
      base += index[k] * permutation.input_strides[k];
    if (stride == 1) {
      kernels::axpby(Space{}, length, alpha, in + base, beta, out);
    } else {
      strided_row(Space{}, length, alpha, in + base, stride, beta, out);
    }
  }
}

template class TransposeAxesOperator<float, Host>;
template class TransposeAxesOperator<double, Host>;
template class TransposeAxesOperator<std::complex<float>, Host>;
template class TransposeAxesOperator<std::complex<double>, Host>;

}  // namespace distlops::local
