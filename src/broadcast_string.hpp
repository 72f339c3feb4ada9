// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
// Root's string on every rank: its length, then its characters (two broadcasts).
#include <string>

#include "distlops/core/communicator.hpp"

namespace distlops::detail {

inline std::string broadcast_string(const Communicator& comm, std::string text, int root) {
  Index size = static_cast<Index>(text.size());
  comm.broadcast(&size, 1, root);
  text.resize(static_cast<std::size_t>(size));
  comm.broadcast(text.data(), size, root);
  return text;
}

}  // namespace distlops::detail
