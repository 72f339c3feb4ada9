// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Restriction: row gathers in both directions (the adjoint through the inverse index lists),
// one kernel call each (restriction_kernels.hpp).
#include "distlops/operators/local/restriction.hpp"

#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "distlops/core/instantiate.hpp"
#include "restriction_kernels.hpp"

namespace distlops::local {

namespace {

// The direction: whether the adjoint (a scatter of the rows) or the forward (a gather).
template <Scalar T, MemorySpace Space>
class RestrictionOperator final : public detail::TwoWayOperator<T, Space, bool> {
 public:
  RestrictionOperator(const Shape& dims, std::span<const Index> iava, int axis);

 private:
  void apply(const bool& adjoint, T alpha, const T* in, T beta, T* out) const override {
    if (adjoint) {
      kernels::scatter_rows(Space{}, outer_, length_, inner_, count_, first_.data(),
                            sources_.data(), alpha, in, beta, out);
    } else {
      kernels::gather_rows(Space{}, outer_, length_, inner_, count_, iava_.data(), alpha, in, beta,
                           out);
    }
  }

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

}  // namespace

template <Scalar T, MemorySpace Space>
RestrictionOperator<T, Space>::RestrictionOperator(const Shape& dims, std::span<const Index> iava,
                                                   int axis)
    : detail::TwoWayOperator<T, Space, bool>(
          dims, detail::with_axis_extent(dims, axis, [&](Index) { return Index(iava.size()); }),
          "Restriction"),
      count_(static_cast<Index>(iava.size())) {
  const std::string& op = this->name();
  const detail::AxisSplit split = detail::checked_split(op, dims, axis);
  outer_ = split.outer;
  length_ = split.length;
  inner_ = split.inner;
  std::vector<Index> first(static_cast<std::size_t>(length_) + 1, 0);
  for (std::size_t i = 0; i < iava.size(); ++i) {
    if (iava[i] < 0 || iava[i] >= length_) {
      throw InvalidArgument(op + ": iava[" + std::to_string(i) + "] = " + std::to_string(iava[i]) +
                            " is outside [0, " + std::to_string(length_) + ") (axis " +
                            std::to_string(split.axis) + " of dims " + to_string(dims) + ")");
    }
    ++first[static_cast<std::size_t>(iava[i]) + 1];
  }
  for (std::size_t j = 0; j < static_cast<std::size_t>(length_); ++j)
    first[j + 1] += first[j];
  std::vector<Index> sources(iava.size());
  std::vector<Index> next(first.begin(), first.end() - 1);
  for (std::size_t i = 0; i < iava.size(); ++i)
    sources[static_cast<std::size_t>(next[static_cast<std::size_t>(iava[i])]++)] = Index(i);
  iava_ = detail::copy_to_space<Index, Space>(iava);
  first_ = detail::copy_to_space<Index, Space>(first);
  sources_ = detail::copy_to_space<Index, Space>(sources);
  this->adjoint_ = true;
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Restriction(const Shape& dims, std::span<const Index> iava, int axis) {
  return LocalOperator<T, Space>::template make<RestrictionOperator<T, Space>>(dims, iava, axis);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_RESTRICTION, )

}  // namespace distlops::local
