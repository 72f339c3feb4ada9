// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file vdot_sink.hpp
/// `VdotSink`: where an operator's fused apply (LinearOperatorBase::forward_vdot) adds this
/// rank's partial sums of x^H y while it writes y = A x. A solver that needs c^H A c (CG) thus
/// reads c once instead of twice; ScalarSlots (solvers/detail/scalar_slots.hpp) is the sink of
/// the solvers, which combines the partial sums over the ranks with the rest of its batch.

namespace distlops {

class Communicator;

/// Receives the local partial sums of x^H y, one per contiguous block of the vectors.
class VdotSink {
 public:
  virtual ~VdotSink() = default;
  /// Where the partial sum of a block adds: Re at [0] and, when imaginary(), Im at [1], in
  /// memory of the operator's space. `group` is the communicator over which the block's sums
  /// are completed (a layout's sub_communicator(); null when the block is complete on this
  /// rank: replicated layouts, local arrays). Every rank asks for its blocks' groups in the same
  /// order, whether it holds data or not, as the sink may answer with a collective later.
  virtual double* target(const Communicator* group) = 0;
  /// Whether the imaginary part of x^H y is wanted (CG needs only the real part).
  virtual bool imaginary() const = 0;
};

}  // namespace distlops
