// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// The host's fused post-stack modelling along contiguous traces (poststack_kernels.hpp), one
// derivative_convolve1d call per apply.
#include "../signal/poststack_kernels.hpp"

#include <vector>

#include "../signal/convolve1d_kernels.hpp"
#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "distlops/core/instantiate.hpp"

namespace distlops::kernels {

namespace {

template <Scalar T>
class TraceModellingOperator final : public ::distlops::detail::TwoWayOperator<T, Host, bool> {
 public:
  TraceModellingOperator(const Shape& dims, std::span<const T> wavelet, DerivativeKind kind)
      : ::distlops::detail::TwoWayOperator<T, Host, bool>(dims, dims, "PoststackLinearModelling"),
        taps_(static_cast<Index>(wavelet.size())),
        centered_(kind == DerivativeKind::centered),
        traces_(element_count(dims) / dims.back()),
        length_(dims.back()) {
    std::vector<T> both(wavelet.begin(), wavelet.end());
    for (const T& value : wavelet)
      both.push_back(conjugate(value));
    filters_ = ::distlops::detail::copy_to_space<T, Host>(both);
    this->adjoint_ = true;
  }

 private:
  void apply(const bool& adjoint, T alpha, const T* in, T beta, T* out) const override {
    derivative_convolve1d(Host{}, host_instruction_set(), adjoint, centered_, traces_, length_,
                          taps_, taps_ / 2, filters_.data() + (adjoint ? taps_ : 0), alpha, in,
                          beta, out);
  }

  Buffer<T, Host> filters_;  // h then conj(h) (for the adjoint)
  Index taps_;
  bool centered_;
  Index traces_;
  Index length_;
};

}  // namespace

template <Scalar T>
std::optional<LocalOperator<T, Host>> fused_trace_modelling(Host, const Shape& dims,
                                                            std::span<const T> wavelet,
                                                            DerivativeKind kind) {
  return LocalOperator<T, Host>::template make<TraceModellingOperator<T>>(dims, wavelet, kind);
}

DISTLOPS_FOR_EACH_SCALAR_IN_ARG(DISTLOPS_DETAIL_POSTSTACK_KERNELS, , ::distlops::Host)

}  // namespace distlops::kernels
