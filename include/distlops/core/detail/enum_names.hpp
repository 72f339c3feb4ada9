// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file enum_names.hpp
/// What an enumeration's enumerators stand for, as tables: their names (for messages and for
/// parsing user input) or the constants of a library (MPI, NCCL, FFTW). A table lists one entry
/// per enumerator in declaration order (the enumerators 0, 1, ...).

#include <array>
#include <cstddef>
#include <optional>
#include <string_view>
#include <type_traits>

namespace distlops::detail {

/// The entry of `values` for `value`; `other` for a value outside the table.
template <class Enum, class V, std::size_t N>
constexpr V enum_value(Enum value, const std::array<V, N>& values, std::type_identity_t<V> other) {
  const auto index = static_cast<std::size_t>(value);
  return index < N ? values[index] : other;
}

/// The name of `value` in `names`; `other` for a value outside the table.
template <class Enum, std::size_t N>
constexpr const char* enum_name(Enum value, const std::array<const char*, N>& names,
                                const char* other = "unknown") {
  return enum_value(value, names, other);
}

/// The enumerator called `name` in `names`, if any.
template <class Enum, std::size_t N>
constexpr std::optional<Enum> enum_from_name(std::string_view name,
                                             const std::array<const char*, N>& names) {
  for (std::size_t i = 0; i < N; ++i) {
    if (name == names[i]) return static_cast<Enum>(i);
  }
  return std::nullopt;
}

}  // namespace distlops::detail
