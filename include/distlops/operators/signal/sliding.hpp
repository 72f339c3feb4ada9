// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file sliding.hpp
/// Windowed operators, PyLops' Sliding1D, Sliding2D and Patch2D with the windows distributed
/// over the ranks (PyLops-MPI's issue #98). A local operator `op` maps the model of one window
/// to the data of one window; the data of all windows, tapered, are summed where they overlap:
///     y = sum_w T_w (op x_w) placed at window w,       adjoint x_w = op^H (T_w y|_w).
///
/// Windows (PyLops' _slidingsteps): along an axis of n data samples, windows of `nwin` samples
/// start every nwin - nover samples, at 0, step, ... while they fit (starts <= n - nwin); data
/// samples after the last window are zero in the forward and ignored by the adjoint.
/// sliding_windows() gives the count, as PyLops' sliding1d_design.
///   Sliding1D: data (dimd), windows of nwin samples; model (nwins, nop), op: nop -> nwin.
///   Sliding2D: data (dimd0, dimd1), windows of nwin rows of full width; model
///              (nwins, nop0, nop1), op: nop0 * nop1 -> nwin * dimd1.
///   Patch2D:   data (dimd0, dimd1), windows nwin0 x nwin1; model (nwins0, nwins1, nop0, nop1),
///              op: nop0 * nop1 -> nwin0 * nwin1.
/// Tapers (tapers.hpp) of `nover` samples along each windowed axis; the first window along an
/// axis keeps 1 on its first nover samples, the last on its last nover samples (so the edges
/// of the data are not tapered); Patch2D's taper is the outer product of its two axes' tapers.
///
/// Distribution: the model is split along its first axis (the windows, or Patch2D's rows of
/// windows), by PyLops-MPI's rule or by `windows_per_rank`. The data are split along their
/// first axis to match: a rank owns the data rows from the start of its first window to the
/// start of the next rank's first window (the last rank holding windows owns the rest). Each
/// rank's windows reach nover rows past its rows, into the ranks after it: the forward sends
/// those sums to their owners, who add them; the adjoint fetches the rows. op.range()/domain()
/// may have any shapes with the window's element counts.
///
/// Differences from PyLops: a single window along an axis is not tapered (PyLops keeps the
/// taper on one of its sides); only one operator per window (not PyLops' operator of all
/// windows at once); the adjoint of a complex operator is exact (tapers are real). Errors,
/// InvalidArgument on every rank: nwin larger than the data, nover < 0 or nover >= nwin, a
/// taper longer than half a window, a model extent other than nwins * nop, an operator whose
/// sizes do not match the window, windows_per_rank of the wrong length or sum.

#include <optional>
#include <vector>

#include "distlops/core/buffer.hpp"
#include "distlops/core/instantiate.hpp"
#include "distlops/core/transport.hpp"
#include "distlops/operators/linear_operator.hpp"
#include "distlops/operators/signal/tapers.hpp"

namespace distlops {

/// Window starts along an axis of n samples (PyLops' _slidingsteps); InvalidArgument, named
/// `op`, for nwin > n, nwin < 1, nover < 0 or nover >= nwin.
std::vector<Index> sliding_windows(const std::string& op, Index n, Index nwin, Index nover);

/// The distributed windowed operator behind Sliding1D, Sliding2D and Patch2D: data of shape
/// (rows, columns), windows of `window` rows x columns starting at `row_starts` x
/// `column_starts`, distributed by rows of windows.
template <Scalar T, MemorySpace Space = Host>
class WindowedOperator final : public LinearOperatorBase<DistributedArray<T, Space>> {
 public:
  /// The library's own code: nothing to agree on after an apply.
  bool runs_user_code() const override { return false; }
  /// The vector type of domain and range.
  using Array = DistributedArray<T, Space>;
  /// The windows along one data axis.
  struct Axis {
    std::vector<Index> starts;  ///< window starts along the axis
    Index window = 0;           ///< samples per window
    Index overlap = 0;          ///< nover (tapered samples)
  };
  /// Collective over `comm` (the layouts are agreed on); the factories below check the
  /// arguments, on every rank alike, before they call it.
  WindowedOperator(LocalOperator<T, Space> op, const Communicator& comm, Shape model_shape,
                   Shape data_shape, Axis rows, Axis columns, Taper taper,
                   const std::vector<Index>& windows_per_rank, std::string name);

  /// y = sum_w T_w (op x_w) placed at window w. Collective: rows shared with later ranks are sent
  /// and added.
  void forward(const Array& x, Array& y) const override { forward_add(T(1), x, T(0), y); }
  /// x_w = op^H (T_w y|_w). Collective: rows held by later ranks are fetched.
  void adjoint(const Array& y, Array& x) const override { adjoint_add(T(1), y, T(0), x); }
  /// y = alpha sum_w T_w (op x_w) + beta y.
  void forward_add(T alpha, const Array& x, T beta, Array& y) const override;
  /// x = alpha [op^H (T_w y|_w)]_w + beta x.
  void adjoint_add(T alpha, const Array& y, T beta, Array& x) const override;

 private:
  struct Piece {  // rows [first, first + count) of the extended block, to or from `peer`
    int peer;
    Index first;
    Index count;
  };
  void exchange(bool forward) const;
  void window_box(Index window_row, Index window_column, const T* in, T* out, bool gather) const;

  LocalOperator<T, Space> op_;
  bool agree_failures_ = false;  // op runs user code: agree on its failures at every apply
  Axis rows_, columns_;
  Index columns_total_ = 0;               // data columns
  Index first_window_ = 0, windows_ = 0;  // this rank's rows of windows (global index, count)
  Index block_first_ = 0;                 // first data row of the extended block (global)
  Index own_rows_ = 0;       // data rows this rank owns (the head of the extended block)
  Index extended_rows_ = 0;  // rows of the extended block
  std::vector<Piece> sends_, receives_;  // forward direction; the adjoint swaps them
  Buffer<T, Space> tapers_;              // one window-sized taper per (row, column) position
  std::vector<Index> taper_of_;          // per local window: offset in tapers_, -1: none
  mutable Buffer<T, Space> extended_, window_, incoming_;
  KeptTransport<Space> transport_;
  Communicator comm_;
};

/// PyLops' Sliding1D: `op` on each window of `nwin` of the `dimd` data samples. The model has
/// `dim` = nwins * nop samples, seen as (nwins, nop). Collective over `comm`.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Sliding1D(const LocalOperator<T, Space>& op, const Communicator& comm,
                                   Index dim, Index dimd, Index nwin, Index nover,
                                   Taper taper = Taper::hanning,
                                   const std::vector<Index>& windows_per_rank = {});

/// PyLops' Sliding2D: windows of `nwin` rows of (dimsd[0], dimsd[1]) data; model dims
/// (nwins * nop0, nop1), seen as (nwins, nop0, nop1). Collective over `comm`.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Sliding2D(const LocalOperator<T, Space>& op, const Communicator& comm,
                                   const Shape& dims, const Shape& dimsd, Index nwin, Index nover,
                                   Taper taper = Taper::hanning,
                                   const std::vector<Index>& windows_per_rank = {});

/// PyLops' Patch2D: nwin[0] x nwin[1] patches of (dimsd[0], dimsd[1]) data overlapping by
/// nover; model dims (nwins0 * nop[0], nwins1 * nop[1]), seen as (nwins0, nwins1, nop0, nop1);
/// rows of patches are distributed. Collective over `comm`.
template <Scalar T, MemorySpace Space = Host>
LinearOperator<T, Space> Patch2D(const LocalOperator<T, Space>& op, const Communicator& comm,
                                 const Shape& dims, const Shape& dimsd, const Shape& nwin,
                                 const Shape& nover, const Shape& nop, Taper taper = Taper::hanning,
                                 const std::vector<Index>& windows_per_rank = {});

/// \cond
#define DISTLOPS_DETAIL_SLIDING(PREFIX, T, S)                                                    \
  PREFIX template LinearOperator<T, S> Sliding1D<T, S>(const LocalOperator<T, S>&,               \
                                                       const Communicator&, Index, Index, Index, \
                                                       Index, Taper, const std::vector<Index>&); \
  PREFIX template LinearOperator<T, S> Sliding2D<T, S>(                                          \
      const LocalOperator<T, S>&, const Communicator&, const Shape&, const Shape&, Index, Index, \
      Taper, const std::vector<Index>&);                                                         \
  PREFIX template LinearOperator<T, S> Patch2D<T, S>(                                            \
      const LocalOperator<T, S>&, const Communicator&, const Shape&, const Shape&, const Shape&, \
      const Shape&, const Shape&, Taper, const std::vector<Index>&);
DISTLOPS_FOR_EACH_SCALAR_AND_SPACE_ARG(DISTLOPS_DETAIL_SLIDING, extern)
/// \endcond
DISTLOPS_EXTERN_TEMPLATE_CLASS(WindowedOperator)

}  // namespace distlops
