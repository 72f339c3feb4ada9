// StencilOperator: host loops over contiguous output segments; the per-point formulas come
// from stencil.hpp and the arithmetic on segments from the per-space kernels.
#include "distlops/operators/local/stencil_operator.hpp"

#include <algorithm>
#include <cmath>

#include "../cuda/device_kernels.hpp"
#include "distlops/core/instantiate.hpp"
#include "support.hpp"

namespace distlops::local {

namespace {

// Output elements handled per block: the block and the input rows it reads stay in cache
// while every term is added to it.
constexpr Index block_elements = 4096;
static_assert(stencil::max_points <= detail::max_combined);

}  // namespace

template <Scalar T, MemorySpace Space>
StencilOperator<T, Space>::StencilOperator(Shape dims, const std::vector<StencilTerm>& terms,
                                           std::string name)
    : AccumulatingOperator<T, Space>(dims, dims, std::move(name)),
      dims_(std::move(dims)),
      strides_(detail::strides_of(dims_)) {
  const std::string& op = this->name();
  detail::check_shape(op, "dims", dims_);
  if (terms.empty()) throw InvalidArgument(op + ": no derivative term");
  for (const StencilTerm& term : terms) {
    const stencil::Spec<double>& s = term.spec;
    if (term.axis < 0 || term.axis >= static_cast<int>(dims_.size())) {
      throw InvalidArgument(op + ": axis " + std::to_string(term.axis) +
                            " is out of range for an array of " + std::to_string(dims_.size()) +
                            " dimension(s)");
    }
    if (s.derivative != 1 && s.derivative != 2) {
      throw InvalidArgument(op + ": the derivative must be of order 1 or 2, got " +
                            std::to_string(s.derivative));
    }
    if (s.derivative == 1 && s.order != 3 && s.order != 5) {
      throw InvalidArgument(op + ": order must be 3 or 5, got " + std::to_string(s.order));
    }
    if (!std::isfinite(s.scale)) {
      throw InvalidArgument(op + ": the stencil weights are not finite (scale " +
                            std::to_string(s.scale) + ")");
    }
    // The one-sided edge formulas read 2 (first derivative, order 3) or 3 samples.
    const Index length = dims_[static_cast<std::size_t>(term.axis)];
    const Index needed = s.derivative == 1 && s.order == 3 ? 2 : 3;
    if (s.kind == DerivativeKind::centered && s.edge && length < needed) {
      throw InvalidArgument(op + ": edge = true needs at least " + std::to_string(needed) +
                            " samples along axis " + std::to_string(term.axis) + ", got " +
                            std::to_string(length) + " (shape " + to_string(dims_) + ")");
    }
    terms_.push_back({term.axis, {s.derivative, s.kind, s.order, s.edge, real_type(s.scale)}});
    last_axis_ = std::max(last_axis_, term.axis);
  }
#if DISTLOPS_WITH_CUDA
  if constexpr (std::same_as<Space, Cuda>) {
    // The device kernel receives the terms by value.
    if (terms_.size() > std::size_t(device_ops::max_stencil_terms) ||
        dims_.size() > std::size_t(device_ops::max_stencil_dimensions)) {
      throw InvalidArgument(op + ": the Cuda space supports at most " +
                            std::to_string(device_ops::max_stencil_terms) + " terms on arrays of " +
                            "at most " + std::to_string(device_ops::max_stencil_dimensions) +
                            " dimensions, got " + std::to_string(terms_.size()) + " terms and " +
                            std::to_string(dims_.size()) + " dimensions");
    }
  }
#endif
}

template <Scalar T, MemorySpace Space>
void StencilOperator<T, Space>::forward_add(T alpha, const Vector& x, T beta, Vector& y) const {
  apply(false, alpha, x.data(), beta, y.data());
}

template <Scalar T, MemorySpace Space>
void StencilOperator<T, Space>::adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const {
  apply(true, alpha, y.data(), beta, x.data());
}

// The output is walked slab by slab: a slab fixes the indices of the axes before the last
// term axis L and spans axis L and every axis after it, contiguously. Along L, the rows within
// stencil::edge_width of either end have their own stencils and are visited one by one; the
// rows between them share one translated stencil and form a single segment. Within a segment
// every term's stencil is fixed: each term is one fused pass over the segment.
template <Scalar T, MemorySpace Space>
void StencilOperator<T, Space>::apply(bool adjoint, T alpha, const T* in, T beta, T* out) const {
  if constexpr (!std::same_as<Space, Host>) {
#if DISTLOPS_WITH_CUDA
    // One thread per output point, each evaluating its stencils with stencil::at.
    device_ops::LocalStencil<real_type> stencil;
    stencil.ndim = static_cast<int>(dims_.size());
    stencil.count = static_cast<int>(terms_.size());
    for (std::size_t k = 0; k < dims_.size(); ++k) {
      stencil.dims[k] = dims_[k];
      stencil.strides[k] = strides_[k];
    }
    for (std::size_t t = 0; t < terms_.size(); ++t) {
      stencil.axis[t] = terms_[t].axis;
      stencil.spec[t] = terms_[t].spec;
    }
    device_ops::local_stencil(Cuda{}, stencil, adjoint, alpha, in, beta, out);
#endif
  } else {
    apply_host(adjoint, alpha, in, beta, out);
  }
}

// The host loops (called for the Host space only).
template <Scalar T, MemorySpace Space>
void StencilOperator<T, Space>::apply_host(bool adjoint, T alpha, const T* in, T beta,
                                           T* out) const {
  const auto last = static_cast<std::size_t>(last_axis_);
  const Index length = dims_[last];
  const Index row = strides_[last];  // elements per index of axis L
  const Index edge = stencil::edge_width(adjoint);
  const Shape slab_axes(dims_.begin(), dims_.begin() + last_axis_);

  // Writes every term's contribution to out[start, start + count), one pass per term;
  // `position` is the index along axis L of the segment's first row (any inner row stands for
  // all of them).
  auto segment = [&](const detail::MultiIndex& slab, Index start, Index count, Index position) {
    for (Index block = 0; block < count; block += block_elements) {
      const Index n = std::min(block_elements, count - block);
      T* y = out + start + block;
      const T* x = in + start + block;
      bool written = false;  // whether y holds this block's partial sum
      for (const Term& term : terms_) {
        const auto axis = static_cast<std::size_t>(term.axis);
        const Index index = term.axis == last_axis_ ? position : slab[axis];
        const stencil::Stencil<real_type> points =
            stencil::at(term.spec, adjoint, index, dims_[axis]);
        if (points.count == 0) continue;
        const T* sources[stencil::max_points];
        T weights[stencil::max_points];
        for (int s = 0; s < points.count; ++s) {
          sources[s] = x + points.offset[s] * strides_[axis];
          weights[s] = alpha * T(points.weight[s]);
        }
        const detail::Combine mode = written        ? detail::Combine::add
                                     : beta == T(0) ? detail::Combine::overwrite
                                                    : detail::Combine::scale;
        detail::combine(Host{}, mode, points.count, n, sources, weights, beta, y);
        written = true;
      }
      if (!written) detail::scale_or_zero(Host{}, n, beta, y);
    }
  };

  for (detail::MultiIndex slab(slab_axes); slab.valid(); slab.next()) {
    Index base = 0;
    for (std::size_t k = 0; k < last; ++k)
      base += slab[k] * strides_[k];
    const Index inner_begin = std::min(edge, length);
    const Index inner_end = std::max(inner_begin, length - edge);
    for (Index i = 0; i < inner_begin; ++i)
      segment(slab, base + i * row, row, i);
    if (inner_end > inner_begin) {
      segment(slab, base + inner_begin * row, (inner_end - inner_begin) * row, inner_begin);
    }
    for (Index i = inner_end; i < length; ++i)
      segment(slab, base + i * row, row, i);
  }
}

DISTLOPS_INSTANTIATE_TEMPLATE_CLASS(StencilOperator)

}  // namespace distlops::local
