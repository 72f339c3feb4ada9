// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Reductions of the Cuda space: dot, vdot and the norm reductions, in two passes of block
// reductions with a fixed shape. The number of blocks depends only on the element count (never
// on the device), each thread accumulates its elements in index order and blocks combine in a
// fixed tree, so results are reproducible from run to run and from device to device; replicas
// of a BROADCAST array computed on different GPUs stay identical. cuBLAS is not used here: its
// dot products may depend on the number of multiprocessors, and its nrm2 returns a scaled
// square root rather than the sum of squares the norms combine across ranks.
#include <limits>

#include "../kernel_checks.hpp"
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

#include "distlops/core/fused_kernels.hpp"

namespace distlops::kernels {

namespace {

using device::first_index;
using device::grid_stride;

constexpr int reduce_threads = 256;
constexpr int reduce_max_blocks = 1024;
// Elements a thread handles at least before another block is used.
constexpr Index elements_per_thread = 4;
// The context's device scratch holds the partial results of the blocks.
constexpr std::size_t largest_accumulator = 16;
static_assert(reduce_max_blocks * largest_accumulator <= cuda::Context::scratch_bytes);
static_assert(largest_accumulator <= cuda::Context::value_bytes);

int reduce_blocks(Index n) {
  const Index per_block = reduce_threads * elements_per_thread;
  return static_cast<int>(std::clamp<Index>((n + per_block - 1) / per_block, 1, reduce_max_blocks));
}

struct Sum {
  template <class A>
  __device__ A operator()(const A& a, const A& b) const {
    return pointwise::add(a, b);
  }
};
struct Max {
  template <class R>
  __device__ R operator()(R running, R value) const {
    return pointwise::running_max(running, value);
  }
};
struct Min {
  template <class R>
  __device__ R operator()(R running, R value) const {
    return pointwise::running_min(running, value);
  }
};

// Terms: index -> value to accumulate.
template <class D>
struct DotTerms {
  const D* x;
  const D* y;
  __device__ D operator()(Index i) const { return pointwise::DotTerm{}(x[i], y[i]); }
};
template <class D>
struct VdotTerms {
  const D* x;
  const D* y;
  __device__ D operator()(Index i) const { return pointwise::VdotTerm{}(x[i], y[i]); }
};
// The terms of axpy_pair_vdot_into: each index is visited once, so the updates ride along.
template <class D>
struct AxpyPairVdotTerms {
  const double* step;
  double fx, fr;
  const D* c;
  D* x;
  const D* q;
  D* r;
  __device__ D operator()(Index i) const {
    using R = pointwise::real_of_t<D>;
    const double s = *step;
    D updated = r[i];
    if (s != 0) {
      x[i] = pointwise::Axpy<D>{pointwise::from_real<D>(static_cast<R>(fx * s))}(c[i], x[i]);
      updated = pointwise::Axpy<D>{pointwise::from_real<D>(static_cast<R>(fr * s))}(q[i], updated);
      r[i] = updated;
    }
    return pointwise::VdotTerm{}(updated, updated);
  }
};
template <class D, class F>
struct ValueTerms {
  const D* x;
  F f;
  __device__ auto operator()(Index i) const { return f(x[i]); }
};

// Per-element contributions of the norm reductions.
template <class R>
struct PowerOfMagnitude {
  R p;
  template <class D>
  __device__ R operator()(const D& value) const {
    return pointwise::power_of_magnitude(value, p);
  }
};
struct NonzeroIndicator {
  template <class D>
  __device__ auto operator()(const D& value) const {
    return pointwise::nonzero_indicator(value);
  }
};
struct Magnitude {
  template <class D>
  __device__ auto operator()(const D& value) const {
    return pointwise::magnitude(value);
  }
};

// Tree reduction of the block's values in shared memory, in a fixed order. Returns the total
// in thread 0.
template <class A, class Combine>
__device__ A block_combine(A value, Combine combine) {
  __shared__ A shared[reduce_threads];
  shared[threadIdx.x] = value;
  __syncthreads();
  for (int width = reduce_threads / 2; width > 0; width /= 2) {
    if (static_cast<int>(threadIdx.x) < width) {
      shared[threadIdx.x] = combine(shared[threadIdx.x], shared[threadIdx.x + width]);
    }
    __syncthreads();
  }
  return shared[0];
}

template <class A, class Terms, class Combine>
__global__ void __launch_bounds__(reduce_threads)
    reduce_partials_kernel(Index n, Terms terms, Combine combine, A identity, A* partials) {
  A accumulated = identity;
  for (Index i = first_index(); i < n; i += grid_stride())
    accumulated = combine(accumulated, terms(i));
  const A total = block_combine(accumulated, combine);
  if (threadIdx.x == 0) partials[blockIdx.x] = total;
}

template <class A, class Combine>
__global__ void __launch_bounds__(reduce_threads)
    reduce_final_kernel(int count, Combine combine, A identity, const A* partials, A* result) {
  A accumulated = identity;
  for (int i = static_cast<int>(threadIdx.x); i < count; i += reduce_threads)
    accumulated = combine(accumulated, partials[i]);
  const A total = block_combine(accumulated, combine);
  if (threadIdx.x == 0) *result = total;
}

// Reduces terms(0..n-1) into *result (device memory); identity for n == 0.
template <class A, class Terms, class Combine>
void reduce_into(Index n, Terms terms, Combine combine, A identity, A* result) {
  static_assert(sizeof(A) <= largest_accumulator);
  const cuda::Context& context = cuda::Context::get();
  A* partials = static_cast<A*>(context.device_scratch());
  const int blocks = reduce_blocks(n);
  reduce_partials_kernel<<<blocks, reduce_threads, 0, context.stream()>>>(n, terms, combine,
                                                                          identity, partials);
  cuda::check_launch("reduction kernel launch (partials)");
  reduce_final_kernel<<<1, reduce_threads, 0, context.stream()>>>(blocks, combine, identity,
                                                                  partials, result);
  cuda::check_launch("reduction kernel launch (final)");
}

// The device slot of the context for results the host reads back.
template <class A>
A* result_slot() {
  return static_cast<A*>(cuda::Context::get().device_value());
}

// Copies *result to the host: the one synchronisation of a host-returning reduction.
template <class T, class A>
T read_back(const A* result) {
  A value;
  cuda::Context::get().read_back(&value, result, sizeof(A));
  if constexpr (is_complex_v<T>) {
    return T(value.real(), value.imag());
  } else {
    return value;
  }
}

template <class D, class R>
void norm_into(NormKind kind, R p, Index n, const D* x, R* result) {
  switch (kind) {
    case NormKind::power_sum:
      return reduce_into(n, ValueTerms<D, PowerOfMagnitude<R>>{x, {p}}, Sum{}, R(0), result);
    case NormKind::count_nonzero:
      return reduce_into(n, ValueTerms<D, NonzeroIndicator>{x, {}}, Sum{}, R(0), result);
    case NormKind::max_abs:
      return reduce_into(n, ValueTerms<D, Magnitude>{x, {}}, Max{}, R(0), result);
    case NormKind::min_abs:
      return reduce_into(n, ValueTerms<D, Magnitude>{x, {}}, Min{},
                         std::numeric_limits<R>::infinity(), result);
  }
}

// ---- along an axis ----------------------------------------------------------------------------

// inner == 1 and long lines: a warp per line of `length` contiguous elements; lanes stride
// through the line and combine by shuffles in a fixed order.
template <class D, class R, class F, class Combine>
__global__ void reduce_lines_kernel(Index outer, Index length, F f, Combine combine, R identity,
                                    const D* x, R* out) {
  constexpr int warp = 32;
  const int lane = static_cast<int>(threadIdx.x) % warp;
  const Index warps = grid_stride() / warp;
  // Every lane of a warp walks the same lines, so the shuffles below see full warps.
  for (Index o = first_index() / warp; o < outer; o += warps) {
    const D* line = x + o * length;
    R accumulated = identity;
    for (Index l = lane; l < length; l += warp)
      accumulated = combine(accumulated, f(line[l]));
    for (int offset = warp / 2; offset > 0; offset /= 2)
      accumulated = combine(accumulated, __shfl_down_sync(0xffffffffu, accumulated, offset));
    if (lane == 0) out[o] = accumulated;
  }
}

// Otherwise: a thread per output element walks its line (stride `inner`, coalesced across the
// threads of a warp) in order, as the host does.
template <class D, class R, class F, class Combine>
__global__ void reduce_strided_kernel(Index outer, Index length, Index inner, F f, Combine combine,
                                      R identity, const D* x, R* out) {
  const Index total = outer * inner;
  for (Index k = first_index(); k < total; k += grid_stride()) {
    const Index o = k / inner;
    const Index i = k - o * inner;
    const D* start = x + o * length * inner + i;
    R accumulated = identity;
    for (Index l = 0; l < length; ++l)
      accumulated = combine(accumulated, f(start[l * inner]));
    out[k] = accumulated;
  }
}

template <class D, class R, class F, class Combine>
void reduce_axis(Index outer, Index length, Index inner, F f, Combine combine, R identity,
                 const D* x, R* out) {
  if (outer * inner == 0) return;
  const cudaStream_t stream = device::stream();
  if (inner == 1 && length >= 64) {
    const Index threads = outer * 32;
    reduce_lines_kernel<<<device::grid_size(threads), device::block_size, 0, stream>>>(
        outer, length, f, combine, identity, x, out);
    cuda::check_launch("norm_reduce_axis kernel launch");
    return;
  }
  reduce_strided_kernel<<<device::grid_size(outer * inner), device::block_size, 0, stream>>>(
      outer, length, inner, f, combine, identity, x, out);
  cuda::check_launch("norm_reduce_axis kernel launch");
}

}  // namespace

template <Scalar T>
void dot_into(Cuda, Index n, const T* x, const T* y, T* result) {
  using D = device::scalar_t<T>;
  reduce_into(n, DotTerms<D>{device::pointer(x), device::pointer(y)}, Sum{},
              pointwise::from_real<D>(0), device::pointer(result));
}

template <Scalar T>
void vdot_into(Cuda, Index n, const T* x, const T* y, T* result) {
  using D = device::scalar_t<T>;
  reduce_into(n, VdotTerms<D>{device::pointer(x), device::pointer(y)}, Sum{},
              pointwise::from_real<D>(0), device::pointer(result));
}

template <Scalar T>
void axpy_pair_vdot_into(Cuda, Index n, const double* step, double fx, const T* c, T* x, double fr,
                         const T* q, T* r, T* result) {
  using D = device::scalar_t<T>;
  reduce_into(n,
              AxpyPairVdotTerms<D>{step, fx, fr, device::pointer(c), device::pointer(x),
                                   device::pointer(q), device::pointer(r)},
              Sum{}, pointwise::from_real<D>(0), device::pointer(result));
}

template <Scalar T>
void norm_reduce_into(Cuda, NormKind kind, real_type_t<T> p, Index n, const T* x,
                      real_type_t<T>* result) {
  detail::check_norm_kind(kind, p);
  norm_into(kind, p, n, device::pointer(x), result);
}

template <Scalar T>
T dot(Cuda, Index n, const T* x, const T* y) {
  if (n <= 0) return T(0);
  using D = device::scalar_t<T>;
  D* result = result_slot<D>();
  dot_into(Cuda{}, n, x, y, reinterpret_cast<T*>(result));
  return read_back<T>(result);
}

template <Scalar T>
T vdot(Cuda, Index n, const T* x, const T* y) {
  if (n <= 0) return T(0);
  using D = device::scalar_t<T>;
  D* result = result_slot<D>();
  vdot_into(Cuda{}, n, x, y, reinterpret_cast<T*>(result));
  return read_back<T>(result);
}

template <Scalar T>
real_type_t<T> norm_reduce(Cuda, NormKind kind, real_type_t<T> p, Index n, const T* x) {
  using R = real_type_t<T>;
  detail::check_norm_kind(kind, p);
  if (n <= 0) return kind == NormKind::min_abs ? std::numeric_limits<R>::infinity() : R(0);
  R* result = result_slot<R>();
  norm_into(kind, p, n, device::pointer(x), result);
  return read_back<R>(result);
}

template <Scalar T>
void norm_reduce_axis(Cuda, NormKind kind, real_type_t<T> p, Index outer, Index length, Index inner,
                      const T* x, real_type_t<T>* out) {
  using R = real_type_t<T>;
  detail::check_norm_kind(kind, p);
  const auto* dx = device::pointer(x);
  switch (kind) {
    case NormKind::power_sum:
      return reduce_axis(outer, length, inner, PowerOfMagnitude<R>{p}, Sum{}, R(0), dx, out);
    case NormKind::count_nonzero:
      return reduce_axis(outer, length, inner, NonzeroIndicator{}, Sum{}, R(0), dx, out);
    case NormKind::max_abs:
      return reduce_axis(outer, length, inner, Magnitude{}, Max{}, R(0), dx, out);
    case NormKind::min_abs:
      return reduce_axis(outer, length, inner, Magnitude{}, Min{},
                         std::numeric_limits<R>::infinity(), dx, out);
  }
}

#define DISTLOPS_INSTANTIATE_CUDA_REDUCTIONS(T)                                                    \
  template T dot<T>(Cuda, Index, const T*, const T*);                                              \
  template T vdot<T>(Cuda, Index, const T*, const T*);                                             \
  template real_type_t<T> norm_reduce<T>(Cuda, NormKind, real_type_t<T>, Index, const T*);         \
  template void norm_reduce_axis<T>(Cuda, NormKind, real_type_t<T>, Index, Index, Index, const T*, \
                                    real_type_t<T>*);                                              \
  template void dot_into<T>(Cuda, Index, const T*, const T*, T*);                                  \
  template void vdot_into<T>(Cuda, Index, const T*, const T*, T*);                                 \
  template void axpy_pair_vdot_into<T>(Cuda, Index, const double*, double, const T*, T*, double,   \
                                       const T*, T*, T*);                                          \
  template void norm_reduce_into<T>(Cuda, NormKind, real_type_t<T>, Index, const T*,               \
                                    real_type_t<T>*);

DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_CUDA_REDUCTIONS)

}  // namespace distlops::kernels
