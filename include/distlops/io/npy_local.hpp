// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file npy_local.hpp
/// Plain (not distributed) loading of a whole .npy file, for the parameters of operators:
/// matrices of MatrixMult, filters, wavelets, tapers. Every rank gets the complete array, in
/// C order, with its shape, as a std::vector or as an Eigen matrix or vector.
///
/// \code
///   auto wavelet = distlops::io::read_npy_local<double>("wavelet.npy", comm).vector();
///   auto a = distlops::io::read_npy_local<double>("A.npy", comm);    // a.shape, a.values
///   auto op = distlops::local::MatrixMult<double>(a.matrix());
/// \endcode
///
/// Two ways to read, chosen with NpyLocalOptions:
///   - one reader (the default): rank `root` reads the file and broadcasts shape and values,
///     so a shared file system sees one reader however many ranks there are;
///   - every rank reads its own copy: for files on node-local storage, or rank-specific
///     parameters (the paths may then differ between ranks).
///
/// Element types and dtypes are those of read_npy (npy.hpp: float32, float64, complex64,
/// complex128, no conversion); unlike read_npy, Fortran-ordered files are accepted and
/// reordered into C order (a whole array is in memory anyway). Failures raise the same
/// exception on every rank of the communicator (IoError for the file and its content,
/// InvalidArgument for bad arguments), never a hang: the reading rank's verdict is agreed on
/// before any rank goes on.

#include <filesystem>
#include <vector>

#include "distlops/core/communicator.hpp"
#include "distlops/core/eigen.hpp"
#include "distlops/core/types.hpp"

namespace distlops::io {

/// A whole array read from a .npy file (or a .npz member, npz.hpp).
template <Scalar T>
struct NpyArray {
  /// The file's shape (empty for a 0-d array).
  Shape shape;
  /// The elements in C order, whatever the file's order.
  std::vector<T> values;

  /// Number of elements.
  Index size() const { return static_cast<Index>(values.size()); }
  /// The elements as a column vector (C order).
  EigenVector<T> vector() const {
    return Eigen::Map<const EigenVector<T>>(values.data(), static_cast<Eigen::Index>(size()));
  }
  /// The array as a matrix with rows = extent of axis 0 and columns = the product of the
  /// other extents (the C-order reshape of numpy.reshape(a, (a.shape[0], -1))): a 2-d array
  /// as it is, a 1-d array as one column, a 0-d array as 1 x 1. Row-major, so that it is the
  /// values' own order (and MatrixMult takes it without reordering).
  EigenRowMajorMatrix<T> matrix() const {
    const Index rows = shape.empty() ? 1 : shape[0];
    const Index cols = rows == 0 ? 0 : size() / rows;
    return Eigen::Map<const EigenRowMajorMatrix<T>>(values.data(), static_cast<Eigen::Index>(rows),
                                                    static_cast<Eigen::Index>(cols));
  }
};

/// How read_npy_local and read_npz_local read.
struct NpyLocalOptions {
  /// False: rank `root` reads and broadcasts (every rank must pass the same path). True: every
  /// rank reads the file at its own path.
  bool every_rank = false;
  /// The reading rank when `every_rank` is false.
  int root = 0;
};

/// The whole .npy file at `path` on every rank of `comm`. Collective over `comm`.
///
/// Raises IoError on every rank when a reading rank cannot open or read the file, finds no
/// .npy content (see read_npy), an unsupported dtype or one other than T's, or less data than
/// the shape requires; InvalidArgument when `root` is not a rank of `comm` or, with one
/// reader, the paths differ between ranks. Bytes after the data are ignored, as NumPy does.
template <Scalar T>
NpyArray<T> read_npy_local(const std::filesystem::path& path, const Communicator& comm,
                           const NpyLocalOptions& options = {});

}  // namespace distlops::io
