// Convolve1D by the direct method: for each block of the output, one axpy per filter tap over
// the rows the tap reaches.
#include "distlops/operators/local/convolve1d.hpp"

#include <algorithm>

#include "support.hpp"

namespace distlops::local {

namespace {

// Output elements handled per block (the block stays in cache while every tap adds to it).
constexpr Index block_elements = 4096;

Shape output_shape(Shape dims, std::size_t taps, int axis) {
  const int ndim = static_cast<int>(dims.size());
  if (axis < -ndim || axis >= ndim) return dims;  // rejected by the constructor
  Index& extent = dims[static_cast<std::size_t>(axis < 0 ? axis + ndim : axis)];
  extent = std::max(extent, static_cast<Index>(taps));
  return dims;
}

}  // namespace

template <Scalar T, MemorySpace Space>
Convolve1DOperator<T, Space>::Convolve1DOperator(const Shape& dims, std::span<const T> filter,
                                                 Index offset, int axis)
    : LinearOperatorBase<Vector>(dims, output_shape(dims, filter.size(), axis), "Convolve1D"),
      filter_(filter.begin(), filter.end()),
      offset_(offset) {
  const std::string& op = this->name();
  detail::check_shape(op, "dims", dims);
  const int normalised = detail::normalise_axis(op, axis, static_cast<int>(dims.size()));
  const detail::AxisSplit split = detail::split_at(dims, normalised);
  outer_ = split.outer;
  length_ = split.length;
  inner_ = split.inner;
  const auto taps = static_cast<Index>(filter_.size());
  if (taps == 0) throw InvalidArgument(op + ": the filter is empty");
  output_length_ = std::max(length_, taps);
  // The centre lies in the shorter of the filter and the signal (PyLops' rule).
  const bool long_filter = taps > length_;
  const Index limit = long_filter ? length_ : taps;
  if (offset < 0 || offset >= limit) {
    throw InvalidArgument(op + ": offset " + std::to_string(offset) + " is outside [0, " +
                          std::to_string(limit) + ") (" +
                          (long_filter
                               ? "the extent of axis " + std::to_string(normalised) + " of dims " +
                                     to_string(dims) + ", shorter than the filter"
                               : "the number of filter taps") +
                          ")");
  }
  conj_filter_.resize(filter_.size());
  std::transform(filter_.begin(), filter_.end(), conj_filter_.begin(),
                 [](const T& value) { return conjugate(value); });
}

template <Scalar T, MemorySpace Space>
void Convolve1DOperator<T, Space>::forward(const Vector& x, Vector& y) const {
  apply(false, T(1), x.data(), T(0), y.data());
}

template <Scalar T, MemorySpace Space>
void Convolve1DOperator<T, Space>::adjoint(const Vector& y, Vector& x) const {
  apply(true, T(1), y.data(), T(0), x.data());
}

template <Scalar T, MemorySpace Space>
void Convolve1DOperator<T, Space>::forward_add(T alpha, const Vector& x, T beta, Vector& y) const {
  apply(false, alpha, x.data(), beta, y.data());
}

template <Scalar T, MemorySpace Space>
void Convolve1DOperator<T, Space>::adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const {
  apply(true, alpha, y.data(), beta, x.data());
}

// Both directions read input row r + shift(k) into output row r with the weight of tap k:
// forward shift(k) = offset - k with h[k], adjoint shift(k) = k - offset with conj(h[k]).
template <Scalar T, MemorySpace Space>
void Convolve1DOperator<T, Space>::apply(bool adjoint, T alpha, const T* in, T beta, T* out) const {
  const Index out_rows = adjoint ? length_ : output_length_;
  const Index in_rows = adjoint ? output_length_ : length_;
  const std::vector<T>& weights = adjoint ? conj_filter_ : filter_;
  const Index slab = out_rows * inner_;
  for (Index o = 0; o < outer_; ++o) {
    const T* source = in + o * in_rows * inner_;
    T* destination = out + o * slab;
    for (Index begin = 0; begin < slab; begin += block_elements) {
      const Index end = std::min(slab, begin + block_elements);
      detail::scale_or_zero(Space{}, end - begin, beta, destination + begin);
      for (std::size_t k = 0; k < weights.size(); ++k) {
        const Index shift = adjoint ? Index(k) - offset_ : offset_ - Index(k);
        // Output rows whose input row r + shift exists, as elements of the block.
        const Index first = std::max(begin, std::max<Index>(0, -shift) * inner_);
        const Index last = std::min(end, std::min(out_rows, in_rows - shift) * inner_);
        if (first >= last) continue;
        kernels::axpy(Space{}, last - first, alpha * weights[k], source + first + shift * inner_,
                      destination + first);
      }
    }
  }
}

template class Convolve1DOperator<float, Host>;
template class Convolve1DOperator<double, Host>;
template class Convolve1DOperator<std::complex<float>, Host>;
template class Convolve1DOperator<std::complex<double>, Host>;

}  // namespace distlops::local
