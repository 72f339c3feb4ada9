// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// EmbedOperator, the operator behind Identity (zero shift: zero padding or truncation at the
// end of each axis) and Pad (shift = -before): a shifted window between two N-d arrays (C
// order) of the same number of axes, y[i] = x[i + shift] where i + shift lies inside x, and
// y[i] = 0 elsewhere (per axis; `shift` may be negative). Its adjoint is the window the other
// way, x[j] = y[j - shift] where defined, 0 elsewhere. Trailing axes that both arrays span
// entirely merge into longer rows; the window is one box kernel (box_kernels.hpp).
#include <algorithm>
#include <string>

#include "../box_kernels.hpp"
#include "../support.hpp"
#include "../two_way_operator.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/identity.hpp"
#include "distlops/operators/local/pad.hpp"

namespace distlops::local {

namespace {

// One direction: destination[i] = source[i + shift], with the merged trailing axes.
struct EmbedWindow {
  Shape source;
  Shape destination;
  Shape shift;
};

template <Scalar T, MemorySpace Space>
class EmbedOperator final : public detail::TwoWayOperator<T, Space, EmbedWindow> {
 public:
  /// `domain`, `range` and `shift` must have the same number of entries (InvalidArgument).
  EmbedOperator(Shape domain, Shape range, Shape shift, std::string name);

 private:
  void apply(const EmbedWindow& window, T alpha, const T* in, T beta, T* out) const override;
};

// Merges the trailing axes that both arrays span entirely (same extent, no shift) into the
// axis before them, so that rows are as long as possible. Keeps at least one axis.
EmbedWindow merged(Shape source, Shape destination, Shape shift) {
  std::size_t last = source.size() - 1;
  Index inner = 1;
  while (last > 0 && source[last] == destination[last] && shift[last] == 0) {
    inner *= source[last];
    --last;
  }
  source.resize(last + 1);
  destination.resize(last + 1);
  shift.resize(last + 1);
  source[last] *= inner;
  destination[last] *= inner;
  shift[last] *= inner;
  return {std::move(source), std::move(destination), std::move(shift)};
}

}  // namespace

template <Scalar T, MemorySpace Space>
EmbedOperator<T, Space>::EmbedOperator(Shape domain, Shape range, Shape shift, std::string name)
    : detail::TwoWayOperator<T, Space, EmbedWindow>(domain, range, std::move(name)) {
  const std::string& op = this->name();
  detail::check_shape(op, "the model shape", domain);
  detail::check_shape(op, "the data shape", range);
  if (range.size() != domain.size() || shift.size() != domain.size()) {
    throw InvalidArgument(op + ": the model shape " + to_string(domain) + ", the data shape " +
                          to_string(range) + " and the shift " + detail::list_text(shift) +
                          " must have the same number of axes");
  }
  Shape negated(shift.size());
  std::transform(shift.begin(), shift.end(), negated.begin(), [](Index s) { return -s; });
  this->forward_ = merged(domain, range, shift);
  this->adjoint_ = merged(range, domain, negated);
}

// out = alpha * window(in) + beta * out in one box kernel over the whole destination: inside
// the window alpha * source + beta * out, outside beta * out.
template <Scalar T, MemorySpace Space>
void EmbedOperator<T, Space>::apply(const EmbedWindow& window, T alpha, const T* in, T beta,
                                    T* out) const {
  const Shape source_strides = detail::strides_of(window.source);
  const std::size_t ndim = window.source.size();
  kernels::BoxAxpby box{window.destination, detail::strides_of(window.destination), source_strides,
                        Shape(ndim), Shape(ndim)};
  for (std::size_t k = 0; k < ndim; ++k) {
    box.in_first[k] = -window.shift[k];
    box.in_last[k] = window.source[k] - window.shift[k];
    box.in_offset += window.shift[k] * source_strides[k];
  }
  kernels::box_axpby(Space{}, box, alpha, in, beta, out);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Identity(const Shape& data, const Shape& model) {
  const std::string op = "Identity";
  detail::check_shape(op, "N (the data shape)", data);
  detail::check_shape(op, "M (the model shape)", model);
  if (data.size() != model.size()) {
    throw InvalidArgument(op + ": N " + to_string(data) + " and M " + to_string(model) +
                          " have different numbers of axes");
  }
  bool data_larger = false, model_larger = false;
  for (std::size_t k = 0; k < data.size(); ++k) {
    data_larger = data_larger || data[k] > model[k];
    model_larger = model_larger || model[k] > data[k];
  }
  if (data_larger && model_larger) {
    throw InvalidArgument(op + ": N " + to_string(data) + " and M " + to_string(model) +
                          " differ with some axes larger in N and others in M");
  }
  return LocalOperator<T, Space>::template make<EmbedOperator<T, Space>>(model, data,
                                                                         Shape(data.size(), 0), op);
}

template <Scalar T, MemorySpace Space>
LocalOperator<T, Space> Pad(const Shape& dims, const std::vector<PadWidth>& pad) {
  const std::string op = "Pad";
  detail::check_shape(op, "dims", dims);
  if (pad.size() != dims.size()) {
    throw ShapeMismatch(op + ": " + std::to_string(pad.size()) + " (before, after) pairs for the " +
                        std::to_string(dims.size()) + " axes of dims " + to_string(dims));
  }
  Shape padded(dims.size()), shift(dims.size());
  for (std::size_t k = 0; k < dims.size(); ++k) {
    if (pad[k].before < 0 || pad[k].after < 0) {
      throw InvalidArgument(op + ": padding must be non-negative, got (" +
                            std::to_string(pad[k].before) + ", " + std::to_string(pad[k].after) +
                            ") for axis " + std::to_string(k));
    }
    padded[k] = dims[k] + pad[k].before + pad[k].after;
    shift[k] = -pad[k].before;
  }
  return LocalOperator<T, Space>::template make<EmbedOperator<T, Space>>(dims, padded, shift, op);
}

DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_IDENTITY, )
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_PAD, )

}  // namespace distlops::local
