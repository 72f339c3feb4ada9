#include "distlops/operators/derivative/band_rule.hpp"

#include <algorithm>
#include <map>

#include "distlops/core/error.hpp"

namespace distlops {

namespace {

template <class Select>
Index extreme_offset(const BandRule& rule, Select select) {
  bool any = false;
  Index result = 0;
  auto visit = [&](const StencilRow& row) {
    for (const StencilTap& tap : row) {
      result = any ? select(result, tap.offset) : tap.offset;
      any = true;
    }
  };
  visit(rule.interior);
  for (const StencilRow& row : rule.front_rows)
    visit(row);
  for (const StencilRow& row : rule.back_rows)
    visit(row);
  return result;
}

void require_length(Index n, Index minimum, const std::string& what) {
  if (n < minimum) {
    throw InvalidArgument(what + " needs at least " + std::to_string(minimum) +
                          " samples along its axis, got " + std::to_string(n));
  }
}

void require_sampling(double sampling) {
  if (!(sampling != 0.0) || sampling != sampling) {
    throw InvalidArgument("derivative: sampling must be non-zero, got " + std::to_string(sampling));
  }
}

}  // namespace

Index BandRule::min_offset() const {
  return extreme_offset(*this, [](Index a, Index b) { return std::min(a, b); });
}

Index BandRule::max_offset() const {
  return extreme_offset(*this, [](Index a, Index b) { return std::max(a, b); });
}

BandRule BandRule::scaled(double factor) const {
  BandRule result = *this;
  auto scale_row = [&](StencilRow& row) {
    for (StencilTap& tap : row)
      tap.weight *= factor;
  };
  scale_row(result.interior);
  for (StencilRow& row : result.front_rows)
    scale_row(row);
  for (StencilRow& row : result.back_rows)
    scale_row(row);
  return result;
}

BandRule BandRule::transposed() const {
  const Index low = min_offset(), high = max_offset();
  // Rows of the adjoint far enough from both ends only see interior rows of the original:
  // beyond this margin they follow the reflected interior stencil.
  const Index margin = static_cast<Index>(std::max(front_rows.size(), back_rows.size())) +
                       std::abs(low) + std::abs(high) + 1;
  auto adjoint_row = [&](Index j) {
    // x[j] collects w * y[g] from every row g = j - o that has a tap at offset o.
    std::map<Index, double> taps;
    for (Index o = low; o <= high; ++o) {
      const Index g = j - o;
      if (g < 0 || g >= length) continue;
      for (const StencilTap& tap : row(g)) {
        if (tap.offset == o) taps[-o] += tap.weight;
      }
    }
    StencilRow result;
    for (const auto& [offset, weight] : taps)
      result.push_back({offset, weight});
    return result;
  };
  BandRule result;
  result.length = length;
  for (const StencilTap& tap : interior)
    result.interior.push_back({-tap.offset, tap.weight});
  std::sort(result.interior.begin(), result.interior.end(),
            [](const StencilTap& a, const StencilTap& b) { return a.offset < b.offset; });
  if (length <= 2 * margin) {
    for (Index j = 0; j < length; ++j)
      result.front_rows.push_back(adjoint_row(j));
    return result;
  }
  for (Index j = 0; j < margin; ++j)
    result.front_rows.push_back(adjoint_row(j));
  for (Index j = length - margin; j < length; ++j)
    result.back_rows.push_back(adjoint_row(j));
  return result;
}

BandRule first_derivative_rule(Index n, DerivativeKind kind, int order, bool edge,
                               double sampling) {
  require_sampling(sampling);
  BandRule rule;
  rule.length = n;
  switch (kind) {
    case DerivativeKind::forward:
      require_length(n, 2, "FirstDerivative (forward)");
      rule.interior = {{0, -1.0}, {1, 1.0}};
      rule.back_rows = {{}};
      break;
    case DerivativeKind::backward:
      require_length(n, 2, "FirstDerivative (backward)");
      rule.interior = {{-1, -1.0}, {0, 1.0}};
      rule.front_rows = {{}};
      break;
    case DerivativeKind::centered:
      if (order == 3) {
        require_length(n, 3, "FirstDerivative (centered, order 3)");
        rule.interior = {{-1, -0.5}, {1, 0.5}};
        rule.front_rows = {edge ? StencilRow{{0, -1.0}, {1, 1.0}} : StencilRow{}};
        rule.back_rows = {edge ? StencilRow{{-1, -1.0}, {0, 1.0}} : StencilRow{}};
      } else if (order == 5) {
        require_length(n, 5, "FirstDerivative (centered, order 5)");
        rule.interior = {{-2, 1.0 / 12}, {-1, -2.0 / 3}, {1, 2.0 / 3}, {2, -1.0 / 12}};
        if (edge) {
          rule.front_rows = {{{0, -1.0}, {1, 1.0}}, {{-1, -0.5}, {1, 0.5}}};
          rule.back_rows = {{{-1, -0.5}, {1, 0.5}}, {{-1, -1.0}, {0, 1.0}}};
        } else {
          rule.front_rows = {{}, {}};
          rule.back_rows = {{}, {}};
        }
      } else {
        throw InvalidArgument(
            "FirstDerivative: order must be 3 or 5 for centered differences, got " +
            std::to_string(order));
      }
      break;
  }
  return rule.scaled(1.0 / sampling);
}

BandRule second_derivative_rule(Index n, DerivativeKind kind, bool edge, double sampling) {
  require_sampling(sampling);
  require_length(n, 3, std::string("SecondDerivative (") + to_string(kind) + ")");
  BandRule rule;
  rule.length = n;
  switch (kind) {
    case DerivativeKind::forward:
      rule.interior = {{0, 1.0}, {1, -2.0}, {2, 1.0}};
      rule.back_rows = {{}, {}};
      break;
    case DerivativeKind::backward:
      rule.interior = {{-2, 1.0}, {-1, -2.0}, {0, 1.0}};
      rule.front_rows = {{}, {}};
      break;
    case DerivativeKind::centered:
      rule.interior = {{-1, 1.0}, {0, -2.0}, {1, 1.0}};
      rule.front_rows = {edge ? StencilRow{{0, 1.0}, {1, -2.0}, {2, 1.0}} : StencilRow{}};
      rule.back_rows = {edge ? StencilRow{{-2, 1.0}, {-1, -2.0}, {0, 1.0}} : StencilRow{}};
      break;
  }
  return rule.scaled(1.0 / (sampling * sampling));
}

DerivativeKind derivative_kind(const std::string& name) {
  if (name == "forward") return DerivativeKind::forward;
  if (name == "backward") return DerivativeKind::backward;
  if (name == "centered") return DerivativeKind::centered;
  throw InvalidArgument("derivative: kind must be 'forward', 'backward' or 'centered', got '" +
                        name + "'");
}

const char* to_string(DerivativeKind kind) {
  switch (kind) {
    case DerivativeKind::forward:
      return "forward";
    case DerivativeKind::backward:
      return "backward";
    case DerivativeKind::centered:
      return "centered";
  }
  return "unknown";
}

}  // namespace distlops
