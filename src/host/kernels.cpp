// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// Host kernels: plain loops over contiguous memory that the compiler vectorises. The
// per-element formulas are those of pointwise.hpp, shared with the CUDA kernels. Reductions
// keep several independent partial sums, which both vectorises without -ffast-math and
// reduces rounding error growth compared with one running sum.
#include "distlops/core/kernels.hpp"

#include "distlops/core/fused_kernels.hpp"

#include <cmath>
#include <cstring>
#include <limits>
#include <vector>

#include "../box_copy_plan.hpp"
#include "../kernel_checks.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/pointwise.hpp"

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

// z[i] = f(x[i])
template <class T, class F>
void map(Index n, F f, const T* x, T* z) {
  for (Index i = 0; i < n; ++i)
    z[i] = f(x[i]);
}

// z[i] = f(x[i], y[i])
template <class T, class F>
void map(Index n, F f, const T* x, const T* y, T* z) {
  for (Index i = 0; i < n; ++i)
    z[i] = f(x[i], y[i]);
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
  const pointwise::Scale<T> f{a};
  for (Index i = 0; i < n; ++i)
    y[i] = f(y[i]);
}

template <Scalar T>
void axpy(Host, Index n, T a, const T* x, T* y) {
  map(n, pointwise::Axpy<T>{a}, x, y, y);
}

template <Scalar T>
void axpby(Host, Index n, T a, const T* x, T b, T* y) {
  if (b == T(0)) {
    // y may be uninitialised (or hold NaN): do not read it.
    const pointwise::Scale<T> f{a};
    for (Index i = 0; i < n; ++i)
      y[i] = f(x[i]);
    return;
  }
  map(n, pointwise::Axpby<T>{a, b}, x, y, y);
}

template <Scalar T>
void axpbypcz(Host, Index n, T a, const T* x, T b, const T* y, T c, T* z) {
  if (c == T(0)) {
    // z may be uninitialised (or hold NaN): do not read it.
    map(n, pointwise::Axpby<T>{a, b}, x, y, z);
    return;
  }
  const pointwise::Axpbypcz<T> f{a, b, c};
  for (Index i = 0; i < n; ++i)
    z[i] = f(x[i], y[i], z[i]);
}

template <Scalar T>
void binary(Host, BinaryOp op, Index n, const T* x, const T* y, T* z) {
  switch (op) {
    case BinaryOp::add:
      return map(n, pointwise::Add{}, x, y, z);
    case BinaryOp::subtract:
      return map(n, pointwise::Subtract{}, x, y, z);
    case BinaryOp::multiply:
      return map(n, pointwise::Multiply{}, x, y, z);
    case BinaryOp::divide:
      return map(n, pointwise::Divide{}, x, y, z);
  }
}

template <Scalar T>
void binary_scalar(Host, BinaryOp op, Index n, const T* x, T s, T* z) {
  using namespace pointwise;
  switch (op) {
    case BinaryOp::add:
      return map(n, WithScalarRight<Add, T>{s}, x, z);
    case BinaryOp::subtract:
      return map(n, WithScalarRight<Subtract, T>{s}, x, z);
    case BinaryOp::multiply:
      return map(n, WithScalarRight<Multiply, T>{s}, x, z);
    case BinaryOp::divide:
      if (divisor_imag_larger(s)) return map(n, DivideByScalar<T, true>(s), x, z);
      return map(n, DivideByScalar<T, false>(s), x, z);
  }
}

template <Scalar T>
void scalar_binary(Host, BinaryOp op, Index n, T s, const T* x, T* z) {
  using namespace pointwise;
  switch (op) {
    case BinaryOp::add:
      return map(n, WithScalarLeft<Add, T>{s}, x, z);
    case BinaryOp::subtract:
      return map(n, WithScalarLeft<Subtract, T>{s}, x, z);
    case BinaryOp::multiply:
      return map(n, WithScalarLeft<Multiply, T>{s}, x, z);
    case BinaryOp::divide:
      return map(n, WithScalarLeft<Divide, T>{s}, x, z);
  }
}

template <Scalar T>
void conj(Host, Index n, const T* x, T* y) {
  if constexpr (is_complex_v<T>) {
    map(n, pointwise::Conjugate{}, x, y);
  } else {
    copy(Host{}, n, x, y);
  }
}

template <Scalar T>
T dot(Host, Index n, const T* __restrict x, const T* __restrict y) {
  return lane_sum<T>(n, [&](Index i) { return pointwise::DotTerm{}(x[i], y[i]); });
}

template <Scalar T>
T vdot(Host, Index n, const T* __restrict x, const T* __restrict y) {
  return lane_sum<T>(n, [&](Index i) { return pointwise::VdotTerm{}(x[i], y[i]); });
}

template <Scalar T>
void axpy_pair_vdot_into(Host, Index n, const double* step, double fx, const T* __restrict c,
                         T* __restrict x, double fr, const T* __restrict q, T* __restrict r,
                         T* result) {
  const double s = *step;
  if (s == 0) {
    *result = vdot(Host{}, n, r, r);
    return;
  }
  using R = real_type_t<T>;
  const pointwise::Axpy<T> update_x{T(static_cast<R>(fx * s))};
  const pointwise::Axpy<T> update_r{T(static_cast<R>(fr * s))};
  *result = lane_sum<T>(n, [&](Index i) {
    x[i] = update_x(c[i], x[i]);
    const T updated = update_r(q[i], r[i]);
    r[i] = updated;
    return pointwise::VdotTerm{}(updated, updated);
  });
}

template <Scalar T>
real_type_t<T> norm_reduce(Host, NormKind kind, real_type_t<T> p, Index n, const T* __restrict x) {
  using R = real_type_t<T>;
  using namespace pointwise;
  detail::check_norm_kind(kind, p);
  switch (kind) {
    case NormKind::power_sum:
      if (p == R(2)) return lane_sum<R>(n, [&](Index i) { return pointwise::abs_squared(x[i]); });
      if (p == R(1)) return lane_sum<R>(n, [&](Index i) { return magnitude(x[i]); });
      return lane_sum<R>(n, [&](Index i) { return std::pow(magnitude(x[i]), p); });
    case NormKind::count_nonzero:
      return lane_sum<R>(n, [&](Index i) { return nonzero_indicator(x[i]); });
    case NormKind::max_abs: {
      R result = 0;
      for (Index i = 0; i < n; ++i)
        result = running_max(result, magnitude(x[i]));
      return result;
    }
    case NormKind::min_abs: {
      R result = std::numeric_limits<R>::infinity();
      for (Index i = 0; i < n; ++i)
        result = running_min(result, magnitude(x[i]));
      return result;
    }
  }
  return R(0);
}

template <Scalar T>
void norm_reduce_axis(Host, NormKind kind, real_type_t<T> p, Index outer, Index length, Index inner,
                      const T* x, real_type_t<T>* out) {
  using R = real_type_t<T>;
  using namespace pointwise;
  detail::check_norm_kind(kind, p);
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
            row[i] += nonzero_indicator(line[i]);
          break;
        case NormKind::max_abs:
          for (Index i = 0; i < inner; ++i)
            row[i] = running_max(row[i], magnitude(line[i]));
          break;
        case NormKind::min_abs:
          for (Index i = 0; i < inner; ++i)
            row[i] = running_min(row[i], magnitude(line[i]));
          break;
      }
    }
  }
}

void copy_box(Host, std::size_t element_size, const void* source_data, BoxView source,
              void* destination_data, BoxView destination, std::span<const Index> extent) {
  const detail::BoxCopyPlan plan = detail::plan_box_copy(source, destination, extent);
  if (plan.count == 0) return;
  const auto* from = static_cast<const std::byte*>(source_data);
  auto* to = static_cast<std::byte*>(destination_data);
  // Runs: the innermost axis when it is contiguous in both arrays, single elements otherwise.
  const bool contiguous = plan.innermost_contiguous();
  const std::size_t outer_axes = contiguous ? plan.ndim() - 1 : plan.ndim();
  const std::size_t run_bytes =
      static_cast<std::size_t>(contiguous ? plan.extent.back() : 1) * element_size;
  auto copy_run = [&](Index source_offset, Index destination_offset) {
    std::memcpy(to + static_cast<std::size_t>(destination_offset) * element_size,
                from + static_cast<std::size_t>(source_offset) * element_size, run_bytes);
  };
  if (outer_axes == 0) {
    copy_run(plan.source_offset, plan.destination_offset);
    return;
  }
  // Odometer over the axes outside the run.
  detail::AxisIndices index(outer_axes, 0);
  while (true) {
    Index source_offset = plan.source_offset, destination_offset = plan.destination_offset;
    for (std::size_t k = 0; k < outer_axes; ++k) {
      source_offset += index[k] * plan.source_stride[k];
      destination_offset += index[k] * plan.destination_stride[k];
    }
    copy_run(source_offset, destination_offset);
    std::size_t k = outer_axes - 1;
    while (++index[k] == plan.extent[k]) {
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
  template void axpy_pair_vdot_into<T>(Host, Index, const double*, double, const T*, T*, double,   \
                                       const T*, T*, T*);                                          \
  template real_type_t<T> norm_reduce<T>(Host, NormKind, real_type_t<T>, Index, const T*);         \
  template void norm_reduce_axis<T>(Host, NormKind, real_type_t<T>, Index, Index, Index, const T*, \
                                    real_type_t<T>*);

DISTLOPS_FOR_EACH_SCALAR(DISTLOPS_INSTANTIATE_HOST_KERNELS)

}  // namespace distlops::kernels
