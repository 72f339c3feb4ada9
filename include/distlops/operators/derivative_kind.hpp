// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file derivative_kind.hpp
/// Kinds of finite differences (PyLops' `kind`), shared by the local and distributed
/// derivative operators, and their PyLops names.

#include <string>

#include "distlops/core/detail/enum_names.hpp"
#include "distlops/core/error.hpp"

namespace distlops {

/// The finite-difference stencil of a derivative, PyLops' `kind` (stencil.hpp has every row).
enum class DerivativeKind {
  /// Samples at and after i: x[i+1] - x[i] for a first derivative.
  forward,
  /// Samples at and before i: x[i] - x[i-1] for a first derivative.
  backward,
  /// Samples around i: (x[i+1] - x[i-1]) / 2 for an order-3 first derivative.
  centered
};

/// PyLops' name of a kind: "forward", "backward" or "centered".
inline const char* to_string(DerivativeKind kind) {
  return detail::enum_name(kind, std::array{"forward", "backward", "centered"});
}

/// The kind of a PyLops name; InvalidArgument for any other name.
inline DerivativeKind derivative_kind(const std::string& name) {
  for (DerivativeKind kind :
       {DerivativeKind::forward, DerivativeKind::backward, DerivativeKind::centered}) {
    if (name == to_string(kind)) return kind;
  }
  throw InvalidArgument("derivative: kind must be 'forward', 'backward' or 'centered', got '" +
                        name + "'");
}

}  // namespace distlops
