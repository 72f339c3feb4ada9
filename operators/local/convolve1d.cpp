// Convolve1D by the direct method: for each block of the output, one fused pass per group of
// filter taps over the rows they all reach.
#include "distlops/operators/local/convolve1d.hpp"

#include <algorithm>

#include "../cuda/convolution_kernels.hpp"
#include "distlops/core/instantiate.hpp"
#include "support.hpp"

namespace distlops::local {

namespace {

// Output elements handled per block (the block stays in cache while every tap adds to it).
constexpr Index block_elements = 4096;

}  // namespace

template <Scalar T, MemorySpace Space>
Convolve1DOperator<T, Space>::Convolve1DOperator(const Shape& dims, std::span<const T> filter,
                                                 Index offset, int axis)
    : AccumulatingOperator<T, Space>(
          dims,
          detail::with_axis_extent(dims, axis,
                                   [&](Index n) { return std::max(n, Index(filter.size())); }),
          "Convolve1D"),
      filter_(filter.begin(), filter.end()),
      offset_(offset) {
  const std::string& op = this->name();
  const detail::AxisSplit split = detail::checked_split(op, dims, axis);
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
                               ? "the extent of axis " + std::to_string(split.axis) + " of dims " +
                                     to_string(dims) + ", shorter than the filter"
                               : "the number of filter taps") +
                          ")");
  }
  conj_filter_.resize(filter_.size());
  std::transform(filter_.begin(), filter_.end(), conj_filter_.begin(),
                 [](const T& value) { return conjugate(value); });
  if constexpr (!std::same_as<Space, Host>) {
    // The device kernel reads h and conj(h) from device memory.
    std::vector<T> both(filter_);
    both.insert(both.end(), conj_filter_.begin(), conj_filter_.end());
    space_filters_ = detail::copy_to_space<T, Space>(both);
  }
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
  if constexpr (!std::same_as<Space, Host>) {
    // One thread per output point, summing the taps that reach it (the same sums as below).
    const auto taps = static_cast<Index>(filter_.size());
    device_ops::convolve1d(Cuda{}, adjoint, outer_, in_rows, out_rows, inner_, taps, offset_,
                           space_filters_.data() + (adjoint ? taps : 0), alpha, in, beta, out);
  } else {
    const std::vector<T>& weights = adjoint ? conj_filter_ : filter_;
    const Index slab = out_rows * inner_;
    for (Index o = 0; o < outer_; ++o) {
      const T* source = in + o * in_rows * inner_;
      T* destination = out + o * slab;
      for (Index begin = 0; begin < slab; begin += block_elements) {
        const Index end = std::min(slab, begin + block_elements);
        detail::scale_or_zero(Space{}, end - begin, beta, destination + begin);
        // Taps in groups: the part of the block that every tap of a group reaches is one fused
        // pass; the few elements near the ends of the axis that only some reach are axpys.
        for (std::size_t group = 0; group < weights.size(); group += detail::max_combined) {
          const int count =
              static_cast<int>(std::min<std::size_t>(detail::max_combined, weights.size() - group));
          Index first[detail::max_combined], last[detail::max_combined];
          Index displacement[detail::max_combined];  // input element = output element + this
          T scaled[detail::max_combined];
          Index common_first = begin, common_last = end;
          for (int t = 0; t < count; ++t) {
            const auto k = static_cast<Index>(group) + t;
            const Index shift = adjoint ? k - offset_ : offset_ - k;
            // Output rows whose input row r + shift exists, as elements of the block.
            first[t] = std::max(begin, std::max<Index>(0, -shift) * inner_);
            last[t] = std::min(end, std::min(out_rows, in_rows - shift) * inner_);
            displacement[t] = shift * inner_;
            scaled[t] = alpha * weights[static_cast<std::size_t>(k)];
            common_first = std::max(common_first, first[t]);
            common_last = std::min(common_last, last[t]);
          }
          if (common_first >= common_last) common_first = common_last = end;
          if (common_first < common_last) {
            const T* shifted[detail::max_combined];
            for (int t = 0; t < count; ++t)
              shifted[t] = source + (common_first + displacement[t]);
            kernels::combine(Host{}, common_last - common_first, count, scaled, shifted, T(1),
                             destination + common_first);
          }
          for (int t = 0; t < count; ++t) {
            // [first, last) minus [common_first, common_last): up to two pieces.
            const Index pieces[2][2] = {{first[t], std::min(last[t], common_first)},
                                        {std::max(first[t], common_last), last[t]}};
            for (const auto& piece : pieces) {
              if (piece[0] < piece[1]) {
                kernels::axpy(Space{}, piece[1] - piece[0], scaled[t],
                              source + (piece[0] + displacement[t]), destination + piece[0]);
              }
            }
          }
        }
      }
    }
  }
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(Convolve1DOperator)

}  // namespace distlops::local
