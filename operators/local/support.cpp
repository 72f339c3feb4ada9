#include "support.hpp"

namespace distlops::local::detail {

void check_shape(const std::string& op, const char* what, const Shape& shape) {
  if (shape.empty()) {
    throw InvalidArgument(op + ": " + what + " must have at least one axis, got ()");
  }
  for (Index extent : shape) {
    if (extent < 0) {
      throw InvalidArgument(op + ": " + what + " has a negative extent: " + to_string(shape));
    }
  }
}

int normalise_axis(const std::string& op, int axis, int ndim) {
  if (axis < -ndim || axis >= ndim) {
    throw InvalidArgument(op + ": axis " + std::to_string(axis) +
                          " is out of range for an array of " + std::to_string(ndim) +
                          " dimension(s)");
  }
  return axis < 0 ? axis + ndim : axis;
}

std::string list_text(std::span<const Index> values) {
  std::string text = "[";
  for (std::size_t i = 0; i < values.size(); ++i) {
    if (i > 0) text += ", ";
    text += std::to_string(values[i]);
  }
  return text + "]";
}

Shape strides_of(const Shape& shape) {
  Shape strides(shape.size(), 1);
  for (std::size_t k = shape.size(); k-- > 1;)
    strides[k - 1] = strides[k] * shape[k];
  return strides;
}

AxisSplit split_at(const Shape& shape, int axis) {
  AxisSplit split;
  split.axis = axis;
  for (int k = 0; k < static_cast<int>(shape.size()); ++k) {
    const Index extent = shape[static_cast<std::size_t>(k)];
    if (k < axis) {
      split.outer *= extent;
    } else if (k == axis) {
      split.length = extent;
    } else {
      split.inner *= extent;
    }
  }
  return split;
}

AxisSplit checked_split(const std::string& op, const Shape& dims, int axis) {
  check_shape(op, "dims", dims);
  return split_at(dims, normalise_axis(op, axis, static_cast<int>(dims.size())));
}

MultiIndex::MultiIndex(Shape extents) : extents_(std::move(extents)), index_(extents_.size(), 0) {
  for (Index extent : extents_)
    valid_ = valid_ && extent > 0;
}

void MultiIndex::next() {
  for (std::size_t k = extents_.size(); k-- > 0;) {
    if (++index_[k] < extents_[k]) return;
    index_[k] = 0;
  }
  valid_ = false;
}

namespace {

template <int Count, Combine Mode, class T>
void combine_fixed(Index n, const T* const* x, const T* a, T beta, T* __restrict y) {
  for (Index k = 0; k < n; ++k) {
    T sum = a[0] * x[0][k];
    for (int e = 1; e < Count; ++e)
      sum += a[e] * x[e][k];
    if constexpr (Mode == Combine::overwrite) {
      y[k] = sum;
    } else if constexpr (Mode == Combine::scale) {
      y[k] = sum + beta * y[k];
    } else {
      y[k] += sum;
    }
  }
}

template <int Count, class T>
void combine_mode(Combine mode, Index n, const T* const* x, const T* a, T beta, T* y) {
  switch (mode) {
    case Combine::overwrite:
      return combine_fixed<Count, Combine::overwrite>(n, x, a, beta, y);
    case Combine::scale:
      return combine_fixed<Count, Combine::scale>(n, x, a, beta, y);
    case Combine::add:
      return combine_fixed<Count, Combine::add>(n, x, a, beta, y);
  }
}

}  // namespace

template <class T>
void combine(Host, Combine mode, int count, Index n, const T* const* x, const T* a, T beta, T* y) {
  static_assert(max_combined == 5);
  switch (count) {
    case 1:
      return combine_mode<1>(mode, n, x, a, beta, y);
    case 2:
      return combine_mode<2>(mode, n, x, a, beta, y);
    case 3:
      return combine_mode<3>(mode, n, x, a, beta, y);
    case 4:
      return combine_mode<4>(mode, n, x, a, beta, y);
    case 5:
      return combine_mode<5>(mode, n, x, a, beta, y);
    default:
      throw InvalidArgument("combine: " + std::to_string(count) + " terms, expected 1 to " +
                            std::to_string(max_combined));
  }
}

template void combine<float>(Host, Combine, int, Index, const float* const*, const float*, float,
                             float*);
template void combine<double>(Host, Combine, int, Index, const double* const*, const double*,
                              double, double*);
template void combine<std::complex<float>>(Host, Combine, int, Index,
                                           const std::complex<float>* const*,
                                           const std::complex<float>*, std::complex<float>,
                                           std::complex<float>*);
template void combine<std::complex<double>>(Host, Combine, int, Index,
                                            const std::complex<double>* const*,
                                            const std::complex<double>*, std::complex<double>,
                                            std::complex<double>*);

}  // namespace distlops::local::detail
