#pragma once
/// \file embed.hpp
/// `local::EmbedOperator<T, Space>`: a shifted window between two N-d arrays (C order) of the
/// same number of axes, y[i] = x[i + shift] where i + shift lies inside x, and y[i] = 0
/// elsewhere (per axis; `shift` may be negative). Its adjoint is the window the other way,
/// x[j] = y[j - shift] where defined, 0 elsewhere. It is the operator object behind Identity
/// (zero shift: zero padding or truncation at the end of each axis) and Pad (shift = -before).
///
/// Rows are copied with the axpby kernel; trailing axes that both arrays span entirely merge
/// into longer rows (a square Identity is one axpby).

#include <string>

#include "distlops/core/instantiate.hpp"
#include "distlops/operators/local/accumulating_operator.hpp"

namespace distlops::local {

template <Scalar T, MemorySpace Space = Host>
class EmbedOperator final : public AccumulatingOperator<T, Space> {
 public:
  using Vector = typename AccumulatingOperator<T, Space>::Vector;

  /// `domain`, `range` and `shift` must have the same number of entries (InvalidArgument).
  EmbedOperator(Shape domain, Shape range, Shape shift, std::string name);

  void forward_add(T alpha, const Vector& x, T beta, Vector& y) const override;
  void adjoint_add(T alpha, const Vector& y, T beta, Vector& x) const override;

 private:
  /// One direction: destination[i] = source[i + shift], with the merged trailing axes.
  struct Window {
    Shape source;
    Shape destination;
    Shape shift;
  };
  void apply(const Window& window, T alpha, const T* in, T beta, T* out) const;

  Window forward_window_;
  Window adjoint_window_;
};

DISTLOPS_EXTERN_TEMPLATE_CLASS(EmbedOperator)

}  // namespace distlops::local
