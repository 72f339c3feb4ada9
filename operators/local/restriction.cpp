// Restriction: row gathers in both directions (the adjoint through the inverse index lists).
#include "distlops/operators/local/restriction.hpp"

#include "../cuda/device_kernels.hpp"
#include "distlops/core/instantiate.hpp"
#include "support.hpp"

namespace distlops::local {

namespace {

// Single samples (the axis is the innermost one). out[o, i] = alpha in[o, index[i]] + beta out.
template <class T>
void gather(Host, Index outer, Index length, const std::vector<Index>& index, T alpha, const T* in,
            T beta, T* out) {
  const auto count = static_cast<Index>(index.size());
  for (Index o = 0; o < outer; ++o, in += length, out += count) {
    for (Index i = 0; i < count; ++i) {
      const T value = alpha * in[index[static_cast<std::size_t>(i)]];
      out[i] = beta == T(0) ? value : value + beta * out[i];
    }
  }
}

// out[o, j] = alpha * sum of in[o, sources[first[j]] ... sources[first[j + 1] - 1]]
//             + beta out[o, j].
template <class T>
void gather_sums(Host, Index outer, Index count, const std::vector<Index>& first,
                 const std::vector<Index>& sources, T alpha, const T* in, T beta, T* out) {
  const auto length = static_cast<Index>(first.size()) - 1;
  for (Index o = 0; o < outer; ++o, in += count, out += length) {
    for (Index j = 0; j < length; ++j) {
      T sum(0);
      for (Index s = first[static_cast<std::size_t>(j)]; s < first[static_cast<std::size_t>(j) + 1];
           ++s)
        sum += in[sources[static_cast<std::size_t>(s)]];
      out[j] = beta == T(0) ? alpha * sum : alpha * sum + beta * out[j];
    }
  }
}

}  // namespace

template <Scalar T, MemorySpace Space>
RestrictionOperator<T, Space>::RestrictionOperator(const Shape& dims, std::span<const Index> iava,
                                                   int axis)
    : AccumulatingOperator<T, Space>(
          dims, detail::with_axis_extent(dims, axis, [&](Index) { return Index(iava.size()); }),
          "Restriction"),
      iava_(iava.begin(), iava.end()) {
  const std::string& op = this->name();
  const detail::AxisSplit split = detail::checked_split(op, dims, axis);
  outer_ = split.outer;
  length_ = split.length;
  inner_ = split.inner;
  first_.assign(static_cast<std::size_t>(length_) + 1, 0);
  for (std::size_t i = 0; i < iava_.size(); ++i) {
    if (iava_[i] < 0 || iava_[i] >= length_) {
      throw InvalidArgument(op + ": iava[" + std::to_string(i) + "] = " + std::to_string(iava_[i]) +
                            " is outside [0, " + std::to_string(length_) + ") (axis " +
                            std::to_string(split.axis) + " of dims " + to_string(dims) + ")");
    }
    ++first_[static_cast<std::size_t>(iava_[i]) + 1];
  }
  for (std::size_t j = 0; j < static_cast<std::size_t>(length_); ++j)
    first_[j + 1] += first_[j];
  sources_.resize(iava_.size());
  std::vector<Index> next(first_.begin(), first_.end() - 1);
  for (std::size_t i = 0; i < iava_.size(); ++i)
    sources_[static_cast<std::size_t>(next[static_cast<std::size_t>(iava_[i])]++)] = Index(i);
  if constexpr (!std::same_as<Space, Host>) {
    // The device kernels read the index lists in device memory.
    device_iava_ = detail::copy_to_space<Index, Space>(iava_);
    device_first_ = detail::copy_to_space<Index, Space>(first_);
    device_sources_ = detail::copy_to_space<Index, Space>(sources_);
  }
}

template <Scalar T, MemorySpace Space>
void RestrictionOperator<T, Space>::forward_add(T alpha, const Vector& x, T beta, Vector& y) const {
  const auto count = static_cast<Index>(iava_.size());
  if constexpr (!std::same_as<Space, Host>) {
    device_ops::gather_rows(Cuda{}, outer_, length_, inner_, count, device_iava_.data(), alpha,
                            x.data(), beta, y.data());
    return;
  } else {
    if (inner_ == 1) {
      gather(Space{}, outer_, length_, iava_, alpha, x.data(), beta, y.data());
      return;
    }
    for (Index o = 0; o < outer_; ++o) {
      for (Index i = 0; i < count; ++i) {
        const Index source = (o * length_ + iava_[static_cast<std::size_t>(i)]) * inner_;
        kernels::axpby(Space{}, inner_, alpha, x.data() + source, beta,
                       y.data() + (o * count + i) * inner_);
      }
    }
  }
}

template <Scalar T, MemorySpace Space>
void RestrictionOperator<T, Space>::adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const {
  const auto count = static_cast<Index>(iava_.size());
  if constexpr (!std::same_as<Space, Host>) {
    device_ops::scatter_rows(Cuda{}, outer_, length_, inner_, count, device_first_.data(),
                             device_sources_.data(), alpha, y.data(), beta, x.data());
    return;
  } else {
    if (inner_ == 1) {
      gather_sums(Space{}, outer_, count, first_, sources_, alpha, y.data(), beta, x.data());
      return;
    }
    for (Index o = 0; o < outer_; ++o) {
      for (Index j = 0; j < length_; ++j) {
        T* destination = x.data() + (o * length_ + j) * inner_;
        const auto begin = static_cast<std::size_t>(first_[static_cast<std::size_t>(j)]);
        const auto end = static_cast<std::size_t>(first_[static_cast<std::size_t>(j) + 1]);
        if (begin == end) {
          detail::scale_or_zero(Space{}, inner_, beta, destination);
          continue;
        }
        // The first sample initialises (or scales) the row, the others add to it.
        kernels::axpby(Space{}, inner_, alpha, y.data() + (o * count + sources_[begin]) * inner_,
                       beta, destination);
        for (std::size_t s = begin + 1; s < end; ++s) {
          kernels::axpy(Space{}, inner_, alpha, y.data() + (o * count + sources_[s]) * inner_,
                        destination);
        }
      }
    }
  }
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(RestrictionOperator)

}  // namespace distlops::local
