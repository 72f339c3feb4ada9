#pragma once
/// \file band_rule.hpp
/// `BandRule`: a banded matrix along one axis of length n, described row by row:
///
///   y[g] = sum over taps (o, w) of row(g): w * x[g + o]
///
/// where row(g) is `front_rows[g]` for the first rows, `back_rows[...]` for the last rows and
/// `interior` for every row in between. Finite-difference derivatives are band rules (PyLops'
/// formulas, edge rows included); the adjoint of a band rule is again a band rule
/// (`transposed`). Stencil operators apply sums of band rules along several axes in one pass.

#include <string>
#include <vector>

#include "distlops/core/types.hpp"
#include "distlops/operators/derivative_kind.hpp"

namespace distlops {

/// One term of a stencil row: the input at offset `offset` times `weight`.
struct StencilTap {
  Index offset = 0;
  double weight = 0.0;
  bool operator==(const StencilTap&) const = default;
};
using StencilRow = std::vector<StencilTap>;

struct BandRule {
  /// Length of the axis the rule is made for.
  Index length = 0;
  /// Taps of the rows between the front and back rows.
  StencilRow interior;
  /// Rows 0, 1, ... (an empty row is a zero row).
  std::vector<StencilRow> front_rows;
  /// The last rows, in order (back_rows.back() is row length - 1).
  std::vector<StencilRow> back_rows;

  /// The taps of row g (0 <= g < length).
  const StencilRow& row(Index g) const {
    if (g < static_cast<Index>(front_rows.size())) return front_rows[static_cast<std::size_t>(g)];
    const Index first_back = length - static_cast<Index>(back_rows.size());
    if (g >= first_back) return back_rows[static_cast<std::size_t>(g - first_back)];
    return interior;
  }
  bool is_interior(Index g) const {
    return g >= static_cast<Index>(front_rows.size()) &&
           g < length - static_cast<Index>(back_rows.size());
  }
  /// Smallest and largest offset of any row (0 when the rule has no taps).
  Index min_offset() const;
  Index max_offset() const;
  /// The rule of the adjoint: y[g] = sum w x[g + o] becomes x[j] = sum w y[j - o].
  BandRule transposed() const;
  /// Every weight multiplied by `factor`.
  BandRule scaled(double factor) const;
};

/// PyLops' first derivative along an axis of length n: forward/backward differences, or
/// centered differences of order 3 or 5 with optional one-sided `edge` rows; divided by
/// `sampling`. InvalidArgument for an unknown order or an axis too short for the stencil.
BandRule first_derivative_rule(Index n, DerivativeKind kind, int order, bool edge, double sampling);
/// PyLops' second derivative (forward, backward, centered with optional `edge` rows),
/// divided by sampling^2.
BandRule second_derivative_rule(Index n, DerivativeKind kind, bool edge, double sampling);

DerivativeKind derivative_kind(const std::string& name);
const char* to_string(DerivativeKind kind);

}  // namespace distlops
