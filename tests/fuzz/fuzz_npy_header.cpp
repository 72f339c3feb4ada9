// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
// libFuzzer target for the .npy header parser (no MPI). Any input must either parse or raise
// IoError: another exception, a crash or a sanitizer report is a bug. A header that parses must
// describe itself consistently, and the header formatted from it must parse to the same values.
#include <cstddef>
#include <cstdint>
#include <cstdlib>
#include <span>

#include "distlops/core/error.hpp"
#include "distlops/io/npy_header.hpp"

namespace {
void require(bool condition) {
  if (!condition) std::abort();
}
}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  const std::span<const std::byte> bytes(reinterpret_cast<const std::byte*>(data), size);
  distlops::io::NpyHeader header;
  try {
    header = distlops::io::parse_npy_header(bytes);
  } catch (const distlops::IoError&) {
    return 0;
  }
  require(header.data_offset <= size);
  require(header.data_offset == distlops::io::npy_header_size(bytes));
  require(header.major_version >= 1 && header.major_version <= 3 && header.minor_version == 0);
  require(header.data_bytes() >= 0);
  const std::vector<std::byte> formatted =
      distlops::io::make_npy_header(header.dtype, header.shape, header.fortran_order);
  if (formatted.size() <= distlops::io::npy_max_header_bytes) {
    const distlops::io::NpyHeader again = distlops::io::parse_npy_header(formatted);
    require(again.dtype == header.dtype);
    require(again.shape == header.shape);
    require(again.fortran_order == header.fortran_order);
    require(again.data_offset == formatted.size() && formatted.size() % 64 == 0);
  }
  return 0;
}
