// Host kernels: plain loops over contiguous memory that the compiler vectorises. Reductions
// keep several independent partial sums, which both vectorises without -ffast-math and
// reduces rounding error growth compared with one running sum.
#include "distlops/core/kernels.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "distlops/core/error.hpp"

namespace distlops::kernels {

namespace {

constexpr int lanes = 8;

template <class T, class Term>
T lane_sum(Index n, Term term) {
  T partial[lanes] = {};
  Index i = 0;
  for (; i + lanes <= n; i += lanes) {
    for (int k = 0; k < lanes; ++k)
      partial[k] += term(i + k);
  }
  for (; i < n; ++i)
    partial[0] += term(i);
  T total{};
  for (int k = 0; k < lanes; ++k)
    total += partial[k];
  return total;
}

template <class T>
real_type_t<T> magnitude(const T& value) {
  if constexpr (is_complex_v<T>) {
    return std::sqrt(abs_squared(value));
  } else {
    return std::abs(value);
  }
}

template <class T>
real_type_t<T> power_of_magnitude(const T& value, real_type_t<T> p) {
  using R = real_type_t<T>;
  if (p == R(1)) return magnitude(value);
  if (p == R(2)) return abs_squared(value);
  return std::pow(magnitude(value), p);
}

template <class T>
void check_norm_kind(NormKind kind, real_type_t<T> p) {
  if (kind == NormKind::power_sum && (p == 0 || !std::isfinite(p))) {
    throw InvalidArgument(
        "norm: the order p of a power-sum norm must be finite and non-zero, got " +
        std::to_string(p));
  }
}

}  // namespace

template <Scalar T>
void fill(Host, Index n, T value, T* y) {
  for (Index i = 0; i < n; ++i)
    y[i] = value;
}

template <Scalar T>
void copy(Host, Index n, const T* x, T* y) {
  if (n > 0 && x != y) std::memmove(y, x, static_cast<std::size_t>(n) * sizeof(T));
}

template <Scalar T>
void scale(Host, Index n, T a, T* __restrict y) {
  for (Index i = 0; i < n; ++i)
    y[i] *= a;
}

template <Scalar T>
void axpy(Host, Index n, T a, const T* x, T* y) {
  for (Index i = 0; i < n; ++i)
    y[i] += a * x[i];
}

template <Scalar T>
void axpby(Host, Index n, T a, const T* x, T b, T* y) {
  if (b == T(0)) {
    // y may be uninitialised (or hold NaN): do not read it.
    for (Index i = 0; i < n; ++i)
      y[i] = a * x[i];
    return;
  }
  for (Index i = 0; i < n; ++i)
    y[i] = a * x[i] + b * y[i];
}

template <Scalar T>
void axpbypcz(Host, Index n, T a, const T* x, T b, const T* y, T c, T* z) {
  if (c == T(0)) {
    // z may be uninitialised (or hold NaN): do not read it.
    for (Index i = 0; i < n; ++i)
      z[i] = a * x[i] + b * y[i];
    return;
  }
  for (Index i = 0; i < n; ++i)
    z[i] = a * x[i] + b * y[i] + c * z[i];
}

template <Scalar T>
void binary(Host, BinaryOp op, Index n, const T* x, const T* y, T* z) {
  switch (op) {
    case BinaryOp::add:
      for (Index i = 0; i < n; ++i)
        z[i] = x[i] + y[i];
      return;
    case BinaryOp::subtract:
      for (Index i = 0; i < n; ++i)
        z[i] = x[i] - y[i];
      return;
    case BinaryOp::multiply:
      for (Index i = 0; i < n; ++i)
        z[i] = x[i] * y[i];
      return;
    case BinaryOp::divide:
      for (Index i = 0; i < n; ++i)
        z[i] = x[i] / y[i];
      return;
  }
}

template <Scalar T>
void binary_scalar(Host, BinaryOp op, Index n, const T* x, T s, T* z) {
  switch (op) {
    case BinaryOp::add:
      for (Index i = 0; i < n; ++i)
        z[i] = x[i] + s;
      return;
    case BinaryOp::subtract:
      for (Index i = 0; i < n; ++i)
        z[i] = x[i] - s;
      return;
    case BinaryOp::multiply:
      for (Index i = 0; i < n; ++i)
        z[i] = x[i] * s;
      return;
    case BinaryOp::divide:
      for (Index i = 0; i < n; ++i)
        z[i] = x[i] / s;
      return;
  }
}

template <Scalar T>
void scalar_binary(Host, BinaryOp op, Index n, T s, const T* x, T* z) {
  switch (op) {
    case BinaryOp::add:
      for (Index i = 0; i < n; ++i)
        z[i] = s + x[i];
      return;
    case BinaryOp::subtract:
      for (Index i = 0; i < n; ++i)
        z[i] = s - x[i];
      return;
    case BinaryOp::multiply:
      for (Index i = 0; i < n; ++i)
        z[i] = s * x[i];
      return;
    case BinaryOp::divide:
      for (Index i = 0; i < n; ++i)
        z[i] = s / x[i];
      return;
  }
}

template <Scalar T>
void conj(Host, Index n, const T* x, T* y) {
  if constexpr (is_complex_v<T>) {
    for (Index i = 0; i < n; ++i)
      y[i] = std::conj(x[i]);
  } else {
    copy(Host{}, n, x, y);
  }
}

template <Scalar T>
T dot(Host, Index n, const T* __restrict x, const T* __restrict y) {
  return lane_sum<T>(n, [&](Index i) { return x[i] * y[i]; });
}

template <Scalar T>
T vdot(Host, Index n, const T* __restrict x, const T* __restrict y) {
  return lane_sum<T>(n, [&](Index i) { return conjugate(x[i]) * y[i]; });
}

template <Scalar T>
real_type_t<T> norm_reduce(Host, NormKind kind, real_type_t<T> p, Index n, const T* __restrict x) {
  using R = real_type_t<T>;
  check_norm_kind<T>(kind, p);
  switch (kind) {
    case NormKind::power_sum:
      if (p == R(2)) return lane_sum<R>(n, [&](Index i) { return abs_squared(x[i]); });
      if (p == R(1)) return lane_sum<R>(n, [&](Index i) { return magnitude(x[i]); });
      return lane_sum<R>(n, [&](Index i) { return std::pow(magnitude(x[i]), p); });
    case NormKind::count_nonzero:
      return lane_sum<R>(n, [&](Index i) { return x[i] != T(0) ? R(1) : R(0); });
    case NormKind::max_abs: {
      R result = 0;
      for (Index i = 0; i < n; ++i)
        result = std::max(result, magnitude(x[i]));
      return result;
    }
    case NormKind::min_abs: {
      R result = std::numeric_limits<R>::infinity();
      for (Index i = 0; i < n; ++i)
        result = std::min(result, magnitude(x[i]));
      return result;
    }
  }
  return R(0);
}

template <Scalar T>
void norm_reduce_axis(Host, NormKind kind, real_type_t<T> p, Index outer, Index length, Index inner,
                      const T* x, real_type_t<T>* out) {
  using R = real_type_t<T>;
  check_norm_kind<T>(kind, p);
  const R initial = kind == NormKind::min_abs ? std::numeric_limits<R>::infinity() : R(0);
  for (Index o = 0; o < outer; ++o) {
    R* row = out + o * inner;
    for (Index i = 0; i < inner; ++i)
      row[i] = initial;
    for (Index l = 0; l < length; ++l) {
      const T* line = x + (o * length + l) * inner;
      switch (kind) {
        case NormKind::power_sum:
          for (Index i = 0; i < inner; ++i)
            row[i] += power_of_magnitude(line[i], p);
          break;
        case NormKind::count_nonzero:
          for (Index i = 0; i < inner; ++i)
            row[i] += line[i] != T(0) ? R(1) : R(0);
          break;
        case NormKind::max_abs:
          for (Index i = 0; i < inner; ++i)
            row[i] = std::max(row[i], magnitude(line[i]));
          break;
        case NormKind::min_abs:
          for (Index i = 0; i < inner; ++i)
            row[i] = std::min(row[i], magnitude(line[i]));
          break;
      }
    }
  }
}

void copy_box(Host, std::size_t element_size, const void* source_data, BoxView source,
              void* destination_data, BoxView destination, std::span<const Index> extent) {
  const std::size_t ndim = extent.size();
  for (Index e : extent) {
    if (e == 0) return;
  }
  if (ndim == 0) {
    std::memcpy(destination_data, source_data, element_size);
    return;
  }
  // Strides in elements, and the longest contiguous run: trailing axes that span both arrays
  // entirely merge into one memcpy.
  std::vector<Index> source_stride(ndim), destination_stride(ndim);
  Index s = 1, d = 1;
  for (std::size_t k = ndim; k-- > 0;) {
    source_stride[k] = s;
    destination_stride[k] = d;
    s *= source.array_shape[k];
    d *= destination.array_shape[k];
  }
  std::size_t first_run_axis = ndim - 1;
  Index run = extent[ndim - 1];
  while (first_run_axis > 0 && extent[first_run_axis] == source.array_shape[first_run_axis] &&
         extent[first_run_axis] == destination.array_shape[first_run_axis]) {
    --first_run_axis;
    run *= extent[first_run_axis];
  }
  Index source_base = 0, destination_base = 0;
  for (std::size_t k = 0; k < ndim; ++k) {
    source_base += source.corner[k] * source_stride[k];
    destination_base += destination.corner[k] * destination_stride[k];
  }
  const auto* from = static_cast<const std::byte*>(source_data);
  auto* to = static_cast<std::byte*>(destination_data);
  const std::size_t run_bytes = static_cast<std::size_t>(run) * element_size;
  auto copy_run = [&](Index source_offset, Index destination_offset) {
    std::memcpy(to + static_cast<std::size_t>(destination_offset) * element_size,
                from + static_cast<std::size_t>(source_offset) * element_size, run_bytes);
  };
  if (first_run_axis == 0) {
    copy_run(source_base, destination_base);
    return;
  }
  // Odometer over the axes before the run.
  std::vector<Index> index(first_run_axis, 0);
  while (true) {
    Index source_offset = source_base, destination_offset = destination_base;
    for (std::size_t k = 0; k < first_run_axis; ++k) {
      source_offset += index[k] * source_stride[k];
      destination_offset += index[k] * destination_stride[k];
    }
    copy_run(source_offset, destination_offset);
    std::size_t k = first_run_axis - 1;
    while (++index[k] == extent[k]) {
      index[k] = 0;
      if (k == 0) return;
      --k;
    }
  }
}

#define DISTLOPS_INSTANTIATE_HOST_KERNELS(T)                                                       \
  template void fill<T>(Host, Index, T, T*);                                                       \
  template void copy<T>(Host, Index, const T*, T*);                                                \
  template void scale<T>(Host, Index, T, T*);                                                      \
  template void axpy<T>(Host, Index, T, const T*, T*);                                             \
  template void axpby<T>(Host, Index, T, const T*, T, T*);                                         \
  template void axpbypcz<T>(Host, Index, T, const T*, T, const T*, T, T*);                         \
  template void binary<T>(Host, BinaryOp, Index, const T*, const T*, T*);                          \
  template void binary_scalar<T>(Host, BinaryOp, Index, const T*, T, T*);                          \
  template void scalar_binary<T>(Host, BinaryOp, Index, T, const T*, T*);                          \
  template void conj<T>(Host, Index, const T*, T*);                                                \
  template T dot<T>(Host, Index, const T*, const T*);                                              \
  template T vdot<T>(Host, Index, const T*, const T*);                                             \
  template real_type_t<T> norm_reduce<T>(Host, NormKind, real_type_t<T>, Index, const T*);         \
  template void norm_reduce_axis<T>(Host, NormKind, real_type_t<T>, Index, Index, Index, const T*, \
                                    real_type_t<T>*);

DISTLOPS_INSTANTIATE_HOST_KERNELS(float)
DISTLOPS_INSTANTIATE_HOST_KERNELS(double)
DISTLOPS_INSTANTIATE_HOST_KERNELS(std::complex<float>)
DISTLOPS_INSTANTIATE_HOST_KERNELS(std::complex<double>)

}  // namespace distlops::kernels
