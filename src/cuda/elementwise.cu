// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Element-wise kernels of the Cuda space. Each kernel applies a function object of
// pointwise.hpp (the formulas of the host kernels) in a grid-stride loop.
#include "distlops/core/detail/cuda_launch.cuh"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/kernels.hpp"

namespace distlops::kernels {

namespace {

using device::first_index;
using device::grid_stride;

template <class D>
__global__ void fill_kernel(Index n, D value, D* y) {
  for (Index i = first_index(); i < n; i += grid_stride())
    y[i] = value;
}

// Outputs may alias inputs exactly: each thread reads an element before writing it.
template <class D, class F>
__global__ void map1_kernel(Index n, F f, const D* x, D* z) {
  for (Index i = first_index(); i < n; i += grid_stride())
    z[i] = f(x[i]);
}

template <class D, class F>
__global__ void map2_kernel(Index n, F f, const D* x, const D* y, D* z) {
  for (Index i = first_index(); i < n; i += grid_stride())
    z[i] = f(x[i], y[i]);
}

template <class D, class F>
__global__ void map3_kernel(Index n, F f, const D* x, const D* y, const D* w, D* z) {
  for (Index i = first_index(); i < n; i += grid_stride())
    z[i] = f(x[i], y[i], w[i]);
}

// z[i] = f(x[i])
template <class D, class F>
void map(const char* name, Index n, F f, const D* x, D* z) {
  if (n <= 0) return;
  map1_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(n, f, x, z);
  cuda::check_launch(name);
}

// z[i] = f(x[i], y[i])
template <class D, class F>
void map(const char* name, Index n, F f, const D* x, const D* y, D* z) {
  if (n <= 0) return;
  map2_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(n, f, x, y, z);
  cuda::check_launch(name);
}

// z[i] = f(x[i], y[i], w[i])
template <class D, class F>
void map(const char* name, Index n, F f, const D* x, const D* y, const D* w, D* z) {
  if (n <= 0) return;
  map3_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(n, f, x, y, w, z);
  cuda::check_launch(name);
}

}  // namespace

template <Scalar T>
void fill(Cuda, Index n, T value, T* y) {
  if (n <= 0) return;
  fill_kernel<<<device::grid_size(n), device::block_size, 0, device::stream()>>>(
      n, device::value(value), device::pointer(y));
  cuda::check_launch("fill kernel launch");
}

template <Scalar T>
void copy(Cuda, Index n, const T* x, T* y) {
  if (n <= 0 || x == y) return;
  cuda::check_cuda(cudaMemcpyAsync(y, x, static_cast<std::size_t>(n) * sizeof(T),
                                   cudaMemcpyDeviceToDevice, device::stream()),
                   "cudaMemcpyAsync (copy kernel)");
}

template <Scalar T>
void scale(Cuda, Index n, T a, T* y) {
  using D = device::scalar_t<T>;
  map("scale kernel launch", n, pointwise::Scale<D>{device::value(a)}, device::pointer(y),
      device::pointer(y));
}

template <Scalar T>
void axpy(Cuda, Index n, T a, const T* x, T* y) {
  using D = device::scalar_t<T>;
  map("axpy kernel launch", n, pointwise::Axpy<D>{device::value(a)}, device::pointer(x),
      device::pointer(y), device::pointer(y));
}

template <Scalar T>
void axpby(Cuda, Index n, T a, const T* x, T b, T* y) {
  using D = device::scalar_t<T>;
  if (b == T(0)) {
    // y may be uninitialised (or hold NaN): do not read it.
    map("axpby kernel launch", n, pointwise::Scale<D>{device::value(a)}, device::pointer(x),
        device::pointer(y));
    return;
  }
  map("axpby kernel launch", n, pointwise::Axpby<D>{device::value(a), device::value(b)},
      device::pointer(x), device::pointer(y), device::pointer(y));
}

template <Scalar T>
void axpbypcz(Cuda, Index n, T a, const T* x, T b, const T* y, T c, T* z) {
  using D = device::scalar_t<T>;
  if (c == T(0)) {
    // z may be uninitialised (or hold NaN): do not read it.
    map("axpbypcz kernel launch", n, pointwise::Axpby<D>{device::value(a), device::value(b)},
        device::pointer(x), device::pointer(y), device::pointer(z));
    return;
  }
  map("axpbypcz kernel launch", n,
      pointwise::Axpbypcz<D>{device::value(a), device::value(b), device::value(c)},
      device::pointer(x), device::pointer(y), static_cast<const D*>(device::pointer(z)),
      device::pointer(z));
}

template <Scalar T>
void binary(Cuda, BinaryOp op, Index n, const T* x, const T* y, T* z) {
  const auto* dx = device::pointer(x);
  const auto* dy = device::pointer(y);
  auto* dz = device::pointer(z);
  switch (op) {
    case BinaryOp::add:
      return map("binary kernel launch", n, pointwise::Add{}, dx, dy, dz);
    case BinaryOp::subtract:
      return map("binary kernel launch", n, pointwise::Subtract{}, dx, dy, dz);
    case BinaryOp::multiply:
      return map("binary kernel launch", n, pointwise::Multiply{}, dx, dy, dz);
    case BinaryOp::divide:
      return map("binary kernel launch", n, pointwise::Divide{}, dx, dy, dz);
  }
}

template <Scalar T>
void binary_scalar(Cuda, BinaryOp op, Index n, const T* x, T s, T* z) {
  using D = device::scalar_t<T>;
  using namespace pointwise;
  const D ds = device::value(s);
  const D* dx = device::pointer(x);
  D* dz = device::pointer(z);
  const char* name = "binary_scalar kernel launch";
  switch (op) {
    case BinaryOp::add:
      return map(name, n, WithScalarRight<Add, D>{ds}, dx, dz);
    case BinaryOp::subtract:
      return map(name, n, WithScalarRight<Subtract, D>{ds}, dx, dz);
    case BinaryOp::multiply:
      return map(name, n, WithScalarRight<Multiply, D>{ds}, dx, dz);
    case BinaryOp::divide:
      if (divisor_imag_larger(ds)) return map(name, n, DivideByScalar<D, true>(ds), dx, dz);
      return map(name, n, DivideByScalar<D, false>(ds), dx, dz);
  }
}

template <Scalar T>
void scalar_binary(Cuda, BinaryOp op, Index n, T s, const T* x, T* z) {
  using D = device::scalar_t<T>;
  using namespace pointwise;
  const D ds = device::value(s);
  const D* dx = device::pointer(x);
  D* dz = device::pointer(z);
  const char* name = "scalar_binary kernel launch";
  switch (op) {
    case BinaryOp::add:
      return map(name, n, WithScalarLeft<Add, D>{ds}, dx, dz);
    case BinaryOp::subtract:
      return map(name, n, WithScalarLeft<Subtract, D>{ds}, dx, dz);
    case BinaryOp::multiply:
      return map(name, n, WithScalarLeft<Multiply, D>{ds}, dx, dz);
    case BinaryOp::divide:
      return map(name, n, WithScalarLeft<Divide, D>{ds}, dx, dz);
  }
}

template <Scalar T>
void conj(Cuda, Index n, const T* x, T* y) {
  if constexpr (is_complex_v<T>) {
    map("conj kernel launch", n, pointwise::Conjugate{}, device::pointer(x), device::pointer(y));
  } else {
    copy(Cuda{}, n, x, y);
  }
}

#define DISTLOPS_INSTANTIATE_CUDA_ELEMENTWISE(T)                           \
  template void fill<T>(Cuda, Index, T, T*);                               \
  template void copy<T>(Cuda, Index, const T*, T*);                        \
  template void scale<T>(Cuda, Index, T, T*);                              \
  template void axpy<T>(Cuda, Index, T, const T*, T*);                     \
  template void axpby<T>(Cuda, Index, T, const T*, T, T*);                 \
  template void axpbypcz<T>(Cuda, Index, T, const T*, T, const T*, T, T*); \
  template void binary<T>(Cuda, BinaryOp, Index, const T*, const T*, T*);  \
  template void binary_scalar<T>(Cuda, BinaryOp, Index, const T*, T, T*);  \
  template void scalar_binary<T>(Cuda, BinaryOp, Index, T, const T*, T*);  \
  template void conj<T>(Cuda, Index, const T*, T*);

DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_CUDA_ELEMENTWISE)

}  // namespace distlops::kernels
