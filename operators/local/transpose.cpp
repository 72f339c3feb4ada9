// Transpose: a gather of the output, by rows or by tiles, with the input strides permuted.
#include "distlops/operators/local/transpose.hpp"

#include <algorithm>

#include "../cuda/layout_kernels.hpp"
#include "distlops/core/instantiate.hpp"
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

// Tiles of the output that fit in cache while the input is read across its rows.
constexpr Index tile = 32;

// out[i * out_stride + k] = alpha in[i * in_row + k * in_column] + beta out[...] for i < rows,
// k < columns (out is not read when beta == 0).
template <class T>
void copy_tile(Host, Index rows, Index columns, T alpha, const T* in, Index in_row, Index in_column,
               T beta, T* out, Index out_stride) {
  for (Index i = 0; i < rows; ++i, in += in_row, out += out_stride) {
    if (beta == T(0)) {
      for (Index k = 0; k < columns; ++k)
        out[k] = alpha * in[k * in_column];
    } else {
      for (Index k = 0; k < columns; ++k)
        out[k] = alpha * in[k * in_column] + beta * out[k];
    }
  }
}

}  // namespace

template <Scalar T, MemorySpace Space>
TransposeAxesOperator<T, Space>::TransposeAxesOperator(const Shape& dims,
                                                       const std::vector<int>& axes)
    : AccumulatingOperator<T, Space>(dims, permuted_shape(dims, axes), "Transpose") {
  detail::check_shape(this->name(), "dims", dims);
  const std::vector<int> order = permutation_of(this->name(), dims, axes);
  std::vector<int> inverse(order.size());
  for (std::size_t k = 0; k < order.size(); ++k)
    inverse[static_cast<std::size_t>(order[k])] = static_cast<int>(k);
  const Shape range = permuted(dims, order);
  forward_ = make_permutation(range, permuted(detail::strides_of(dims), order));
  adjoint_ = make_permutation(dims, permuted(detail::strides_of(range), inverse));
}

template <Scalar T, MemorySpace Space>
typename TransposeAxesOperator<T, Space>::Permutation
TransposeAxesOperator<T, Space>::make_permutation(const Shape& shape, const Shape& input_strides) {
  Permutation result{shape, input_strides, detail::strides_of(shape), 0};
  // The output axis (other than the last) read with the smallest input stride.
  for (std::size_t k = 1; k + 1 < shape.size(); ++k) {
    if (input_strides[k] < input_strides[result.contiguous_axis]) result.contiguous_axis = k;
  }
  return result;
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

// When the last output axis is also contiguous in the input, rows are axpby kernels. Otherwise
// the output is written in tiles spanning its last axis and the axis that is contiguous in the
// input, so that both arrays are read and written by whole cache lines.
template <Scalar T, MemorySpace Space>
void TransposeAxesOperator<T, Space>::apply(const Permutation& permutation, T alpha, const T* in,
                                            T beta, T* out) const {
  const Shape& shape = permutation.shape;
  const Shape& in_strides = permutation.input_strides;
  const std::size_t last = shape.size() - 1;
  const Index length = shape[last];
  if constexpr (!std::same_as<Space, Host>) {
    // The same two cases in one launch each: a gather over the whole output when both arrays
    // are contiguous along its last axis, else the tiled kernel.
    if (in_strides[last] == 1) {
      device_ops::BoxAxpby box{shape, permutation.output_strides, in_strides,
                               Shape(shape.size(), 0), shape};
      device_ops::box_axpby(Cuda{}, box, alpha, in, beta, out);
    } else {
      device_ops::transpose_tiles(Cuda{}, shape, in_strides, permutation.contiguous_axis, alpha, in,
                                  beta, out);
    }
  } else {
    if (in_strides[last] == 1) {
      const Shape rows(shape.begin(), shape.begin() + Index(last));
      for (detail::MultiIndex index(rows); index.valid(); index.next(), out += length) {
        Index base = 0;
        for (std::size_t k = 0; k < last; ++k)
          base += index[k] * in_strides[k];
        kernels::axpby(Space{}, length, alpha, in + base, beta, out);
      }
      return;
    }
    const std::size_t across = permutation.contiguous_axis;
    const Index out_row = permutation.output_strides[across];
    Shape others = shape;  // the axes the tiles do not span
    others[across] = 1;
    others[last] = 1;
    for (detail::MultiIndex index(others); index.valid(); index.next()) {
      Index in_base = 0, out_base = 0;
      for (std::size_t k = 0; k < shape.size(); ++k) {
        in_base += index[k] * in_strides[k];
        out_base += index[k] * permutation.output_strides[k];
      }
      for (Index i = 0; i < shape[across]; i += tile) {
        for (Index k = 0; k < length; k += tile) {
          copy_tile(Space{}, std::min(tile, shape[across] - i), std::min(tile, length - k), alpha,
                    in + in_base + i * in_strides[across] + k * in_strides[last],
                    in_strides[across], in_strides[last], beta, out + out_base + i * out_row + k,
                    out_row);
        }
      }
    }
  }
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(TransposeAxesOperator)

}  // namespace distlops::local
