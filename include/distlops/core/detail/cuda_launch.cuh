// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// What the CUDA kernel files share: the device counterparts of the scalar types and launch
// configurations with 64-bit grid-stride loops.
#include <algorithm>
#include <complex>
#include <type_traits>

#include "distlops/core/cuda_context.hpp"
#include "distlops/core/detail/cuda_check.hpp"
#include "distlops/core/pointwise.hpp"
#include "distlops/core/types.hpp"

namespace distlops::kernels::device {

// std::complex<R> is not usable in device code; complex_pair<R> has its size and alignment,
// so arrays of one are arrays of the other (the formulas only use real() and imag()).
template <class T>
struct scalar {
  using type = T;
};
template <class R>
struct scalar<std::complex<R>> {
  using type = pointwise::complex_pair<R>;
  static_assert(sizeof(type) == sizeof(std::complex<R>) &&
                alignof(type) == alignof(std::complex<R>));
};
template <class T>
using scalar_t = typename scalar<T>::type;

template <class T>
scalar_t<T>* pointer(T* p) {
  return reinterpret_cast<scalar_t<T>*>(p);
}
template <class T>
const scalar_t<T>* pointer(const T* p) {
  return reinterpret_cast<const scalar_t<T>*>(p);
}
template <class T>
scalar_t<T> value(const T& v) {
  if constexpr (is_complex_v<T>) {
    return scalar_t<T>(v.real(), v.imag());
  } else {
    return v;
  }
}

// Element-wise kernels: 256 threads per block and at most 65535 blocks; each thread walks the
// array with a grid-stride loop in 64-bit indices.
constexpr int block_size = 256;
constexpr Index max_blocks = 65535;

inline unsigned grid_size(Index n) {
  return static_cast<unsigned>(std::clamp<Index>((n + block_size - 1) / block_size, 1, max_blocks));
}

__device__ inline Index first_index() {
  return static_cast<Index>(blockIdx.x) * blockDim.x + threadIdx.x;
}
__device__ inline Index grid_stride() {
  return static_cast<Index>(gridDim.x) * blockDim.x;
}

inline cudaStream_t stream() {
  return cuda::Context::get().stream();
}

// Launches kernel(n, arguments...) over n elements with the grid above on the library's
// stream (nothing when n <= 0) and checks the launch; `name` names it in errors.
template <class F, class... A>
void launch_elements(const char* name, Index n, F kernel, A... arguments) {
  if (n <= 0) return;
  kernel<<<grid_size(n), block_size, 0, stream()>>>(n, arguments...);
  cuda::check_launch(name);
}

template <class D>
__device__ bool is_zero(const D& v) {
  if constexpr (pointwise::ComplexLike<D>) {
    return v.real() == 0 && v.imag() == 0;
  } else {
    return v == D(0);
  }
}

// The accumulating operators' rule: alpha_value + beta * (*out), with *out not read when
// beta == 0 (so that uninitialised output is never read).
template <class D>
__device__ D accumulate(D alpha_value, D beta, const D* out) {
  if (is_zero(beta)) return alpha_value;
  return pointwise::add(alpha_value, pointwise::multiply(beta, *out));
}

// Odometer over the leading axes [0, count) of `extent` (the axes a launcher loops over on the
// host, one launch per index); false when done.
inline bool next_index(const Shape& extent, std::size_t count, Shape& index) {
  for (std::size_t k = count; k-- > 0;) {
    if (++index[k] < extent[k]) return true;
    index[k] = 0;
  }
  return false;
}

}  // namespace distlops::kernels::device
