// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file npy_header.hpp
/// The header of NumPy's .npy format: parsing and formatting, without MPI (so that the parser
/// can be tested and fuzzed on its own). read_npy and write_npy (npy.hpp) are built on it.
///
/// A .npy file is the magic string `\x93NUMPY`, two bytes of format version (major, minor), the
/// header length (2 bytes little-endian for version 1.0, 4 bytes for 2.0 and 3.0), the header
/// and the raw data. The header is a Python dictionary literal such as
/// `{'descr': '<f8', 'fortran_order': False, 'shape': (3, 4), }`, padded with spaces and ended
/// by a newline. See numpy.lib.format for the specification.

#include <cstddef>
#include <span>
#include <string>
#include <vector>

#include "distlops/core/types.hpp"

namespace distlops::io {

/// The element types that .npy files of distlops may hold: little-endian IEEE floats and
/// complex numbers made of two of them (real part first).
enum class NpyDtype {
  float32,     ///< '<f4': float.
  float64,     ///< '<f8': double.
  complex64,   ///< '<c8': std::complex<float>.
  complex128,  ///< '<c16': std::complex<double>.
};

/// The NpyDtype of a scalar type of the library.
template <Scalar T>
constexpr NpyDtype npy_dtype_of() {
  if constexpr (std::is_same_v<T, float>) return NpyDtype::float32;
  if constexpr (std::is_same_v<T, double>) return NpyDtype::float64;
  if constexpr (std::is_same_v<T, std::complex<float>>) return NpyDtype::complex64;
  if constexpr (std::is_same_v<T, std::complex<double>>) return NpyDtype::complex128;
}

/// NumPy's descriptor string of a dtype as written in headers: "<f4", "<f8", "<c8", "<c16".
const char* npy_descr(NpyDtype dtype);
/// NumPy's name of a dtype: "float32", "float64", "complex64", "complex128".
const char* npy_dtype_name(NpyDtype dtype);
/// Bytes per element: 4, 8, 8, 16.
std::size_t npy_item_size(NpyDtype dtype);

/// What a .npy header says.
struct NpyHeader {
  /// Format version: 1.0, 2.0 or 3.0.
  int major_version = 1;
  /// Format version's minor number (0 for every version NumPy writes).
  int minor_version = 0;
  /// The element type the descriptor names.
  NpyDtype dtype = NpyDtype::float64;
  /// The descriptor as written in the file ("<f8", "=f8", "|f8" or "f8" all mean float64).
  std::string descr;
  /// The array's shape; empty for a 0-d array (shape `()`).
  Shape shape;
  /// True for column-major (Fortran-ordered) data.
  bool fortran_order = false;
  /// Where the data start: the size of magic string, version, header length and header.
  std::size_t data_offset = 0;

  /// Number of elements (1 for shape `()`).
  Index element_count() const { return distlops::element_count(shape); }
  /// Number of bytes of data that follow the header.
  Index data_bytes() const { return element_count() * static_cast<Index>(npy_item_size(dtype)); }
};

/// Largest header (magic string, version, length and dictionary) that parse_npy_header
/// accepts: 1 MiB. NumPy's own headers for the dtypes above are a few hundred bytes at most.
inline constexpr std::size_t npy_max_header_bytes = std::size_t{1} << 20;

/// The size of the complete header (the data offset) of a .npy file that starts with
/// `prefix`: needs the first 10 bytes (version 1.0) or 12 bytes (2.0 and 3.0); more bytes are
/// ignored. Raises IoError for a bad magic string, an unsupported version, a prefix too short
/// to hold the header length, or a header longer than npy_max_header_bytes.
std::size_t npy_header_size(std::span<const std::byte> prefix);

/// Parses the header at the start of `bytes` (the beginning of a .npy file; data after the
/// header may follow and are ignored). Accepts what NumPy's reader accepts for the dtypes
/// above: format versions 1.0, 2.0 and 3.0; the keys 'descr', 'fortran_order' and 'shape' in
/// any order; single or double quotes; any whitespace (spaces, tabs, newlines) between tokens;
/// a trailing comma in the dictionary and in the shape tuple; shapes such as `(3,)`, `()` and
/// `(2, 3)`; Python 2's `3L` integers in versions 1.0 and 2.0; any padding of whitespace after
/// the dictionary. It is stricter than NumPy in rejecting duplicate keys.
///
/// Raises IoError, with a message that names the problem and where it is, for: a bad magic
/// string; an unsupported version; a header shorter than its declared length (truncated
/// input); a header that is not such a dictionary (syntax errors, missing, unknown or
/// duplicate keys, a shape that is not a tuple of non-negative integers, a fortran_order that
/// is not True or False); an unsupported dtype (anything but little-endian float32, float64,
/// complex64 and complex128); a shape whose size in bytes exceeds 2^63 - 1. Never reads
/// outside `bytes`. A fortran_order of True is reported in the result, not rejected here.
NpyHeader parse_npy_header(std::span<const std::byte> bytes);

/// The complete header (magic string to newline) that NumPy's numpy.save writes for a C-order
/// array of `dtype` and `shape`, byte for byte: the dictionary with keys in sorted order, the
/// spare space NumPy leaves for growing the first axis, and padding so that the data start at
/// a multiple of 64 bytes. The version is the smallest that fits, as NumPy chooses it: 1.0
/// unless the header exceeds 65535 bytes, then 2.0.
std::vector<std::byte> make_npy_header(NpyDtype dtype, const Shape& shape,
                                       bool fortran_order = false);

}  // namespace distlops::io
