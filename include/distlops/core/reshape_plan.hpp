// SPDX-License-Identifier: BSD-3-Clause
// Copyright (c) 2026 The distlops authors
#pragma once
/// \file reshape_plan.hpp
/// `ReshapePlan`: moves an array between any two layouts of the same global shape (nvmath-python's
/// Reshape, heFFTe's reshape3d): slab to slab along another axis, slab to box, box to box on
/// another grid or in other boxes, to or from BROADCAST. Planned once (which box of a rank's
/// block goes to which rank), executed any number of times, each time as one all-to-all through
/// a Transport (transport.hpp): over MPI on host memory one MPI_Alltoallw whose datatypes
/// describe the boxes in place (no packing copy), on device memory NCCL or host staging as the
/// transport decides. After the first execution for an element size, an execution allocates
/// nothing. DistributedArray::redistribute() runs one.

#include <cstddef>
#include <memory>

#include "distlops/core/layout.hpp"
#include "distlops/core/memory_space.hpp"
#include "distlops/core/transport.hpp"

namespace distlops {

/// The all-to-all that moves an array from a source layout to a destination layout of the same
/// global shape, computed once and executed any number of times.
class ReshapePlan {
 public:
  /// Both layouts must have the same global shape over congruent communicators; otherwise
  /// ShapeMismatch (the same on every rank, since every rank holds the same layouts). Masks are
  /// ignored: data move over the whole communicator. No communication.
  ReshapePlan(const Layout& source, const Layout& destination);

  /// The layout the data come from.
  const Layout& source() const { return source_; }
  /// The layout the data go to.
  const Layout& destination() const { return destination_; }

  /// Collective. `source_local` is this rank's block in the source layout, `destination_local`
  /// its block in the destination layout (host memory); they must not overlap.
  template <class T>
  void execute(Host, const T* source_local, T* destination_local) const {
    execute_bytes(host_transport_, sizeof(T), source_local, destination_local);
  }
  /// As execute(Host, ...), through `transport`, whose memory space the blocks live in. The
  /// transport's communicator must be congruent with the layouts'.
  template <class T>
  void execute(Transport& transport, const T* source_local, T* destination_local) const {
    execute_bytes(transport, sizeof(T), source_local, destination_local);
  }
  /// As execute(Host, ...), through the transport an operator keeps for blocks of Space.
  template <class T, MemorySpace Space>
  void execute(const KeptTransport<Space>& transport, const T* source_local,
               T* destination_local) const {
    execute_bytes(transport(source_.communicator()), sizeof(T), source_local, destination_local);
  }

  /// Bytes this rank sends to other ranks per execution.
  Index bytes_sent(std::size_t element_size) const;
  /// Bytes this rank receives from other ranks per execution.
  Index bytes_received(std::size_t element_size) const;
  /// This rank's send counts per rank in elements (the calling rank's own entry: what it
  /// copies locally), as an MPI_Alltoallv of the same data would take them.
  std::vector<Index> send_counts() const;
  /// This rank's receive counts per rank in elements (see send_counts()).
  std::vector<Index> receive_counts() const;

 private:
  void execute_bytes(Transport& transport, std::size_t element_size, const void* source,
                     void* destination) const;

  Layout source_;
  Layout destination_;
  bool local_only_ = false;  // every rank already holds its destination block
  Shape local_corner_;       // where that block starts in the source block
  Shape origin_;             // zeros
  BoxExchange exchange_;
  mutable std::unique_ptr<PreparedBoxExchange> prepared_;
  mutable MpiTransport host_transport_;
};

}  // namespace distlops
